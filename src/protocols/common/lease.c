/* lease.c — physical-time lease coherence (lease.h): the L1 table shared by TC-Strong and
 * TC-Weak, lazy expiry at the L1, and the controller that runs a mechanism's lease table at each
 * L2 bank in front of the bank's array, with the bank's waiting writes and evicted leases. */
#include "protocols/common/lease.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ROW PROTOCOL_ROW

/* Leases expire by time alone: no invalidation reaches the L1. */
const protocol_transition lease_l1_table[LEASE_L1_ROWS] = {
    ROW(L1_I,  L1_LOAD,          L1_IV, L1_OPEN_MISS),
    ROW(L1_I,  L1_LOAD_STRONG,   L1_IV, L1_OPEN_MISS),
    ROW(L1_IV, L1_LOAD,          L1_IV, L1_MERGE),
    ROW(L1_IV, L1_LOAD_STRONG,   L1_IV, L1_MERGE),
    ROW(L1_V,  L1_LOAD,          L1_V,  L1_HIT),
    ROW(L1_V,  L1_LOAD_STRONG,   L1_V,  L1_HIT),

    ROW(L1_I,  L1_STORE,         L1_I,  L1_WRITE_THROUGH),
    ROW(L1_I,  L1_STORE_STRONG,  L1_I,  L1_WRITE_THROUGH),
    ROW(L1_IV, L1_STORE,         L1_I,  L1_CLOSE_MISS, L1_WRITE_THROUGH),
    ROW(L1_IV, L1_STORE_STRONG,  L1_I,  L1_CLOSE_MISS, L1_WRITE_THROUGH),
    ROW(L1_V,  L1_STORE,         L1_I,  L1_DROP_LINE, L1_WRITE_THROUGH),
    ROW(L1_V,  L1_STORE_STRONG,  L1_I,  L1_DROP_LINE, L1_WRITE_THROUGH),

    ROW(L1_I,  L1_ATOMIC,        L1_I,  L1_SEND_ATOMIC),
    ROW(L1_IV, L1_ATOMIC,        L1_I,  L1_CLOSE_MISS, L1_SEND_ATOMIC),
    ROW(L1_V,  L1_ATOMIC,        L1_I,  L1_DROP_LINE, L1_SEND_ATOMIC),

    ROW(L1_V,  L1_REPLACE,       L1_I,  L1_DROP_LINE),
    ROW(L1_V,  L1_LEASE_EXPIRED, L1_I,  L1_DROP_LINE),

    ROW(L1_IV, L1_FILL,          L1_V,  L1_INSTALL_FILL, L1_TAKE_LEASE, L1_DELIVER_FILL),
    ROW(L1_IV, L1_FILL_UNCACHED, L1_I,  L1_DELIVER_FILL),
    ROW(L1_I,  L1_FILL_UNCACHED, L1_I,  L1_DELIVER_FILL),
};

_Static_assert(sizeof lease_l1_table / sizeof lease_l1_table[0] == LEASE_L1_ROWS, "LEASE_L1_ROWS is the table's size");

const char *const lease_l1_events[1] = {"LeaseExpired"};
const protocol_own_action lease_l1_actions[1] = {{"TakeLease", false}};

/* ---- configuration ---- */

static const sc_config_key lease_keys[] = {
    {"tc.lease_cycles", SC_KEY_INT, "cycles", 1, 1 << 24, NULL, 0,
     "length of a read lease of the physical-time lease protocols (tc-strong, tc-weak), in GPU cycles"},
    {"tc.host_write_drop", SC_KEY_ENUM, "", 0, 0, "all|written", 0,
     "an experiment on what a host write between kernels drops from tc-strong and tc-weak's L1s: all (every "
     "copy of every L1, the engine's default; Ren's thesis runs one kernel per workload) or written (only the "
     "copies of the lines the host wrote)"},
};

const sc_config_key_table lease_config_keys = {lease_keys, sizeof lease_keys / sizeof lease_keys[0]};

_Static_assert(sizeof(lease_config) <= PROTOCOL_CONFIG_BYTES, "lease_config outgrows protocol_config");

int lease_load_config(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    lease_config *config = (lease_config *)m->protocol_config;
    config->lease = sc_clock_span(m->gpu_clock, (uint64_t)sc_config_int(c, "tc.lease_cycles"));
    config->host_write_drops_written = !strcmp(sc_config_string(c, "tc.host_write_drop"), "written");
    return 0;
}

void lease_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    const lease_config *config = (const lease_config *)memory->config.protocol_config;
    memory_host_write_drop_l1s(memory, start, end, is_write, config->host_write_drops_written);
}

static sc_time lease_length(const memory_system *memory)
{
    return ((const lease_config *)memory->config.protocol_config)->lease;
}

/* ---- counters ---- */

#define COUNT(name, field) {name, NULL, offsetof(lease_stats, field), PROTOCOL_COUNTER_TOTAL}

const protocol_counter lease_counters[LEASE_COUNTER_COUNT] = {
    COUNT("tc_leases_granted", leases_granted),
    COUNT("tc_l1_expired_loads", l1_expired_loads),
    COUNT("tc_write_lease_waits", write_lease_waits),
    {"tc_write_wait_cycles", "cycles", offsetof(lease_stats, write_wait_cycles), PROTOCOL_COUNTER_TOTAL},
    COUNT("tc_gwct_waits", gwct_waits),
    {"tc_gwct_cycles", "cycles", offsetof(lease_stats, gwct_cycles), PROTOCOL_COUNTER_TOTAL},
    COUNT("tc_evicted_leases", evicted_leases),
    COUNT("tc_l1_reuses", l1_reuses),
    COUNT("tc_l1_reuses_within_2_leases", l1_reuses_within_2_leases),
    COUNT("tc_l1_reuses_within_4_leases", l1_reuses_within_4_leases),
};

static lease_stats *stats_of(memory_system *memory) { return memory->protocol_stats; }

/* ---- the L1 ---- */

/* A load that finds its line's copy in V reuses it: counts the reuse by the time since the copy's
 * lease began (its expiry less the lease length: the L2's latest lease on the line when the copy
 * was filled), within one lease (a hit), one to two, or two to four lease lengths (expired loads
 * that a lease two or four times as long would have kept). */
static void count_reuse(memory_system *memory, const cache_line *cached, sc_time now)
{
    lease_stats *stats = stats_of(memory);
    sc_time lease = lease_length(memory);
    sc_time age = now + lease - cached->protocol_word;
    stats->l1_reuses++;
    if (age >= lease && age < 2 * lease)
        stats->l1_reuses_within_2_leases++;
    else if (age >= 2 * lease && age < 4 * lease)
        stats->l1_reuses_within_4_leases++;
}

/* An access that finds its line valid but its lease over invalidates it first (lazy expiry). */
l1_verdict lease_before_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                               l1_event *event, sc_time now, sc_error *error)
{
    const cache_line *cached = cache_array_lookup(memory->l1[cu].cache, line->line_address);
    if (!cached || cached->state != L1_V)
        return L1_ACCEPTED;
    bool is_load = *event == L1_LOAD || *event == L1_LOAD_STRONG;
    if (is_load)
        count_reuse(memory, cached, now);
    if (cached->protocol_word > now)
        return L1_ACCEPTED;
    if (is_load)
        stats_of(memory)->l1_expired_loads++;
    return l1_run_event(memory, cu, line->line_address, L1_LEASE_EXPIRED, now, error) < 0 ? L1_FAILED : L1_ACCEPTED;
}

int lease_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    if (action != L1_TAKE_LEASE)
        return l1_action_unknown(memory, context, action, now, error);
    context->cached->protocol_word = context->message->protocol_word;
    return 0;
}

/* ---- the L2 banks ---- */

/* Writes held for a line until its leases expire, linked through their messages' `next`. */
typedef struct held_line {
    uint64_t local;             /* bank-local line address */
    sc_time expiry;             /* when the writes may go */
    uint32_t head, tail;
} held_line;

/* A replaced line's unexpired lease. */
typedef struct evicted_lease {
    uint64_t local;
    sc_time expiry;
} evicted_lease;

typedef struct lease_slice {
    held_line *held;
    unsigned held_count, held_capacity;
    evicted_lease *evicted;
    unsigned evicted_count, evicted_capacity;
} lease_slice;

/* What every bank shares: the machine, its table indexed by state and event, the statistics. */
typedef struct lease_index {
    const protocol_transition *first[LEASE_STATE_COUNT][LEASE_EVENT_COUNT];
    lease_machine machine;
    lease_stats stats;
} lease_index;

static lease_slice *slice_of(memory_system *memory, unsigned bank) { return memory->banks[bank].protocol_state; }

void lease_build(memory_system *memory, const lease_machine *machine)
{
    lease_index *index = calloc(1, sizeof *index);
    index->machine = *machine;
    protocol_index_table(machine->table, machine->size, LEASE_EVENT_COUNT, &index->first[0][0]);
    memory->protocol_state = index;
    memory->protocol_stats = &index->stats;
    for (unsigned b = 0; b < memory->config.l2_banks; b++)
        memory->banks[b].protocol_state = calloc(1, sizeof(lease_slice));
}

void lease_destroy(memory_system *memory)
{
    for (unsigned b = 0; b < memory->config.l2_banks; b++) {
        lease_slice *slice = slice_of(memory, b);
        free(slice->held);
        free(slice->evicted);
        free(slice);
    }
    free(memory->protocol_state);
}

/* Events of the module: a line's waiting writes may go (target: the bank, argument: the line), or
 * a CU's write has reached its GWCT (target: the CU). */
#define EVENT_GWCT (1ull << 63)

static held_line *held_of(lease_slice *slice, uint64_t local)
{
    for (unsigned i = 0; i < slice->held_count; i++)
        if (slice->held[i].local == local)
            return &slice->held[i];
    return NULL;
}

/* The latest expiry of a lease on the line: its protocol word while in the array, or the one it
 * left when replaced (expired entries of the evicted list are dropped on the way). */
static sc_time expiry_of(memory_system *memory, unsigned bank, uint64_t local, sc_time now)
{
    const cache_line *line = cache_array_lookup(memory->banks[bank].cache, local);
    sc_time expiry = line ? line->protocol_word : 0;
    lease_slice *slice = slice_of(memory, bank);
    for (unsigned i = 0; i < slice->evicted_count;) {
        evicted_lease *e = &slice->evicted[i];
        if (e->expiry <= now) {
            *e = slice->evicted[--slice->evicted_count];
            continue;
        }
        if (e->local == local && e->expiry > expiry)
            expiry = e->expiry;
        i++;
    }
    return expiry;
}

void lease_replaced(memory_system *memory, unsigned bank, const cache_line *line, sc_time now)
{
    if (line->protocol_word <= now)
        return;
    lease_slice *slice = slice_of(memory, bank);
    if (slice->evicted_count == slice->evicted_capacity) {
        slice->evicted_capacity = slice->evicted_capacity ? 2 * slice->evicted_capacity : 16;
        slice->evicted = realloc(slice->evicted, slice->evicted_capacity * sizeof *slice->evicted);
    }
    slice->evicted[slice->evicted_count++] = (evicted_lease){line->address, line->protocol_word};
    stats_of(memory)->evicted_leases++;
}

/* What the actions of one row work on. */
typedef struct lease_context {
    unsigned bank;
    uint64_t local;
    uint32_t handle;            /* the request, MESSAGE_NONE for an expiry */
    sc_time expiry;             /* the line's latest lease expiry when the row started */
    sc_time granted;            /* GRANT: the expiry the answer carries, recorded in the line after Serve */
} lease_context;

static lease_state state_of(memory_system *memory, const lease_context *context, sc_time now)
{
    if (held_of(slice_of(memory, context->bank), context->local))
        return LEASE_WRITES_WAIT;
    return context->expiry > now ? LEASE_LEASED : LEASE_FREE;
}

static void hold_write(memory_system *memory, const lease_context *context, sc_time now)
{
    lease_slice *slice = slice_of(memory, context->bank);
    held_line *held = held_of(slice, context->local);
    message *m = message_get(memory, context->handle);
    m->next = MESSAGE_NONE;
    m->protocol_word = now;   /* when it began to wait */
    if (!held) {
        if (slice->held_count == slice->held_capacity) {
            slice->held_capacity = slice->held_capacity ? 2 * slice->held_capacity : 8;
            slice->held = realloc(slice->held, slice->held_capacity * sizeof *slice->held);
        }
        slice->held[slice->held_count++] = (held_line){context->local, context->expiry, context->handle, context->handle};
        event_queue_push(memory->events, context->expiry, MEMORY_EVENT_PROTOCOL, context->bank, context->local);
    } else {
        message_get(memory, held->tail)->next = context->handle;
        held->tail = context->handle;
    }
    stats_of(memory)->write_lease_waits++;
}

static void release_writes(memory_system *memory, const lease_context *context, sc_time now)
{
    lease_slice *slice = slice_of(memory, context->bank);
    held_line *held = held_of(slice, context->local);
    sc_time period = memory->config.gpu_clock.period;
    for (uint32_t handle = held->head; handle != MESSAGE_NONE; handle = message_get(memory, handle)->next) {
        message *m = message_get(memory, handle);
        stats_of(memory)->write_wait_cycles += (now - m->protocol_word) / period;
        m->protocol_word = 0;
    }
    l2_requeue_front(memory, context->bank, held->head, held->tail, now);
    *held = slice->held[--slice->held_count];
}

/* TC-Weak: the writer's CU counts the write outstanding until the line's leases expire. */
static void stamp_gwct(memory_system *memory, const lease_context *context, sc_time now)
{
    if (context->expiry <= now)
        return;
    unsigned cu = message_cu(message_get(memory, context->handle));
    memory->l1[cu].writes_outstanding++;
    event_queue_push(memory->events, context->expiry, MEMORY_EVENT_PROTOCOL, cu, EVENT_GWCT);
    stats_of(memory)->gwct_waits++;
    stats_of(memory)->gwct_cycles += (context->expiry - now) / memory->config.gpu_clock.period;
}

/* Runs the row's actions: 1 when the request is handled, 0 when the bank's array must wait (Serve
 * refused it: nothing before Serve in a row changes more than the request's message). */
static int run_row(memory_system *memory, lease_context *context, const protocol_transition *row, sc_time now,
                   sc_error *error)
{
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++)
        switch ((lease_action)row->actions[i]) {
        case LEASE_GRANT: {
            sc_time fresh = now + lease_length(memory);
            context->granted = context->expiry > fresh ? context->expiry : fresh;
            message_get(memory, context->handle)->protocol_word = context->granted;
            break;
        }
        case LEASE_CARRY:
            message_get(memory, context->handle)->protocol_word = context->expiry;
            break;
        case LEASE_SERVE: {
            int status = l2_process(memory, context->bank, context->handle, now, error);
            if (status <= 0)
                return status;
            break;
        }
        case LEASE_HOLD_WRITE:
            hold_write(memory, context, now);
            break;
        case LEASE_RELEASE_WRITES:
            release_writes(memory, context, now);
            break;
        case LEASE_STAMP_GWCT:
            stamp_gwct(memory, context, now);
            break;
        default:
            return sc_fail(error, "internal error: %s: unknown lease action %u", memory->protocol->name,
                           row->actions[i]);
        }
    if (context->granted) {   /* Serve has put the line in the array (a hit, or a miss's fill to come) */
        cache_line *line = cache_array_lookup(memory->banks[context->bank].cache, context->local);
        if (line && line->protocol_word < context->granted)
            line->protocol_word = context->granted;
        stats_of(memory)->leases_granted++;
        context->expiry = context->granted;
    }
    return 1;
}

static const char *const state_names[LEASE_STATE_COUNT] = {"Free", "Leased", "WritesWait"};
static const char *const event_names[LEASE_EVENT_COUNT] = {"Read", "Write", "Expiry"};

/* Runs the machine's row for `event` on the context's line and checks the state it leaves. */
static int run_event(memory_system *memory, lease_context *context, lease_event event, sc_time now, sc_error *error)
{
    const lease_index *index = memory->protocol_state;
    lease_state state = state_of(memory, context, now);
    const protocol_transition *row = index->first[state][event];
    if (!row)
        return sc_fail(error, "internal error: protocol %s has no L2 lease transition for state %s on event %s",
                       memory->protocol->name, state_names[state], event_names[event]);
    int status = run_row(memory, context, row, now, error);
    if (status <= 0)
        return status;
    lease_state after = state_of(memory, context, now);
    if (after != row->next)
        return sc_fail(error, "internal error: protocol %s: L2 lease %s on %s ended in %s, table says %s",
                       memory->protocol->name, state_names[state], event_names[event], state_names[after],
                       state_names[row->next]);
    return 1;
}

int lease_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    const message *m = message_get(memory, handle);
    lease_event event;
    switch ((message_type)m->type) {
    case MSG_READ: event = LEASE_READ; break;
    case MSG_WRITE:
    case MSG_ATOMIC: event = LEASE_WRITE; break;
    default:
        return sc_fail(error, "internal error: %s: L2 bank %u got a message of type %u", memory->protocol->name,
                       bank, m->type);
    }
    uint64_t local = memory_bank_local_address(memory, m->line_address);
    lease_context context = {.bank = bank, .local = local, .handle = handle,
                             .expiry = expiry_of(memory, bank, local, now)};
    return run_event(memory, &context, event, now, error);
}

int lease_handle_event(memory_system *memory, const timing_event *event, sc_error *error)
{
    if (event->argument == EVENT_GWCT) {
        l1_write_performed(memory, event->target, event->time);
        return 0;
    }
    lease_context context = {.bank = event->target, .local = event->argument, .handle = MESSAGE_NONE,
                             .expiry = expiry_of(memory, event->target, event->argument, event->time)};
    return run_event(memory, &context, LEASE_EXPIRY, event->time, error) < 0 ? -1 : 0;
}
