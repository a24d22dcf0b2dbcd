/* qr_write_path.c — QuickRelease's write path below the wL1 (digest 000 §2.4-§2.9): each L2 bank's
 * slice of the wL2 with its S-FIFO2, the memory-side wL3 with its S-FIFO3, release markers level by
 * level, and the read and atomic checks that keep loads value-accurate. Both levels are
 * write_cache_levels (protocols/common/write_cache_level.h); the wL1 is the CU's store buffer
 * (qr_l1.c).
 *
 * Why per-bank slices: the L2 is address-interleaved over its banks, so a line's wL2 block lives in
 * the bank that holds its rL2 line and a read checks both with no extra hop; l2.write_cache_size and
 * l2.sync_fifo_entries are split evenly over the banks (qr_config.c). A release marker visits
 * every slice, since the CU's write-outs went to many banks. The wL3 is one structure, as the
 * memory side (directory, memory-side L3, DRAM controller) is.
 *
 * Step by step:
 *  1. A wL1 block arrives at its bank (MSG_WRITE): its dirty bytes and mask merge into the wL2 slice
 *     (allocated without a fetch) and its line joins S-FIFO2. The rL2 (the bank's array) is not
 *     updated and no rL1 is invalidated; the write gets no acknowledgement (§2.3 step 5).
 *  2. A wL2 eviction (replacement, S-FIFO2 head dequeued because full, a marker's drain, or a demand
 *     below) invalidates the bank's rL2 copy and broadcasts an invalidation to every rL1 (but that
 *     of a demand's requester, whose answer follows the eviction on the same path), then
 *     sends the block to the wL3, which merges it and enqueues its line in S-FIFO3.
 *  3. A wL3 eviction (replacement, S-FIFO3 full, a marker's drain, a demand) writes the dirty bytes
 *     to memory in wl3_evicted, the one place QR's writes leave the GPU (the device image now,
 *     a timed DRAM write), which is also where the stateless directory invalidates the CPU cluster.
 *  4. A release marker (QR_MSG_RELEASE_MARKER) follows the CU's write-outs to each bank on the same
 *     ordered path (the NoC keeps per-pair order, the bank queue keeps arrival order), and the
 *     bank keeps that order: while a write or atomic of the marker's CU waits in an rL2 MSHR for its
 *     line's fill (steps 5, 6), the bank holds the CU's markers (qr_bank_cu) and puts them back at the head
 *     of its queue once the wL2 has taken (the rL2 performed) the last of them. Otherwise the marker would drain a
 *     wL2 without that write, the release would be acknowledged with no rL1 invalidation sent for
 *     the line, and an rL1 fill served by that fill (old data) could still be cached, or a later
 *     load merge into it, after the next lock holder acquired. The marker then waits at the slice
 *     until S-FIFO2 has dequeued every entry it held when the marker arrived (drain_step): the
 *     slice's eviction port writes one block per GPU cycle to the wL3, and only when the wL3 can
 *     take it (step 7). Once through, the marker reaches the wL3 directory.latency cycles later
 *     and waits there, in arrival order with the other banks' markers, until S-FIFO3 has dequeued
 *     every entry it held then: the wL3's eviction port writes one block per GPU cycle to memory,
 *     and only while memory's write queue for the block's channel has room. Once through, the
 *     marker comes back to the bank directory.latency cycles later. The acknowledgement
 *     (QR_MSG_RELEASE_ACK) then leaves for the CU, taken no earlier than the last rL1 invalidation
 *     the bank has sent (U5), so no rL1 still holds data older than the release. A flush marker
 *     (QR_MSG_FLUSH_MARKER, a StRel's store) drains the same way without an acknowledgement.
 *  5. A read (an L1 fill) checks the wL2 first (§2.5): a block whose dirty bytes cover the whole
 *     line serves it; a partial block is written out (step 2) and the read goes on to the rL2 and,
 *     on a miss, to memory, whose data arrives with the wL3's dirty bytes of the line laid over it
 *     (qr_overlay_memory_side). A read that waited for an rL2 fill while the wL2 took a block of
 *     its line is taken afresh (as is an atomic, step 6, when the wL3 holds one). Order: a write
 *     arriving while the line's rL2 fill is outstanding waits in the fill's MSHR behind the reads
 *     ahead of it, which the fill serves; the write and everything behind it are then taken afresh,
 *     so the wL2 takes the write and later reads see it (and the CU's markers, step 4, follow it).
 *  6. An atomic writes out the line's wL2 block, then its wL3 block, then is forwarded to the point
 *     of coherence (U7): the rL2 performs it on its clean copy and writes the result through to
 *     memory (the L2's write-through policy, which only atomics reach), and broadcasts rL1
 *     invalidations as a wL2 eviction would.
 *  7. Back-pressure: a level takes a block only when every block that taking it pushes out (its
 *     S-FIFO head when full, its set's oldest block when the set is full) can go on: the wL3's to
 *     memory, whose write queue for the block's channel must have room (memory_accepts_write), as
 *     for every mechanism's writes to memory; a wL2 slice's to the wL3 (wl3_takes). A write the
 *     slice cannot take waits at the head of the bank queue (the bank stalls) and the bank refuses
 *     write-outs, so a store whose wL1 must evict a block to that bank is refused (GSI
 *     memory-structural, store buffer full); a read or atomic that must write a block out first
 *     (steps 5 and 6) waits at the head of the bank queue too.
 *
 * Simplifications: a block moves between levels at the time of its eviction (only marker drains
 * take time, on each level's eviction port); a read whose bytes the wL3 covers still reads DRAM
 * (the overlay makes it value-correct); when two blocks a take pushes out go to the same DRAM
 * channel, one free write-queue slot lets both go. */
#include "protocols/qr/qr_units.h"

#include <stdlib.h>
#include <string.h>

typedef struct eviction_context {
    memory_system *memory;
    unsigned bank;        /* the wL2 slice's bank */
    unsigned requester;   /* a demand eviction's CU, whose own answer follows the eviction (no
                             invalidation needed), or MEMORY_CU_NONE */
    sc_time now;
} eviction_context;

static sc_time cycles(const memory_system *memory, uint64_t count)
{
    return sc_clock_span(memory->config.gpu_clock, count);
}

/* ---- the wL3 ---- */

static void wl3_evicted(void *context, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                        write_eviction_cause cause)
{
    (void)cause;
    eviction_context *c = context;
    qr_stats_of(c->memory)->wl3_evictions++;
    memory_backing_write(c->memory, line_address, data, mask, c->now);   /* drops the CPU copy too */
}

static void wl3_take(memory_system *memory, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                     sc_time now)
{
    eviction_context context = {memory, 0, MEMORY_CU_NONE, now};
    if (write_cache_level_take(qr_memory_of(memory)->wl3, line_address, data, mask, wl3_evicted, &context))
        qr_stats_of(memory)->sync_fifo3_full_dequeues++;
}

/* Step 7: whether the wL3 takes the block of `line_address` now, without pushing out a block that
 * memory's write queue would not take. */
static bool wl3_takes(memory_system *memory, uint64_t line_address)
{
    uint64_t victims[2];
    unsigned count = write_cache_level_take_victims(qr_memory_of(memory)->wl3, line_address, victims);
    for (unsigned v = 0; v < count; v++)
        if (!memory_accepts_write(memory, victims[v]))
            return false;
    return true;
}

/* Step 7: whether bank `bank`'s wL2 slice takes the block of bank-local `local` now, without
 * pushing out a block that the wL3 would not take. */
static bool wl2_takes(memory_system *memory, unsigned bank, uint64_t local)
{
    uint64_t victims[2];
    unsigned count = write_cache_level_take_victims(qr_bank_of(memory, bank)->wl2, local, victims);
    for (unsigned v = 0; v < count; v++)
        if (!wl3_takes(memory, memory_bank_global_address(memory, bank, victims[v])))
            return false;
    return true;
}

void qr_overlay_memory_side(memory_system *memory, uint64_t line_address, uint8_t *data)
{
    const store_buffer_entry *block = write_cache_level_find(qr_memory_of(memory)->wl3, line_address);
    if (block)
        byte_mask_copy(data, block->data, &block->mask, memory->config.line_bytes);
}

/* ---- rL1 invalidations ---- */

/* Every L1 but `except_cu` (MEMORY_CU_NONE: every L1) drops its copy of the line, the messages
 * leaving bank `bank` at `when`. Returns the arrival of the last one, and keeps the latest in the
 * bank's invalidations_arrive_by (a release acknowledgement leaves no earlier, U5). */
static sc_time broadcast_invalidation(memory_system *memory, unsigned bank, uint64_t line_address,
                                      unsigned except_cu, sc_time when)
{
    sc_time last = memory_broadcast_to_cus(memory, MSG_INV, line_address, endpoint_l2_bank(bank), except_cu, when);
    qr_stats_of(memory)->invalidations_broadcast += memory->config.cu_count - (except_cu < memory->config.cu_count);
    qr_bank *q = qr_bank_of(memory, bank);
    if (last > q->invalidations_arrive_by)
        q->invalidations_arrive_by = last;
    return last;
}

/* Step 6's broadcast: every other CU's L1 drops its copy of the line the atomic `handle` just
 * changed; the answer leaves once the last invalidation has arrived, so a release that waits for
 * it knows no L1 holds the old data. */
sc_time qr_atomic_performed(memory_system *memory, unsigned bank, uint32_t handle, sc_time when)
{
    const message *m = message_get(memory, handle);
    return broadcast_invalidation(memory, bank, m->line_address, message_cu(m), when);
}

/* ---- the wL2 slices ---- */

static void wl2_evicted(void *context, uint64_t local_address, const uint8_t *data, const byte_mask *mask,
                        write_eviction_cause cause)
{
    (void)cause;
    eviction_context *c = context;
    memory_system *memory = c->memory;
    uint64_t line_address = memory_bank_global_address(memory, c->bank, local_address);
    cache_array *array = memory->banks[c->bank].cache;
    cache_line *copy = cache_array_lookup(array, local_address);
    if (copy && copy->state != L2_IV)    /* a fill on its way reads memory and the wL3 when it lands */
        cache_array_invalidate(array, copy);
    broadcast_invalidation(memory, c->bank, line_address, c->requester, c->now);
    qr_stats_of(memory)->wl2_evictions++;
    wl3_take(memory, line_address, data, mask, c->now);
}

bool qr_bank_refuses_writes(const memory_system *memory, uint64_t line_address)
{
    return qr_bank_of(memory, memory_bank_of(memory, line_address))->refusing_writes;
}

bool qr_bank_must_retake(memory_system *memory, unsigned bank, uint32_t handle)
{
    const message *m = message_get(memory, handle);
    if (m->type == MSG_WRITE || (m->type == MSG_ATOMIC && (m->protocol_bits & QR_WRITE_WAITING)))
        return true;
    if (write_cache_level_find(qr_bank_of(memory, bank)->wl2, memory_bank_local_address(memory, m->line_address)))
        return true;
    return m->type == MSG_ATOMIC && write_cache_level_find(qr_memory_of(memory)->wl3, m->line_address);
}

/* Step 4's order: the CU's markers wait while any of its writes or atomics waits for an rL2 fill. */
static void write_waits(memory_system *memory, unsigned bank, message *write)
{
    if (write->protocol_bits & QR_WRITE_WAITING)
        return;
    write->protocol_bits |= QR_WRITE_WAITING;
    qr_bank_of(memory, bank)->cus[message_cu(write)].writes_waiting++;
}

/* The wL2 took a write: once none of its CU's writes waits any more, the markers held behind them
 * go back to the head of the bank queue, in order, to be taken next cycle. */
static void waiting_write_taken(memory_system *memory, unsigned bank, message *write, sc_time now)
{
    if (!(write->protocol_bits & QR_WRITE_WAITING))
        return;
    write->protocol_bits &= (uint8_t)~QR_WRITE_WAITING;
    qr_bank_cu *cu = &qr_bank_of(memory, bank)->cus[message_cu(write)];
    if (--cu->writes_waiting == 0 && cu->held_first != MESSAGE_NONE) {
        l2_requeue_front(memory, bank, cu->held_first, cu->held_last, now + cycles(memory, 1));
        cu->held_first = cu->held_last = MESSAGE_NONE;
    }
}

/* Step 1 (and step 7's wait). A write to a line whose rL2 fill is outstanding waits in the fill's
 * MSHR instead (-1), behind the reads that arrived before it, so they cannot see it. */
static int take_write(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    qr_bank *q = qr_bank_of(memory, bank);
    message *m = message_get(memory, handle);
    uint64_t local = memory_bank_local_address(memory, m->line_address);
    const cache_line *copy = cache_array_lookup(memory->banks[bank].cache, local);
    if (copy && copy->state == L2_IV) {
        write_waits(memory, bank, m);
        return -1;
    }
    if (!wl2_takes(memory, bank, local)) {
        q->refusing_writes = true;
        qr_stats_of(memory)->wl2_refused_writes++;
        return 0;
    }
    q->refusing_writes = false;
    eviction_context context = {memory, bank, MEMORY_CU_NONE, now};
    if (write_cache_level_take(q->wl2, local, m->data, &m->mask, wl2_evicted, &context))
        qr_stats_of(memory)->sync_fifo2_full_dequeues++;
    memory->stats.l2_writes++;
    waiting_write_taken(memory, bank, m, now);
    message_free(memory, handle);
    return 1;
}

/* Step 4: a marker of a CU with writes waiting for an rL2 fill is held until the wL2 has them. */
static bool hold_marker(memory_system *memory, unsigned bank, uint32_t handle)
{
    message *m = message_get(memory, handle);
    qr_bank_cu *cu = &qr_bank_of(memory, bank)->cus[message_cu(m)];
    if (cu->writes_waiting == 0)
        return false;
    m->next = MESSAGE_NONE;
    if (cu->held_first == MESSAGE_NONE)
        cu->held_first = handle;
    else
        message_get(memory, cu->held_last)->next = handle;
    cu->held_last = handle;
    qr_stats_of(memory)->markers_held++;
    return true;
}

/* ---- step 4: markers drain a level's S-FIFO, one block per GPU cycle ---- */

/* The drain event's target: a bank (its wL2 slice), or the wL3. */
enum { QR_DRAIN_WL3 = UINT32_MAX };

static qr_marker_queue *markers_at(memory_system *memory, uint32_t target)
{
    return target == QR_DRAIN_WL3 ? &qr_memory_of(memory)->wl3_markers : &qr_bank_of(memory, target)->wl2_markers;
}

static write_cache_level *level_at(memory_system *memory, uint32_t target)
{
    return target == QR_DRAIN_WL3 ? qr_memory_of(memory)->wl3 : qr_bank_of(memory, target)->wl2;
}

static void schedule_drain(memory_system *memory, uint32_t target, sc_time when)
{
    qr_marker_queue *queue = markers_at(memory, target);
    if (when < queue->wake) {
        queue->wake = when;
        event_queue_push(memory->events, when, MEMORY_EVENT_PROTOCOL, target, 0);
    }
}

/* The marker waits at `target` until its S-FIFO has dequeued every entry it holds now. */
static void marker_arrives(memory_system *memory, uint32_t target, qr_marker marker)
{
    qr_marker_queue *queue = markers_at(memory, target);
    bool at_end = queue->first + queue->count == queue->capacity;
    if (queue->first && at_end) {   /* slide the waiting markers to the front */
        memmove(queue->items, queue->items + queue->first, queue->count * sizeof *queue->items);
        queue->first = 0;
    }
    if (queue->count == queue->capacity) {
        queue->capacity = queue->capacity ? 2 * queue->capacity : 16;
        queue->items = realloc(queue->items, queue->capacity * sizeof *queue->items);
    }
    marker.through_after = write_cache_level_enqueued(level_at(memory, target));
    queue->items[queue->first + queue->count++] = marker;
    if (queue->count == 1)
        schedule_drain(memory, target, marker.ready);
}

static void take_marker(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    if (hold_marker(memory, bank, handle))
        return;
    message *m = message_get(memory, handle);
    if (m->type == QR_MSG_FLUSH_MARKER) {
        message_free(memory, handle);
        handle = MESSAGE_NONE;
    }
    marker_arrives(memory, bank, (qr_marker){0, now, handle, bank});
}

/* A marker is through a level: from a wL2 slice it goes on to the wL3; from the wL3 a release
 * marker's acknowledgement goes back to its bank and on to the CU. */
static void marker_through(memory_system *memory, uint32_t target, qr_marker marker, sc_time now)
{
    sc_time next = now + cycles(memory, qr_config_of(&memory->config)->marker_latency);
    if (target != QR_DRAIN_WL3) {
        marker.ready = next;
        marker_arrives(memory, QR_DRAIN_WL3, marker);
    } else if (marker.handle != MESSAGE_NONE) {
        message_get(memory, marker.handle)->type = QR_MSG_RELEASE_ACK;
        memory_reply_after(memory, marker.handle, next, qr_bank_of(memory, marker.bank)->invalidations_arrive_by);
    }
}

/* Whether the head block of `target`'s S-FIFO can leave now: the wL3's goes to memory, a wL2
 * slice's to the wL3 (step 7). */
static bool drain_head_can_leave(memory_system *memory, uint32_t target, uint64_t head)
{
    if (target == QR_DRAIN_WL3)
        return memory_accepts_write(memory, head);
    return wl3_takes(memory, memory_bank_global_address(memory, target, head));
}

static void drain_step(memory_system *memory, uint32_t target, sc_time now)
{
    qr_marker_queue *queue = markers_at(memory, target);
    if (now != queue->wake)
        return;   /* superseded by an earlier wake-up */
    queue->wake = SC_TIME_NEVER;
    bool at_wl3 = target == QR_DRAIN_WL3;
    write_cache_level *level = level_at(memory, target);
    write_eviction_fn evicted = at_wl3 ? wl3_evicted : wl2_evicted;
    eviction_context context = {memory, at_wl3 ? 0 : target, MEMORY_CU_NONE, now};
    while (queue->count) {
        const qr_marker *first = &queue->items[queue->first];
        if (first->ready > now) {
            schedule_drain(memory, target, first->ready);
            return;
        }
        if (write_cache_level_dequeued(level) >= first->through_after) {
            qr_marker marker = *first;
            queue->first++;
            queue->count--;
            marker_through(memory, target, marker, now);
            continue;
        }
        uint64_t head;
        if (!write_cache_level_head_present(level, &head)) {
            write_cache_level_dequeue(level, evicted, &context);   /* the block left already */
            continue;
        }
        if (drain_head_can_leave(memory, target, head))
            write_cache_level_dequeue(level, evicted, &context);
        else if (at_wl3)
            qr_stats_of(memory)->wl3_drain_waits++;
        else
            qr_stats_of(memory)->wl2_drain_waits++;
        schedule_drain(memory, target, now + cycles(memory, 1));   /* one block per cycle on the eviction port */
        return;
    }
}

/* Step 5: serves the fill from the wL2 when its dirty bytes cover the line (1); else writes the
 * block out and lets the read go on (-1), or waits while the wL3 cannot take it (0, step 7). */
static int read_from_wl2(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    write_cache_level *wl2 = qr_bank_of(memory, bank)->wl2;
    message *m = message_get(memory, handle);
    uint64_t local = memory_bank_local_address(memory, m->line_address);
    const store_buffer_entry *block = write_cache_level_find(wl2, local);
    if (!block)
        return -1;
    if (!byte_mask_full(&block->mask, memory->config.line_bytes)) {
        if (!wl3_takes(memory, m->line_address)) {
            qr_stats_of(memory)->write_out_waits++;
            return 0;
        }
        eviction_context context = {memory, bank, message_cu(m), now};
        write_cache_level_evict(wl2, local, wl2_evicted, &context);
        return -1;
    }
    memcpy(m->data, block->data, memory->config.line_bytes);
    m->type = MSG_DATA;
    m->data_source = GSI_SOURCE_L2;
    qr_stats_of(memory)->wl2_read_hits++;
    memory_reply(memory, handle, now + cycles(memory, memory->config.l2_latency));
    return 1;
}

/* Step 6: the atomic must not bypass dirty bytes of its line in the wL2 or the wL3; it waits (0)
 * while they cannot go on to memory (step 7), else goes on (-1). */
static int write_out_before_atomic(memory_system *memory, unsigned bank, const message *atomic, sc_time now)
{
    uint64_t line_address = atomic->line_address;
    uint64_t local = memory_bank_local_address(memory, line_address);
    bool in_wl2 = write_cache_level_find(qr_bank_of(memory, bank)->wl2, local) != NULL;
    bool in_wl3 = in_wl2 || write_cache_level_find(qr_memory_of(memory)->wl3, line_address) != NULL;
    if ((in_wl2 && !wl3_takes(memory, line_address)) || (in_wl3 && !memory_accepts_write(memory, line_address))) {
        qr_stats_of(memory)->write_out_waits++;
        return 0;
    }
    eviction_context context = {memory, bank, message_cu(atomic), now};
    write_cache_level_evict(qr_bank_of(memory, bank)->wl2, local, wl2_evicted, &context);
    write_cache_level_evict(qr_memory_of(memory)->wl3, line_address, wl3_evicted, &context);
    return -1;
}

/* Step 4's order for an atomic the rL2 performs next: one that will wait for its line's rL2 fill
 * counts as a waiting write of its CU (its markers are held until it is performed, so a marker
 * batch's acknowledgement means every atomic sent ahead of it is performed, U8); one the rL2
 * performs now (again) releases the markers held behind it. */
static void order_atomic(memory_system *memory, unsigned bank, message *atomic, sc_time now)
{
    const cache_line *copy =
        cache_array_lookup(memory->banks[bank].cache, memory_bank_local_address(memory, atomic->line_address));
    if (!copy || copy->state == L2_IV)
        write_waits(memory, bank, atomic);
    else
        waiting_write_taken(memory, bank, atomic, now);
}

/* A message at the head of bank `bank`, before the rL2 (the bank's array) sees it: 1 when handled
 * (writes, markers, reads the wL2 serves), 0 when it must wait and be offered again next cycle (a
 * write the wL2 cannot take yet), -1 when the rL2 handles it next (a read or atomic, after the
 * wL2 and wL3 blocks it must not bypass have been written out; a write to a line being filled,
 * which waits in the fill's MSHR). */
static int bank_take(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    message *m = message_get(memory, handle);
    switch ((int)m->type) {
    case MSG_WRITE:
        return take_write(memory, bank, handle, now);
    case QR_MSG_RELEASE_MARKER:
    case QR_MSG_FLUSH_MARKER:
        take_marker(memory, bank, handle, now);
        return 1;
    case MSG_READ:
        return read_from_wl2(memory, bank, handle, now);
    case MSG_ATOMIC:
        if (write_out_before_atomic(memory, bank, m, now) == 0)
            return 0;
        order_atomic(memory, bank, m, now);
        return -1;
    default:
        return -1;
    }
}

/* ---- construction ---- */

void qr_write_path_build(memory_system *memory)
{
    const memory_config *c = &memory->config;
    const qr_config *q = qr_config_of(c);
    qr_bank *banks = calloc(c->l2_banks, sizeof *banks);
    for (unsigned b = 0; b < c->l2_banks; b++) {
        banks[b].wl2 = write_cache_level_create(q->wl2_blocks_per_bank, q->wl2_ways, q->wl2_fifo_entries_per_bank,
                                                c->line_bytes);
        banks[b].wl2_markers.wake = SC_TIME_NEVER;
        banks[b].cus = malloc(c->cu_count * sizeof *banks[b].cus);
        for (unsigned cu = 0; cu < c->cu_count; cu++)
            banks[b].cus[cu] = (qr_bank_cu){0, MESSAGE_NONE, MESSAGE_NONE};
        memory->banks[b].protocol_state = &banks[b];
    }
    qr_memory *below = calloc(1, sizeof *below);
    below->wl3 = write_cache_level_create(q->wl3_blocks, q->wl3_ways, q->wl3_fifo_entries, c->line_bytes);
    below->wl3_markers.wake = SC_TIME_NEVER;
    memory->protocol_state = below;
    memory->protocol_stats = &below->stats;
    /* the rL2 stays clean: the wL2 takes every write (step 1), and an atomic, the one request the
     * array performs, is written through to memory (step 6) */
    memory->l2_writes_through = true;
}

void qr_write_path_destroy(memory_system *memory)
{
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        qr_bank *q = qr_bank_of(memory, b);
        write_cache_level_destroy(q->wl2);
        free(q->wl2_markers.items);
        free(q->cus);
    }
    free(qr_bank_of(memory, 0));
    qr_memory *below = qr_memory_of(memory);
    write_cache_level_destroy(below->wl3);
    free(below->wl3_markers.items);
    free(below);
}

int qr_bank_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    int taken = bank_take(memory, bank, handle, now);
    if (taken >= 0)
        return taken;
    return l2_process(memory, bank, handle, now, error);
}

int qr_handle_event(memory_system *memory, const timing_event *event, sc_error *error)
{
    if (event->kind != MEMORY_EVENT_PROTOCOL)
        return sc_fail(error, "internal error: unknown memory event %u", event->kind);
    drain_step(memory, event->target, event->time);
    return 0;
}
