/* l1_controller.c — a compute unit's L1 controller: runs the protocol's L1 table (protocols/)
 * for every line access, and implements each table action once, on the shared structures
 * (cache array, MSHRs, store buffer) and messages to the L2.
 *
 * The L1 state of a line is derived, not stored: V when the array holds it, IV when an MSHR of
 * the current acquire epoch (kept in `opened`) is open for it and not closed, I otherwise. An
 * MSHR opened before the latest acquire, or closed by a write of the CU, is stale: its fill is
 * delivered to the requests already waiting but never cached, and a new miss to its line waits
 * for it (reported as MSHR full) rather than merge with data older than the acquire or write. */
#include "timing/memory_internal.h"

#include <string.h>

/* Whether the miss may still take new requests and cache its fill. */
static bool miss_current(const l1_controller *l1, const mshr_entry *entry)
{
    return entry->opened == l1->epoch && !(entry->flags & L1_MSHR_CLOSED);
}

static l1_state derive_state(l1_controller *l1, uint64_t line_address, cache_line **line, mshr_entry **entry)
{
    *line = cache_array_lookup(l1->cache, line_address);
    *entry = mshr_find(l1->mshrs, line_address);
    if (*line)
        return L1_V;
    return *entry && miss_current(l1, *entry) ? L1_IV : L1_I;
}

/* Writes the store data of `op`'s lanes in `line` into `data` (a line buffer), lane order. */
static void write_lanes(const memory_op *op, const coalesced_line *line, uint8_t *data, byte_mask *written)
{
    const exec_memory_request *request = &op->request;
    for (uint64_t m = line->lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        unsigned offset = (unsigned)(request->address[lane] - line->line_address);
        for (unsigned k = 0; k < request->vector; k++)
            exec_store_bytes(data + offset + k * request->element_bytes, request->element_bytes,
                             request->data[lane][k]);
        if (written)
            byte_mask_set_range(written, offset, (unsigned)request->element_bytes * request->vector);
    }
}

static void send_write(memory_system *memory, unsigned cu, uint64_t line_address, const uint8_t *data,
                       const byte_mask *mask, sc_time now)
{
    uint32_t handle = message_allocate(memory, MSG_WRITE, cu, line_address);
    message *m = message_get(memory, handle);
    m->mask = *mask;
    memcpy(m->data, data, memory->config.line_bytes);
    memory->l1[cu].writes_outstanding++;
    memory_send_to_l2(memory, handle, now);
}

static void drain_entry(memory_system *memory, unsigned cu, store_buffer_entry *entry, sc_time now)
{
    send_write(memory, cu, entry->line_address, entry->data, &entry->mask, now);
    store_buffer_remove(memory->l1[cu].stores, entry);
    memory->stats.store_buffer_drains++;
}

void l1_drain_oldest(memory_system *memory, unsigned cu, sc_time now)
{
    store_buffer_entry *entry = store_buffer_oldest(memory->l1[cu].stores);
    if (entry)
        drain_entry(memory, cu, entry, now);
}

void l1_drain_store_buffer(memory_system *memory, unsigned cu, sc_time now)
{
    for (store_buffer_entry *entry; (entry = store_buffer_oldest(memory->l1[cu].stores));)
        drain_entry(memory, cu, entry, now);
}

void l1_acquire(memory_system *memory, unsigned cu)
{
    if (!memory->protocol->acquire_invalidates_l1)
        return;
    cache_array_flash_invalidate(memory->l1[cu].cache);
    memory->l1[cu].epoch++;
    memory->stats.l1_flash_invalidations++;
}

bool l1_store_buffer_empty(const memory_system *memory, unsigned cu) { return store_buffer_count(memory->l1[cu].stores) == 0; }

bool l1_mshr_full(const memory_system *memory, unsigned cu)
{
    const l1_controller *l1 = &memory->l1[cu];
    return mshr_in_use(l1->mshrs) + l1->reads_around >= mshr_capacity(l1->mshrs);
}

unsigned l1_bank_of(const memory_system *memory, uint64_t line_address)
{
    return (unsigned)((line_address / memory->config.line_bytes) % memory->config.l1_banks);
}

/* Whether the row's actions can all be carried out now; the refusal reason otherwise. */
static l1_verdict admit(memory_system *memory, unsigned cu, const protocol_transition *row, uint64_t line_address,
                        const mshr_entry *entry)
{
    l1_controller *l1 = &memory->l1[cu];
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++)
        switch (row->actions[i]) {
        case L1_OPEN_MISS:
            if (entry || l1_mshr_full(memory, cu))   /* an entry here is stale: wait for its fill */
                return L1_REFUSED_MSHR_FULL;
            break;
        case L1_READ_AROUND:
            if (l1_mshr_full(memory, cu))
                return L1_REFUSED_MSHR_FULL;
            break;
        case L1_BUFFER_STORE:
            if (store_buffer_full(l1->stores) && !store_buffer_find(l1->stores, line_address) &&
                memory->config.store_buffer_entries > 0)
                return L1_REFUSED_STORE_BUFFER_FULL;
            break;
        default:
            break;
        }
    return L1_ACCEPTED;
}

static void send_read(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t op, bool around, sc_time now)
{
    uint32_t handle = message_allocate(memory, MSG_READ, cu, line_address);
    message *m = message_get(memory, handle);
    m->op = op;
    m->around = around;
    memory_send_to_l2(memory, handle, now);
}

static void hit(memory_system *memory, unsigned cu, cache_line *line, uint32_t op, sc_time now)
{
    uint32_t handle = message_allocate(memory, MSG_DATA, cu, line->address);
    message *m = message_get(memory, handle);
    memcpy(m->data, line->data, memory->config.line_bytes);
    m->op = op;
    m->around = 1;
    m->source = GSI_SOURCE_L1;
    cache_array_touch(memory->l1[cu].cache, line);
    memory->stats.l1_hits++;
    event_queue_push(memory->events, now + sc_clock_span(memory->config.gpu_clock, memory->config.l1_latency),
                     MEMORY_EVENT_AT_CU, cu, handle);
}

static void open_miss(memory_system *memory, unsigned cu, uint64_t line_address, uint32_t op, sc_time now)
{
    l1_controller *l1 = &memory->l1[cu];
    mshr_entry *entry = mshr_allocate(l1->mshrs, line_address);
    entry->opened = l1->epoch;
    entry->flags = 0;
    mshr_add_waiter(entry, op);
    memory->stats.l1_misses++;
    memory->stats.mshr_samples++;
    memory->stats.mshr_occupancy_sum += mshr_in_use(l1->mshrs);
    if (mshr_in_use(l1->mshrs) > memory->stats.mshr_peak)
        memory->stats.mshr_peak = mshr_in_use(l1->mshrs);
    send_read(memory, cu, line_address, MEMORY_OP_NONE, false, now);
}

static void buffer_store(memory_system *memory, unsigned cu, const coalesced_line *line, const memory_op *op,
                         sc_time now)
{
    l1_controller *l1 = &memory->l1[cu];
    const exec_memory_request *request = &op->request;
    for (uint64_t m = line->lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        unsigned offset = (unsigned)(request->address[lane] - line->line_address);
        for (unsigned k = 0; k < request->vector; k++) {
            uint8_t bytes[8];
            exec_store_bytes(bytes, request->element_bytes, request->data[lane][k]);
            store_buffer_write(l1->stores, line->line_address, offset + k * request->element_bytes, bytes,
                               request->element_bytes);
        }
    }
}

static void write_through(memory_system *memory, unsigned cu, const coalesced_line *line, const memory_op *op,
                          sc_time now)
{
    store_buffer_entry *buffered = store_buffer_find(memory->l1[cu].stores, line->line_address);
    if (buffered) {
        write_lanes(op, line, buffered->data, &buffered->mask);
        drain_entry(memory, cu, buffered, now);
    } else {
        uint8_t data[TIMING_MAX_LINE_BYTES];
        byte_mask mask = {{0, 0}};
        write_lanes(op, line, data, &mask);
        send_write(memory, cu, line->line_address, data, &mask, now);
    }
    memory->stats.l1_write_throughs++;
}

static void run_action(memory_system *memory, unsigned cu, l1_action action, const coalesced_line *line,
                       uint32_t handle, cache_line *cached, mshr_entry *entry, sc_time now)
{
    l1_controller *l1 = &memory->l1[cu];
    memory_op *op = memory_op_get(memory, handle);
    switch (action) {
    case L1_HIT:
        hit(memory, cu, cached, handle, now);
        break;
    case L1_MERGE:
        mshr_add_waiter(entry, handle | L1_WAITER_MERGED);
        memory->stats.l1_merges++;
        break;
    case L1_OPEN_MISS:
        open_miss(memory, cu, line->line_address, handle, now);
        break;
    case L1_READ_AROUND:
        l1->reads_around++;
        memory->stats.l1_read_arounds++;
        send_read(memory, cu, line->line_address, handle, true, now);
        break;
    case L1_UPDATE_LINE:
        write_lanes(op, line, cached->data, NULL);
        break;
    case L1_BUFFER_STORE:
        if (memory->config.store_buffer_entries == 0)
            write_through(memory, cu, line, op, now);
        else
            buffer_store(memory, cu, line, op, now);
        break;
    case L1_WRITE_THROUGH:
        write_through(memory, cu, line, op, now);
        break;
    case L1_DRAIN_LINE: {
        store_buffer_entry *buffered = store_buffer_find(l1->stores, line->line_address);
        if (buffered)
            drain_entry(memory, cu, buffered, now);
        break;
    }
    case L1_INVALIDATE_LINE:
        cache_array_invalidate(l1->cache, cached);
        memory->stats.l1_invalidations++;
        break;
    case L1_CLOSE_MISS:
        entry->flags |= L1_MSHR_CLOSED;
        break;
    case L1_SEND_ATOMIC: {
        uint32_t message_handle = message_allocate(memory, MSG_ATOMIC, cu, line->line_address);
        message_get(memory, message_handle)->op = handle;
        l1->writes_outstanding++;
        memory_send_to_l2(memory, message_handle, now);
        break;
    }
    default:
        break;
    }
}

static int missing_transition(const memory_system *memory, l1_state state, l1_event event, sc_error *error)
{
    return sc_fail(error, "internal error: protocol %s has no L1 transition for state %s on event %s",
                   memory->protocol->name, l1_state_name(state), l1_event_name(event));
}

static int check_next_state(memory_system *memory, unsigned cu, const protocol_transition *row, uint64_t line_address,
                            sc_error *error)
{
    cache_line *line;
    mshr_entry *entry;
    l1_state now_state = derive_state(&memory->l1[cu], line_address, &line, &entry);
    if (now_state == row->next)
        return 0;
    return sc_fail(error, "internal error: protocol %s: L1 %s on %s ended in %s, table says %s", memory->protocol->name,
                   l1_state_name((l1_state)row->state), l1_event_name((l1_event)row->event), l1_state_name(now_state),
                   l1_state_name((l1_state)row->next));
}

l1_verdict l1_access(memory_system *memory, unsigned cu, l1_event event, const coalesced_line *line, uint32_t op,
                     sc_time now, sc_error *error)
{
    cache_line *cached;
    mshr_entry *entry;
    l1_state state = derive_state(&memory->l1[cu], line->line_address, &cached, &entry);
    const protocol_transition *row = memory->table.l1[state][event];
    if (!row) {
        missing_transition(memory, state, event, error);
        return L1_FAILED;
    }
    l1_verdict verdict = admit(memory, cu, row, line->line_address, entry);
    if (verdict != L1_ACCEPTED)
        return verdict;
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++)
        run_action(memory, cu, (l1_action)row->actions[i], line, op, cached, entry, now);
    if (check_next_state(memory, cu, row, line->line_address, error) < 0)
        return L1_FAILED;
    if (event == L1_STORE || event == L1_STORE_STRONG)
        memory_op_line_done(memory, op, line->line_address, NULL, GSI_SOURCE_L1, now);
    return L1_ACCEPTED;
}

/* ---- responses ---- */

static int receive_fill(memory_system *memory, unsigned cu, message *m, sc_time now, sc_error *error)
{
    l1_controller *l1 = &memory->l1[cu];
    cache_line *cached;
    mshr_entry *entry;
    l1_state state = derive_state(l1, m->line_address, &cached, &entry);
    if (!entry)
        return sc_fail(error, "internal error: L1 of CU %u got a fill for line 0x%llx with no open miss", cu,
                       (unsigned long long)m->line_address);
    bool cacheable = miss_current(l1, entry) && cache_array_victim(l1->cache, m->line_address);
    l1_event event = cacheable ? L1_FILL : L1_FILL_UNCACHED;   /* a zero-size L1 caches nothing */
    const protocol_transition *row = memory->table.l1[state][event];
    if (!row)
        return missing_transition(memory, state, event, error);
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++) {
        if (row->actions[i] == L1_INSTALL_FILL) {
            cache_line *victim = cache_array_victim(l1->cache, m->line_address);
            if (victim) {
                cache_array_install(l1->cache, victim, m->line_address, L1_V);
                memcpy(victim->data, m->data, memory->config.line_bytes);
            }
        } else if (row->actions[i] == L1_DELIVER_FILL) {
            for (uint32_t w = 0; w < entry->waiter_count; w++) {
                uint32_t token = entry->waiters[w];
                gsi_source source = token & L1_WAITER_MERGED ? GSI_SOURCE_L1_COALESCE : (gsi_source)m->source;
                memory_op_line_done(memory, token & ~L1_WAITER_MERGED, m->line_address, m->data, source, now);
            }
            mshr_release(l1->mshrs, entry);
        }
    }
    return check_next_state(memory, cu, row, m->line_address, error);
}

int l1_receive(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    unsigned cu = m->cu;
    l1_controller *l1 = &memory->l1[cu];
    int status = 0;
    switch ((message_type)m->type) {
    case MSG_DATA:
        if (!m->around) {
            status = receive_fill(memory, cu, m, now, error);
            break;
        }
        if (m->source != GSI_SOURCE_L1)
            l1->reads_around--;
        memory_op_line_done(memory, m->op, m->line_address, m->data, (gsi_source)m->source, now);
        break;
    case MSG_ATOMIC_DONE:
        l1->writes_outstanding--;
        memory->callbacks.write_performed(memory->callbacks.context, cu, now);
        memory_op_line_done(memory, m->op, m->line_address, NULL, (gsi_source)m->source, now);
        break;
    case MSG_WRITE_ACK:
        l1->writes_outstanding--;
        memory->callbacks.write_performed(memory->callbacks.context, cu, now);
        break;
    default:
        status = sc_fail(error, "internal error: CU %u received a request message (type %u)", cu, m->type);
        break;
    }
    message_free(memory, handle);
    return status;
}

uint64_t l1_writes_outstanding(const memory_system *memory, unsigned cu)
{
    return memory->l1[cu].writes_outstanding;
}
