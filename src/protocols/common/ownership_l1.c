/* ownership_l1.c — the L1 side of ownership protocols (ownership.h): the names and properties of
 * their states, events, actions and messages, the state it keeps per L1 (ownership_l1), and the
 * hooks that carry out their L1 actions, take the directory's forwards and write-back
 * acknowledgements, and say when an L1 is drained.
 *
 * A GetS or GetM opens an MSHR in IS or IM like any miss (l1_open_miss); requests to the line
 * wait in it and are performed in arrival order when the grant arrives. An atomic on an owned
 * line is performed by the L1's atomic unit (one per cycle, l1_perform_atomic) and answered
 * after the L1 latency; an owner answers a forward once its atomic unit has performed what it
 * took. A Put carries the line to the
 * directory (dirty from M and O) and counts as a write-back outstanding (ownership_l1) until
 * acknowledged, and the L1 is not drained at kernel end before; an owner answers a forward with
 * its data, or with no data when its Put went first. */
#include "protocols/common/ownership.h"

#include <stdlib.h>
#include <string.h>

const protocol_own_state ownership_states[OWNERSHIP_STATES] = {
    {"S", true}, {"E", true}, {"O", true}, {"M", true}, {"IS", false}, {"IM", false},
};

const char *const ownership_events[OWNERSHIP_EVENTS] = {"FwdGetS", "FwdGetM", "GrantS", "GrantE", "GrantM",
                                                          "DropNow"};

const protocol_own_action ownership_actions[OWNERSHIP_ACTIONS] = {
    {"request_shared", true}, {"request_ownership", true}, {"perform_atomic", false}, {"write_back", false},
    {"send_inv_ack", false},  {"send_data", false},        {"send_no_data", false},
    {"count_modified_hit", false},
};

/* name, carries a line, a response at the bank, coherence traffic to a CU, NoC traffic class
 * (GetS and GetM go as misses' requests, in their accesses' classes; an InvAck takes the class of
 * the invalidation it answers) */
const protocol_own_message ownership_messages[OWNERSHIP_MESSAGES] = {
    {"GetS", false, false, false, NOC_TRAFFIC_LD},        {"GetM", false, false, false, NOC_TRAFFIC_ST},
    {"Put", true, true, false, NOC_TRAFFIC_RCL},          {"PutAck", false, false, false, NOC_TRAFFIC_RCL},
    {"FwdGetS", false, false, true, NOC_TRAFFIC_RCL},     {"FwdGetM", false, false, true, NOC_TRAFFIC_RCL},
    {"InvAck", false, true, false, NOC_TRAFFIC_INV},      {"OwnerData", true, true, false, NOC_TRAFFIC_RCL},
    {"OwnerNoData", false, true, false, NOC_TRAFFIC_RCL},
};

void ownership_l1_build(memory_system *memory)
{
    ownership_l1 *l1s = calloc(memory->config.cu_count, sizeof *l1s);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        memory->l1[cu].protocol_state = &l1s[cu];
}

void ownership_l1_destroy(memory_system *memory) { free(ownership_l1_of(memory, 0)); }

bool ownership_l1_drained(const memory_system *memory, unsigned cu)
{
    return l1_writes_outstanding(memory, cu) == 0 && ownership_l1_of(memory, cu)->writebacks_outstanding == 0;
}

bool l1_state_dirty(l1_state state)
{
    return state == L1_O || state == L1_M;
}

/* Sends a message about a line to its directory (the line's home), with the line's data if given,
 * in the traffic class of the message it answers (`answering`), or without one in its type's. */
static void send_to_directory(memory_system *memory, unsigned cu, message_type type, uint64_t line_address,
                              const uint8_t *data, bool dirty, const message *answering, sc_time when)
{
    uint32_t handle = message_allocate_request(memory, type, cu, line_address);
    message *m = message_get(memory, handle);
    if (answering)
        m->traffic = answering->traffic;
    if (data)
        memcpy(m->data, data, memory->config.line_bytes);
    m->protocol_bits = dirty ? OWNERSHIP_DIRTY : 0;
    memory_send(memory, handle, when);
}

/* Performs an atomic on the owned line through the L1's atomic unit; its values reach the warp
 * after the L1 latency. */
static void perform_atomic_locally(memory_system *memory, l1_context *context, sc_time now)
{
    memory->l1[context->cu].writes_outstanding++;
    l1_perform_atomic(memory, context->cu, context->op, context->line_address, context->cached->data,
                      sc_clock_span(memory->config.gpu_clock, memory->config.l1_latency), now);
}

static void write_back(memory_system *memory, l1_context *context, sc_time now)
{
    const cache_line *line = context->cached;
    send_to_directory(memory, context->cu, MSG_PUT, line->address, line->data, l1_state_dirty((l1_state)line->state),
                      NULL, now);
    ownership_l1_of(memory, context->cu)->writebacks_outstanding++;
    ownership_stats_of(memory)->l1_writebacks++;
}

static void send_data(memory_system *memory, l1_context *context, sc_time now)
{
    const cache_line *line = context->cached;
    sc_time when = l1_atomics_done(memory, context->cu, now) +
                   sc_clock_span(memory->config.gpu_clock, memory->config.l1_latency);
    send_to_directory(memory, context->cu, MSG_OWNER_DATA, line->address, line->data,
                      l1_state_dirty((l1_state)line->state), NULL, when);
}

int ownership_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    unsigned cu = context->cu;
    switch ((int)action) {
    case L1_REQUEST_SHARED:
        l1_open_miss(memory, context, MSG_GET_S, L1_IS, now);
        return 0;
    case L1_REQUEST_OWNERSHIP:
        l1_open_miss(memory, context, MSG_GET_M, L1_IM, now);
        ownership_stats_of(memory)->l1_ownership_requests++;
        return 0;
    case L1_PERFORM_ATOMIC:
        perform_atomic_locally(memory, context, now);
        return 0;
    case L1_WRITE_BACK:
        write_back(memory, context, now);
        return 0;
    case L1_SEND_INV_ACK:
        send_to_directory(memory, cu, MSG_INV_ACK, context->line_address, NULL, false, context->message, now);
        return 0;
    case L1_SEND_DATA:
        send_data(memory, context, now);
        return 0;
    case L1_SEND_NO_DATA:
        send_to_directory(memory, cu, MSG_OWNER_NO_DATA, context->line_address, NULL, false, NULL, now);
        return 0;
    case L1_COUNT_MODIFIED_HIT:
        ownership_stats_of(memory)->l1_read_hits_modified++;
        return 0;
    default:
        return l1_action_unknown(memory, context, action, now, error);
    }
}

int ownership_l1_message(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    const message *m = message_get(memory, handle);
    switch ((int)m->type) {
    case MSG_FWD_GET_S:
        return l1_run_message_event(memory, handle, L1_FWD_GETS, now, error);
    case MSG_FWD_GET_M:
        return l1_run_message_event(memory, handle, L1_FWD_GETM, now, error);
    case MSG_PUT_ACK:
        ownership_l1_of(memory, message_cu(m))->writebacks_outstanding--;
        return 0;
    default:
        return l1_message_unknown(memory, handle, now, error);
    }
}
