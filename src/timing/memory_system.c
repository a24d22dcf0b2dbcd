/* memory_system.c — builds the memory hierarchy from its configuration, owns the message and
 * operation pools, maps lines to their homes, moves messages between endpoints across the NoC,
 * and handles host accesses. The controllers
 * themselves are l1_controller.c and l2_bank.c, with the protocol's hooks (protocol_hooks.h),
 * which it resolves here; below the L2 banks, the L3, the CPU cluster and DRAM are
 * memory_side.c. */
#include "timing/memory_internal.h"

#include "base/random.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SHIFT 8
#define CHUNK_SIZE (1u << CHUNK_SHIFT)

/* ---- pools with stable addresses ---- */

message *message_get(memory_system *memory, uint32_t handle)
{
    return &memory->message_chunks[handle >> CHUNK_SHIFT][handle & (CHUNK_SIZE - 1)];
}

/* A chunk of messages, followed in the same block by their protocol extensions. */
static void grow_messages(memory_system *memory)
{
    uint32_t chunk = memory->message_chunk_count++;
    unsigned extension_bytes = memory->protocol->extension.message;
    memory->message_chunks = realloc(memory->message_chunks, memory->message_chunk_count * sizeof(message *));
    memory->message_chunks[chunk] = malloc(CHUNK_SIZE * (sizeof(message) + extension_bytes));
    uint8_t *extensions = (uint8_t *)(memory->message_chunks[chunk] + CHUNK_SIZE);
    for (uint32_t i = CHUNK_SIZE; i-- > 0;) {
        uint32_t handle = chunk << CHUNK_SHIFT | i;
        message *m = message_get(memory, handle);
        m->extension = extension_bytes ? extensions + (size_t)i * extension_bytes : NULL;
        m->next = memory->free_messages;
        memory->free_messages = handle;
    }
}

noc_traffic_class message_traffic_class(const memory_system *memory, message_type type)
{
    switch (type) {
    case MSG_READ:
    case MSG_DATA:
        return NOC_TRAFFIC_LD;
    case MSG_WRITE:
    case MSG_WRITE_ACK:
        return NOC_TRAFFIC_ST;
    case MSG_ATOMIC:
    case MSG_ATOMIC_DONE:
        return NOC_TRAFFIC_ATO;
    case MSG_INV:
        return NOC_TRAFFIC_INV;
    default:
        return (noc_traffic_class)own_message(memory, type)->traffic;
    }
}

uint32_t message_allocate(memory_system *memory, message_type type, endpoint source, endpoint destination,
                          uint64_t line_address)
{
    if (memory->free_messages == MESSAGE_NONE)
        grow_messages(memory);
    uint32_t handle = memory->free_messages;
    message *m = message_get(memory, handle);
    memory->free_messages = m->next;
    m->type = (uint8_t)type;
    m->data_source = GSI_SOURCE_L2;
    m->around = 0;
    m->grant = L1_I;
    m->protocol_bits = 0;
    m->traffic = (uint8_t)message_traffic_class(memory, type);
    m->protocol_word = 0;
    if (m->extension)
        memset(m->extension, 0, memory->protocol->extension.message);
    m->source = source;
    m->destination = destination;
    m->op = MEMORY_OP_NONE;
    m->next = MESSAGE_NONE;
    m->line_address = line_address;
    m->mask = (byte_mask){{0, 0}};
    return handle;
}

void message_free(memory_system *memory, uint32_t handle)
{
    message_get(memory, handle)->next = memory->free_messages;
    memory->free_messages = handle;
}

memory_op *memory_op_get(memory_system *memory, uint32_t op)
{
    return &memory->op_chunks[op >> CHUNK_SHIFT][op & (CHUNK_SIZE - 1)];
}

uint32_t memory_op_allocate(memory_system *memory)
{
    if (memory->free_ops == MEMORY_OP_NONE) {
        uint32_t chunk = memory->op_chunk_count++;
        memory->op_chunks = realloc(memory->op_chunks, memory->op_chunk_count * sizeof(memory_op *));
        memory->op_chunks[chunk] = malloc(CHUNK_SIZE * sizeof(memory_op));
        for (uint32_t i = CHUNK_SIZE; i-- > 0;) {
            memory_op_get(memory, chunk << CHUNK_SHIFT | i)->in_use = 0;
            memory_op_get(memory, chunk << CHUNK_SHIFT | i)->next_free = memory->free_ops;
            memory->free_ops = chunk << CHUNK_SHIFT | i;
        }
    }
    uint32_t op = memory->free_ops;
    memory_op *record = memory_op_get(memory, op);
    memory->free_ops = record->next_free;
    record->in_use = 1;
    return op;
}

void memory_op_free(memory_system *memory, uint32_t op)
{
    memory_op_get(memory, op)->in_use = 0;
    memory_op_get(memory, op)->next_free = memory->free_ops;
    memory->free_ops = op;
}

/* ---- construction ---- */

static void create_l1(memory_system *memory, l1_controller *l1)
{
    const memory_config *c = &memory->config;
    l1->cache = cache_array_create(c->l1_bytes, c->l1_associativity, c->line_bytes);
    l1->mshrs = mshr_create(c->l1_mshrs);
    if (!cache_array_extend(l1->cache, memory->protocol->extension.l1_line) ||
        !mshr_extend(l1->mshrs, memory->protocol->extension.l1_mshr))
        abort();
    l1->stores = store_buffer_create(c->store_buffer_entries, c->line_bytes);
}

/* The NoC with a port for every endpoint (endpoint_port). On a mesh, the CUs and the L2 banks are
 * spread over the grid in order, the banks from the other end. */
static noc *create_network(const memory_config *c)
{
    unsigned ports = c->cu_count + c->l2_banks;
    unsigned *nodes = malloc(ports * sizeof(unsigned));
    unsigned grid = c->noc.rows * c->noc.columns;
    for (unsigned cu = 0; cu < c->cu_count; cu++)
        nodes[endpoint_port(endpoint_cu(cu), c->cu_count)] = grid ? cu % grid : 0;
    for (unsigned bank = 0; bank < c->l2_banks; bank++)
        nodes[endpoint_port(endpoint_l2_bank(bank), c->cu_count)] = grid ? (c->l2_banks - 1 - bank) % grid : 0;
    noc *network = noc_create(&c->noc, ports, nodes);
    free(nodes);
    return network;
}

/* ---- the protocol's hooks, and the engine's defaults for those it leaves NULL ---- */

static void acquire_nothing(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now) {}

static void send_buffered_stores(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    l1_send_buffered_stores(memory, cu, now);
}

/* The CU-wide release: complete once nothing the CU wrote is queued, buffered or in flight;
 * until then its writes are sent (the release hook) and the other warps' writes held back. */
static release_wait wait_for_cu_writes(memory_system *memory, unsigned cu, unsigned warp, ptx_scope scope, bool begun,
                                       int queued_writer, sc_time now)
{
    if (queued_writer < 0 && l1_store_buffer_empty(memory, cu) && memory->l1[cu].writes_outstanding == 0)
        return RELEASE_DONE;
    memory->hooks.release(memory, cu, scope, now);
    return RELEASE_WAITS_HOLDING;
}

static void count_write_outstanding(memory_system *memory, unsigned cu) { memory->l1[cu].writes_outstanding++; }

static void do_nothing_for_warp(memory_system *memory, unsigned cu, unsigned warp, sc_time now) {}

static release_wait barrier_orders_cta_only(memory_system *memory, unsigned cu, unsigned cta, bool begun,
                                            bool write_queued, sc_time now)
{
    return RELEASE_DONE;
}

static void acquire_every_l1(memory_system *memory, sc_time now)
{
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        memory->hooks.acquire(memory, cu, PTX_SCOPE_SYS, now);
}

static void release_every_l1(memory_system *memory, sc_time now)
{
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        memory->hooks.release(memory, cu, PTX_SCOPE_SYS, now);
}

static bool no_write_outstanding(const memory_system *memory, unsigned cu)
{
    return memory->l1[cu].writes_outstanding == 0;
}

static l1_verdict accept_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                                l1_event *event, sc_time now, sc_error *error)
{
    return L1_ACCEPTED;
}

int l1_action_unknown(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    return sc_fail(error, "internal error: protocol %s: L1 action %s is not implemented", memory->protocol->name,
                   l1_action_name(memory->protocol, action));
}

int l1_message_unknown(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    const message *m = message_get(memory, handle);
    return sc_fail(error, "internal error: CU %u received a request message (type %u)", message_cu(m), m->type);
}

static bool guard_holds(memory_system *memory, const l1_context *context, unsigned guard) { return true; }

static endpoint home_at_line_bank(memory_system *memory, endpoint requester, uint64_t line_address)
{
    return endpoint_l2_bank(memory_bank_of(memory, line_address));
}

static sc_time answer_at_once(memory_system *memory, unsigned bank, uint32_t handle, sc_time when) { return 0; }

static void ignore_home_data(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data,
                             gsi_source source, sc_time when)
{
}

static bool serve_from_fill(memory_system *memory, unsigned bank, uint32_t handle) { return false; }

static void forget_replaced_line(memory_system *memory, unsigned bank, const cache_line *line, sc_time now) {}

static void send_unstamped(memory_system *memory, unsigned cu, uint32_t handle, sc_time now) {}

static int take_nothing(memory_system *memory, uint32_t handle, sc_time now, sc_error *error) { return 0; }

static int unknown_event(memory_system *memory, const timing_event *event, sc_error *error)
{
    return sc_fail(error, "internal error: unknown memory event %u", event->kind);
}

/* After a host write no L1 may keep a copy of the lines: every L1 drops every line. */
static void drop_l1_copies_after_write(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    memory_host_write_drop_l1s(memory, start, end, is_write, false);
}

static void resolve_hooks(memory_system *memory, const protocol_hooks *given)
{
    if (given)
        memory->hooks = *given;
    protocol_hooks *h = &memory->hooks;
    h->acquire = h->acquire ? h->acquire : acquire_nothing;
    h->release = h->release ? h->release : send_buffered_stores;
    h->warp_release = h->warp_release ? h->warp_release : wait_for_cu_writes;
    h->store_buffer_full = h->store_buffer_full ? h->store_buffer_full : l1_send_oldest_store;
    h->write_sent = h->write_sent ? h->write_sent : count_write_outstanding;
    h->l1_request = h->l1_request ? h->l1_request : send_unstamped;
    h->l1_answer = h->l1_answer ? h->l1_answer : take_nothing;
    h->warp_exit = h->warp_exit ? h->warp_exit : do_nothing_for_warp;
    h->barrier = h->barrier ? h->barrier : do_nothing_for_warp;
    h->cta_barrier_release = h->cta_barrier_release ? h->cta_barrier_release : barrier_orders_cta_only;
    h->kernel_begin = h->kernel_begin ? h->kernel_begin : acquire_every_l1;
    h->kernel_end = h->kernel_end ? h->kernel_end : release_every_l1;
    h->l1_drained = h->l1_drained ? h->l1_drained : no_write_outstanding;
    h->l1_before_access = h->l1_before_access ? h->l1_before_access : accept_access;
    h->l1_action = h->l1_action ? h->l1_action : l1_action_unknown;
    h->l1_guard = h->l1_guard ? h->l1_guard : guard_holds;
    h->l1_message = h->l1_message ? h->l1_message : l1_message_unknown;
    h->home_of = h->home_of ? h->home_of : home_at_line_bank;
    h->bank_receive = h->bank_receive ? h->bank_receive : l2_process;
    h->atomic_performed = h->atomic_performed ? h->atomic_performed : answer_at_once;
    h->home_data = h->home_data ? h->home_data : ignore_home_data;
    h->fill_must_retake = h->fill_must_retake ? h->fill_must_retake : serve_from_fill;
    h->l2_replaced = h->l2_replaced ? h->l2_replaced : forget_replaced_line;
    h->handle_event = h->handle_event ? h->handle_event : unknown_event;
    h->host_access = h->host_access ? h->host_access : drop_l1_copies_after_write;
}

memory_system *memory_system_create(const memory_config *config, const sc_protocol *protocol, sc_device *device,
                                    event_queue *events, memory_callbacks callbacks)
{
    memory_system *memory = calloc(1, sizeof *memory);
    memory->config = *config;
    memory->protocol = protocol;
    protocol_build_index(protocol, &memory->table);
    memory->device = device;
    memory->events = events;
    memory->callbacks = callbacks;
    memory->free_messages = MESSAGE_NONE;
    memory->free_ops = MEMORY_OP_NONE;
    memory->jitter_state = config->jitter;
    memory->l1 = calloc(config->cu_count, sizeof *memory->l1);
    for (unsigned cu = 0; cu < config->cu_count; cu++)
        create_l1(memory, &memory->l1[cu]);
    memory->banks = calloc(config->l2_banks, sizeof *memory->banks);
    for (unsigned b = 0; b < config->l2_banks; b++) {
        memory->banks[b].cache = cache_array_create(config->l2_bytes / config->l2_banks, config->l2_associativity,
                                                    config->line_bytes);
        memory->banks[b].mshrs = mshr_create(config->l2_mshrs_per_bank);
        if (!cache_array_extend(memory->banks[b].cache, protocol->extension.l2_line) ||
            !mshr_extend(memory->banks[b].mshrs, protocol->extension.l2_mshr))
            abort();
        memory->banks[b].queue_head = memory->banks[b].queue_tail = MESSAGE_NONE;
        memory->banks[b].response_head = memory->banks[b].response_tail = MESSAGE_NONE;
    }
    memory->network = create_network(config);
    memory_side_create(memory);
    memory->l2_writes_through = config->l2_write_through;
    resolve_hooks(memory, protocol->hooks);
    if (memory->hooks.build)
        memory->hooks.build(memory);
    return memory;
}

void memory_system_destroy(memory_system *memory)
{
    if (!memory)
        return;
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        l1_controller *l1 = &memory->l1[cu];
        cache_array_destroy(l1->cache);
        mshr_destroy(l1->mshrs);
        store_buffer_destroy(l1->stores);
    }
    if (memory->hooks.destroy)
        memory->hooks.destroy(memory);
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        cache_array_destroy(memory->banks[b].cache);
        mshr_destroy(memory->banks[b].mshrs);
    }
    for (uint32_t i = 0; i < memory->message_chunk_count; i++)
        free(memory->message_chunks[i]);
    for (uint32_t i = 0; i < memory->op_chunk_count; i++)
        free(memory->op_chunks[i]);
    free(memory->message_chunks);
    free(memory->op_chunks);
    free(memory->l1);
    free(memory->banks);
    noc_destroy(memory->network);
    memory_side_destroy(memory);
    free(memory);
}

/* ---- moving messages ---- */

unsigned memory_bank_of(const memory_system *memory, uint64_t line_address)
{
    return (unsigned)((line_address / memory->config.line_bytes) % memory->config.l2_banks);
}

uint64_t memory_bank_local_address(const memory_system *memory, uint64_t line_address)
{
    uint64_t line = memory->config.line_bytes;
    return line_address / line / memory->config.l2_banks * line;
}

uint64_t memory_bank_global_address(const memory_system *memory, unsigned bank, uint64_t local_address)
{
    uint64_t line = memory->config.line_bytes;
    return (local_address / line * memory->config.l2_banks + bank) * line;
}

static bool carries_line(const memory_system *memory, message_type type)
{
    if (type >= MSG_PROTOCOL_FIRST)
        return own_message(memory, type)->carries_line;
    return type == MSG_WRITE || type == MSG_DATA || type == MSG_ATOMIC;
}

/* Bytes on the wire: a header, plus a line of data for writes, atomics (operands), data and the
 * lines L1s hand back to a directory. */
static unsigned message_bytes(const memory_system *memory, const message *m)
{
    return MEMORY_MESSAGE_HEADER_BYTES + (carries_line(memory, (message_type)m->type) ? memory->config.line_bytes : 0);
}

/* --jitter: delays each injection by 0-3 NoC cycles, chosen by a splitmix64 stream. */
static sc_time injection_delay(memory_system *memory)
{
    if (!memory->config.jitter)
        return 0;
    return sc_clock_span(memory->config.noc.clock, sc_splitmix64(&memory->jitter_state) & 3);
}

/* The bytes of a message to an L2 bank, the CUs' writes counted. */
static unsigned bytes_to_bank(memory_system *memory, const message *m)
{
    unsigned bytes = message_bytes(memory, m);
    if (m->type == MSG_WRITE)
        memory->stats.l2_write_bytes_in += bytes;
    return bytes;
}

/* The bytes of a message to a CU, counted as data or coherence traffic. */
static unsigned bytes_to_cu(memory_system *memory, const message *m)
{
    unsigned bytes = message_bytes(memory, m);
    if (m->type == MSG_DATA)
        memory->stats.l1_data_bytes_in += bytes;
    else if (m->type == MSG_INV || (m->type >= MSG_PROTOCOL_FIRST && own_message(memory, m->type)->coherence))
        memory->stats.l1_coherence_bytes_in += bytes;
    return bytes;
}

static unsigned port_of(const memory_system *memory, endpoint e) { return endpoint_port(e, memory->config.cu_count); }

/* memory_send, arriving no earlier than `not_before`. */
static sc_time send_after(memory_system *memory, uint32_t handle, sc_time now, sc_time not_before)
{
    message *m = message_get(memory, handle);
    bool to_cu = m->destination.kind == ENDPOINT_CU;
    unsigned bytes = to_cu ? bytes_to_cu(memory, m) : bytes_to_bank(memory, m);
    sc_time arrival = noc_send(memory->network, port_of(memory, m->source), port_of(memory, m->destination), bytes,
                               (noc_traffic_class)m->traffic, now + injection_delay(memory));
    if (arrival < not_before)
        arrival = not_before;
    event_queue_push(memory->events, arrival, to_cu ? MEMORY_EVENT_AT_CU : MEMORY_EVENT_AT_L2, m->destination.index,
                     handle);
    return arrival;
}

sc_time memory_send(memory_system *memory, uint32_t handle, sc_time now) { return send_after(memory, handle, now, 0); }

sc_time memory_reply_after(memory_system *memory, uint32_t handle, sc_time now, sc_time not_before)
{
    message *m = message_get(memory, handle);
    endpoint requester = m->source;
    m->source = m->destination;
    m->destination = requester;
    return send_after(memory, handle, now, not_before);
}

sc_time memory_reply(memory_system *memory, uint32_t handle, sc_time now)
{
    return memory_reply_after(memory, handle, now, 0);
}

sc_time memory_broadcast_to_cus(memory_system *memory, message_type type, uint64_t line_address, endpoint source,
                                unsigned except_cu, sc_time now)
{
    unsigned from = port_of(memory, source);
    unsigned bytes = MEMORY_MESSAGE_HEADER_BYTES + (carries_line(memory, type) ? memory->config.line_bytes : 0);
    sc_time injection = noc_multicast_inject(memory->network, from, bytes, now + injection_delay(memory));
    sc_time last = 0;
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        if (cu == except_cu)
            continue;
        endpoint to = endpoint_cu(cu);
        uint32_t handle = message_allocate(memory, type, source, to, line_address);
        const message *m = message_get(memory, handle);
        sc_time arrival = noc_multicast_deliver(memory->network, from, port_of(memory, to), bytes_to_cu(memory, m),
                                                (noc_traffic_class)m->traffic, injection);
        event_queue_push(memory->events, arrival, MEMORY_EVENT_AT_CU, cu, handle);
        last = arrival > last ? arrival : last;
    }
    return last;
}

/* ---- completing operations ---- */

void memory_op_line_done(memory_system *memory, uint32_t handle, uint64_t line_address, const uint8_t *line_data,
                         gsi_source source, sc_time now)
{
    memory_op *op = memory_op_get(memory, handle);
    exec_memory_request *request = &op->request;
    if (line_data) {
        uint64_t line_mask = ~(uint64_t)(memory->config.line_bytes - 1);
        for (uint64_t m = request->lane_mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            if ((request->address[lane] & line_mask) != line_address)
                continue;
            const uint8_t *bytes = line_data + (request->address[lane] - line_address);
            for (unsigned k = 0; k < request->vector; k++)
                request->data[lane][k] = exec_load_bytes(bytes + k * request->element_bytes, request->element_bytes);
        }
    }
    op->source = (uint8_t)source;
    if (--op->lines_pending == 0)
        memory->callbacks.op_done(memory->callbacks.context, handle, now);
}

uint64_t memory_op_lanes_in_line(const memory_system *memory, const memory_op *op, uint64_t line_address)
{
    uint64_t line_mask = ~(uint64_t)(memory->config.line_bytes - 1), lanes = 0;
    for (uint64_t m = op->request.lane_mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        if ((op->request.address[lane] & line_mask) == line_address)
            lanes |= 1ull << lane;
    }
    return lanes;
}

void memory_perform_atomic(memory_system *memory, uint32_t handle, uint64_t line_address, uint8_t *line_data)
{
    memory_op *op = memory_op_get(memory, handle);
    exec_memory_request *request = &op->request;
    for (uint64_t lanes = memory_op_lanes_in_line(memory, op, line_address); lanes; lanes &= lanes - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(lanes);
        exec_memory_perform_lane(request, lane, line_data + (request->address[lane] - line_address));
    }
}

/* ---- events ---- */

int memory_handle_event(memory_system *memory, const timing_event *event, sc_error *error)
{
    if (memory->failed) {
        *error = memory->failure;
        return -1;
    }
    noc_advance(memory->network, event->time);
    switch (event->kind) {
    case MEMORY_EVENT_AT_L2:
        l2_receive(memory, (uint32_t)event->argument, event->time);
        return 0;
    case MEMORY_EVENT_AT_CU:
        return l1_receive(memory, (uint32_t)event->argument, event->time, error);
    case MEMORY_EVENT_BANK:
        return l2_step(memory, event->target, event->time, error);
    case MEMORY_EVENT_DRAM:
    case MEMORY_EVENT_BACKING_DATA:
    case MEMORY_EVENT_BACKING_MISS:
        memory_side_handle_event(memory, event);
        return 0;
    default:
        return memory->hooks.handle_event(memory, event, error);
    }
}

/* ---- host accesses ---- */

typedef struct host_range {
    memory_system *memory;
    cache_array *cache;       /* the array being visited */
    unsigned bank;            /* L2 banks: the bank of `cache` */
    uint64_t start, end;
    bool is_write;
    bool (*l1_dirty)(l1_state state);   /* L1 visits: whether a line in `state` is newer than the home */
} host_range;

static bool overlaps(const host_range *range, uint64_t address)
{
    return address + range->memory->config.line_bytes > range->start && address < range->end;
}

/* Copies a dirty line to the image, except the bytes a host write just put there. */
static void write_back_to_image(const host_range *range, uint64_t address, const uint8_t *data)
{
    uint64_t inside = range->memory->config.line_bytes;
    uint8_t *image = sc_device_global_span(range->memory->device, address, &inside);
    if (!image)
        return;
    for (unsigned i = 0; i < inside; i++)
        if (!range->is_write || address + i < range->start || address + i >= range->end)
            image[i] = data[i];
}

/* Writes a dirty L2 line back to the image before the host reads it; after a host write, keeps
 * the host's bytes, writes back the line's other dirty bytes and drops the line. */
static void host_visit_l2_line(void *context, cache_line *line)
{
    host_range *range = context;
    uint64_t address = memory_bank_global_address(range->memory, range->bank, line->address);
    if (!overlaps(range, address))
        return;
    if (line->state == L2_D)
        write_back_to_image(range, address, line->data);
    if (range->is_write)
        cache_array_invalidate(range->cache, line);
    else if (line->state == L2_D)
        line->state = L2_V;
}

/* The same for an L1 that holds lines newer than the L2's: the image gets their data (the L1
 * keeps the line after a read); a host write drops every copy. */
static void host_visit_l1_line(void *context, cache_line *line)
{
    host_range *range = context;
    if (!overlaps(range, line->address))
        return;
    if (range->l1_dirty((l1_state)line->state))
        write_back_to_image(range, line->address, line->data);
    if (range->is_write)
        cache_array_invalidate(range->cache, line);
}

void memory_host_access_dirty_l1s(memory_system *memory, uint64_t start, uint64_t end, bool is_write,
                                  bool (*l1_dirty)(l1_state state))
{
    host_range range = {memory, NULL, 0, start, end, is_write, l1_dirty};
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        range.cache = memory->l1[cu].cache;
        cache_array_for_each(range.cache, host_visit_l1_line, &range);
    }
}

static bool never_dirty(l1_state state) { return false; }

void memory_host_write_drop_l1s(memory_system *memory, uint64_t start, uint64_t end, bool is_write,
                                bool written_only)
{
    if (written_only)
        memory_host_access_dirty_l1s(memory, start, end, is_write, never_dirty);
    else if (is_write)
        for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
            cache_array_flash_invalidate(memory->l1[cu].cache);
}

void memory_host_access(memory_system *memory, uint64_t address, size_t bytes, bool is_write)
{
    host_range range = {memory, NULL, 0, address, address + bytes, is_write, NULL};
    memory_side_host_access(memory, range.start, range.end, is_write);
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        range.cache = memory->banks[b].cache;
        range.bank = b;
        cache_array_for_each(range.cache, host_visit_l2_line, &range);
    }
    memory->hooks.host_access(memory, range.start, range.end, is_write);
}

void memory_warm_line(memory_system *memory, uint64_t address, bool wrote)
{
    uint64_t line_address = address & ~(uint64_t)(memory->config.line_bytes - 1);
    unsigned bank = memory_bank_of(memory, line_address);
    cache_array *cache = memory->banks[bank].cache;
    uint64_t local = memory_bank_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(cache, local);
    if (line) {
        cache_array_touch(cache, line);
        if (wrote)
            line->state = L2_D;
        return;
    }
    line = cache_array_victim(cache, local);
    if (line && line->state == L2_D)
        memory_side_warm(memory, memory_bank_global_address(memory, bank, line->address), true);
    memory_side_warm(memory, line_address, false);
    if (line)
        cache_array_install(cache, line, local, wrote ? L2_D : L2_V);
}

typedef struct refresh_range {
    memory_system *memory;
    unsigned bank;
} refresh_range;

static void refresh_line(void *context, cache_line *line)
{
    refresh_range *range = context;
    unsigned line_bytes = range->memory->config.line_bytes;
    uint64_t address = memory_bank_global_address(range->memory, range->bank, line->address), inside = line_bytes;
    const uint8_t *image = sc_device_global_span(range->memory->device, address, &inside);
    if (!image) {
        cache_array_invalidate(range->memory->banks[range->bank].cache, line);
        return;
    }
    memcpy(line->data, image, inside);
}

void memory_warm_finish(memory_system *memory)
{
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        refresh_range range = {memory, b};
        cache_array_for_each(memory->banks[b].cache, refresh_line, &range);
    }
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        cache_array_flash_invalidate(memory->l1[cu].cache);
    if (memory->hooks.warm_finish)
        memory->hooks.warm_finish(memory);
}

/* ---- kernel boundaries ---- */

void memory_kernel_begin(memory_system *memory, sc_time now) { memory->hooks.kernel_begin(memory, now); }

void memory_kernel_end(memory_system *memory, sc_time now) { memory->hooks.kernel_end(memory, now); }

memory_op *memory_oldest_op(memory_system *memory)
{
    memory_op *oldest = NULL;
    for (uint32_t c = 0; c < memory->op_chunk_count; c++)
        for (uint32_t i = 0; i < CHUNK_SIZE; i++) {
            memory_op *op = &memory->op_chunks[c][i];
            if (op->in_use && (!oldest || op->issued_cycle < oldest->issued_cycle))
                oldest = op;
        }
    return oldest;
}

const memory_stats *memory_statistics(const memory_system *memory) { return &memory->stats; }
const void *memory_protocol_statistics(const memory_system *memory) { return memory->protocol_stats; }
const noc_stats *memory_noc_statistics(const memory_system *memory) { return noc_statistics(memory->network); }

noc_energy memory_noc_energy(const memory_system *memory, sc_time elapsed)
{
    return noc_energy_of(&memory->config.noc_energy, noc_geometry_of(memory->network), noc_statistics(memory->network),
                         elapsed);
}
const dram_stats *memory_dram_statistics(const memory_system *memory) { return dram_statistics(memory->memory); }
