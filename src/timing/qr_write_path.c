/* qr_write_path.c — QuickRelease's write path below the wL1 (digest 000 §2.4-§2.9): each L2 bank's
 * slice of the wL2 with its S-FIFO2, the memory-side wL3 with its S-FIFO3, release markers level by
 * level, and the read and atomic checks that keep loads value-accurate. Both levels are
 * write_cache_levels (write_cache_level.h); the wL1 is the CU's store buffer (l1_controller.c).
 *
 * Why per-bank slices: the L2 is address-interleaved over its banks, so a line's wL2 block lives in
 * the bank that holds its rL2 line and a read checks both with no extra hop; l2.write_cache_size and
 * l2.sync_fifo_entries are split evenly over the banks (timing_config.c). A release marker visits
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
 *     sends the block to the wL3, which merges it and enqueues its line in S-FIFO3. An rL2 copy an
 *     atomic made dirty is newer than memory: it goes along under the wL2's bytes (a full line).
 *  3. A wL3 eviction (replacement, S-FIFO3 full, a marker's drain, a demand) writes the dirty bytes
 *     to memory in wl3_evicted, the one place QR's writes leave the GPU (the device image now,
 *     a timed DRAM write), which is also where the stateless directory invalidates the CPU cluster.
 *  4. A release marker (MSG_RELEASE_MARKER) follows the CU's write-outs to each bank on the same
 *     ordered path (the NoC keeps per-pair order, the bank queue keeps arrival order), and the
 *     bank keeps that order: while a write of the marker's CU waits in an rL2 MSHR for its line's
 *     fill (step 5), the bank holds the CU's markers (qr_bank_cu) and puts them back at the head
 *     of its queue once the wL2 has taken the last such write. Otherwise the marker would drain a
 *     wL2 without that write, the release would be acknowledged with no rL1 invalidation sent for
 *     the line, and an rL1 fill served by that fill (old data) could still be cached, or a later
 *     load merge into it, after the next lock holder acquired. The slice drains S-FIFO2
 *     (everything in it is ahead of the marker), one block per GPU cycle on its eviction port;
 *     the marker then reaches the wL3 directory.latency cycles later and waits there, in arrival
 *     order with the other banks' markers, until S-FIFO3 has dequeued every entry
 *     it held when the slice's blocks reached it (qr_wl3_drain_step): the wL3's eviction port
 *     writes one block per GPU cycle to memory, and only while memory's write queue for the
 *     block's channel has room (memory_accepts_write), as every mechanism's writes to memory must.
 *     Once through, the marker comes back to the bank directory.latency cycles later. The
 *     acknowledgement (MSG_RELEASE_ACK) then leaves for the CU,
 *     taken no earlier than the last rL1 invalidation the bank has sent (U5), so no rL1 still holds
 *     data older than the release. A flush marker (MSG_FLUSH_MARKER, a StRel's store) drains the
 *     same way without an acknowledgement.
 *  5. A read (an L1 fill) checks the wL2 first (§2.5): a block whose dirty bytes cover the whole
 *     line serves it; a partial block is written out (step 2) and the read goes on to the rL2 and,
 *     on a miss, to memory, whose data arrives with the wL3's dirty bytes of the line laid over it
 *     (qr_overlay_memory_side). A read that waited for an rL2 fill while the wL2 took a block of
 *     its line is taken afresh (as is an atomic, step 6, when the wL3 holds one). Order: a write
 *     arriving while the line's rL2 fill is outstanding waits in the fill's MSHR behind the reads
 *     ahead of it, which the fill serves; the write and everything behind it are then taken afresh,
 *     so the wL2 takes the write and later reads see it (and the CU's markers, step 4, follow it).
 *  6. An atomic writes out the line's wL2 block, then its wL3 block, then is performed at the rL2
 *     (the point of coherence, U7), which broadcasts rL1 invalidations as a wL2 eviction would.
 *  7. Back-pressure: when S-FIFO3 is full with its head still dirty and memory takes no write (its
 *     write queue for the line's channel is full, memory_accepts_write), the wL3
 *     refuses blocks; a write whose slice would then have to evict its S-FIFO2 head waits at the
 *     head of the bank queue (the bank stalls) and the bank refuses write-outs, so a store whose
 *     wL1 must evict a block to that bank is refused (GSI memory-structural, store buffer full).
 *
 * Simplifications: a block moves between levels at the time of its eviction (only marker drains
 * take time, on each level's eviction port); a read whose bytes the wL3 covers still reads DRAM
 * (the overlay makes it value-correct); a full S-FIFO2 head or a replacement victim always leaves,
 * and the wL3 blocks a slice's drain pushes out of a full S-FIFO3 go to memory at once (only
 * writes arriving one by one and the wL3's marker drain wait for memory's write queue). */
#include "timing/memory_internal.h"

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

static sc_time later(sc_time a, sc_time b)
{
    return a > b ? a : b;
}

/* ---- memory: where wL3 blocks go ---- */

/* ---- the wL3 ---- */

static void wl3_evicted(void *context, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                        write_eviction_cause cause)
{
    (void)cause;
    eviction_context *c = context;
    c->memory->stats.wl3_evictions++;
    memory_backing_write(c->memory, line_address, data, mask, c->now);   /* drops the CPU copy too */
}

static void wl3_take(memory_system *memory, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                     sc_time now)
{
    eviction_context context = {memory, 0, MEMORY_CU_NONE, now};
    if (write_cache_level_take(memory->wl3, line_address, data, mask, wl3_evicted, &context))
        memory->stats.sync_fifo3_full_dequeues++;
}

/* Whether the wL3 takes a block now without waiting for memory. */
static bool wl3_accepts(const memory_system *memory)
{
    uint64_t head;
    return !write_cache_level_head_must_leave(memory->wl3, &head) || memory_accepts_write(memory, head);
}

static void schedule_wl3_drain(memory_system *memory, sc_time when)
{
    if (when < memory->wl3_drain_wake) {
        memory->wl3_drain_wake = when;
        event_queue_push(memory->events, when, MEMORY_EVENT_WL3_DRAIN, 0, 0);
    }
}

void qr_overlay_memory_side(memory_system *memory, uint64_t line_address, uint8_t *data)
{
    const store_buffer_entry *block = write_cache_level_find(memory->wl3, line_address);
    if (block)
        byte_mask_copy(data, block->data, &block->mask, memory->config.line_bytes);
}

/* ---- the wL2 slices ---- */

static void wl2_evicted(void *context, uint64_t local_address, const uint8_t *data, const byte_mask *mask,
                        write_eviction_cause cause)
{
    (void)cause;
    eviction_context *c = context;
    memory_system *memory = c->memory;
    unsigned line_bytes = memory->config.line_bytes;
    uint64_t line_address = memory_bank_global_address(memory, c->bank, local_address);
    cache_array *array = memory->banks[c->bank].cache;
    cache_line *copy = cache_array_lookup(array, local_address);
    uint8_t line[TIMING_MAX_LINE_BYTES];
    byte_mask sent = *mask;
    const uint8_t *bytes = data;
    if (copy && copy->state == L2_D) {   /* an atomic's result, newer than memory, goes along */
        memcpy(line, copy->data, line_bytes);
        byte_mask_copy(line, data, mask, line_bytes);
        sent = (byte_mask){{0, 0}};
        byte_mask_set_range(&sent, 0, line_bytes);
        bytes = line;
    }
    if (copy && copy->state != L2_IV)    /* a fill on its way reads memory and the wL3 when it lands */
        cache_array_invalidate(array, copy);
    l2_broadcast_invalidation(memory, c->bank, line_address, c->requester, c->now);
    memory->stats.wl2_evictions++;
    wl3_take(memory, line_address, bytes, &sent, c->now);
}

bool qr_bank_refuses_writes(const memory_system *memory, uint64_t line_address)
{
    return memory->banks[memory_bank_of(memory, line_address)].refusing_writes;
}

bool qr_bank_must_retake(memory_system *memory, unsigned bank, uint32_t handle)
{
    const message *m = message_get(memory, handle);
    if (m->type == MSG_WRITE)
        return true;
    if (write_cache_level_find(memory->banks[bank].wl2, memory_bank_local_address(memory, m->line_address)))
        return true;
    return m->type == MSG_ATOMIC && write_cache_level_find(memory->wl3, m->line_address);
}

/* Step 4's order: the CU's markers wait while any of its writes waits for an rL2 fill. */
static void write_waits(memory_system *memory, unsigned bank, message *write)
{
    if (write->waiting)
        return;
    write->waiting = 1;
    memory->banks[bank].qr_cus[write->cu].writes_waiting++;
}

/* The wL2 took a write: once none of its CU's writes waits any more, the markers held behind them
 * go back to the head of the bank queue, in order, to be taken next cycle. */
static void waiting_write_taken(memory_system *memory, unsigned bank, message *write, sc_time now)
{
    if (!write->waiting)
        return;
    qr_bank_cu *cu = &memory->banks[bank].qr_cus[write->cu];
    if (--cu->writes_waiting == 0 && cu->held_first != MESSAGE_NONE) {
        l2_requeue_front(memory, bank, cu->held_first, cu->held_last, now + cycles(memory, 1));
        cu->held_first = cu->held_last = MESSAGE_NONE;
    }
}

/* Step 1 (and step 7's wait). A write to a line whose rL2 fill is outstanding waits in the fill's
 * MSHR instead (-1), behind the reads that arrived before it, so they cannot see it. */
static int take_write(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    l2_bank *b = &memory->banks[bank];
    message *m = message_get(memory, handle);
    uint64_t local = memory_bank_local_address(memory, m->line_address);
    const cache_line *copy = cache_array_lookup(b->cache, local);
    if (copy && copy->state == L2_IV) {
        write_waits(memory, bank, m);
        return -1;
    }
    if (write_cache_level_head_must_leave(b->wl2, NULL) && !wl3_accepts(memory)) {
        b->refusing_writes = true;
        memory->stats.wl2_refused_writes++;
        return 0;
    }
    b->refusing_writes = false;
    eviction_context context = {memory, bank, MEMORY_CU_NONE, now};
    if (write_cache_level_take(b->wl2, local, m->data, &m->mask, wl2_evicted, &context))
        memory->stats.sync_fifo2_full_dequeues++;
    memory->stats.l2_writes++;
    waiting_write_taken(memory, bank, m, now);
    message_free(memory, handle);
    return 1;
}

/* Step 4: the marker waits at the wL3 until S-FIFO3 has dequeued every entry ahead of it. */
static void wait_at_wl3(memory_system *memory, unsigned bank, uint32_t handle, sc_time ready)
{
    bool at_end = memory->wl3_marker_first + memory->wl3_marker_count == memory->wl3_marker_capacity;
    if (memory->wl3_marker_first && at_end) {   /* slide the waiting markers to the front */
        memmove(memory->wl3_markers, memory->wl3_markers + memory->wl3_marker_first,
                memory->wl3_marker_count * sizeof *memory->wl3_markers);
        memory->wl3_marker_first = 0;
    }
    if (memory->wl3_marker_count == memory->wl3_marker_capacity) {
        memory->wl3_marker_capacity = memory->wl3_marker_capacity ? 2 * memory->wl3_marker_capacity : 16;
        memory->wl3_markers = realloc(memory->wl3_markers, memory->wl3_marker_capacity * sizeof *memory->wl3_markers);
    }
    memory->wl3_markers[memory->wl3_marker_first + memory->wl3_marker_count++] = (qr_wl3_marker){
        write_cache_level_enqueued(memory->wl3), ready, handle, bank};
    if (memory->wl3_marker_count == 1)
        schedule_wl3_drain(memory, ready);
}

/* Step 4: a marker of a CU with writes waiting for an rL2 fill is held until the wL2 has them. */
static bool hold_marker(memory_system *memory, unsigned bank, uint32_t handle)
{
    message *m = message_get(memory, handle);
    qr_bank_cu *cu = &memory->banks[bank].qr_cus[m->cu];
    if (cu->writes_waiting == 0)
        return false;
    m->next = MESSAGE_NONE;
    if (cu->held_first == MESSAGE_NONE)
        cu->held_first = handle;
    else
        message_get(memory, cu->held_last)->next = handle;
    cu->held_last = handle;
    memory->stats.markers_held++;
    return true;
}

static void take_marker(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    if (hold_marker(memory, bank, handle))
        return;
    l2_bank *b = &memory->banks[bank];
    message *m = message_get(memory, handle);
    eviction_context context = {memory, bank, MEMORY_CU_NONE, now};
    unsigned from_wl2 = write_cache_level_drain(b->wl2, wl2_evicted, &context);
    b->wl2_free_at = later(now, b->wl2_free_at) + cycles(memory, from_wl2);
    sc_time at_wl3 = b->wl2_free_at + cycles(memory, memory->config.directory_latency);
    if (m->type == MSG_FLUSH_MARKER) {
        message_free(memory, handle);
        handle = MESSAGE_NONE;
    }
    wait_at_wl3(memory, bank, handle, at_wl3);
}

/* A marker is through: a release marker's acknowledgement goes back to its bank and on to the CU. */
static void marker_through(memory_system *memory, const qr_wl3_marker *marker, sc_time now)
{
    if (marker->handle == MESSAGE_NONE)
        return;
    message_get(memory, marker->handle)->type = MSG_RELEASE_ACK;
    sc_time back = now + cycles(memory, memory->config.directory_latency);
    memory_send_to_cu_after(memory, marker->handle, marker->bank, back,
                            memory->banks[marker->bank].invalidations_arrive_by);
}

void qr_wl3_drain_step(memory_system *memory, sc_time now)
{
    if (now != memory->wl3_drain_wake)
        return;   /* superseded by an earlier wake-up */
    memory->wl3_drain_wake = SC_TIME_NEVER;
    eviction_context context = {memory, 0, MEMORY_CU_NONE, now};
    while (memory->wl3_marker_count) {
        const qr_wl3_marker *first = &memory->wl3_markers[memory->wl3_marker_first];
        if (first->ready > now) {
            schedule_wl3_drain(memory, first->ready);
            return;
        }
        if (write_cache_level_dequeued(memory->wl3) >= first->through_after) {
            marker_through(memory, first, now);
            memory->wl3_marker_first++;
            memory->wl3_marker_count--;
            continue;
        }
        uint64_t head;
        if (!write_cache_level_head_present(memory->wl3, &head)) {
            write_cache_level_dequeue(memory->wl3, wl3_evicted, &context);   /* the block left already */
            continue;
        }
        if (memory_accepts_write(memory, head)) {
            write_cache_level_dequeue(memory->wl3, wl3_evicted, &context);
        } else {
            memory->stats.wl3_drain_waits++;
        }
        schedule_wl3_drain(memory, now + cycles(memory, 1));   /* one block per cycle on the eviction port */
        return;
    }
}

/* Step 5: serves the fill from the wL2 when its dirty bytes cover the line; else writes the block
 * out. Returns whether the read was served. */
static bool read_from_wl2(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    l2_bank *b = &memory->banks[bank];
    message *m = message_get(memory, handle);
    uint64_t local = memory_bank_local_address(memory, m->line_address);
    const store_buffer_entry *block = write_cache_level_find(b->wl2, local);
    if (!block)
        return false;
    if (!byte_mask_full(&block->mask, memory->config.line_bytes)) {
        eviction_context context = {memory, bank, m->cu, now};
        write_cache_level_evict(b->wl2, local, wl2_evicted, &context);
        return false;
    }
    memcpy(m->data, block->data, memory->config.line_bytes);
    m->type = MSG_DATA;
    m->source = GSI_SOURCE_L2;
    memory->stats.wl2_read_hits++;
    memory_send_to_cu(memory, handle, bank, now + cycles(memory, memory->config.l2_latency));
    return true;
}

/* Step 6: the atomic must not bypass dirty bytes of its line in the wL2 or the wL3. */
static void write_out_before_atomic(memory_system *memory, unsigned bank, const message *atomic, sc_time now)
{
    eviction_context context = {memory, bank, atomic->cu, now};
    write_cache_level_evict(memory->banks[bank].wl2, memory_bank_local_address(memory, atomic->line_address),
                            wl2_evicted, &context);
    write_cache_level_evict(memory->wl3, atomic->line_address, wl3_evicted, &context);
}

int qr_bank_take(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    message *m = message_get(memory, handle);
    switch ((message_type)m->type) {
    case MSG_WRITE:
        return take_write(memory, bank, handle, now);
    case MSG_RELEASE_MARKER:
    case MSG_FLUSH_MARKER:
        take_marker(memory, bank, handle, now);
        return 1;
    case MSG_READ:
        return read_from_wl2(memory, bank, handle, now) ? 1 : -1;
    case MSG_ATOMIC:
        write_out_before_atomic(memory, bank, m, now);
        return -1;
    default:
        return -1;
    }
}

/* ---- construction ---- */

void qr_write_path_create(memory_system *memory)
{
    const memory_config *c = &memory->config;
    for (unsigned b = 0; b < c->l2_banks; b++) {
        memory->banks[b].wl2 = write_cache_level_create(c->wl2_blocks_per_bank, c->wl2_ways,
                                                        c->wl2_fifo_entries_per_bank, c->line_bytes);
        memory->banks[b].qr_cus = malloc(c->cu_count * sizeof *memory->banks[b].qr_cus);
        for (unsigned cu = 0; cu < c->cu_count; cu++)
            memory->banks[b].qr_cus[cu] = (qr_bank_cu){0, MESSAGE_NONE, MESSAGE_NONE};
    }
    memory->wl3 = write_cache_level_create(c->wl3_blocks, c->wl3_ways, c->wl3_fifo_entries, c->line_bytes);
    memory->wl3_drain_wake = SC_TIME_NEVER;
}

void qr_write_path_destroy(memory_system *memory)
{
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        write_cache_level_destroy(memory->banks[b].wl2);
        free(memory->banks[b].qr_cus);
    }
    write_cache_level_destroy(memory->wl3);
    free(memory->wl3_markers);
}
