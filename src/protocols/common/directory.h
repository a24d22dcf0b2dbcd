/* directory.h — the full-map directory at the L2 banks, a building block of ownership protocols
 * (rfo and mesi): its vocabulary of directory states, events and actions, and the
 * controller that runs a protocol's directory table over it (directory_machine) on a blocking,
 * full-map directory slice at each bank, whose home is the bank's L2.
 *
 * Its functions are the protocol hooks of such a protocol (protocol_hooks.h): build (called from
 * the protocol's own build hook with its table) gives every bank a directory slice running it
 * and every L1 its ownership_l1 (ownership.h), and makes the L2 write-back; load_config reads
 * the directory's keys (directory_config) and needs an L1, at most DIRECTORY_MAX_CUS CUs and a
 * directory set per bank; bank_receive handles a message at the bank (1 handled, 0 a request
 * must wait for a transaction, a directory way or an L2 MSHR, -1 a protocol error); home_data
 * takes the home's data for a request that reached the L2 (a hit, or a fill from the memory
 * side); handle_event runs its home-data events; host_access writes the owners' dirty data to
 * the image and, after a write, forgets the lines; warm_finish forgets every entry.
 * DIRECTORY_HOOKS lists them for a protocol's hooks table, with its own build (one that calls
 * directory_build) and the L1 side's hooks of ownership.h (DIRECTORY_HOOK_FIELDS: the same
 * fields with the protocol's own load_config, for a table that adds its own, such as an SC
 * core's); directory_counters are the metrics such a protocol reports.
 *
 * Besides the ownership requests (GetS, GetM, Puts), a slice takes the writes and atomics of L1s
 * that write through (MSG_WRITE, MSG_ATOMIC: event DIR_WRITE): a table that has rows for them
 * invalidates every other copy of the line first and then lets the bank's L2 array perform the
 * write (l2_process), which answers the L1 as it does without a directory. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_DIRECTORY_H
#define SYNCSCOPE_PROTOCOLS_COMMON_DIRECTORY_H

#include "config/schema.h"
#include "protocols/common/ownership.h"
#include "timing/memory_internal.h"

/* ---- its configuration ---- */

/* Bytes of directory state per entry: a tag, the state, an owner and a sharer vector. */
#define DIRECTORY_ENTRY_BYTES 8
/* CUs a directory's sharer vector can name. */
#define DIRECTORY_MAX_CUS 64

/* A directory slice of each L2 bank (the protocol's bytes of memory_config.protocol_config):
 * directory.full_map_size / DIRECTORY_ENTRY_BYTES entries split over the L2 banks, rounded down
 * to whole sets of directory.full_map_associativity ways; directory.mshrs / l2.banks
 * transactions (at least one). */
typedef struct directory_config {
    uint64_t entries;
    unsigned associativity, transactions;
    unsigned latency;           /* directory.latency: GPU cycles before a forward or invalidation leaves */
} directory_config;

/* The directory's own keys (directory.full_map_*), which every protocol built on it reads;
 * the registry adds them to the schema for each. */
extern const sc_config_key_table directory_config_keys;

static inline const directory_config *directory_config_of(const memory_config *memory)
{
    return (const directory_config *)memory->protocol_config;
}

/* ---- the directory controller at each L2 bank (ownership protocols only) ----
 *
 * A full-map directory entry records a line's state, its owner and its sharers (one bit per CU).
 * A request for a line whose transaction is open waits in that transaction (blocking directory),
 * unless the protocol's table lets a read join an open read of the home (DIR_JOIN_READ); the data
 * of every grant passes through the directory (the owner answers a forwarded request to the
 * directory, which collects invalidation acknowledgements before granting ownership). */

typedef enum dir_state {
    DIR_I = 0,           /* no L1 holds the line: no entry */
    DIR_S,               /* sharers hold clean copies; the home (L2/DRAM) is up to date */
    DIR_M,               /* one owner holds it in E or M; the home may be stale */
    DIR_O,               /* an owner holds it dirty (O) and sharers hold copies; the home is stale */
    DIR_WAIT_HOME_E,     /* GetS in I: reading the home, will grant E */
    DIR_WAIT_HOME_S,     /* GetS in S: reading the home, will grant S */
    DIR_WAIT_OWNER_S,    /* GetS in M/O: waiting for the owner's data */
    DIR_WAIT_M,          /* GetM: waiting for the data (home or owner) and every invalidation ack */
    DIR_WAIT_RECALL,     /* the entry is being replaced: waiting for the L1 copies to be given up */
    DIR_WAIT_WRITE,      /* a written-through store or atomic: waiting for every invalidation ack
                            before the L2 performs it */
    DIR_STATE_COUNT
} dir_state;

typedef enum dir_event {
    DIR_GET_S = 0,       /* an L1 asks for a readable copy */
    DIR_GET_M,           /* an L1 asks for ownership */
    DIR_PUT_DIRTY,       /* the owner writes the line back (evicted from M/O, or before upgrading O) */
    DIR_PUT_CLEAN,       /* the owner gives up a clean exclusive copy (evicted from E) */
    DIR_INV_ACK,         /* a sharer dropped its copy */
    DIR_OWNER_DIRTY,     /* the owner's data for a forwarded request: dirty (it was M or O) */
    DIR_OWNER_CLEAN,     /* the same, clean (it was E) */
    DIR_OWNER_NO_DATA,   /* the owner had already written the line back (its Put came first) */
    DIR_HOME_DATA,       /* the home's data is ready (L2 hit, or DRAM fill) */
    DIR_DONE,            /* everything the transaction waits for has arrived */
    DIR_REPLACE,         /* the entry is the victim of a new line's entry */
    DIR_WRITE,           /* an L1 writes through: a store's bytes (MSG_WRITE) or an atomic (MSG_ATOMIC),
                            which the L2 performs once no other L1 holds a copy */
    DIR_READ_DUE,        /* a read that joined the open read of its line (DIR_JOIN_READ) has waited its
                            own L2 access */
    DIR_EVENT_COUNT
} dir_event;

typedef enum dir_action {
    DIR_NONE = 0,
    DIR_DEFER,               /* the request waits in the line's open transaction */
    DIR_OPEN,                /* open a transaction for the requester (allocating the entry) */
    DIR_OPEN_RECALL,         /* open a transaction that takes every L1 copy back */
    DIR_READ_HOME,           /* read the line from the L2 (fetching it from DRAM on a miss) */
    DIR_FORWARD_GET_S,       /* ask the owner for its data; it keeps a copy */
    DIR_FORWARD_GET_M,       /* ask the owner for its data; it gives the line up */
    DIR_INVALIDATE_SHARERS,  /* invalidate every sharer but the requester, counting the acks */
    DIR_COUNT_ACK,           /* one invalidation ack arrived */
    DIR_TAKE_DATA,           /* keep the message's (or home's) data for the grant */
    DIR_OWNER_ANSWERED,      /* the owner answered the forwarded request */
    DIR_WRITE_HOME,          /* write the message's data to the home (L2, write-back) */
    DIR_ACK_PUT,             /* acknowledge a write-back to its L1 */
    DIR_CLEAR_OWNER,         /* the owner no longer holds the line */
    DIR_OWNER_TO_SHARER,     /* the owner keeps a clean shared copy */
    DIR_ADD_REQUESTER,       /* the requester becomes a sharer */
    DIR_SET_OWNER,           /* the requester becomes the only holder (owner) */
    DIR_GRANT_S,             /* send the data to the requester as a shared copy */
    DIR_GRANT_E,             /* send the data as an exclusive copy */
    DIR_GRANT_M,             /* send the data with ownership */
    DIR_CLOSE,               /* close the transaction; requests that waited in it go again */
    DIR_FREE_ENTRY,          /* drop the entry (no L1 holds the line) */
    DIR_OPEN_WRITE,          /* open a transaction for a write-through: it waits for acks, grants no data */
    DIR_PERFORM_WRITE,       /* the bank's L2 array performs the write or atomic and answers the L1
                                (l2_process); while the array cannot take it, it waits at the head of
                                the bank's queue */
    DIR_RETAKE_WRITE,        /* the transaction's write goes back to the head of the bank's queue,
                                ahead of the requests that waited for the line (DIR_CLOSE requeues
                                them behind it) */
    DIR_DROP_SHARERS,        /* every sharer but the requester drops its copy at once (the L1 event
                                L1_DROP_NOW), with no message or ack: an experiment's instant
                                permission (mesi.ideal_permissions) */
    DIR_JOIN_READ,           /* the read joins the line's open read of the home instead of waiting
                                for it to close: it is due one L2 access later (DIR_READ_DUE), and the
                                transaction stays open until it is granted (mesi.dir_reads concurrent) */
    DIR_MARK_READ_DUE,       /* the joined read that raised DIR_READ_DUE may be granted */
    DIR_GRANT_JOINED,        /* once the home's data is in, each joined read that is due becomes a
                                sharer and is granted S */
    DIR_ACTION_COUNT
} dir_action;

/* What a guard of a directory row may ask about the line (see directory_machine.guard). */
typedef struct directory_guard_view {
    unsigned bank;
    uint64_t line_address;
    dir_state state;
    int requester;              /* the CU whose request the event serves (the message's sender, else
                                   the open transaction's requester), -1 for none (a recall) */
    int owner;                  /* the CU answering for the line, -1 for none */
    uint64_t sharers;           /* bit c: CU c may hold a shared copy */
    unsigned acks_pending;      /* invalidation acks the open transaction still waits for */
    bool requests_waiting;      /* requests wait (DEFER) in the open transaction */
} directory_guard_view;

/* A protocol's directory machine: its state x event table over the vocabulary above. Rows with a
 * guard (protocol.h: the rows of a pair stand together, guarded ones first) apply only when
 * `guard` says the guard holds for the line; a machine without guarded rows leaves it NULL. */
typedef struct directory_machine {
    const protocol_transition *table;
    unsigned size;
    bool (*guard)(memory_system *memory, const directory_guard_view *line, unsigned guard);
} directory_machine;

const char *dir_state_name(dir_state state);
const char *dir_event_name(dir_event event);
const char *dir_action_name(dir_action action);

void directory_build(memory_system *memory, const directory_machine *machine);
void directory_destroy_all(memory_system *memory);
int directory_load_config(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error);
int directory_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
void directory_home_filled(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data,
                           gsi_source source, sc_time when);
int directory_handle_event(memory_system *memory, const timing_event *event, sc_error *error);
void directory_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write);
void directory_warm_finish(memory_system *memory);

/* The hooks of a protocol whose directory is this block, built by `build_hook`, its configuration
 * read by `load_config_hook` (directory_load_config, or a protocol's own that calls it first). */
#define DIRECTORY_HOOK_FIELDS(build_hook, load_config_hook)                                         \
    .build = (build_hook), .destroy = directory_destroy_all, .load_config = (load_config_hook),      \
    .bank_receive = directory_receive, .home_data = directory_home_filled,                          \
    .handle_event = directory_handle_event, .host_access = directory_host_access,                   \
    .warm_finish = directory_warm_finish, .l1_action = ownership_l1_action,                         \
    .l1_message = ownership_l1_message, .l1_drained = ownership_l1_drained
#define DIRECTORY_HOOKS(build_hook) {DIRECTORY_HOOK_FIELDS(build_hook, directory_load_config)}

/* The directory's and the owning L1s' counters (ownership_stats), as the protocol's metrics. */
#define DIRECTORY_COUNTER_COUNT 9
extern const protocol_counter directory_counters[DIRECTORY_COUNTER_COUNT];

#endif
