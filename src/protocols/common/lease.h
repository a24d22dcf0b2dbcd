/* lease.h — physical-time lease coherence, the building block of TC-Strong and TC-Weak (Singh et
 * al., "Cache coherence for GPU architectures", HPCA 2013, as Ren's chapter 3 runs them:
 * ../shared/seeds/digests/004-ren-part1.md §3.1, §3.2 Table 3.1, §3.11).
 *
 * Every L1 and L2 reads one globally synchronised clock: the GPU's simulated time. A read that
 * reaches the L2 receives a read-only copy with a lease: the L2 records, in the line's protocol
 * word, the latest expiry of any lease it granted for the line (the lease starts when the L2 takes
 * the read, and lasts tc.lease_cycles GPU cycles), and the DATA answer carries it to the L1,
 * which keeps it in its line's protocol word. The L1 may read its copy while the clock is before
 * the expiry; an access that finds an expired copy self-invalidates it first (own event
 * LeaseExpired: V -> I) and misses, so expiry needs no message. The L1 is write-through and
 * write-no-allocate: a store or atomic drops the L1's own copy and goes to the L2 (its operation
 * is done at the L2's acknowledgement, l1_controller.c); a store to a line whose miss is in flight
 * closes the miss (its fill answers the loads already waiting but is not cached).
 *
 * At the L2 each request first runs the mechanism's lease table (lease_machine: states Free, no
 * unexpired lease; Leased; WritesWait, writes held until the leases expire; events Read, Write
 * (stores and atomics), Expiry) and then, where the row says Serve, the bank's array
 * (l2_process: hits, misses, fills, write-back to DRAM) answers it:
 *   TC-Strong: a write to a leased line waits at the L2 until every lease has expired (held in the
 *     bank's list of waiting writes, released by an Expiry event at the expiry, in arrival order
 *     and ahead of newer requests); while writes wait, reads are served with the lease that is
 *     already granted (Carry, no extension), so a stream of readers cannot starve the write;
 *   TC-Weak: a write proceeds at once; its global write completion time (GWCT: the line's latest
 *     lease expiry) is the time after which no L1 can still read the old value. The CU's write
 *     counts as outstanding (l1_controller.c's writes_outstanding) until the GWCT has passed as
 *     well as until its acknowledgement has arrived, so a fence, a release and the end of a
 *     kernel wait until every prior write of the CU is globally visible ([I] CU-wide, as every
 *     release of the engine; Singh's fence waits for its warp's own stores).
 * An L2 line that is replaced while a lease on it is unexpired keeps its expiry in the bank's
 * evicted-lease list until then (the l2_replaced hook; Singh keeps the evicted block in an L2
 * MSHR until expiry, which costs MSHRs for misses: here the list is not bounded by the MSHRs, and
 * runs count how many lines it took, tc_evicted_leases).
 *
 * A host write drops every L1 copy (the engine's default), or under tc.host_write_drop written the
 * copies of the written lines only: the host phase takes no simulated time, so a copy the host
 * wrote would otherwise still be within its lease.
 *
 * Acquires need nothing: a copy expires by time alone. The hooks' table is LEASE_HOOK_FIELDS with
 * the mechanism's own build (one that calls lease_build with its machine) and its configuration
 * loader (lease_load_config, or one that calls it first). */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_LEASE_H
#define SYNCSCOPE_PROTOCOLS_COMMON_LEASE_H

#include "config/schema.h"
#include "timing/memory_internal.h"

/* ---- configuration ---- */

typedef struct lease_config {
    sc_time lease;                  /* tc.lease_cycles, in time */
    bool host_write_drops_written;  /* tc.host_write_drop written: a host write drops only its lines */
} lease_config;

/* tc.lease_cycles and tc.host_write_drop, which every mechanism built on leases reads. */
extern const sc_config_key_table lease_config_keys;
int lease_load_config(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error);

/* ---- the L1 (one table for both mechanisms) ---- */

#define L1_LEASE_EXPIRED ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 0))   /* an access found the copy's lease over */
#define L1_TAKE_LEASE ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 0))    /* the installed line keeps the fill's lease */

#define LEASE_L1_ROWS 20
extern const protocol_transition lease_l1_table[LEASE_L1_ROWS];
extern const char *const lease_l1_events[1];
extern const protocol_own_action lease_l1_actions[1];

/* The L1 table and its own event and action, for a protocol's sc_protocol. */
#define LEASE_VOCABULARY                                                                            \
    .l1_table = lease_l1_table, .l1_table_size = LEASE_L1_ROWS, .own_events = lease_l1_events,      \
    .own_event_count = 1, .own_actions = lease_l1_actions, .own_action_count = 1

/* ---- the L2's lease machine ---- */

typedef enum lease_state { LEASE_FREE = 0, LEASE_LEASED, LEASE_WRITES_WAIT, LEASE_STATE_COUNT } lease_state;
typedef enum lease_event { LEASE_READ = 0, LEASE_WRITE, LEASE_EXPIRY, LEASE_EVENT_COUNT } lease_event;
typedef enum lease_action {
    LEASE_NONE = 0,
    LEASE_GRANT,          /* the read's answer carries a lease: expiry = max(expiry, now + lease) */
    LEASE_CARRY,          /* the read's answer carries the expiry already granted (no extension) */
    LEASE_SERVE,          /* the bank's array serves the request (l2_process); it may have to wait */
    LEASE_HOLD_WRITE,     /* the write waits in the bank's list until the line's leases expire */
    LEASE_RELEASE_WRITES, /* the waiting writes go back to the head of the bank's queue, in order */
    LEASE_STAMP_GWCT,     /* the writer's CU counts the write outstanding until the line's expiry */
} lease_action;

typedef struct lease_machine {
    const protocol_transition *table;
    unsigned size;
} lease_machine;

/* Builds the L2 side (per bank: waiting writes, evicted leases; the statistics) for `machine`;
 * the mechanism's build hook calls it. */
void lease_build(memory_system *memory, const lease_machine *machine);
void lease_destroy(memory_system *memory);

/* ---- hooks ---- */

l1_verdict lease_before_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                               l1_event *event, sc_time now, sc_error *error);
int lease_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error);
int lease_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
void lease_replaced(memory_system *memory, unsigned bank, const cache_line *line, sc_time now);
int lease_handle_event(memory_system *memory, const timing_event *event, sc_error *error);
void lease_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write);

#define LEASE_HOOK_FIELDS(build_hook, load_config_hook)                                             \
    .build = (build_hook), .destroy = lease_destroy, .load_config = (load_config_hook),             \
    .l1_before_access = lease_before_access, .l1_action = lease_l1_action,                         \
    .bank_receive = lease_receive, .l2_replaced = lease_replaced, .handle_event = lease_handle_event, \
    .host_access = lease_host_access

/* ---- counters ---- */

typedef struct lease_stats {
    uint64_t leases_granted;      /* reads answered with a new or extended lease */
    uint64_t l1_expired_loads;    /* loads that found their L1 copy's lease over (an expired-lease miss) */
    uint64_t write_lease_waits;   /* TC-Strong: writes held at the L2 for a lease */
    uint64_t write_wait_cycles;   /* their GPU cycles held */
    uint64_t gwct_waits;          /* TC-Weak: writes performed before their line's leases expired */
    uint64_t gwct_cycles;         /* GPU cycles from each such write to its GWCT */
    uint64_t evicted_leases;      /* L2 lines replaced before their lease expired */
    uint64_t l1_reuses;           /* loads that found their L1 copy in V, its lease live or over */
    uint64_t l1_reuses_within_2_leases;   /* of them, those whose copy's lease began 1 to 2 leases ago */
    uint64_t l1_reuses_within_4_leases;   /* and 2 to 4 leases ago (both are expired loads) */
} lease_stats;

#define LEASE_COUNTER_COUNT 10
extern const protocol_counter lease_counters[LEASE_COUNTER_COUNT];

#endif
