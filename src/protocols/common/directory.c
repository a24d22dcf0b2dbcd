/* directory.c — the directory slice of an L2 bank under an ownership protocol: a full-map,
 * set-associative directory of the lines the L1s hold (state, owner, one sharer bit per CU),
 * the transactions open on them (the directory's MSHRs), and the controller that runs the
 * protocol's directory table on every message and implements each action once.
 *
 * The directory is blocking: a request for a line with an open transaction waits in it (DEFER)
 * and goes again, ahead of newer requests, when the transaction closes. A table may instead let a
 * read join an open read of the home (JOIN_READ): the joined read is due one L2 access after it
 * arrived (a READ_DUE event then), as if it had read the home itself, and is granted the
 * transaction's data once it is due and the data is in; the transaction closes when the last
 * joined read is granted, so writes still wait for all of them. Every grant's data passes
 * through the directory: from the home (the bank's L2, which fetches from DRAM on a miss) or from
 * the owner, which answers a forwarded request to the directory. A transaction completes (event
 * Done) once its data, the owner's answer and every invalidation ack are in. A request for a line
 * with no entry in a full set recalls the least recently used idle entry of the set and waits in
 * the recall's transaction. A request that finds no free transaction, every way of its set busy,
 * or no L2 MSHR for the home read waits at the head of the bank's request queue; answers
 * (responses) never wait. A write-through's write or atomic (DIR_WRITE, in a table that has rows
 * for it) invalidates the other copies in a transaction that grants no data; once every ack is in,
 * the write goes back to the head of the bank's queue ahead of the requests that waited, and the
 * bank's L2 array performs it with the line in I (l2_process: an L2 miss fetches the line) and
 * answers the L1; reads that come later find the written line at home.
 *
 * Timing: a request takes the bank's pipeline for a cycle; forwards and invalidations leave
 * directory.latency cycles later; a home read is answered l2_latency cycles after it starts (an L2
 * hit) or when the memory side's fill reaches the L2; a grant leaves when its transaction completes. */
#include "protocols/common/directory.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NO_TRANSACTION UINT32_MAX
#define NO_CU (-1)

typedef struct directory_entry {
    uint64_t line_address;      /* global line address, while the way is in use */
    uint64_t sharers;           /* bit c: CU c may hold a shared copy */
    uint64_t last_use;          /* LRU stamp */
    int32_t owner;              /* CU answering for the line (E, O, M), NO_CU if none */
    uint32_t transaction;       /* the open transaction, NO_TRANSACTION if none */
    uint8_t state;              /* dir_state; DIR_I: the way is free */
} directory_entry;

typedef struct transaction {
    directory_entry *entry;
    int32_t requester;          /* NO_CU for a recall */
    uint32_t request;           /* the request message (it becomes the grant), MESSAGE_NONE if none */
    uint32_t acks_pending;
    bool owner_pending;         /* a forwarded request awaits the owner's answer */
    bool needs_data, has_data;  /* a recall grants nothing */
    uint8_t source;             /* gsi_source of the data */
    uint8_t home_source;        /* gsi_source of a home read in flight */
    uint32_t deferred_head, deferred_tail;   /* requests waiting for the line, arrival order */
    uint32_t joined_head;       /* reads that joined the transaction's read of the home (JOIN_READ) */
    uint32_t joins_pending;     /* of them, those not granted yet */
    uint32_t next_free;
    uint8_t data[TIMING_MAX_LINE_BYTES];
} transaction;

/* What every slice shares: the protocol's machine, its table indexed by state and event (the
 * first row of each pair), and the statistics. */
typedef struct directory_index {
    const protocol_transition *first[DIR_STATE_COUNT][DIR_EVENT_COUNT];
    directory_machine machine;
    ownership_stats stats;
} directory_index;

typedef struct directory_slice {
    const directory_index *index;
    directory_entry *entries;   /* sets * ways, set-major */
    uint64_t sets;
    unsigned ways;
    uint64_t use_clock;
    transaction *transactions;
    uint32_t free_transactions;
} directory_slice;

static directory_slice *slice_of(memory_system *memory, unsigned bank) { return memory->banks[bank].protocol_state; }

/* What the actions of one row work on. */
typedef struct dir_context {
    unsigned bank;
    uint64_t line_address;
    directory_entry *entry;     /* NULL while the line is in I */
    transaction *transaction;   /* NULL when none is open */
    uint32_t handle;            /* the message raising the event, MESSAGE_NONE for internal events */
    const uint8_t *data;        /* the data the event brings */
    gsi_source source;
    bool message_kept;          /* the message lives on (in a transaction, or sent back) */
    bool must_wait;             /* the L2 array could not take the write: offer it again next cycle */
} dir_context;

static directory_slice *directory_create(const directory_config *config, const directory_index *index)
{
    directory_slice *directory = calloc(1, sizeof *directory);
    directory->index = index;
    directory->ways = config->associativity;
    directory->sets = config->entries / config->associativity;
    directory->entries = calloc(directory->sets * directory->ways, sizeof *directory->entries);
    directory->transactions = calloc(config->transactions, sizeof *directory->transactions);
    directory->free_transactions = NO_TRANSACTION;
    for (uint32_t t = config->transactions; t-- > 0;) {
        directory->transactions[t].next_free = directory->free_transactions;
        directory->free_transactions = t;
    }
    return directory;
}

static void directory_destroy(directory_slice *directory)
{
    free(directory->entries);
    free(directory->transactions);
    free(directory);
}

#define COUNT(name, field) {name, NULL, offsetof(ownership_stats, field), PROTOCOL_COUNTER_TOTAL}

const protocol_counter directory_counters[DIRECTORY_COUNTER_COUNT] = {
    COUNT("l1_read_hits_modified", l1_read_hits_modified),
    COUNT("l1_ownership_requests", l1_ownership_requests),
    COUNT("l1_writebacks", l1_writebacks),
    COUNT("dir_lookups", dir_lookups),
    COUNT("dir_forwards", dir_forwards),
    COUNT("dir_invalidations", dir_invalidations),
    COUNT("dir_recalls", dir_recalls),
    COUNT("dir_home_writes", dir_home_writes),
    COUNT("dir_deferrals", dir_deferrals),
};

void directory_build(memory_system *memory, const directory_machine *machine)
{
    directory_index *index = calloc(1, sizeof *index);
    index->machine = *machine;
    protocol_index_table(machine->table, machine->size, DIR_EVENT_COUNT, &index->first[0][0]);
    for (unsigned b = 0; b < memory->config.l2_banks; b++)
        memory->banks[b].protocol_state = directory_create(directory_config_of(&memory->config), index);
    memory->protocol_stats = &index->stats;
    ownership_l1_build(memory);
    memory->l2_writes_through = false;   /* the L2 is the home of the lines the L1s write back */
}

void directory_destroy_all(memory_system *memory)
{
    free((directory_index *)slice_of(memory, 0)->index);
    ownership_l1_destroy(memory);
    for (unsigned b = 0; b < memory->config.l2_banks; b++)
        directory_destroy(memory->banks[b].protocol_state);
}

static const sc_config_key full_map_keys[] = {
    {"directory.full_map_associativity", SC_KEY_INT, "ways", 1, 1024, NULL, 0,
     "ways of the full-map directory of an ownership (MOESI-family) protocol"},
    {"directory.full_map_size", SC_KEY_SIZE, "bytes", 0, 64 * SC_GIB, NULL, 0,
     "state of the full-map directory of an ownership (MOESI-family) protocol, all banks; 8 bytes per tracked line"},
};

const sc_config_key_table directory_config_keys = {full_map_keys, sizeof full_map_keys / sizeof full_map_keys[0]};

_Static_assert(sizeof(directory_config) <= PROTOCOL_CONFIG_BYTES, "directory_config outgrows protocol_config");

int directory_load_config(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    directory_config *d = (directory_config *)m->protocol_config;
    d->associativity = (unsigned)sc_config_int(c, "directory.full_map_associativity");
    uint64_t entries = (uint64_t)sc_config_int(c, "directory.full_map_size") / DIRECTORY_ENTRY_BYTES / m->l2_banks;
    d->entries = entries / d->associativity * d->associativity;
    uint64_t transactions = (uint64_t)sc_config_int(c, "directory.mshrs") / m->l2_banks;
    d->transactions = transactions ? (unsigned)transactions : 1;
    d->latency = (unsigned)sc_config_int(c, "directory.latency");
    if (m->cu_count > DIRECTORY_MAX_CUS)
        return sc_fail_input(error, "gpu.cu_count: mechanism %s tracks at most %d CUs in its directory, not %u",
                       mechanism, DIRECTORY_MAX_CUS, m->cu_count);
    if (m->l1_bytes == 0)
        return sc_fail_input(error, "l1.size: mechanism %s keeps owned lines in the L1 and needs one", mechanism);
    if (d->entries == 0)
        return sc_fail_input(error, "directory.full_map_size: mechanism %s needs at least one set of "
                       "directory.full_map_associativity entries per L2 bank (%d bytes per entry)",
                       mechanism, DIRECTORY_ENTRY_BYTES);
    return 0;
}

/* ---- the entry array ---- */

static directory_entry *set_of(const memory_system *memory, const directory_slice *directory, uint64_t line_address)
{
    uint64_t local_line = memory_bank_local_address(memory, line_address) / memory->config.line_bytes;
    return &directory->entries[(local_line % directory->sets) * directory->ways];
}

static directory_entry *find_entry(const memory_system *memory, directory_slice *directory, uint64_t line_address)
{
    directory_entry *set = set_of(memory, directory, line_address);
    for (unsigned way = 0; way < directory->ways; way++)
        if (set[way].state != DIR_I && set[way].line_address == line_address)
            return &set[way];
    return NULL;
}

/* A free way of the line's set, or NULL. */
static directory_entry *free_way(const memory_system *memory, directory_slice *directory, uint64_t line_address)
{
    directory_entry *set = set_of(memory, directory, line_address);
    for (unsigned way = 0; way < directory->ways; way++)
        if (set[way].state == DIR_I)
            return &set[way];
    return NULL;
}

/* The least recently used entry of the set with no open transaction, or NULL. */
static directory_entry *recall_victim(const memory_system *memory, directory_slice *directory, uint64_t line_address)
{
    directory_entry *set = set_of(memory, directory, line_address), *victim = NULL;
    for (unsigned way = 0; way < directory->ways; way++)
        if (set[way].transaction == NO_TRANSACTION && (!victim || set[way].last_use < victim->last_use))
            victim = &set[way];
    return victim;
}

static transaction *transaction_of(directory_slice *directory, const directory_entry *entry)
{
    return entry && entry->transaction != NO_TRANSACTION ? &directory->transactions[entry->transaction] : NULL;
}

/* ---- actions ---- */

static sc_time directory_delay(const memory_system *memory)
{
    return sc_clock_span(memory->config.gpu_clock, directory_config_of(&memory->config)->latency);
}

static uint64_t cu_bit(int32_t cu) { return cu == NO_CU ? 0 : 1ull << cu; }

/* Sends a header-only message from the directory to CU `cu` for transaction `t`: in its type's
 * traffic class, or RCL for a recall's (an entry the directory takes back: its invalidations too). */
static void send_to_cu(memory_system *memory, unsigned bank, message_type type, unsigned cu, uint64_t line_address,
                       const transaction *t, sc_time when)
{
    uint32_t handle = message_allocate(memory, type, endpoint_l2_bank(bank), endpoint_cu(cu), line_address);
    if (t->requester == NO_CU)
        message_get(memory, handle)->traffic = NOC_TRAFFIC_RCL;
    memory_send(memory, handle, when);
}

static transaction *open_transaction(memory_system *memory, dir_context *context, int32_t requester)
{
    directory_slice *directory = slice_of(memory, context->bank);
    uint32_t number = directory->free_transactions;
    transaction *t = &directory->transactions[number];
    directory->free_transactions = t->next_free;
    *t = (transaction){.entry = context->entry, .requester = requester, .request = MESSAGE_NONE,
                       .needs_data = requester != NO_CU, .deferred_head = MESSAGE_NONE,
                       .deferred_tail = MESSAGE_NONE, .joined_head = MESSAGE_NONE};
    context->entry->transaction = number;
    context->transaction = t;
    return t;
}

static void open_request(memory_system *memory, dir_context *context, bool needs_data)
{
    if (!context->entry) {
        directory_entry *way = free_way(memory, slice_of(memory, context->bank), context->line_address);
        *way = (directory_entry){.line_address = context->line_address, .owner = NO_CU,
                                 .transaction = NO_TRANSACTION, .state = DIR_I};
        context->entry = way;
    }
    message *request = message_get(memory, context->handle);
    transaction *t = open_transaction(memory, context, message_cu(request));
    t->request = context->handle;
    t->needs_data = needs_data;
    context->message_kept = true;
}

static void defer(memory_system *memory, transaction *t, uint32_t handle)
{
    message_get(memory, handle)->next = MESSAGE_NONE;
    if (t->deferred_tail == MESSAGE_NONE)
        t->deferred_head = handle;
    else
        message_get(memory, t->deferred_tail)->next = handle;
    t->deferred_tail = handle;
}

static void read_home(memory_system *memory, dir_context *context, sc_time now)
{
    transaction *t = context->transaction;
    if (!l2_home_read(memory, context->bank, t->request, t->data, now))
        return;   /* a miss: the fill calls directory_home_filled */
    t->home_source = GSI_SOURCE_L2;
    event_queue_push(memory->events, now + sc_clock_span(memory->config.gpu_clock, memory->config.l2_latency),
                     MEMORY_EVENT_PROTOCOL, context->bank, t->request);
}

static int forward(memory_system *memory, dir_context *context, message_type type, sc_time now, sc_error *error)
{
    const directory_entry *entry = context->entry;
    transaction *t = context->transaction;
    if (entry->owner == NO_CU || entry->owner == t->requester)
        return sc_fail(error, "internal error: protocol %s: directory forwards line 0x%llx to owner %d for CU %d",
                       memory->protocol->name, (unsigned long long)context->line_address, entry->owner, t->requester);
    send_to_cu(memory, context->bank, type, (unsigned)entry->owner, context->line_address, t,
               now + directory_delay(memory));
    t->owner_pending = true;
    ownership_stats_of(memory)->dir_forwards++;
    return 0;
}

static void invalidate_sharers(memory_system *memory, dir_context *context, sc_time now)
{
    directory_entry *entry = context->entry;
    transaction *t = context->transaction;
    uint64_t targets = entry->sharers & ~cu_bit(t->requester);
    for (; targets; targets &= targets - 1) {
        unsigned cu = (unsigned)__builtin_ctzll(targets);
        send_to_cu(memory, context->bank, MSG_INV, cu, context->line_address, t, now + directory_delay(memory));
        t->acks_pending++;
        ownership_stats_of(memory)->dir_invalidations++;
    }
    entry->sharers = 0;
}

/* The instant form (DIR_DROP_SHARERS, outside any transaction): each sharer but the requesting CU
 * runs its L1's L1_DROP_NOW row now, so the write that raised it needs no ack. */
static int drop_sharers(memory_system *memory, dir_context *context, sc_time now, sc_error *error)
{
    directory_entry *entry = context->entry;
    unsigned requester = message_cu(message_get(memory, context->handle));
    uint64_t targets = entry->sharers & ~cu_bit((int32_t)requester);
    for (; targets; targets &= targets - 1) {
        if (l1_run_event(memory, (unsigned)__builtin_ctzll(targets), context->line_address, L1_DROP_NOW, now,
                         error) < 0)
            return -1;
        ownership_stats_of(memory)->dir_invalidations++;
    }
    entry->sharers = 0;
    return 0;
}

/* Answers request `handle` with the transaction's data as grant `event`. */
static void send_grant(memory_system *memory, const transaction *t, uint32_t handle, l1_event event, sc_time now)
{
    message *m = message_get(memory, handle);
    m->type = MSG_DATA;
    m->grant = (uint8_t)event;
    m->data_source = t->source;
    m->around = 0;
    memcpy(m->data, t->data, memory->config.line_bytes);
    memory_reply(memory, handle, now);
}

static int grant(memory_system *memory, dir_context *context, l1_event event, sc_time now, sc_error *error)
{
    transaction *t = context->transaction;
    if (!t->has_data)
        return sc_fail(error, "internal error: protocol %s: directory grants line 0x%llx without its data",
                       memory->protocol->name, (unsigned long long)context->line_address);
    send_grant(memory, t, t->request, event, now);
    t->request = MESSAGE_NONE;
    return 0;
}

/* A joined read's flag (message.protocol_bits): its own L2 access is over, it may be granted. */
#define JOINED_READ_DUE 2u

/* JOIN_READ: the read waits in the transaction's joined list until it is due, one L2 access from
 * now, as the read of the home that it does not make would take. */
static void join_read(memory_system *memory, dir_context *context, sc_time now)
{
    transaction *t = context->transaction;
    message *m = message_get(memory, context->handle);
    m->protocol_bits = 0;
    m->next = t->joined_head;
    t->joined_head = context->handle;
    t->joins_pending++;
    context->message_kept = true;
    event_queue_push(memory->events, now + sc_clock_span(memory->config.gpu_clock, memory->config.l2_latency),
                     MEMORY_EVENT_PROTOCOL, context->bank, context->handle);
}

/* GRANT_JOINED: once the data is in, every joined read that is due becomes a sharer, is granted S
 * and leaves the list. */
static void grant_joined(memory_system *memory, dir_context *context, sc_time now)
{
    transaction *t = context->transaction;
    if (!t->has_data)
        return;
    for (uint32_t *link = &t->joined_head; *link != MESSAGE_NONE;) {
        uint32_t handle = *link;
        message *m = message_get(memory, handle);
        if (!(m->protocol_bits & JOINED_READ_DUE)) {
            link = &m->next;
            continue;
        }
        *link = m->next;
        context->entry->sharers |= cu_bit((int32_t)message_cu(m));
        send_grant(memory, t, handle, L1_GRANT_S, now);
        t->joins_pending--;
    }
}

/* The bank's L2 array performs the write or atomic at the head of the bank's queue and answers
 * its L1; when the array cannot take it now, it stays at the head (context->must_wait). */
static int perform_write(memory_system *memory, dir_context *context, sc_time now, sc_error *error)
{
    int status = l2_process(memory, context->bank, context->handle, now, error);
    if (status < 0)
        return -1;
    context->must_wait = status == 0;
    context->message_kept = true;
    return 0;
}

/* The transaction's write goes first among the requests that waited for its line. */
static void retake_write(memory_system *memory, transaction *t)
{
    message_get(memory, t->request)->next = t->deferred_head;
    t->deferred_head = t->request;
    if (t->deferred_tail == MESSAGE_NONE)
        t->deferred_tail = t->request;
    t->request = MESSAGE_NONE;
}

/* Closes the transaction; the requests that waited in it go to the front of the bank's queue. */
static void close_transaction(memory_system *memory, dir_context *context, sc_time now)
{
    directory_slice *directory = slice_of(memory, context->bank);
    transaction *t = context->transaction;
    t->entry->transaction = NO_TRANSACTION;
    if (t->deferred_head != MESSAGE_NONE)
        l2_requeue_front(memory, context->bank, t->deferred_head, t->deferred_tail, now);
    t->next_free = directory->free_transactions;
    directory->free_transactions = (uint32_t)(t - directory->transactions);
    context->transaction = NULL;
}

static int run_action(memory_system *memory, dir_context *context, dir_action action, sc_time now, sc_error *error)
{
    directory_entry *entry = context->entry;
    transaction *t = context->transaction;
    switch (action) {
    case DIR_DEFER:
        defer(memory, t, context->handle);
        ownership_stats_of(memory)->dir_deferrals++;
        context->message_kept = true;
        break;
    case DIR_OPEN:
        open_request(memory, context, true);
        break;
    case DIR_OPEN_WRITE:
        open_request(memory, context, false);
        break;
    case DIR_PERFORM_WRITE:
        return perform_write(memory, context, now, error);
    case DIR_RETAKE_WRITE:
        retake_write(memory, t);
        break;
    case DIR_OPEN_RECALL:
        open_transaction(memory, context, NO_CU);
        ownership_stats_of(memory)->dir_recalls++;
        break;
    case DIR_READ_HOME:
        read_home(memory, context, now);
        break;
    case DIR_FORWARD_GET_S:
        return forward(memory, context, MSG_FWD_GET_S, now, error);
    case DIR_FORWARD_GET_M:
        return forward(memory, context, MSG_FWD_GET_M, now, error);
    case DIR_INVALIDATE_SHARERS:
        invalidate_sharers(memory, context, now);
        break;
    case DIR_DROP_SHARERS:
        return drop_sharers(memory, context, now, error);
    case DIR_JOIN_READ:
        join_read(memory, context, now);
        break;
    case DIR_MARK_READ_DUE:
        message_get(memory, context->handle)->protocol_bits |= JOINED_READ_DUE;
        break;
    case DIR_GRANT_JOINED:
        grant_joined(memory, context, now);
        break;
    case DIR_COUNT_ACK:
        if (t->acks_pending == 0)
            return sc_fail(error, "internal error: protocol %s: unexpected invalidation ack for line 0x%llx",
                           memory->protocol->name, (unsigned long long)context->line_address);
        t->acks_pending--;
        break;
    case DIR_TAKE_DATA:
        if (context->data != t->data)
            memcpy(t->data, context->data, memory->config.line_bytes);
        t->has_data = true;
        t->source = (uint8_t)context->source;
        break;
    case DIR_OWNER_ANSWERED:
        t->owner_pending = false;
        break;
    case DIR_WRITE_HOME:
        l2_home_write(memory, context->bank, context->line_address, context->data, now);
        ownership_stats_of(memory)->dir_home_writes++;
        break;
    case DIR_ACK_PUT: {
        message *m = message_get(memory, context->handle);
        m->type = MSG_PUT_ACK;
        memory_reply(memory, context->handle, now);
        context->message_kept = true;
        break;
    }
    case DIR_CLEAR_OWNER:
        entry->owner = NO_CU;
        break;
    case DIR_OWNER_TO_SHARER:
        entry->sharers |= cu_bit(entry->owner);
        entry->owner = NO_CU;
        break;
    case DIR_ADD_REQUESTER:
        entry->sharers |= cu_bit(t->requester);
        break;
    case DIR_SET_OWNER:
        entry->owner = t->requester;
        entry->sharers = 0;
        break;
    case DIR_GRANT_S:
        return grant(memory, context, L1_GRANT_S, now, error);
    case DIR_GRANT_E:
        return grant(memory, context, L1_GRANT_E, now, error);
    case DIR_GRANT_M:
        return grant(memory, context, L1_GRANT_M, now, error);
    case DIR_CLOSE:
        close_transaction(memory, context, now);
        break;
    case DIR_FREE_ENTRY:
        entry->state = DIR_I;
        context->entry = NULL;
        break;
    default:
        break;
    }
    return 0;
}

/* ---- running the table ---- */

static bool transaction_complete(const transaction *t)
{
    return t && !t->owner_pending && t->acks_pending == 0 && t->joins_pending == 0 && (t->has_data || !t->needs_data);
}

static dir_state state_of(const dir_context *context)
{
    return context->entry ? (dir_state)context->entry->state : DIR_I;
}

static directory_guard_view guard_view(memory_system *memory, const dir_context *context)
{
    const directory_entry *entry = context->entry;
    const transaction *t = context->transaction;
    int requester = context->handle != MESSAGE_NONE ? (int)message_cu(message_get(memory, context->handle))
                    : t ? t->requester : NO_CU;
    return (directory_guard_view){
        .bank = context->bank, .line_address = context->line_address, .state = state_of(context),
        .requester = requester, .owner = entry ? entry->owner : NO_CU, .sharers = entry ? entry->sharers : 0,
        .acks_pending = t ? t->acks_pending : 0, .requests_waiting = t && t->deferred_head != MESSAGE_NONE,
    };
}

/* The row of (the line's state, event) that applies: the first whose guard holds. */
static const protocol_transition *select_row(memory_system *memory, const dir_context *context, dir_event event)
{
    const directory_index *index = slice_of(memory, context->bank)->index;
    const protocol_transition *row = index->first[state_of(context)][event];
    if (!row || !row->guard)
        return row;
    directory_guard_view view = guard_view(memory, context);
    const protocol_transition *end = index->machine.table + index->machine.size;
    while (row && row->guard && !index->machine.guard(memory, &view, row->guard))
        row = protocol_next_alternative(row, end);
    return row;
}

/* Runs the row for (the line's state, event), gives the entry the row's next state, checks the
 * outcome, and raises Done when the transaction has all it waits for and the table has a row. */
static int run_event(memory_system *memory, dir_context *context, dir_event event, sc_time now, sc_error *error)
{
    dir_state state = state_of(context);
    const protocol_transition *row = select_row(memory, context, event);
    if (!row)
        return sc_fail(error, "internal error: protocol %s has no directory transition for state %s on event %s "
                       "(line 0x%llx)", memory->protocol->name, dir_state_name(state), dir_event_name(event),
                       (unsigned long long)context->line_address);
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++)
        if (run_action(memory, context, (dir_action)row->actions[i], now, error) < 0)
            return -1;
    if (context->entry)
        context->entry->state = row->next;
    if ((context->entry == NULL) != (row->next == DIR_I))
        return sc_fail(error, "internal error: protocol %s: directory %s on %s ended %s an entry, table says %s",
                       memory->protocol->name, dir_state_name(state), dir_event_name(event),
                       context->entry ? "with" : "without", dir_state_name((dir_state)row->next));
    if (transaction_complete(context->transaction) && slice_of(memory, context->bank)->index->first[row->next][DIR_DONE]) {
        context->handle = MESSAGE_NONE;
        return run_event(memory, context, DIR_DONE, now, error);
    }
    return 0;
}

static dir_context context_for(memory_system *memory, unsigned bank, uint64_t line_address, uint32_t handle)
{
    directory_slice *directory = slice_of(memory, bank);
    directory_entry *entry = find_entry(memory, directory, line_address);
    return (dir_context){.bank = bank, .line_address = line_address, .entry = entry,
                         .transaction = transaction_of(directory, entry), .handle = handle};
}

/* Makes room for a new entry of the request's line: recalls the set's least recently used idle
 * entry, and the request waits in the recall. Returns 1 when the request was deferred, 0 when a
 * way is free (now or because the recall finished at once), -1 on error; sets *must_wait when
 * no entry can be recalled now. */
static int make_entry_room(memory_system *memory, dir_context *request, sc_time now, bool *must_wait, sc_error *error)
{
    directory_slice *directory = slice_of(memory, request->bank);
    if (free_way(memory, directory, request->line_address))
        return 0;
    directory_entry *victim = recall_victim(memory, directory, request->line_address);
    if (!victim) {
        *must_wait = true;
        return 0;
    }
    dir_context recall = {.bank = request->bank, .line_address = victim->line_address, .entry = victim,
                          .handle = MESSAGE_NONE};
    if (run_event(memory, &recall, DIR_REPLACE, now, error) < 0)
        return -1;
    if (victim->transaction == NO_TRANSACTION)
        return 0;
    defer(memory, &directory->transactions[victim->transaction], request->handle);
    return 1;
}

/* What admitting a request found. */
typedef enum admission {
    ADMIT_ERROR = -1,
    ADMIT_WAIT = 0,        /* something it needs is busy: offer it again next cycle */
    ADMIT_GO,              /* run its row */
    ADMIT_IN_RECALL,       /* it waits in the recall started to make room for its entry */
} admission;

/* Whether the request's row can run now: a row that opens a transaction needs a free one, a way
 * for the line's entry (a recall is started when the set is full) and, if it reads the home, an
 * L2 MSHR. Touches the line's entry (LRU) when it goes ahead. */
static admission admit_request(memory_system *memory, dir_context *context, dir_event event, sc_time now,
                               sc_error *error)
{
    directory_slice *directory = slice_of(memory, context->bank);
    const protocol_transition *row = select_row(memory, context, event);
    bool opens = false, reads_home = false;
    for (unsigned i = 0; row && i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++) {
        opens |= row->actions[i] == DIR_OPEN;
        reads_home |= row->actions[i] == DIR_READ_HOME;
    }
    if (opens && directory->free_transactions == NO_TRANSACTION)
        return ADMIT_WAIT;
    if (opens && !context->entry) {
        bool must_wait = false;
        int deferred = make_entry_room(memory, context, now, &must_wait, error);
        if (deferred != 0)
            return deferred < 0 ? ADMIT_ERROR : ADMIT_IN_RECALL;
        if (must_wait || directory->free_transactions == NO_TRANSACTION)
            return ADMIT_WAIT;
    }
    if (reads_home && l2_home_blocked(memory, context->bank, context->line_address))
        return ADMIT_WAIT;
    if (context->entry)
        context->entry->last_use = ++directory->use_clock;
    return ADMIT_GO;
}

static dir_event message_event(const message *m)
{
    switch ((int)m->type) {
    case MSG_GET_S: return DIR_GET_S;
    case MSG_GET_M: return DIR_GET_M;
    case MSG_PUT: return m->protocol_bits & OWNERSHIP_DIRTY ? DIR_PUT_DIRTY : DIR_PUT_CLEAN;
    case MSG_INV_ACK: return DIR_INV_ACK;
    case MSG_WRITE: return DIR_WRITE;
    case MSG_ATOMIC: return DIR_WRITE;
    case MSG_OWNER_DATA: return m->protocol_bits & OWNERSHIP_DIRTY ? DIR_OWNER_DIRTY : DIR_OWNER_CLEAN;
    default: return DIR_OWNER_NO_DATA;
    }
}

int directory_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    dir_context context = context_for(memory, bank, m->line_address, handle);
    dir_event event = message_event(m);
    context.data = m->data;
    context.source = GSI_SOURCE_REMOTE_L1;
    bool request = event == DIR_GET_S || event == DIR_GET_M || event == DIR_WRITE;
    if (request) {
        admission admitted = admit_request(memory, &context, event, now, error);
        if (admitted == ADMIT_ERROR || admitted == ADMIT_WAIT)
            return admitted;
        if (admitted == ADMIT_IN_RECALL) {
            ownership_stats_of(memory)->dir_lookups++;
            return 1;
        }
    } else if ((event == DIR_PUT_DIRTY || event == DIR_PUT_CLEAN) &&
               (!context.entry || context.entry->owner != (int32_t)message_cu(m))) {
        return sc_fail(error, "internal error: protocol %s: write-back of line 0x%llx from CU %u, which does not own it",
                       memory->protocol->name, (unsigned long long)m->line_address, message_cu(m));
    }
    if (run_event(memory, &context, event, now, error) < 0)
        return -1;
    if (context.must_wait)
        return 0;
    ownership_stats_of(memory)->dir_lookups += request;
    if (!context.message_kept)
        message_free(memory, handle);
    return 1;
}

void directory_home_filled(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data,
                           gsi_source source, sc_time when)
{
    dir_context context = context_for(memory, bank, message_get(memory, handle)->line_address, handle);
    transaction *t = context.transaction;
    memcpy(t->data, data, memory->config.line_bytes);
    t->home_source = (uint8_t)source;
    event_queue_push(memory->events, when, MEMORY_EVENT_PROTOCOL, bank, handle);
}

/* Whether `handle` is one of the transaction's joined reads. */
static bool joined(memory_system *memory, const transaction *t, uint32_t handle)
{
    for (uint32_t h = t->joined_head; h != MESSAGE_NONE; h = message_get(memory, h)->next)
        if (h == handle)
            return true;
    return false;
}

/* A home-data event: the home's data for the transaction's request (HomeData), or a joined read
 * that has waited its L2 access (ReadDue). */
static int directory_home_due(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    dir_context context = context_for(memory, bank, message_get(memory, handle)->line_address, MESSAGE_NONE);
    transaction *t = context.transaction;
    if (t && t->request != handle && joined(memory, t, handle)) {
        context.handle = handle;
        return run_event(memory, &context, DIR_READ_DUE, now, error);
    }
    if (!t || t->request != handle)
        return sc_fail(error, "internal error: protocol %s: home data for line 0x%llx with no transaction waiting",
                       memory->protocol->name, (unsigned long long)context.line_address);
    context.data = t->data;
    context.source = (gsi_source)t->home_source;
    return run_event(memory, &context, DIR_HOME_DATA, now, error);
}

static void directory_forget_range(memory_system *memory, unsigned bank, uint64_t start, uint64_t end)
{
    directory_slice *directory = slice_of(memory, bank);
    for (uint64_t i = 0; i < directory->sets * directory->ways; i++) {
        directory_entry *entry = &directory->entries[i];
        if (entry->state != DIR_I && entry->line_address + memory->config.line_bytes > start &&
            entry->line_address < end)
            entry->state = DIR_I;
    }
}

int directory_handle_event(memory_system *memory, const timing_event *event, sc_error *error)
{
    if (event->kind != MEMORY_EVENT_PROTOCOL)
        return sc_fail(error, "internal error: unknown memory event %u", event->kind);
    return directory_home_due(memory, event->target, (uint32_t)event->argument, event->time, error);
}

void directory_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    memory_host_access_dirty_l1s(memory, start, end, is_write, l1_state_dirty);
    if (is_write)
        for (unsigned b = 0; b < memory->config.l2_banks; b++)
            directory_forget_range(memory, b, start, end);
}

void directory_warm_finish(memory_system *memory)
{
    /* The L1s hold nothing now, so the directory tracks no copy either. */
    for (unsigned b = 0; b < memory->config.l2_banks; b++)
        directory_forget_range(memory, b, 0, UINT64_MAX);
}

const char *dir_state_name(dir_state state)
{
    static const char *const names[DIR_STATE_COUNT] = {
        "I", "S", "M", "O", "WaitHomeE", "WaitHomeS", "WaitOwnerS", "WaitM", "WaitRecall", "WaitWrite",
    };
    return state < DIR_STATE_COUNT ? names[state] : "?";
}

const char *dir_event_name(dir_event event)
{
    static const char *const names[DIR_EVENT_COUNT] = {
        "GetS", "GetM", "PutDirty", "PutClean", "InvAck", "OwnerDirty", "OwnerClean", "OwnerNoData",
        "HomeData", "Done", "Replace", "Write", "ReadDue",
    };
    return event < DIR_EVENT_COUNT ? names[event] : "?";
}

const char *dir_action_name(dir_action action)
{
    static const char *const names[DIR_ACTION_COUNT] = {
        "none", "defer", "open", "open_recall", "read_home", "forward_get_s", "forward_get_m",
        "invalidate_sharers", "count_ack", "take_data", "owner_answered", "write_home", "ack_put",
        "clear_owner", "owner_to_sharer", "add_requester", "set_owner", "grant_s", "grant_e", "grant_m",
        "close", "free_entry", "open_write", "perform_write", "retake_write", "drop_sharers",
        "join_read", "mark_read_due", "grant_joined",
    };
    return action < DIR_ACTION_COUNT ? names[action] : "?";
}
