/* qr.c — QuickRelease (Hechtman et al., digest ../shared/seeds/digests/000-quickrelease.md).
 *
 * Each CU splits its L1 into a read cache (rL1: the cache array, clean data, a written bit
 * kept as state VW) and a write-combining write cache (wL1: the store buffer, sized by
 * l1.write_cache_size, dirty bytes with a byte mask) whose blocks are named by a synchronisation
 * FIFO (S-FIFO1, l1.sync_fifo_entries; sync_fifo.c). The tables:
 *
 *  - A store puts its bytes in the wL1 and its line at the S-FIFO tail (§2.3); it never waits
 *    for the L2. An rL1 copy gets its written bit (V -> VW); a store during an outstanding fill
 *    closes the miss (U16), so the fill cannot hide the store. Before the row runs, the controller
 *    dequeues the S-FIFO head when the FIFO is full and frees a wL1 block when the wL1 is full;
 *    each evicted block goes through the line's WriteEvict row (its bytes leave for the L2 and
 *    its rL1 copy is invalidated, §2.9).
 *  - A load hits a V copy without looking at the wL1. Otherwise, if the wL1 holds the line, the
 *    controller raises LoadWriteHit (every requested byte is dirty: served from the wL1) or
 *    LoadWritePartial (the dirty bytes are written out first, then the line is read from the L2,
 *    on the same ordered path, §2.5 / U6). Strong loads (ld.acquire, ld.relaxed.gpu) are plain
 *    loads: QR's acquire is a no-op (§2.8), so no L1 is invalidated at acquire or kernel start.
 *  - A release (st.release, fence, kernel end) inserts a marker: the controller dequeues the
 *    S-FIFO ahead of it, writing out every wL1 block an entry names, and the wavefront waits for
 *    the acknowledgement, which arrives once every written-out block is performed at the L2 and
 *    its invalidations have reached every other CU (U5, option a: per-write acknowledgements).
 *    The store of a StRel (and any strong store) then goes through the wL1 and triggers a flush
 *    whose completion nobody waits for (FlushSyncFifo, §2.7 StRel).
 *  - A write or an atomic performed at the L2 broadcasts an invalidation of the line to every
 *    other CU's rL1 (broadcast_invalidations): an invalidated V/VW copy is dropped (the wL1
 *    keeps its dirty bytes), an outstanding fill is closed (U16).
 *  - An atomic writes out the line's wL1 block and drops the rL1 copy, then is performed at the
 *    L2 (the point of coherence, U7); it counts as an outstanding write until done, which makes
 *    a later release wait for it (the S-FIFO "write marker", U8).
 *
 * Simplifications (see the mechanism's report): the write-back L2 is the point of coherence, as
 * for wt and nol1, so the wL2/S-FIFO2 and wL3/S-FIFO3 levels are not modelled (a block written
 * out of a wL1 is performed at the L2 bank and invalidates the rL1s there, as a wL2 eviction
 * would); while a release waits, the CU holds back the other wavefronts' stores (as for every
 * protocol), so every S-FIFO entry is ahead of the marker and the marker drains the whole FIFO.
 */
#include "protocols/protocol.h"

#define ROW(s, e, next, ...) {s, e, {__VA_ARGS__}, next}

static const protocol_transition qr_l1[] = {
    ROW(L1_I,  L1_LOAD,               L1_IV, L1_OPEN_MISS),
    ROW(L1_IV, L1_LOAD,               L1_IV, L1_MERGE),
    ROW(L1_V,  L1_LOAD,               L1_V,  L1_HIT),
    ROW(L1_I,  L1_LOAD_STRONG,        L1_IV, L1_OPEN_MISS),
    ROW(L1_IV, L1_LOAD_STRONG,        L1_IV, L1_MERGE),
    ROW(L1_V,  L1_LOAD_STRONG,        L1_V,  L1_HIT),

    ROW(L1_I,  L1_LOAD_WRITE_HIT,     L1_I,  L1_HIT_WRITE_CACHE),
    ROW(L1_VW, L1_LOAD_WRITE_HIT,     L1_VW, L1_HIT_WRITE_CACHE),
    ROW(L1_I,  L1_LOAD_WRITE_PARTIAL, L1_IV, L1_DRAIN_LINE, L1_OPEN_MISS),
    ROW(L1_VW, L1_LOAD_WRITE_PARTIAL, L1_IV, L1_DRAIN_LINE, L1_INVALIDATE_LINE, L1_OPEN_MISS),

    ROW(L1_I,  L1_STORE,              L1_I,  L1_WRITE_COMBINE),
    ROW(L1_IV, L1_STORE,              L1_I,  L1_CLOSE_MISS, L1_WRITE_COMBINE),
    ROW(L1_V,  L1_STORE,              L1_VW, L1_WRITE_COMBINE),
    ROW(L1_VW, L1_STORE,              L1_VW, L1_WRITE_COMBINE),

    ROW(L1_I,  L1_STORE_STRONG,       L1_I,  L1_WRITE_COMBINE, L1_FLUSH_SYNC_FIFO),
    ROW(L1_IV, L1_STORE_STRONG,       L1_I,  L1_CLOSE_MISS, L1_WRITE_COMBINE, L1_FLUSH_SYNC_FIFO),
    ROW(L1_V,  L1_STORE_STRONG,       L1_I,  L1_INVALIDATE_LINE, L1_WRITE_COMBINE, L1_FLUSH_SYNC_FIFO),
    ROW(L1_VW, L1_STORE_STRONG,       L1_I,  L1_WRITE_COMBINE, L1_FLUSH_SYNC_FIFO),

    ROW(L1_I,  L1_ATOMIC,             L1_I,  L1_DRAIN_LINE, L1_SEND_ATOMIC),
    ROW(L1_IV, L1_ATOMIC,             L1_I,  L1_CLOSE_MISS, L1_SEND_ATOMIC),
    ROW(L1_V,  L1_ATOMIC,             L1_I,  L1_INVALIDATE_LINE, L1_SEND_ATOMIC),
    ROW(L1_VW, L1_ATOMIC,             L1_I,  L1_DRAIN_LINE, L1_INVALIDATE_LINE, L1_SEND_ATOMIC),

    ROW(L1_I,  L1_WRITE_EVICT,        L1_I,  L1_DRAIN_LINE),
    ROW(L1_VW, L1_WRITE_EVICT,        L1_I,  L1_DRAIN_LINE, L1_INVALIDATE_LINE),

    ROW(L1_V,  L1_REPLACE,            L1_I,  L1_DROP_LINE),
    ROW(L1_VW, L1_REPLACE,            L1_I,  L1_DROP_LINE),

    ROW(L1_I,  L1_INV,                L1_I,  L1_NONE),
    ROW(L1_IV, L1_INV,                L1_I,  L1_CLOSE_MISS),
    ROW(L1_V,  L1_INV,                L1_I,  L1_INVALIDATE_LINE),
    ROW(L1_VW, L1_INV,                L1_I,  L1_INVALIDATE_LINE),

    ROW(L1_IV, L1_FILL,               L1_V,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IV, L1_FILL_UNCACHED,      L1_I,  L1_DELIVER_FILL),
    ROW(L1_I,  L1_FILL_UNCACHED,      L1_I,  L1_DELIVER_FILL),
};

const sc_protocol protocol_qr = {
    .name = "qr",
    .l1_table = qr_l1,
    .l1_table_size = sizeof qr_l1 / sizeof qr_l1[0],
    .sync_fifo = true,
    .broadcast_invalidations = true,
};
