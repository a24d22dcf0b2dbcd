/* qr_l1.c — QuickRelease at each CU (digest 000 §2.1-§2.3): the store buffer is a write-combining
 * write cache (wL1) with byte masks, and S-FIFO1 names its blocks in the order they were written.
 * A store first makes room (dequeuing the head of a full S-FIFO1, evicting the oldest block of a
 * full wL1) and is refused while the block it would push out is bound for a bank that refuses
 * writes; a load of a line the wL1 holds is served by it (all bytes dirty) or raises the partial
 * event. A block leaves through the line's WriteEvict row. Write-outs are not acknowledged: a
 * release inserts a marker behind every S-FIFO1 entry there is, dequeues them all and sends a
 * batch of release markers, one to every L2 bank, each counted as an outstanding write until its
 * acknowledgement returns (qr_write_path.c step 4); a strong store's FlushSyncFifo does the same
 * with flush markers, which are not acknowledged.
 *
 * A warp's release (warp_release, §2.7) waits only for its own marker batch and the batches
 * before it: the stores other warps issue meanwhile go into the wL1 and S-FIFO1 behind the
 * marker and are not held back. A global barrier is one such release of the work-group when its
 * last wavefront arrives (cta_barrier_release, U10), or with gpu.barrier_release_granularity
 * wavefront each wavefront's release before it arrives (the engine decodes bar as releasing). A
 * release that finds no block written out since the last batch waits for that batch (it may hold
 * blocks of the releasing warp that another warp's release wrote out). A warp that exits inserts its release marker too (U9) and goes on without waiting;
 * the kernel ends once every batch is acknowledged (nothing outstanding: the default l1_drained),
 * after the default kernel_end's release of every CU has sent a last batch for blocks written
 * out since (a store still in the load/store unit when its warp exited). */
#include "protocols/qr/qr_units.h"

#include <stdlib.h>
#include <string.h>

void qr_l1_build(memory_system *memory)
{
    const memory_config *c = &memory->config;
    const qr_config *q = qr_config_of(c);
    qr_cu *cus = calloc(c->cu_count, sizeof *cus);
    for (unsigned cu = 0; cu < c->cu_count; cu++) {
        l1_controller *l1 = &memory->l1[cu];
        store_buffer_destroy(l1->stores);
        l1->stores = store_buffer_create(q->write_cache_lines, c->line_bytes);
        cus[cu].sync = sync_fifo_create(q->sync_fifo_entries);
        l1->protocol_state = &cus[cu];
    }
    /* a wavefront's barrier release goes through warp_release; a work-group's, cta_barrier_release */
    memory->barriers_release = q->barriers_release && q->barrier_release_per_wavefront;
}

void qr_l1_destroy(memory_system *memory)
{
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        qr_cu *q = qr_cu_of(memory, cu);
        sync_fifo_destroy(q->sync);
        free(q->acks_missing);
        free(q->warp_batch.batch);
        free(q->cta_batch.batch);
    }
    free(qr_cu_of(memory, 0));
}

/* A marker (QR_MSG_RELEASE_MARKER or QR_MSG_FLUSH_MARKER, about no line) to every L2 bank, behind the
 * CU's write-outs on each path. A release marker carries its batch's number (protocol_word) and
 * counts as an outstanding write until acknowledged. */
static void send_markers(memory_system *memory, unsigned cu, message_type type, sc_time now)
{
    qr_cu *q = qr_cu_of(memory, cu);
    unsigned banks = memory->config.l2_banks;
    uint64_t batch = type == QR_MSG_RELEASE_MARKER ? ++q->batches_sent : 0;
    for (unsigned bank = 0; bank < banks; bank++) {
        uint32_t handle = message_allocate(memory, type, endpoint_cu(cu), endpoint_l2_bank(bank), 0);
        message_get(memory, handle)->protocol_word = batch;
        memory_send(memory, handle, now);
    }
    if (type != QR_MSG_RELEASE_MARKER)
        return;
    uint64_t pending = q->batches_sent - q->batches_done;
    if (pending > q->acks_capacity) {
        q->acks_capacity = q->acks_capacity ? 2 * q->acks_capacity : 16;
        q->acks_missing = realloc(q->acks_missing, q->acks_capacity * sizeof *q->acks_missing);
    }
    q->acks_missing[pending - 1] = banks;
    if (q->markers_outstanding == 0)
        q->release_started = now;
    q->markers_outstanding += banks;
    memory->l1[cu].writes_outstanding += banks;
    q->writes_unreleased = false;
}

int qr_l1_message(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    const message *m = message_get(memory, handle);
    if (m->type != QR_MSG_RELEASE_ACK)
        return l1_message_unknown(memory, handle, now, error);
    unsigned cu = message_cu(m);
    qr_cu *q = qr_cu_of(memory, cu);   /* a bank acknowledged a release marker of batch protocol_word */
    q->acks_missing[m->protocol_word - q->batches_done - 1]--;
    uint64_t done = 0;
    while (q->batches_done + done < q->batches_sent && q->acks_missing[done] == 0)
        done++;
    if (done) {
        q->batches_done += done;
        memmove(q->acks_missing, q->acks_missing + done, (q->batches_sent - q->batches_done) * sizeof *q->acks_missing);
    }
    if (--q->markers_outstanding == 0) {
        qr_stats_of(memory)->release_markers_acked++;
        qr_stats_of(memory)->release_marker_cycles += (now - q->release_started) / memory->config.gpu_clock.period;
    }
    l1_write_performed(memory, cu, now);
    return 0;
}

void qr_l1_write_sent(memory_system *memory, unsigned cu)
{
    qr_cu_of(memory, cu)->writes_unreleased = true;   /* no acknowledgement; a release marker follows */
}

/* Dequeues the S-FIFO head: the block it names leaves the wL1 if it is still there (an entry for
 * a block already written out does nothing). */
static int dequeue_sync_fifo(memory_system *memory, unsigned cu, sc_time now, sc_error *error)
{
    uint64_t line_address = sync_fifo_pop(qr_cu_of(memory, cu)->sync);
    qr_stats_of(memory)->sync_fifo_dequeues++;
    if (!store_buffer_find(memory->l1[cu].stores, line_address))
        return 0;
    return l1_run_event(memory, cu, line_address, QR_WRITE_EVICT, now, error);
}

static int flush_sync_fifo(memory_system *memory, unsigned cu, sc_time now, sc_error *error)
{
    while (sync_fifo_count(qr_cu_of(memory, cu)->sync))
        if (dequeue_sync_fifo(memory, cu, now, error) < 0)
            return -1;
    return 0;
}

/* A release marker: it dequeues every S-FIFO1 entry ahead of it, then a batch of markers follows
 * if any block was written out since the last batch. Returns the batch the release waits for. */
static uint64_t insert_release_marker(memory_system *memory, unsigned cu, sc_time now)
{
    qr_cu *q = qr_cu_of(memory, cu);
    qr_stats_of(memory)->release_flushes += sync_fifo_count(q->sync) > 0;
    if (flush_sync_fifo(memory, cu, now, &memory->failure) < 0)
        memory->failed = true;
    if (q->writes_unreleased)
        send_markers(memory, cu, QR_MSG_RELEASE_MARKER, now);
    return q->batches_sent;
}

void qr_l1_release(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    insert_release_marker(memory, cu, now);
}

/* Slot `index` of a table of the batches releases wait for. */
static uint64_t *batch_of(qr_batch_table *table, unsigned index)
{
    if (index >= table->capacity) {
        uint32_t capacity = table->capacity ? table->capacity : 16;
        while (capacity <= index)
            capacity *= 2;
        table->batch = realloc(table->batch, capacity * sizeof *table->batch);
        for (uint32_t i = table->capacity; i < capacity; i++)
            table->batch[i] = 0;
        table->capacity = capacity;
    }
    return &table->batch[index];
}

/* A release waiting on `*batch` (0: its marker is not inserted yet; `begun` false: a new release):
 * once no store of the releasing warps waits in the load/store unit (`write_queued`), it inserts
 * its marker behind every S-FIFO1 entry, and it is done once its batch is acknowledged. */
static release_wait wait_for_batch(memory_system *memory, unsigned cu, uint64_t *batch, bool begun, bool write_queued,
                                   sc_time now)
{
    qr_cu *q = qr_cu_of(memory, cu);
    if (!begun)
        *batch = 0;
    if (*batch == 0) {
        if (write_queued)
            return RELEASE_WAITS;   /* the store must reach the wL1 ahead of the marker */
        *batch = insert_release_marker(memory, cu, now);
    }
    return q->batches_done >= *batch ? RELEASE_DONE : RELEASE_WAITS;
}

void qr_l1_warp_exit(memory_system *memory, unsigned cu, unsigned warp, sc_time now)
{
    insert_release_marker(memory, cu, now);
}

release_wait qr_l1_warp_release(memory_system *memory, unsigned cu, unsigned warp, ptx_scope scope, bool begun,
                                int queued_writer, sc_time now)
{
    return wait_for_batch(memory, cu, batch_of(&qr_cu_of(memory, cu)->warp_batch, warp), begun,
                          queued_writer == (int)warp, now);
}

/* A global barrier of the work-group granularity (U10's default): one release marker when the
 * work-group's last wavefront arrives, behind every store its wavefronts issued before the
 * barrier (all ahead of it in S-FIFO1, or still in the load/store unit: the marker waits for
 * those); the barrier completes on the marker batch's acknowledgement. No read-cache action. */
release_wait qr_l1_cta_barrier_release(memory_system *memory, unsigned cu, unsigned cta, bool begun,
                                       bool write_queued, sc_time now)
{
    const qr_config *c = qr_config_of(&memory->config);
    if (!c->barriers_release || c->barrier_release_per_wavefront)
        return RELEASE_DONE;
    return wait_for_batch(memory, cu, batch_of(&qr_cu_of(memory, cu)->cta_batch, cta), begun, write_queued, now);
}

void qr_l1_store_buffer_full(memory_system *memory, unsigned cu, sc_time now)
{
    /* nothing: the wL1 makes its own room (qr_l1_before_access); a refused store waits for its bank */
}

int qr_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    unsigned cu = context->cu;
    switch ((int)action) {
    case QR_WRITE_COMBINE:
        l1_buffer_store(memory, cu, context->lanes, memory_op_get(memory, context->op));
        sync_fifo_push(qr_cu_of(memory, cu)->sync, context->line_address);
        return 0;
    case QR_FLUSH_SYNC_FIFO:
        qr_stats_of(memory)->store_flushes++;
        if (flush_sync_fifo(memory, cu, now, error) < 0)
            return -1;
        send_markers(memory, cu, QR_MSG_FLUSH_MARKER, now);
        return 0;
    case QR_HIT_WRITE_CACHE:
        l1_deliver_hit(memory, cu, context->line_address,
                       store_buffer_find(memory->l1[cu].stores, context->line_address)->data, context->op, now);
        qr_stats_of(memory)->write_cache_read_hits++;
        return 0;
    default:
        return l1_action_unknown(memory, context, action, now, error);
    }
}

/* Before a store's row: a free S-FIFO entry (dequeuing the head of a full FIFO) and, for a line
 * the wL1 does not hold, a free wL1 block (writing out the oldest). */
static int make_room_for_store(memory_system *memory, unsigned cu, uint64_t line_address, sc_time now,
                               sc_error *error)
{
    l1_controller *l1 = &memory->l1[cu];
    if (sync_fifo_full(qr_cu_of(memory, cu)->sync)) {
        qr_stats_of(memory)->sync_fifo_full_dequeues++;
        if (dequeue_sync_fifo(memory, cu, now, error) < 0)
            return -1;
    }
    if (!store_buffer_full(l1->stores) || store_buffer_find(l1->stores, line_address))
        return 0;
    return l1_run_event(memory, cu, store_buffer_oldest(l1->stores)->line_address, QR_WRITE_EVICT, now, error);
}

/* Whether a store must wait because a wL1 block it would evict (the head of a full S-FIFO, or the
 * oldest block of a full wL1) is bound for a bank that refuses writes (back-pressure). */
static bool write_out_refused(memory_system *memory, unsigned cu, uint64_t line_address)
{
    l1_controller *l1 = &memory->l1[cu];
    sync_fifo *sync = qr_cu_of(memory, cu)->sync;
    if (sync_fifo_full(sync)) {
        uint64_t head = sync_fifo_head(sync);
        if (store_buffer_find(l1->stores, head) && qr_bank_refuses_writes(memory, head))
            return true;
    }
    return store_buffer_full(l1->stores) && !store_buffer_find(l1->stores, line_address) &&
           qr_bank_refuses_writes(memory, store_buffer_oldest(l1->stores)->line_address);
}

/* The event of a load of a line the wL1 holds: served by the wL1 when every byte it reads is
 * dirty there, else a partial hit. Other loads keep their event. */
static l1_event write_cache_event(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                                  l1_event event)
{
    const store_buffer_entry *entry = store_buffer_find(memory->l1[cu].stores, line->line_address);
    if (!entry)
        return event;
    const exec_memory_request *request = &memory_op_get(memory, op)->request;
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    for (uint64_t m = line->lanes; m; m &= m - 1) {
        unsigned offset = (unsigned)(request->address[__builtin_ctzll(m)] - line->line_address);
        for (unsigned b = 0; b < bytes; b++)
            if (!byte_mask_test(&entry->mask, offset + b))
                return QR_LOAD_WRITE_PARTIAL;
    }
    return QR_LOAD_WRITE_HIT;
}

l1_verdict qr_l1_before_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                               l1_event *event, sc_time now, sc_error *error)
{
    if (*event == L1_LOAD || *event == L1_LOAD_STRONG) {
        *event = write_cache_event(memory, cu, line, op, *event);
        return L1_ACCEPTED;
    }
    if (*event != L1_STORE && *event != L1_STORE_STRONG)
        return L1_ACCEPTED;
    if (write_out_refused(memory, cu, line->line_address)) {
        qr_stats_of(memory)->wl1_refused_stores++;
        return L1_REFUSED_STORE_BUFFER_FULL;
    }
    /* (no QR store row can be refused, so making room first never needs undoing) */
    if (make_room_for_store(memory, cu, line->line_address, now, error) < 0)
        return L1_FAILED;
    return L1_ACCEPTED;
}
