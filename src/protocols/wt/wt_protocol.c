/* wt_protocol.c — write-through GPU coherence (QuickRelease §2.2/§3.2, GSI §4.2, gem5 GPU_VIPER style).
 *
 * The L1 holds clean copies only. Weak loads hit in the L1 or miss (merging into an open miss);
 * a miss first sends the line's buffered stores, so the L2 has them when the read arrives;
 * weak stores update a valid copy in place (byte-masked, no allocation on a write miss, U12)
 * and enter the write-combining store buffer, which drains when full, on a release and at
 * kernel end. Strong loads at GPU/system scope read around the L1 from the L2; strong stores
 * write through at once. Atomics are performed at the L2, after the line's buffered bytes, and
 * drop the L1 copy. A write to a line whose miss is outstanding closes the miss (U16): the fill
 * still answers the loads that were waiting, which came before the write, but is not cached,
 * and later loads wait for it and miss again, so they see the write. An acquire (ld.acquire,
 * fence, kernel start) invalidates the whole L1; a release (st.release, fence, kernel end)
 * drains the store buffer and waits until every write is performed at the L2. CTA scope needs nothing: the CTA's warps share the L1 and the store
 * buffer, and misses pick up the store buffer's bytes.
 */
#include "protocols/wt/wt.h"
#include "timing/memory_internal.h"

#define ROW PROTOCOL_ROW

static const protocol_transition wt_l1[] = {
    ROW(L1_I,  L1_LOAD,         L1_IV, L1_DRAIN_LINE, L1_OPEN_MISS),
    ROW(L1_IV, L1_LOAD,         L1_IV, L1_MERGE),
    ROW(L1_V,  L1_LOAD,         L1_V,  L1_HIT),

    ROW(L1_I,  L1_LOAD_STRONG,  L1_I,  L1_DRAIN_LINE, L1_READ_AROUND),
    ROW(L1_IV, L1_LOAD_STRONG,  L1_IV, L1_DRAIN_LINE, L1_READ_AROUND),
    ROW(L1_V,  L1_LOAD_STRONG,  L1_V,  L1_DRAIN_LINE, L1_READ_AROUND),

    ROW(L1_I,  L1_STORE,        L1_I,  L1_BUFFER_STORE),
    ROW(L1_IV, L1_STORE,        L1_I,  L1_CLOSE_MISS, L1_BUFFER_STORE),
    ROW(L1_V,  L1_STORE,        L1_V,  L1_UPDATE_LINE, L1_BUFFER_STORE),

    ROW(L1_I,  L1_STORE_STRONG, L1_I,  L1_WRITE_THROUGH),
    ROW(L1_IV, L1_STORE_STRONG, L1_I,  L1_CLOSE_MISS, L1_WRITE_THROUGH),
    ROW(L1_V,  L1_STORE_STRONG, L1_V,  L1_UPDATE_LINE, L1_WRITE_THROUGH),

    ROW(L1_I,  L1_ATOMIC,       L1_I,  L1_DRAIN_LINE, L1_SEND_ATOMIC),
    ROW(L1_IV, L1_ATOMIC,       L1_I,  L1_DRAIN_LINE, L1_CLOSE_MISS, L1_SEND_ATOMIC),
    ROW(L1_V,  L1_ATOMIC,       L1_I,  L1_DRAIN_LINE, L1_INVALIDATE_LINE, L1_SEND_ATOMIC),

    ROW(L1_V,  L1_REPLACE,       L1_I, L1_DROP_LINE),

    ROW(L1_IV, L1_FILL,          L1_V, L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IV, L1_FILL_UNCACHED, L1_I, L1_DELIVER_FILL),
    ROW(L1_I,  L1_FILL_UNCACHED, L1_I, L1_DELIVER_FILL),
};

/* An acquire (ld.acquire, fence, kernel start) at GPU or system scope invalidates the whole L1;
 * a release sends every buffered store (the engine's default). */
static void acquire_wt(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    l1_flash_invalidate(memory, cu);
}

static const protocol_hooks wt_hooks = {
    .acquire = acquire_wt,
};

const sc_protocol protocol_wt = {
    .name = "wt",
    .l1_table = wt_l1,
    .l1_table_size = sizeof wt_l1 / sizeof wt_l1[0],
    .hooks = &wt_hooks,
};
