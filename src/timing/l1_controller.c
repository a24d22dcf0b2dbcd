/* l1_controller.c — a compute unit's L1 controller: runs the protocol's L1 table (protocols/)
 * for every line access and every message from the L2 or the directory, and implements each
 * table action once, on the shared structures (cache array, MSHRs, store buffer) and messages.
 *
 * The L1 state of a line is derived from the structures: a line in the array is in the state
 * stored with it (V for write-through; S, E, O or M for ownership protocols), and a line with an
 * MSHR of the current acquire epoch (kept in `opened`) that is not closed is in the transient
 * state stored with the MSHR (IV, IS or IM); otherwise it is I. An MSHR opened before the
 * latest acquire, or closed by a write of the CU, is stale: its fill is delivered to the requests
 * already waiting but never cached, and a new miss to its line waits for it (reported as MSHR
 * full) rather than merge with data older than the acquire or write. After a row's actions the
 * line in the array takes the row's next state, and the derived state must equal it.
 *
 * Stores and atomics that wait in an MSHR for ownership count as outstanding writes until the
 * grant arrives and they are performed on the line, in arrival order with the loads.
 *
 * A store's operation is done, for its warp (warp_slot.global_in_flight, which an SC core's issue
 * filter orders by), when it is performed as far as the L1 can tell: written into a line the L1
 * owns, performed when its ownership arrives, or acknowledged by the L2 after a write-through
 * (the write carries the operation). A store the write-combining store buffer takes is done once
 * buffered: the buffer's bytes belong to the CU, and only a release waits for them.
 *
 * The CU's other points of the protocol pass through here to its hooks: acquire and release,
 * room in the store buffer, the issue filter, a warp's exit and barrier arrival, and whether the
 * L1 is drained at kernel end. */
#include "timing/memory_internal.h"

#include <stdlib.h>
#include <string.h>

static int run_row(memory_system *memory, l1_context *context, const protocol_transition *row, sc_time now,
                   sc_error *error);
static int run_event_row(memory_system *memory, l1_context *context, l1_state state, l1_event event, sc_time now,
                         sc_error *error);

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
        return (l1_state)(*line)->state;
    return *entry && miss_current(l1, *entry) ? (l1_state)(*entry)->state : L1_I;
}

/* States in which the line is in the array: the engine's valid one, and the protocol's own that
 * say so. */
static bool state_present(const sc_protocol *protocol, l1_state state)
{
    if (state >= L1_STATE_PROTOCOL_FIRST)
        return protocol->own_states[state - L1_STATE_PROTOCOL_FIRST].in_array;
    return state == L1_V;
}

static bool is_store(l1_event event) { return event == L1_STORE || event == L1_STORE_STRONG; }

static bool is_load(l1_event event) { return event == L1_LOAD || event == L1_LOAD_STRONG; }

void l1_write_lanes(const memory_op *op, const coalesced_line *line, uint8_t *data, byte_mask *written)
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

void l1_write_performed(memory_system *memory, unsigned cu, sc_time now)
{
    memory->l1[cu].writes_outstanding--;
    memory->callbacks.write_performed(memory->callbacks.context, cu, now);
}

void l1_perform_atomic(memory_system *memory, unsigned cu, uint32_t op, uint64_t line_address, uint8_t *line_data,
                       sc_time latency, sc_time now)
{
    l1_controller *l1 = &memory->l1[cu];
    sc_time start = now > l1->atomic_unit_free ? now : l1->atomic_unit_free;
    l1->atomic_unit_free = start + memory->config.gpu_clock.period;
    memory_perform_atomic(memory, op, line_address, line_data);
    endpoint here = endpoint_cu(cu);
    uint32_t handle = message_allocate(memory, MSG_ATOMIC_DONE, here, here, line_address);
    message *m = message_get(memory, handle);
    m->op = op;
    m->data_source = GSI_SOURCE_L1;
    event_queue_push(memory->events, start + latency, MEMORY_EVENT_AT_CU, cu, handle);
}

sc_time l1_atomics_done(const memory_system *memory, unsigned cu, sc_time now)
{
    sc_time free = memory->l1[cu].atomic_unit_free;
    return free > now ? free : now;
}

/* Sends masked bytes of a line to its home; `op` is the store whose operation completes at the
 * acknowledgement (MSG_WRITE_ACK), or MEMORY_OP_NONE for bytes the store buffer collected. */
static void send_write(memory_system *memory, unsigned cu, uint64_t line_address, const uint8_t *data,
                       const byte_mask *mask, uint32_t op, sc_time now)
{
    uint32_t handle = message_allocate_request(memory, MSG_WRITE, cu, line_address);
    message *m = message_get(memory, handle);
    m->mask = *mask;
    m->op = op;
    memcpy(m->data, data, memory->config.line_bytes);
    memory->hooks.write_sent(memory, cu);
    memory->hooks.l1_request(memory, cu, handle, now);
    memory_send(memory, handle, now);
}

/* Sends a store buffer entry; `op` as for send_write. */
static void drain_entry(memory_system *memory, unsigned cu, store_buffer_entry *entry, uint32_t op, sc_time now)
{
    send_write(memory, cu, entry->line_address, entry->data, &entry->mask, op, now);
    store_buffer_remove(memory->l1[cu].stores, entry);
    memory->stats.store_buffer_drains++;
}

void l1_send_oldest_store(memory_system *memory, unsigned cu, sc_time now)
{
    store_buffer_entry *entry = store_buffer_oldest(memory->l1[cu].stores);
    if (entry)
        drain_entry(memory, cu, entry, MEMORY_OP_NONE, now);
}

void l1_send_buffered_stores(memory_system *memory, unsigned cu, sc_time now)
{
    for (store_buffer_entry *entry; (entry = store_buffer_oldest(memory->l1[cu].stores));)
        drain_entry(memory, cu, entry, MEMORY_OP_NONE, now);
}

void l1_flash_invalidate(memory_system *memory, unsigned cu)
{
    cache_array_flash_invalidate(memory->l1[cu].cache);
    memory->l1[cu].epoch++;
    memory->stats.l1_flash_invalidations++;
}

void l1_release(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    memory->hooks.release(memory, cu, scope, now);
}

release_wait l1_warp_release(memory_system *memory, unsigned cu, unsigned warp, ptx_scope scope, bool begun,
                             int queued_writer, sc_time now)
{
    return memory->hooks.warp_release(memory, cu, warp, scope, begun, queued_writer, now);
}

void l1_acquire(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    memory->hooks.acquire(memory, cu, scope, now);
}

void l1_make_store_room(memory_system *memory, unsigned cu, sc_time now)
{
    memory->hooks.store_buffer_full(memory, cu, now);
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
        case L1_STALL:
            return L1_REFUSED_MSHR_FULL;   /* the line's outstanding miss must be answered first */
        case L1_BUFFER_STORE:
            if (store_buffer_full(l1->stores) && !store_buffer_find(l1->stores, line_address) &&
                memory->config.store_buffer_entries > 0)
                return L1_REFUSED_STORE_BUFFER_FULL;
            break;
        default:   /* the protocol's own action: one that opens a miss waits as L1_OPEN_MISS does */
            if (row->actions[i] >= L1_ACTION_PROTOCOL_FIRST &&
                memory->protocol->own_actions[row->actions[i] - L1_ACTION_PROTOCOL_FIRST].opens_miss &&
                (entry || l1_mshr_full(memory, cu)))
                return L1_REFUSED_MSHR_FULL;
            break;
        }
    return L1_ACCEPTED;
}

/* Sends a read of the line (a miss's request, or a read around the L1 for `op`) in class `traffic`. */
static void send_read(memory_system *memory, unsigned cu, message_type type, uint64_t line_address, uint32_t op,
                      bool around, noc_traffic_class traffic, sc_time now)
{
    uint32_t handle = message_allocate_request(memory, type, cu, line_address);
    message *m = message_get(memory, handle);
    m->op = op;
    m->around = around;
    m->traffic = (uint8_t)traffic;
    memory->hooks.l1_request(memory, cu, handle, now);
    memory_send(memory, handle, now);
}

/* The traffic class of a request of `type` that access `op` sends: a load's LD, a store's ST, an
 * atomic's or a reduction's ATO; without an access, the type's own. */
static noc_traffic_class request_traffic_class(memory_system *memory, message_type type, uint32_t op)
{
    if (op == MEMORY_OP_NONE)
        return message_traffic_class(memory, type);
    switch (memory_op_get(memory, op)->request.kind) {
    case EXEC_ACCESS_STORE:
        return NOC_TRAFFIC_ST;
    case EXEC_ACCESS_ATOMIC:
    case EXEC_ACCESS_REDUCE:
        return NOC_TRAFFIC_ATO;
    default:
        return NOC_TRAFFIC_LD;
    }
}

void l1_deliver_hit(memory_system *memory, unsigned cu, uint64_t line_address, const uint8_t *data, uint32_t op,
                    sc_time now)
{
    uint32_t handle = message_allocate(memory, MSG_DATA, endpoint_cu(cu), endpoint_cu(cu), line_address);
    message *m = message_get(memory, handle);
    memcpy(m->data, data, memory->config.line_bytes);
    m->op = op;
    m->around = 1;
    m->data_source = GSI_SOURCE_L1;
    memory->stats.l1_hits++;
    event_queue_push(memory->events, now + sc_clock_span(memory->config.gpu_clock, memory->config.l1_latency),
                     MEMORY_EVENT_AT_CU, cu, handle);
}

static void hit(memory_system *memory, unsigned cu, cache_line *line, uint32_t op, sc_time now)
{
    cache_array_touch(memory->l1[cu].cache, line);
    l1_deliver_hit(memory, cu, line->address, line->data, op, now);
}

/* The access waits in the line's MSHR; a store or atomic counts as an outstanding write. */
static void park(memory_system *memory, l1_context *context, mshr_entry *entry, uint32_t token)
{
    mshr_add_waiter(entry, token);
    context->parked = true;
    if (!is_load((l1_event)memory_op_get(memory, context->op)->event))
        memory->l1[context->cu].writes_outstanding++;
}

void l1_open_miss(memory_system *memory, l1_context *context, message_type request, l1_state state, sc_time now)
{
    l1_controller *l1 = &memory->l1[context->cu];
    mshr_entry *entry = mshr_allocate(l1->mshrs, context->line_address);
    entry->opened = l1->epoch;
    entry->state = (uint8_t)state;
    park(memory, context, entry, context->op);
    memory->stats.l1_misses++;
    memory->stats.mshr_samples++;
    memory->stats.mshr_occupancy_sum += mshr_in_use(l1->mshrs);
    if (mshr_in_use(l1->mshrs) > memory->stats.mshr_peak)
        memory->stats.mshr_peak = mshr_in_use(l1->mshrs);
    send_read(memory, context->cu, request, context->line_address, MEMORY_OP_NONE, false,
              request_traffic_class(memory, request, context->op), now);
}

void l1_buffer_store(memory_system *memory, unsigned cu, const coalesced_line *line, const memory_op *op)
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

/* Sends the store's bytes in the line to the L2 now, with the line's buffered bytes if any; the
 * store's line is done when the write is acknowledged (context->awaits_ack), so a store counts in
 * its warp's global accesses in flight until it is performed. */
static void write_through(memory_system *memory, l1_context *context, sc_time now)
{
    unsigned cu = context->cu;
    const coalesced_line *line = context->lanes;
    const memory_op *op = memory_op_get(memory, context->op);
    store_buffer_entry *buffered = store_buffer_find(memory->l1[cu].stores, line->line_address);
    if (buffered) {
        l1_write_lanes(op, line, buffered->data, &buffered->mask);
        drain_entry(memory, cu, buffered, context->op, now);
    } else {
        uint8_t data[TIMING_MAX_LINE_BYTES];
        byte_mask mask = {{0, 0}};
        l1_write_lanes(op, line, data, &mask);
        send_write(memory, cu, line->line_address, data, &mask, context->op, now);
    }
    context->awaits_ack = true;
    memory->stats.l1_write_throughs++;
}

/* Caches the message's line in the row's next state; a valid victim goes first through its own
 * Replace row (an owned one is written back). */
static int install_fill(memory_system *memory, l1_context *context, const protocol_transition *row, sc_time now,
                        sc_error *error)
{
    l1_controller *l1 = &memory->l1[context->cu];
    cache_line *victim = cache_array_victim(l1->cache, context->line_address);
    if (!victim)
        return 0;
    if (victim->state != L1_I) {
        l1_context evicted = {.cu = context->cu, .line_address = victim->address, .op = MEMORY_OP_NONE,
                              .cached = victim};
        if (run_event_row(memory, &evicted, (l1_state)victim->state, L1_REPLACE, now, error) < 0)
            return -1;
    }
    cache_array_install(l1->cache, victim, context->line_address, row->next);
    memcpy(victim->data, context->message->data, memory->config.line_bytes);
    context->cached = victim;
    return 0;
}

/* Serves the MSHR's requests in arrival order on the line (cached, or the message's copy): loads
 * read it, stores are performed on it, atomics go through the CU's atomic unit (one per cycle).
 * Then frees the MSHR. */
static void deliver_fill(memory_system *memory, l1_context *context, sc_time now)
{
    mshr_entry *entry = context->entry;
    const message *m = context->message;
    uint8_t *data = context->cached ? context->cached->data : context->message->data;
    for (uint32_t w = 0; w < entry->waiter_count; w++) {
        uint32_t token = entry->waiters[w], handle = token & ~L1_WAITER_MERGED;
        memory_op *op = memory_op_get(memory, handle);
        gsi_source source = token & L1_WAITER_MERGED ? GSI_SOURCE_L1_COALESCE : (gsi_source)m->data_source;
        if (is_load((l1_event)op->event)) {
            memory_op_line_done(memory, handle, m->line_address, data, source, now);
            continue;
        }
        if (!is_store((l1_event)op->event)) {
            l1_perform_atomic(memory, context->cu, handle, m->line_address, data, 0, now);
            continue;
        }
        coalesced_line lanes = {.line_address = m->line_address,
                                .lanes = memory_op_lanes_in_line(memory, op, m->line_address)};
        l1_write_lanes(op, &lanes, data, NULL);
        l1_write_performed(memory, context->cu, now);
        memory_op_line_done(memory, handle, m->line_address, NULL, source, now);
    }
    mshr_release(memory->l1[context->cu].mshrs, entry);
    context->entry = NULL;
}

static int run_action(memory_system *memory, l1_context *context, const protocol_transition *row, l1_action action,
                      sc_time now, sc_error *error)
{
    unsigned cu = context->cu;
    l1_controller *l1 = &memory->l1[cu];
    memory_op *op = context->op == MEMORY_OP_NONE ? NULL : memory_op_get(memory, context->op);
    switch (action) {
    case L1_HIT:
        hit(memory, cu, context->cached, context->op, now);
        break;
    case L1_MERGE:
        park(memory, context, context->entry, context->op | L1_WAITER_MERGED);
        memory->stats.l1_merges++;
        break;
    case L1_OPEN_MISS:
        l1_open_miss(memory, context, MSG_READ, L1_IV, now);
        break;
    case L1_READ_AROUND:
        l1->reads_around++;
        memory->stats.l1_read_arounds++;
        send_read(memory, cu, MSG_READ, context->line_address, context->op, true,
                  request_traffic_class(memory, MSG_READ, context->op), now);
        break;
    case L1_UPDATE_LINE:
        l1_write_lanes(op, context->lanes, context->cached->data, NULL);
        break;
    case L1_BUFFER_STORE:
        if (memory->config.store_buffer_entries == 0)
            write_through(memory, context, now);
        else
            l1_buffer_store(memory, cu, context->lanes, op);
        break;
    case L1_WRITE_THROUGH:
        write_through(memory, context, now);
        break;
    case L1_DRAIN_LINE: {
        store_buffer_entry *buffered = store_buffer_find(l1->stores, context->line_address);
        if (buffered)
            drain_entry(memory, cu, buffered, MEMORY_OP_NONE, now);
        break;
    }
    case L1_INVALIDATE_LINE:
        cache_array_invalidate(l1->cache, context->cached);
        memory->stats.l1_invalidations++;
        break;
    case L1_DROP_LINE:
        cache_array_invalidate(l1->cache, context->cached);
        break;
    case L1_CLOSE_MISS:
        context->entry->flags |= L1_MSHR_CLOSED;
        break;
    case L1_SEND_ATOMIC: {
        uint32_t message_handle = message_allocate_request(memory, MSG_ATOMIC, cu, context->line_address);
        message_get(memory, message_handle)->op = context->op;
        l1->writes_outstanding++;
        memory->hooks.l1_request(memory, cu, message_handle, now);
        memory_send(memory, message_handle, now);
        break;
    }
    case L1_INSTALL_FILL:
        return install_fill(memory, context, row, now, error);
    case L1_DELIVER_FILL:
        deliver_fill(memory, context, now);
        break;
    default:
        return memory->hooks.l1_action(memory, context, action, now, error);
    }
    return 0;
}

static int missing_transition(const memory_system *memory, l1_state state, l1_event event, sc_error *error)
{
    return sc_fail(error, "internal error: protocol %s has no L1 transition for state %s on event %s",
                   memory->protocol->name, l1_state_name(memory->protocol, state), l1_event_name(memory->protocol, event));
}

/* The row of (state, event) that applies to the context's line: the first whose guard holds. */
static const protocol_transition *select_row(memory_system *memory, const l1_context *context, l1_state state,
                                             l1_event event)
{
    const protocol_transition *row = memory->table.l1[state][event];
    while (row && row->guard && !memory->hooks.l1_guard(memory, context, row->guard))
        row = protocol_next_alternative(row, memory->table.l1_end);
    return row;
}

/* Runs the row of `event` in the line's `state` with `context`. */
static int run_event_row(memory_system *memory, l1_context *context, l1_state state, l1_event event, sc_time now,
                         sc_error *error)
{
    const protocol_transition *row = select_row(memory, context, state, event);
    if (!row)
        return missing_transition(memory, state, event, error);
    return run_row(memory, context, row, now, error);
}

/* Runs the row's actions, gives the line in the array the row's next state and checks that the
 * derived state is that state. */
static int run_row(memory_system *memory, l1_context *context, const protocol_transition *row, sc_time now,
                   sc_error *error)
{
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++)
        if (run_action(memory, context, row, (l1_action)row->actions[i], now, error) < 0)
            return -1;
    cache_line *line;
    mshr_entry *entry;
    l1_state state = derive_state(&memory->l1[context->cu], context->line_address, &line, &entry);
    if (line && state_present(memory->protocol, (l1_state)row->next))
        line->state = row->next;
    state = line ? (l1_state)line->state : state;
    if (state == row->next)
        return 0;
    return sc_fail(error, "internal error: protocol %s: L1 %s on %s ended in %s, table says %s", memory->protocol->name,
                   l1_state_name(memory->protocol, (l1_state)row->state), l1_event_name(memory->protocol, (l1_event)row->event), l1_state_name(memory->protocol, state),
                   l1_state_name(memory->protocol, (l1_state)row->next));
}

/* ---- accesses from the load/store unit ---- */

l1_verdict l1_access(memory_system *memory, unsigned cu, l1_event event, const coalesced_line *line, uint32_t op,
                     sc_time now, sc_error *error)
{
    if (memory->failed) {
        *error = memory->failure;
        return L1_FAILED;
    }
    l1_event line_event = event;
    l1_verdict before = memory->hooks.l1_before_access(memory, cu, line, op, &line_event, now, error);
    if (before != L1_ACCEPTED)
        return before;
    l1_context context = {.cu = cu, .line_address = line->line_address, .lanes = line, .op = op};
    l1_state state = derive_state(&memory->l1[cu], line->line_address, &context.cached, &context.entry);
    const protocol_transition *row = select_row(memory, &context, state, line_event);
    if (!row) {
        missing_transition(memory, state, line_event, error);
        return L1_FAILED;
    }
    l1_verdict verdict = admit(memory, cu, row, line->line_address, context.entry);
    if (verdict != L1_ACCEPTED)
        return verdict;
    if (run_row(memory, &context, row, now, error) < 0)
        return L1_FAILED;
    memory->stats.l1_load_accesses += is_load(event);
    if (is_store(event) && !context.parked && !context.awaits_ack)
        memory_op_line_done(memory, op, line->line_address, NULL, GSI_SOURCE_L1, now);
    return L1_ACCEPTED;
}

/* ---- messages from the L2 or the directory ---- */

/* The event a message of the engine's raises at the L1: an invalidation, the protocol's grant
 * event a fill carries, or a fill. */
static l1_event message_event(const l1_controller *l1, const message *m, const mshr_entry *entry)
{
    if (m->type == MSG_INV)
        return L1_INV;
    if (m->grant)
        return (l1_event)m->grant;
    bool cacheable = miss_current(l1, entry) && cache_array_victim(l1->cache, m->line_address);
    return cacheable ? L1_FILL : L1_FILL_UNCACHED;   /* a zero-size L1 caches nothing */
}


static int receive_from_below(memory_system *memory, unsigned cu, uint32_t handle, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    l1_controller *l1 = &memory->l1[cu];
    l1_context context = {.cu = cu, .line_address = m->line_address, .op = MEMORY_OP_NONE, .message = m};
    l1_state state = derive_state(l1, m->line_address, &context.cached, &context.entry);
    if (m->type == MSG_DATA && !context.entry)
        return sc_fail(error, "internal error: L1 of CU %u got a fill for line 0x%llx with no open miss", cu,
                       (unsigned long long)m->line_address);
    return run_event_row(memory, &context, state, message_event(l1, m, context.entry), now, error);
}

int l1_run_message_event(memory_system *memory, uint32_t handle, l1_event event, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    unsigned cu = message_cu(m);
    l1_context context = {.cu = cu, .line_address = m->line_address, .op = MEMORY_OP_NONE, .message = m};
    l1_state state = derive_state(&memory->l1[cu], m->line_address, &context.cached, &context.entry);
    return run_event_row(memory, &context, state, event, now, error);
}

int l1_receive(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    unsigned cu = message_cu(m);
    l1_controller *l1 = &memory->l1[cu];
    int status = 0;
    switch ((message_type)m->type) {
    case MSG_DATA:
        if (!m->around) {
            status = receive_from_below(memory, cu, handle, now, error);
            break;
        }
        if (m->data_source != GSI_SOURCE_L1) {
            l1->reads_around--;
            status = memory->hooks.l1_answer(memory, handle, now, error);
        }
        memory_op_line_done(memory, m->op, m->line_address, m->data, (gsi_source)m->data_source, now);
        break;
    case MSG_INV:
        status = receive_from_below(memory, cu, handle, now, error);
        break;
    case MSG_ATOMIC_DONE:
        status = memory->hooks.l1_answer(memory, handle, now, error);
        l1_write_performed(memory, cu, now);
        memory_op_line_done(memory, m->op, m->line_address, NULL, (gsi_source)m->data_source, now);
        break;
    case MSG_WRITE_ACK:
        status = memory->hooks.l1_answer(memory, handle, now, error);
        l1_write_performed(memory, cu, now);
        if (m->op != MEMORY_OP_NONE)
            memory_op_line_done(memory, m->op, m->line_address, NULL, (gsi_source)m->data_source, now);
        break;
    default:
        status = memory->hooks.l1_message(memory, handle, now, error);
        break;
    }
    message_free(memory, handle);
    return status;
}

uint64_t l1_writes_outstanding(const memory_system *memory, unsigned cu)
{
    return memory->l1[cu].writes_outstanding;
}

bool l1_drained(const memory_system *memory, unsigned cu) { return memory->hooks.l1_drained(memory, cu); }

bool memory_filters_issue(const memory_system *memory) { return memory->hooks.issue_filter != NULL; }

bool memory_barriers_release(const memory_system *memory) { return memory->barriers_release; }

bool memory_l1s_write_back(const memory_system *memory) { return memory->l1s_write_back; }

issue_verdict l1_issue_filter(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                              unsigned global_in_flight)
{
    return memory->hooks.issue_filter(memory, cu, warp, traits, global_in_flight);
}

void l1_warp_exit(memory_system *memory, unsigned cu, unsigned warp, sc_time now)
{
    memory->hooks.warp_exit(memory, cu, warp, now);
}

void l1_barrier(memory_system *memory, unsigned cu, unsigned warp, sc_time now)
{
    memory->hooks.barrier(memory, cu, warp, now);
}

release_wait l1_cta_barrier_release(memory_system *memory, unsigned cu, unsigned cta, bool begun, bool write_queued,
                                    sc_time now)
{
    return memory->hooks.cta_barrier_release(memory, cu, cta, begun, write_queued, now);
}

int l1_run_event(memory_system *memory, unsigned cu, uint64_t line_address, l1_event event, sc_time now,
                 sc_error *error)
{
    l1_context context = {.cu = cu, .line_address = line_address, .op = MEMORY_OP_NONE};
    l1_state state = derive_state(&memory->l1[cu], line_address, &context.cached, &context.entry);
    return run_event_row(memory, &context, state, event, now, error);
}

/* The addresses of the lines l1_replace_lines picked, gathered before any is replaced. */
typedef struct picked_lines {
    bool (*chosen)(const cache_line *line);
    uint64_t *addresses;
    size_t count, capacity;
} picked_lines;

static void pick_line(void *context, cache_line *line)
{
    picked_lines *picked = context;
    if (picked->chosen && !picked->chosen(line))
        return;
    if (picked->count == picked->capacity) {
        picked->capacity = picked->capacity ? 2 * picked->capacity : 64;
        picked->addresses = realloc(picked->addresses, picked->capacity * sizeof *picked->addresses);
    }
    picked->addresses[picked->count++] = line->address;
}

void l1_replace_lines(memory_system *memory, unsigned cu, bool (*chosen)(const cache_line *line), sc_time now)
{
    picked_lines picked = {.chosen = chosen};
    cache_array_for_each(memory->l1[cu].cache, pick_line, &picked);
    for (size_t i = 0; i < picked.count && !memory->failed; i++)
        if (l1_run_event(memory, cu, picked.addresses[i], L1_REPLACE, now, &memory->failure) < 0)
            memory->failed = true;
    free(picked.addresses);
}
