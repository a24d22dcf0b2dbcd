/* qr_protocol.c — QuickRelease (Hechtman et al., digest ../shared/seeds/digests/000-quickrelease.md).
 *
 * Every GPU cache level is split into a read cache and a write-combining write cache whose blocks
 * are named by a synchronisation FIFO (S-FIFO). Per CU: the rL1 (the cache array, clean data, a
 * written bit kept as state VW) and the wL1 (the store buffer, l1.write_cache_size, dirty bytes
 * with a byte mask) with S-FIFO1 (l1.sync_fifo_entries; sync_fifo.c). Below it, in
 * qr_write_path.c: each L2 bank's slice of the wL2 with S-FIFO2 (l2.write_cache_size and
 * l2.sync_fifo_entries split over the banks) beside the rL2 (the L2 array), and the memory-side
 * wL3 with S-FIFO3 (l3.write_cache_size, l3.sync_fifo_entries). The L1 table below covers the
 * rL1/wL1 level; step by step:
 *
 *  1. A store puts its bytes in the wL1 and its line at the S-FIFO1 tail (§2.3); it never waits
 *     for an acknowledgement. An rL1 copy gets its written bit (V -> VW); a store during an
 *     outstanding fill closes the miss (U16), so the fill cannot hide the store. Before the row
 *     runs, the controller dequeues the S-FIFO1 head when the FIFO is full and frees a wL1 block
 *     when the wL1 is full; each evicted block goes through the line's WriteEvict row (its bytes
 *     leave for the L2 bank, its rL1 copy is invalidated, §2.9). If such a block is bound for a
 *     bank that refuses writes (S-FIFO back-pressure, step 5), the store is refused and retried.
 *  2. At the bank the block merges into the wL2 slice and its line joins S-FIFO2; the rL2 is not
 *     updated and no rL1 is invalidated yet. Only a wL2 eviction (replacement, full S-FIFO2,
 *     release marker, a read or atomic below) invalidates the rL2 copy, broadcasts an
 *     invalidation to every rL1 (an invalidated V/VW copy is dropped, the wL1 keeps its bytes;
 *     an outstanding fill is closed, U16) and sends the bytes to the wL3; a wL3 eviction writes
 *     them to memory (and would invalidate the CPU cluster).
 *  3. A load hits a V copy without looking at the wL1. Otherwise, if the wL1 holds the line, the
 *     controller raises LoadWriteHit (every requested byte is dirty: served from the wL1) or
 *     LoadWritePartial (the dirty bytes are written out first, then the line is read from the L2
 *     on the same ordered path, §2.5 / U6). At the bank the read checks the wL2 the same way
 *     (whole line dirty: served; partial: written out), then the rL2, then memory, whose data
 *     comes with the wL3's dirty bytes laid over it. Strong loads (ld.acquire, ld.relaxed.gpu)
 *     are plain loads: QR's acquire is a no-op (§2.8), so no L1 is invalidated at acquire or
 *     kernel start.
 *  4. A release (st.release, fence, a wavefront's exit, kernel end) inserts a marker: the
 *     controller dequeues S-FIFO1 ahead of it, writing out every wL1 block an entry names, and
 *     sends a batch of release markers, one to every L2 bank, behind its write-outs. A bank
 *     holds the marker while a write or atomic of its CU waits there for an rL2 fill, so the
 *     marker never overtakes one. Each bank's slice drains S-FIFO2, the marker moves to the wL3, which drains S-FIFO3, and the bank
 *     acknowledges once the marker has reached the head of the wL3 and every rL1 invalidation
 *     the bank sent has arrived (U4, U5).
 *     The wavefront waits for every bank's acknowledgement of its batch (and of the batches
 *     before it); the other wavefronts of the CU go on, their stores entering the wL1 and
 *     S-FIFO1 behind the marker (the warp_release hook). An exiting wavefront does not wait for
 *     its marker (U9); the kernel ends once every batch is acknowledged. The store of a StRel (and any strong
 *     store) then goes through the wL1 and triggers the same flush with flush markers nobody
 *     waits for (FlushSyncFifo, §2.7 StRel); the next release's markers follow them.
 *  5. Back-pressure: when S-FIFO3 is full with its head dirty and memory takes no write, a bank
 *     whose S-FIFO2 head must leave stalls its write and refuses further write-outs (step 1).
 *  6. An atomic writes out the line's wL1 block and drops the rL1 copy; at the bank the line's
 *     wL2 and wL3 blocks are written out first, then the atomic is forwarded to the point of
 *     system coherence (§2.6, U7): it is performed on the rL2's clean copy of the line and its
 *     result written through to memory, so the rL2 stays read-only (S-INV2), as WT's atomics
 *     are. It broadcasts an invalidation to the other CUs' rL1s (qr_atomic_performed): the paper
 *     invalidates rL1s only on wL2 evictions and leaves how other rL1 copies of an atomic's line
 *     go stale open, and without it a load after an acquire could read an older copy. A marker
 *     batch sent after it is acknowledged only once it is performed (the S-FIFO "write marker",
 *     U8: qr_write_path.c step 4).
 *
 * Simplifications that remain (see qr_write_path.c for the lower levels): blocks move between
 * levels at once, only marker drains take time on each level's eviction port; a read the wL3
 * covers still reads DRAM; an atomic is performed at the L2 bank on the line as memory holds it,
 * without the trip on to the directory (as WT's); the CPU cluster is not modelled, so a wL3
 * eviction only counts (qr_wl3_evictions) where it would invalidate CPU copies.
 */
#include "protocols/qr/qr.h"

#include <stddef.h>

#include "protocols/qr/qr_units.h"

#define ROW PROTOCOL_ROW

static const protocol_transition qr_l1[] = {
    ROW(L1_I,  L1_LOAD,               L1_IV, L1_OPEN_MISS),
    ROW(L1_IV, L1_LOAD,               L1_IV, L1_MERGE),
    ROW(L1_V,  L1_LOAD,               L1_V,  L1_HIT),
    ROW(L1_I,  L1_LOAD_STRONG,        L1_IV, L1_OPEN_MISS),
    ROW(L1_IV, L1_LOAD_STRONG,        L1_IV, L1_MERGE),
    ROW(L1_V,  L1_LOAD_STRONG,        L1_V,  L1_HIT),

    ROW(L1_I,  QR_LOAD_WRITE_HIT,     L1_I,  QR_HIT_WRITE_CACHE),
    ROW(QR_VW, QR_LOAD_WRITE_HIT,     QR_VW, QR_HIT_WRITE_CACHE),
    ROW(L1_I,  QR_LOAD_WRITE_PARTIAL, L1_IV, L1_DRAIN_LINE, L1_OPEN_MISS),
    ROW(QR_VW, QR_LOAD_WRITE_PARTIAL, L1_IV, L1_DRAIN_LINE, L1_INVALIDATE_LINE, L1_OPEN_MISS),

    ROW(L1_I,  L1_STORE,              L1_I,  QR_WRITE_COMBINE),
    ROW(L1_IV, L1_STORE,              L1_I,  L1_CLOSE_MISS, QR_WRITE_COMBINE),
    ROW(L1_V,  L1_STORE,              QR_VW, QR_WRITE_COMBINE),
    ROW(QR_VW, L1_STORE,              QR_VW, QR_WRITE_COMBINE),

    ROW(L1_I,  L1_STORE_STRONG,       L1_I,  QR_WRITE_COMBINE, QR_FLUSH_SYNC_FIFO),
    ROW(L1_IV, L1_STORE_STRONG,       L1_I,  L1_CLOSE_MISS, QR_WRITE_COMBINE, QR_FLUSH_SYNC_FIFO),
    ROW(L1_V,  L1_STORE_STRONG,       L1_I,  L1_INVALIDATE_LINE, QR_WRITE_COMBINE, QR_FLUSH_SYNC_FIFO),
    ROW(QR_VW, L1_STORE_STRONG,       L1_I,  QR_WRITE_COMBINE, QR_FLUSH_SYNC_FIFO),

    ROW(L1_I,  L1_ATOMIC,             L1_I,  L1_DRAIN_LINE, L1_SEND_ATOMIC),
    ROW(L1_IV, L1_ATOMIC,             L1_I,  L1_CLOSE_MISS, L1_SEND_ATOMIC),
    ROW(L1_V,  L1_ATOMIC,             L1_I,  L1_INVALIDATE_LINE, L1_SEND_ATOMIC),
    ROW(QR_VW, L1_ATOMIC,             L1_I,  L1_DRAIN_LINE, L1_INVALIDATE_LINE, L1_SEND_ATOMIC),

    ROW(L1_I,  QR_WRITE_EVICT,        L1_I,  L1_DRAIN_LINE),
    ROW(QR_VW, QR_WRITE_EVICT,        L1_I,  L1_DRAIN_LINE, L1_INVALIDATE_LINE),

    ROW(L1_V,  L1_REPLACE,            L1_I,  L1_DROP_LINE),
    ROW(QR_VW, L1_REPLACE,            L1_I,  L1_DROP_LINE),

    ROW(L1_I,  L1_INV,                L1_I,  L1_NONE),
    ROW(L1_IV, L1_INV,                L1_I,  L1_CLOSE_MISS),
    ROW(L1_V,  L1_INV,                L1_I,  L1_INVALIDATE_LINE),
    ROW(QR_VW, L1_INV,                L1_I,  L1_INVALIDATE_LINE),

    ROW(L1_IV, L1_FILL,               L1_V,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IV, L1_FILL_UNCACHED,      L1_I,  L1_DELIVER_FILL),
    ROW(L1_I,  L1_FILL_UNCACHED,      L1_I,  L1_DELIVER_FILL),
};

/* The wL1/S-FIFO1 at each L1, the wL2 slices and wL3 below it, release markers, and an rL1
 * invalidation broadcast for every atomic performed at the L2. The acquire is a plain load: the
 * rL1 keeps its lines (no acquire hook). */
static void build_qr(memory_system *memory)
{
    qr_l1_build(memory);
    qr_write_path_build(memory);
}

static void destroy_qr(memory_system *memory)
{
    qr_l1_destroy(memory);
    qr_write_path_destroy(memory);
}

/* A host write (§2.10): the directory invalidates the rL2 copy (memory_host_access dropped the
 * L2 lines already), which invalidates the matching rL1 lines, and only those. The rL1 holds
 * clean data only (S-INV2), so a host read needs nothing; the write caches are drained at kernel
 * end and are never invalidated. */
static void host_access_qr(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    memory_host_write_drop_l1s(memory, start, end, is_write, true);
}

static const protocol_hooks qr_hooks = {
    .load_config = qr_load_config,
    .build = build_qr,
    .destroy = destroy_qr,
    .release = qr_l1_release,
    .warp_release = qr_l1_warp_release,
    .warp_exit = qr_l1_warp_exit,
    .cta_barrier_release = qr_l1_cta_barrier_release,
    .store_buffer_full = qr_l1_store_buffer_full,
    .write_sent = qr_l1_write_sent,
    .l1_before_access = qr_l1_before_access,
    .l1_action = qr_l1_action,
    .l1_message = qr_l1_message,
    .bank_receive = qr_bank_receive,
    .atomic_performed = qr_atomic_performed,
    .fill_data = qr_overlay_memory_side,
    .fill_must_retake = qr_bank_must_retake,
    .handle_event = qr_handle_event,
    .host_access = host_access_qr,
};

#define COUNT(name, unit, field) {name, unit, offsetof(qr_stats, field), PROTOCOL_COUNTER_TOTAL}

static const protocol_counter qr_counters[] = {
    COUNT("qr_wl1_read_hits", NULL, write_cache_read_hits),
    COUNT("qr_sfifo_dequeues", NULL, sync_fifo_dequeues),
    COUNT("qr_sfifo_full_dequeues", NULL, sync_fifo_full_dequeues),
    COUNT("qr_release_flushes", NULL, release_flushes),
    COUNT("qr_store_flushes", NULL, store_flushes),
    COUNT("qr_invalidations_broadcast", NULL, invalidations_broadcast),
    COUNT("qr_wl2_evictions", NULL, wl2_evictions),
    COUNT("qr_wl3_evictions", NULL, wl3_evictions),
    COUNT("qr_wl2_read_hits", NULL, wl2_read_hits),
    COUNT("qr_sfifo2_full_dequeues", NULL, sync_fifo2_full_dequeues),
    COUNT("qr_sfifo3_full_dequeues", NULL, sync_fifo3_full_dequeues),
    COUNT("qr_wl2_refused_writes", "cycles", wl2_refused_writes),
    COUNT("qr_wl1_refused_stores", NULL, wl1_refused_stores),
    COUNT("qr_wl2_drain_waits", "cycles", wl2_drain_waits),
    COUNT("qr_wl3_drain_waits", "cycles", wl3_drain_waits),
    COUNT("qr_write_out_waits", "cycles", write_out_waits),
    COUNT("qr_markers_held", NULL, markers_held),
    COUNT("qr_releases_acknowledged", NULL, release_markers_acked),
    {"qr_release_marker_cycles_mean", "cycles", offsetof(qr_stats, release_marker_cycles),
     offsetof(qr_stats, release_markers_acked)},
};

static const protocol_own_state qr_states[] = {{"VW", true}};
static const char *const qr_events[] = {"LoadWriteHit", "LoadWritePartial", "WriteEvict"};
static const protocol_own_action qr_actions[] = {
    {"write_combine", false}, {"flush_sync_fifo", false}, {"hit_write_cache", false},
};
/* name, carries a line, a response at the bank, coherence traffic to a CU, NoC traffic class (the
 * release's markers and their acknowledgements are control tied to no single access: REQ) */
static const protocol_own_message qr_messages[] = {
    {"ReleaseMarker", false, false, false, NOC_TRAFFIC_REQ},
    {"FlushMarker", false, false, false, NOC_TRAFFIC_REQ},
    {"ReleaseAck", false, false, false, NOC_TRAFFIC_REQ},
};

const sc_protocol protocol_qr = {
    .name = "qr",
    .l1_table = qr_l1,
    .l1_table_size = sizeof qr_l1 / sizeof qr_l1[0],
    .own_states = qr_states,
    .own_state_count = sizeof qr_states / sizeof qr_states[0],
    .own_events = qr_events,
    .own_event_count = sizeof qr_events / sizeof qr_events[0],
    .own_actions = qr_actions,
    .own_action_count = sizeof qr_actions / sizeof qr_actions[0],
    .own_messages = qr_messages,
    .own_message_count = sizeof qr_messages / sizeof qr_messages[0],
    .hooks = &qr_hooks,
    .counters = qr_counters,
    .counter_count = sizeof qr_counters / sizeof qr_counters[0],
};
