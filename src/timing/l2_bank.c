/* l2_bank.c — one slice of the shared, banked GPU L2: a write-back cache of the memory side
 * (memory_side.c: L3, CPU cluster, DRAM) where writes and atomics are performed (the point of
 * coherence of protocols without a directory). A protocol's bank_receive hook sees every message
 * at the head of the bank first (protocol_hooks.h): an ownership protocol's directory slice
 * (protocols/common/directory.c) handles them all and uses the L2 as the home of its lines
 * (l2_home_*); the default, l2_process, is the array serving them as below.
 *
 * Each bank takes one message per GPU cycle from its input queue and answers l2_latency cycles
 * later. Line states and what each request does in them:
 *
 *   state  | Read            | Write                      | Atomic               | fill
 *   -------+-----------------+----------------------------+----------------------+------------------
 *   I      | miss: fetch, IV | full line: install D, ack; | miss: fetch, IV      | -
 *          |                 | partial: miss, fetch, IV   |                      |
 *   V, D   | data            | merge bytes, D, ack        | perform lanes, D     | -
 *   IV     | wait in MSHR    | wait in MSHR               | wait in MSHR         | V; replay waiters
 *
 * A miss picks the LRU victim of the set; a dirty victim is written back (its bytes go to the
 * image at once, the memory side's write is timed), a victim with a fill outstanding stalls the bank.
 * Memory's write queue bounds what the bank sends down (memory_accepts_write): while the queue of
 * the channel is full, a dirty victim, and under write-through a write or atomic, waits at the
 * head of the bank queue, and so does everything behind it.
 * When every L2 MSHR of the bank is busy, the bank stalls until a fill frees one. Requests
 * waiting in an MSHR replay in arrival order, so a CU's write and later read of a line are seen
 * in the order they were sent. A bank has two input queues: requests, and the answers that
 * directory transactions wait for (message_is_response), which go first so that a request
 * stalled for a free structure never holds them up. A protocol's hooks extend the bank:
 * atomic_performed may hold an atomic's answer back (until invalidations it broadcast to the
 * other L1s have arrived), l2_replaced sees a valid victim before it leaves (a lease to keep), bank_receive may take messages before the array does (a write-cache
 * level beside it, which leaves the array read-only but for atomics, or a directory slice that
 * uses the array as its home), and fill_data / fill_must_retake see fills first. */
#include "timing/memory_internal.h"

#include <string.h>

static sc_time cycles(const memory_system *memory, unsigned count)
{
    return sc_clock_span(memory->config.gpu_clock, count);
}

static void schedule_step(memory_system *memory, unsigned bank, sc_time when)
{
    l2_bank *b = &memory->banks[bank];
    if (b->step_scheduled)
        return;
    b->step_scheduled = true;
    event_queue_push(memory->events, when < b->free_at ? b->free_at : when, MEMORY_EVENT_BANK, bank, 0);
}

static void enqueue(memory_system *memory, uint32_t *head, uint32_t *tail, uint32_t handle)
{
    if (*tail == MESSAGE_NONE)
        *head = handle;
    else
        message_get(memory, *tail)->next = handle;
    *tail = handle;
}

void l2_receive(memory_system *memory, uint32_t handle, sc_time now)
{
    message *m = message_get(memory, handle);
    unsigned bank = m->destination.index;
    l2_bank *b = &memory->banks[bank];
    if (message_is_response(memory, (message_type)m->type))
        enqueue(memory, &b->response_head, &b->response_tail, handle);
    else
        enqueue(memory, &b->queue_head, &b->queue_tail, handle);
    schedule_step(memory, bank, now);
}

/* Turns the request into its response and sends it back to the CU, which takes it no earlier than
 * `not_before`. */
static void respond_after(memory_system *memory, uint32_t handle, message_type type, const cache_line *line,
                          gsi_source source, sc_time when, sc_time not_before)
{
    message *m = message_get(memory, handle);
    m->type = (uint8_t)type;
    m->data_source = (uint8_t)source;
    if (type == MSG_DATA)
        memcpy(m->data, line->data, memory->config.line_bytes);
    memory_reply_after(memory, handle, when, not_before);
}

static void respond(memory_system *memory, uint32_t handle, message_type type, const cache_line *line,
                    gsi_source source, sc_time when)
{
    respond_after(memory, handle, type, line, source, when, 0);
}

/* Under l2.write_policy write_through: the written bytes (NULL mask: the line) go on to memory
 * now, and the L2 keeps no dirty data. */
static void write_through(memory_system *memory, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                          sc_time now)
{
    memory->stats.l2_write_throughs++;
    memory_backing_write(memory, line_address, data, mask, now);
}

/* An atomic on a line of a write-through L2: the line stays clean, and memory is written only if
 * the atomic changed the line (a failed CAS of a spinning lock writes nothing; writing every spin
 * through flooded DRAM and starved the lock holder). */
static void atomic_written_through(memory_system *memory, const message *m, cache_line *line, sc_time now)
{
    uint8_t before[TIMING_MAX_LINE_BYTES];
    memcpy(before, line->data, memory->config.line_bytes);
    memory_perform_atomic(memory, m->op, m->line_address, line->data);
    if (memcmp(before, line->data, memory->config.line_bytes))
        write_through(memory, m->line_address, line->data, NULL, now);
}

/* Serves a request on a present line (V or D). */
static void serve(memory_system *memory, unsigned bank, uint32_t handle, cache_line *line, gsi_source source,
                  sc_time when)
{
    message *m = message_get(memory, handle);
    switch ((message_type)m->type) {
    case MSG_READ:
        respond(memory, handle, MSG_DATA, line, source, when);
        break;
    case MSG_WRITE:
        byte_mask_copy(line->data, m->data, &m->mask, memory->config.line_bytes);
        memory->stats.l2_writes++;
        if (memory->l2_writes_through)
            write_through(memory, m->line_address, m->data, &m->mask, when);
        else
            line->state = L2_D;
        respond(memory, handle, MSG_WRITE_ACK, line, source, when);
        break;
    case MSG_ATOMIC:
        memory->stats.l2_atomics++;
        if (memory->l2_writes_through) {
            atomic_written_through(memory, m, line, when);
        } else {
            memory_perform_atomic(memory, m->op, m->line_address, line->data);
            line->state = L2_D;
        }
        respond_after(memory, handle, MSG_ATOMIC_DONE, line, source, when,
                      memory->hooks.atomic_performed(memory, bank, handle, when));
        break;
    default:
        memory->hooks.home_data(memory, bank, handle, line->data, source, when);
        break;
    }
}

static bool full_line_write(const memory_system *memory, const message *m)
{
    return byte_mask_full(&m->mask, memory->config.line_bytes);
}

/* Frees a way for `line_address`: writes a dirty victim back. False when the victim awaits a fill. */
static bool make_room(memory_system *memory, unsigned bank, cache_line *victim, sc_time now)
{
    if (!victim || victim->state == L2_I)
        return true;
    if (victim->state == L2_IV)
        return false;
    if (victim->state == L2_D) {
        memory->stats.l2_writebacks++;
        memory_backing_write(memory, memory_bank_global_address(memory, bank, victim->address), victim->data, NULL,
                             now);
    }
    memory->hooks.l2_replaced(memory, bank, victim, now);
    cache_array_invalidate(memory->banks[bank].cache, victim);
    return true;
}

/* A dirty victim is written back: it waits while memory's write queue for its channel is full. */
static bool victim_waits_for_memory(memory_system *memory, unsigned bank, const cache_line *victim)
{
    if (!victim || victim->state != L2_D ||
        memory_accepts_write(memory, memory_bank_global_address(memory, bank, victim->address)))
        return false;
    memory->stats.l2_memory_write_waits++;
    return true;
}

/* A write or atomic of a write-through L2 waits while memory's write queue for its line's channel
 * is full (an atomic may turn out to change nothing, but the bank cannot know before it is done). */
static bool write_through_waits_for_memory(memory_system *memory, const message *m)
{
    if (!memory->l2_writes_through || (m->type != MSG_WRITE && m->type != MSG_ATOMIC) ||
        memory_accepts_write(memory, m->line_address))
        return false;
    memory->stats.l2_memory_write_waits++;
    return true;
}

/* The bank's array serving a request (see l2_process); false if the bank must stall and retry it
 * next cycle. */
static bool process(memory_system *memory, unsigned bank, uint32_t handle, sc_time now)
{
    l2_bank *b = &memory->banks[bank];
    message *m = message_get(memory, handle);
    if (write_through_waits_for_memory(memory, m))
        return false;
    uint64_t local = memory_bank_local_address(memory, m->line_address);
    cache_line *line = cache_array_lookup(b->cache, local);
    sc_time reply = now + cycles(memory, memory->config.l2_latency);
    if (line && line->state != L2_IV) {
        cache_array_touch(b->cache, line);
        memory->stats.l2_hits++;
        serve(memory, bank, handle, line, GSI_SOURCE_L2, reply);
        return true;
    }
    if (line) {  /* IV: wait for the fill */
        mshr_add_waiter(mshr_find(b->mshrs, local), handle);
        return true;
    }
    if (m->type == MSG_WRITE && memory->l2_writes_through) {   /* write-around: no allocation */
        memory->stats.l2_misses++;
        memory->stats.l2_writes++;
        write_through(memory, m->line_address, m->data, &m->mask, now);
        respond(memory, handle, MSG_WRITE_ACK, NULL, GSI_SOURCE_L2, reply);
        return true;
    }
    bool install_without_fetch = m->type == MSG_WRITE && full_line_write(memory, m);
    if (!install_without_fetch && mshr_full(b->mshrs))
        return false;
    cache_line *victim = cache_array_victim(b->cache, local);
    if (victim_waits_for_memory(memory, bank, victim) || !make_room(memory, bank, victim, now))
        return false;
    memory->stats.l2_misses++;
    if (install_without_fetch) {
        cache_array_install(b->cache, victim, local, L2_D);
        serve(memory, bank, handle, victim, GSI_SOURCE_L2, reply);
        return true;
    }
    cache_array_install(b->cache, victim, local, L2_IV);
    mshr_entry *entry = mshr_allocate(b->mshrs, local);
    mshr_add_waiter(entry, handle);
    memory_backing_read(memory, m->line_address, now);
    return true;
}

int l2_process(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    return process(memory, bank, handle, now) ? 1 : 0;
}

/* Takes the first message of a queue off it. */
static uint32_t dequeue(memory_system *memory, uint32_t *head, uint32_t *tail)
{
    uint32_t handle = *head;
    *head = message_get(memory, handle)->next;
    if (*head == MESSAGE_NONE)
        *tail = MESSAGE_NONE;
    return handle;
}

void l2_requeue_front(memory_system *memory, unsigned bank, uint32_t first, uint32_t last, sc_time when)
{
    l2_bank *b = &memory->banks[bank];
    message_get(memory, last)->next = b->queue_head;
    b->queue_head = first;
    if (b->queue_tail == MESSAGE_NONE)
        b->queue_tail = last;
    schedule_step(memory, bank, when);
}

int l2_step(memory_system *memory, unsigned bank, sc_time now, sc_error *error)
{
    l2_bank *b = &memory->banks[bank];
    b->step_scheduled = false;
    bool response = b->response_head != MESSAGE_NONE;
    if (!response && b->queue_head == MESSAGE_NONE)
        return 0;
    sc_time next_cycle = now + cycles(memory, 1);
    uint32_t handle = response ? dequeue(memory, &b->response_head, &b->response_tail)
                               : dequeue(memory, &b->queue_head, &b->queue_tail);
    int status = memory->hooks.bank_receive(memory, bank, handle, now, error);
    if (status < 0)
        return -1;
    if (status == 0)
        l2_requeue_front(memory, bank, handle, handle, next_cycle);   /* only requests wait */
    else
        b->free_at = next_cycle;
    if (b->queue_head != MESSAGE_NONE || b->response_head != MESSAGE_NONE)
        schedule_step(memory, bank, next_cycle);
    return 0;
}

/* Puts the MSHR's waiters from `first` on back at the head of the bank's queue, in arrival order. */
static void requeue_waiters(memory_system *memory, unsigned bank, const mshr_entry *entry, uint32_t first,
                            sc_time when)
{
    for (uint32_t w = first; w + 1 < entry->waiter_count; w++)
        message_get(memory, entry->waiters[w])->next = entry->waiters[w + 1];
    l2_requeue_front(memory, bank, entry->waiters[first], entry->waiters[entry->waiter_count - 1], when);
}

void l2_fill(memory_system *memory, uint64_t line_address, gsi_source source, sc_time when)
{
    unsigned bank = memory_bank_of(memory, line_address);
    l2_bank *b = &memory->banks[bank];
    uint64_t local = memory_bank_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(b->cache, local);
    mshr_entry *entry = mshr_find(b->mshrs, local);
    uint64_t inside = memory->config.line_bytes;
    const uint8_t *image = sc_device_global_span(memory->device, line_address, &inside);
    memset(line->data, 0, memory->config.line_bytes);
    if (image)
        memcpy(line->data, image, inside);
    if (memory->hooks.fill_data)
        memory->hooks.fill_data(memory, line_address, line->data);
    line->state = L2_V;
    sc_time reply = when + cycles(memory, memory->config.l2_latency);
    for (uint32_t w = 0; w < entry->waiter_count; w++) {
        if (memory->hooks.fill_must_retake(memory, bank, entry->waiters[w])) {
            requeue_waiters(memory, bank, entry, w, when);   /* this one and every later one, in order */
            break;
        }
        serve(memory, bank, entry->waiters[w], line, source, reply + cycles(memory, w));
    }
    mshr_release(b->mshrs, entry);
}

/* ---- the home of a directory's lines ---- */

bool l2_home_blocked(memory_system *memory, unsigned bank, uint64_t line_address)
{
    l2_bank *b = &memory->banks[bank];
    uint64_t local = memory_bank_local_address(memory, line_address);
    if (cache_array_lookup(b->cache, local))
        return false;
    cache_line *victim = cache_array_victim(b->cache, local);
    return mshr_full(b->mshrs) || (victim && victim->state == L2_IV) || victim_waits_for_memory(memory, bank, victim);
}

bool l2_home_read(memory_system *memory, unsigned bank, uint32_t handle, uint8_t *data, sc_time now)
{
    l2_bank *b = &memory->banks[bank];
    uint64_t line_address = message_get(memory, handle)->line_address;
    uint64_t local = memory_bank_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(b->cache, local);
    if (line && line->state != L2_IV) {
        cache_array_touch(b->cache, line);
        memory->stats.l2_hits++;
        memcpy(data, line->data, memory->config.line_bytes);
        return true;
    }
    if (line) {
        mshr_add_waiter(mshr_find(b->mshrs, local), handle);
        return false;
    }
    cache_line *victim = cache_array_victim(b->cache, local);
    make_room(memory, bank, victim, now);
    memory->stats.l2_misses++;
    cache_array_install(b->cache, victim, local, L2_IV);
    mshr_add_waiter(mshr_allocate(b->mshrs, local), handle);
    memory_backing_read(memory, line_address, now);
    return false;
}

void l2_home_write(memory_system *memory, unsigned bank, uint64_t line_address, const uint8_t *data, sc_time now)
{
    l2_bank *b = &memory->banks[bank];
    uint64_t local = memory_bank_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(b->cache, local);
    memory->stats.l2_writes++;
    if (!line) {
        cache_line *victim = cache_array_victim(b->cache, local);
        if (victim && make_room(memory, bank, victim, now)) {
            cache_array_install(b->cache, victim, local, L2_D);
            line = victim;
        }
    }
    if (line && line->state != L2_IV) {
        cache_array_touch(b->cache, line);
        memcpy(line->data, data, memory->config.line_bytes);
        line->state = L2_D;
        return;
    }
    /* No way to be had, or a fill is on its way (it reads the image when it completes). */
    memory->stats.l2_writebacks++;
    memory_backing_write(memory, line_address, data, NULL, now);
}
