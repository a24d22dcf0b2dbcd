/* rcc_core.h — Relativistic Cache Coherence (RCC, Ren's thesis chapter 3:
 * ../shared/seeds/digests/004-ren-part1.md §3.2-§3.10), the building block of the mechanisms rcc
 * (sequentially consistent, with SC cores) and rcc-wo (weakly ordered: a read view and a write view
 * per core). The seed text, 004-ren-sync-mechanisms.txt chapter 3, settles doubts.
 *
 * Logical time. Each CU keeps its logical time `now` (under rcc-wo two: the read view, consulted
 * and advanced by loads, and the write view, by stores and atomics; a fence, an acquire and a
 * release join them, and under rcc they are always equal). Each L1 copy keeps its lease `exp`
 * (the L1 line's protocol word); each L2 line its lease `exp` and its version `ver` (the L2 line's
 * protocol word: exp in the low 32 bits, ver in the high 32); each L2 bank (a memory partition)
 * `mnow`, the latest exp or ver of any line it evicted; each L2 MSHR `lastrd`/`lastwr`, the latest
 * `now` of the reads and writes that waited for its fill. Requests carry the CU's time (and a
 * read the exp of the expired copy it replaces, for renewal); answers carry ver (and a read's exp).
 * The three rules (§3.3): a read makes now >= ver; a write makes ver >= now and now >= ver; a write's
 * ver goes beyond the line's exp. At the L2: exp = max(exp, ver + lease, now + lease) for a read,
 * ver = max(now, ver, exp + 1) for a write or atomic.
 *
 * The L1 (rcc_l1_table; write-through, write-no-allocate): a copy is valid while now <= exp and is
 * dropped lazily by the access that finds it expired (own event Expired; §3.3: "expired blocks in
 * V are treated exactly the same way as blocks in I"); a load that drops it keeps its data and
 * exp for renewal. Under rcc.strong_loads refresh a strong load (relaxed, volatile or acquire at GPU
 * or system scope) drops a valid copy the same way, so a spin on a flag reaches the L2 ([I]: the
 * thesis leaves such spins to the livelock guard). States I, V and IV (the engine's), VI (valid while the CU's own write to the
 * line is in flight: readable by the CU's other warps, dropped at the acknowledgement) and II (a
 * load miss outstanding while the CU's writes to the line are in flight: its fill is cached in
 * VI). The CU's writes in flight per line are counted in the module's table of written lines (the
 * thesis's L1 MSHR "has stores" state): a line in I with writes in flight is the thesis's II
 * without a read outstanding. A warp's accesses to one line stay in order (the thesis's RCC-WO
 * "scheduler signal per warp to order memops from one thread", [I] per line): its load waits while
 * its own write to the line is in flight (else it could hit the VI copy from before the write),
 * and its store or atomic while its own load of the line waits for a fill (else the fill could
 * bring the store merged in); the access is refused and retried, which the engine charges as an
 * MSHR-full memory-structural stall. Under rcc the SC core never lets either happen.
 *
 * The L2 (rcc_l2_table, on the engine's generic table machine): states I, V, IV (fetching from
 * DRAM; reads and writes wait in the MSHR, a write is acknowledged at once with ver = max(lastwr,
 * the fill time), §3.6 note 1) and IAV (an atomic arrived in I: everything after it waits until the
 * fill, the version and the atomic are done). A fill sets ver = exp = the fill time (mnow, or
 * mnow + 1 with rcc.fill_time mnow_plus_one: see rcc_fill_time), then ver = max(lastwr, fill time)
 * after writes, exp = max(ver + lease, lastrd + lease) after reads; the writes that waited are
 * merged into the line, the logically later one winning where they overlap (equal times: arrival
 * order). Renewal (§3.9): a read whose expired copy's exp exceeds the line's ver gets RENEW, no
 * data. The lease predictor per L2 line: starts at rcc.lease_max, drops to rcc.lease_min on a
 * write, doubles on a renewal. The livelock guard advances every CU's time by 1 every
 * rcc.livelock_cycles cycles. Timestamps are rcc.timestamp_bits wide: a timestamp the L2 would
 * make beyond that rolls every timestamp over (§3.8), at once (the ring's stall is not timed):
 * every L1 is flushed and its time zeroed, mnow zeroed, and the L2's lines and MSHRs and the
 * messages in flight carry a generation, so times from before count as 0. A kernel starts with
 * every CU at the latest time of all, and ends once no write acknowledged early still waits in an
 * L2 MSHR for its fill. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_RCC_CORE_H
#define SYNCSCOPE_PROTOCOLS_COMMON_RCC_CORE_H

#include "config/schema.h"
#include "timing/memory_internal.h"

/* ---- configuration ---- */

typedef enum rcc_fill_time { RCC_FILL_MNOW_PLUS_ONE = 0, RCC_FILL_MNOW } rcc_fill_time;

typedef struct rcc_config {
    uint32_t lease_min, lease_max;  /* rcc.lease_min, rcc.lease_max (logical time units) */
    bool predictor;                 /* rcc.lease_predictor; false: every lease is lease_max */
    bool renewal;                   /* rcc.renewal */
    uint64_t max_time;              /* 2^rcc.timestamp_bits - 1 */
    sc_time livelock;               /* rcc.livelock_cycles in time; 0: no guard */
    rcc_fill_time fill_time;        /* rcc.fill_time */
    bool refresh_strong;            /* rcc.strong_loads refresh */
    bool sequential;                /* rcc: one logical time per CU; rcc-wo: a read and a write view */
    bool host_write_drops_written;  /* rcc.host_write_drop written: a host write drops only its lines */
} rcc_config;

/* The rcc.* keys, which rcc and rcc-wo read. */
extern const sc_config_key_table rcc_config_keys;
int rcc_load_config_sc(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error);
int rcc_load_config_wo(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error);

/* ---- the L1 ---- */

#define RCC_L1_VI ((l1_state)(L1_STATE_PROTOCOL_FIRST + 0))
#define RCC_L1_II ((l1_state)(L1_STATE_PROTOCOL_FIRST + 1))

#define RCC_L1_EXPIRED ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 0))        /* an access found the copy's lease over */
#define RCC_L1_RENEW ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 1))          /* the L2 renewed the lease (no data) */
#define RCC_L1_ACK ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 2))            /* a write or atomic of the CU was performed */

#define RCC_TAKE_LEASE ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 0))   /* the installed copy keeps the answer's exp; now >= ver */
#define RCC_TAKE_VERSION ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 1)) /* now >= the answer's ver (an uncached fill) */
#define RCC_KEEP_EXPIRED ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 2)) /* keep the expired copy's data and exp for renewal */
#define RCC_OPEN_MISS_II ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 3)) /* open an MSHR in II and send a read */
#define RCC_TO_II ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 4))        /* the open miss goes to II */

/* Row guard: the CU has writes to the line in flight. */
#define RCC_GUARD_WRITES 1

#define RCC_L1_ROWS 43
extern const protocol_transition rcc_l1_table[RCC_L1_ROWS];
extern const protocol_own_state rcc_l1_states[2];
extern const char *const rcc_l1_events[3];
extern const protocol_own_action rcc_l1_actions[5];

/* Own messages: the L2's RENEW answer (no data), and a write held in an L2 MSHR until the fill (it
 * never travels). */
#define RCC_MSG_RENEW ((message_type)(MSG_PROTOCOL_FIRST + 0))
#define RCC_MSG_HELD_WRITE ((message_type)(MSG_PROTOCOL_FIRST + 1))
extern const protocol_own_message rcc_messages[2];

/* ---- the L2 ---- */

typedef enum rcc_l2_state { RCC_L2_I = 0, RCC_L2_V, RCC_L2_IV, RCC_L2_IAV, RCC_L2_STATE_COUNT } rcc_l2_state;
typedef enum rcc_l2_event { RCC_L2_GETS = 0, RCC_L2_WRITE, RCC_L2_ATOMIC, RCC_L2_EVENT_COUNT } rcc_l2_event;
typedef enum rcc_l2_action {
    RCC_L2_NONE = 0,
    RCC_L2_SERVE,         /* the bank's array serves the request (l2_process: a hit, a miss's fetch, a wait in
                             the MSHR); it may have to wait */
    RCC_L2_GRANT,         /* exp = max(exp, ver + lease, now + lease); the answer carries exp and ver */
    RCC_L2_RENEW,         /* answer RENEW{exp} without data (the expired copy is still current) */
    RCC_L2_STAMP_WRITE,   /* ver = max(now, ver, exp + 1); the answer carries ver; the lease drops */
    RCC_L2_STAMP_NEW_LINE,/* a whole-line write installed without a fetch: ver = exp = the fill time, then
                             the write's ver as in STAMP_WRITE */
    RCC_L2_RECORD_READ,   /* MSHR.lastrd = max(lastrd, now) */
    RCC_L2_RECORD_WRITE,  /* MSHR.lastwr = max(lastwr, now) */
    RCC_L2_HOLD_WRITE,    /* the write waits in the MSHR for the fill; ACK{ver = max(lastwr, fill time)} now */
    RCC_L2_MARK_ATOMIC,   /* the MSHR is IAV: every later request waits for the fill and the atomic */
} rcc_l2_action;

/* Row guards of the L2: the read's expired copy is still current (its exp > the line's ver) and
 * renewal is on; the write covers the whole line. */
#define RCC_GUARD_RENEWABLE 1
#define RCC_GUARD_FULL_LINE 2

#define RCC_L2_ROWS 14
extern const protocol_transition rcc_l2_table[RCC_L2_ROWS];

/* ---- hooks ---- */

void rcc_build(memory_system *memory);
void rcc_destroy(memory_system *memory);
void rcc_acquire(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now);
void rcc_kernel_begin(memory_system *memory, sc_time now);
void rcc_l1_request(memory_system *memory, unsigned cu, uint32_t handle, sc_time now);
int rcc_l1_answer(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);
l1_verdict rcc_before_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                             l1_event *event, sc_time now, sc_error *error);
bool rcc_l1_guard(memory_system *memory, const l1_context *context, unsigned guard);
int rcc_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error);
int rcc_l1_message(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);
int rcc_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
void rcc_fill_data(memory_system *memory, uint64_t line_address, uint8_t *data);
bool rcc_fill_must_retake(memory_system *memory, unsigned bank, uint32_t handle);
void rcc_home_data(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data, gsi_source source,
                   sc_time when);
void rcc_replaced(memory_system *memory, unsigned bank, const cache_line *line, sc_time now);
bool rcc_l1_drained(const memory_system *memory, unsigned cu);
void rcc_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write);

/* The hooks both mechanisms set (the acquire joins the views: a no-op under rcc; a kernel start
 * moves every CU to the latest time of all; a host write drops every L1 copy, or under
 * rcc.host_write_drop written the copies of the written lines only; the build hook is rcc_build or
 * one that calls it); rcc adds the SC core's. */
#define RCC_HOOK_FIELDS(build_hook, load_config_hook)                                               \
    .build = (build_hook), .destroy = rcc_destroy, .load_config = (load_config_hook), .acquire = rcc_acquire, \
    .kernel_begin = rcc_kernel_begin,                                                               \
    .l1_request = rcc_l1_request, .l1_answer = rcc_l1_answer, .l1_before_access = rcc_before_access, \
    .l1_guard = rcc_l1_guard, .l1_action = rcc_l1_action, .l1_message = rcc_l1_message,             \
    .bank_receive = rcc_receive, .fill_data = rcc_fill_data, .fill_must_retake = rcc_fill_must_retake, \
    .home_data = rcc_home_data, .l2_replaced = rcc_replaced, .l1_drained = rcc_l1_drained,      \
    .host_access = rcc_host_access

/* The L1 table, its own vocabulary and messages, for a protocol's sc_protocol. */
#define RCC_VOCABULARY                                                                              \
    .l1_table = rcc_l1_table, .l1_table_size = RCC_L1_ROWS, .own_states = rcc_l1_states,            \
    .own_state_count = 2, .own_events = rcc_l1_events, .own_event_count = 3,                        \
    .own_actions = rcc_l1_actions, .own_action_count = 5, .own_messages = rcc_messages,             \
    .own_message_count = 2, .counters = rcc_counters, .counter_count = RCC_COUNTER_COUNT,           \
    .extension = {.l2_line = sizeof(uint32_t) * 2, .l1_mshr = TIMING_MAX_LINE_BYTES,                \
                  .l2_mshr = sizeof(rcc_l2_mshr)}

/* What an L2 MSHR keeps (its extension bytes). */
typedef struct rcc_l2_mshr {
    uint32_t lastrd, lastwr;
    uint32_t generation;     /* the rollover generation its times belong to */
    uint8_t has_read, has_write, atomic;
} rcc_l2_mshr;

/* ---- counters ---- */

typedef struct rcc_stats {
    uint64_t expired_loads;       /* loads that found their L1 copy valid but its lease over */
    uint64_t premature_expiries;  /* reads of an expired copy whose L2 line was unchanged (renewable; a
                                     strong load's refresh of a valid copy is not counted) */
    uint64_t renewals;            /* RENEW answers */
    uint64_t data_responses;      /* reads answered with data (hits and fills) */
    uint64_t time_advances;       /* answers that moved a CU's logical time forward */
    uint64_t livelock_advances;   /* advances of a CU's time by the livelock guard */
    uint64_t rollovers;           /* timestamp rollovers */
    uint64_t early_acks;          /* writes acknowledged while their line was fetched from DRAM */
    uint64_t own_line_waits;      /* refusals of a warp's access to a line its own write or load is in flight to */
    uint64_t strong_refreshes;    /* strong loads that refreshed a valid copy from the L2 (rcc.strong_loads) */
} rcc_stats;

#define RCC_COUNTER_COUNT 10
extern const protocol_counter rcc_counters[RCC_COUNTER_COUNT];

/* For tests: the logical time of CU `cu` for reads and for writes (equal under rcc), and setting
 * both; an L2 line's exp, ver and predicted lease (0 for a line not in the array); a bank's mnow. */
uint64_t rcc_read_time(const memory_system *memory, unsigned cu);
uint64_t rcc_write_time(const memory_system *memory, unsigned cu);
void rcc_set_time(memory_system *memory, unsigned cu, uint64_t time);
void rcc_l2_times(memory_system *memory, uint64_t line_address, uint64_t *exp, uint64_t *ver, uint64_t *lease);
uint64_t rcc_mnow(const memory_system *memory, unsigned bank);

#endif
