/* rcc_core.c — Relativistic Cache Coherence (rcc_core.h): the L1 table and the L1's logical time,
 * the L2 table run on the engine's generic table machine in front of the bank's array, fills and
 * evictions through mnow, renewal, the lease predictor, the livelock guard and rollover. */
#include "protocols/common/rcc_core.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ROW PROTOCOL_ROW
#define GROW PROTOCOL_GUARDED_ROW

/* ---- the L1 table (Fig 3.5a; the thesis's II without a read outstanding is I with the line's
 * writes counted, see rcc_core.h) ---- */

const protocol_transition rcc_l1_table[RCC_L1_ROWS] = {
    GROW(L1_I,      L1_LOAD,               RCC_GUARD_WRITES, RCC_L1_II, RCC_OPEN_MISS_II),
    ROW(L1_I,       L1_LOAD,               L1_IV,     L1_OPEN_MISS),
    GROW(L1_I,      L1_LOAD_STRONG,        RCC_GUARD_WRITES, RCC_L1_II, RCC_OPEN_MISS_II),
    ROW(L1_I,       L1_LOAD_STRONG,        L1_IV,     L1_OPEN_MISS),
    ROW(L1_I,       L1_STORE,              L1_I,      L1_WRITE_THROUGH),
    ROW(L1_I,       L1_STORE_STRONG,       L1_I,      L1_WRITE_THROUGH),
    ROW(L1_I,       L1_ATOMIC,             L1_I,      L1_SEND_ATOMIC),
    ROW(L1_I,       L1_FILL_UNCACHED,      L1_I,      RCC_TAKE_VERSION, L1_DELIVER_FILL),
    ROW(L1_I,       RCC_L1_ACK,            L1_I,      L1_NONE),

    ROW(L1_V,       L1_LOAD,               L1_V,      L1_HIT),
    ROW(L1_V,       L1_LOAD_STRONG,        L1_V,      L1_HIT),
    ROW(L1_V,       L1_STORE,              RCC_L1_VI, L1_WRITE_THROUGH),
    ROW(L1_V,       L1_STORE_STRONG,       RCC_L1_VI, L1_WRITE_THROUGH),
    ROW(L1_V,       L1_ATOMIC,             RCC_L1_VI, L1_SEND_ATOMIC),
    ROW(L1_V,       L1_REPLACE,            L1_I,      L1_DROP_LINE),
    ROW(L1_V,       RCC_L1_EXPIRED,        L1_I,      RCC_KEEP_EXPIRED, L1_DROP_LINE),

    ROW(L1_IV,      L1_LOAD,               L1_IV,     L1_MERGE),
    ROW(L1_IV,      L1_LOAD_STRONG,        L1_IV,     L1_MERGE),
    ROW(L1_IV,      L1_STORE,              RCC_L1_II, RCC_TO_II, L1_WRITE_THROUGH),
    ROW(L1_IV,      L1_STORE_STRONG,       RCC_L1_II, RCC_TO_II, L1_WRITE_THROUGH),
    ROW(L1_IV,      L1_ATOMIC,             RCC_L1_II, RCC_TO_II, L1_SEND_ATOMIC),
    ROW(L1_IV,      L1_FILL,               L1_V,      L1_INSTALL_FILL, RCC_TAKE_LEASE, L1_DELIVER_FILL),
    ROW(L1_IV,      L1_FILL_UNCACHED,      L1_I,      RCC_TAKE_VERSION, L1_DELIVER_FILL),
    ROW(L1_IV,      RCC_L1_RENEW,          L1_V,      L1_INSTALL_FILL, RCC_TAKE_LEASE, L1_DELIVER_FILL),

    ROW(RCC_L1_II,  L1_LOAD,               RCC_L1_II, L1_MERGE),
    ROW(RCC_L1_II,  L1_LOAD_STRONG,        RCC_L1_II, L1_MERGE),
    ROW(RCC_L1_II,  L1_STORE,              RCC_L1_II, L1_WRITE_THROUGH),
    ROW(RCC_L1_II,  L1_STORE_STRONG,       RCC_L1_II, L1_WRITE_THROUGH),
    ROW(RCC_L1_II,  L1_ATOMIC,             RCC_L1_II, L1_SEND_ATOMIC),
    GROW(RCC_L1_II, L1_FILL,               RCC_GUARD_WRITES, RCC_L1_VI, L1_INSTALL_FILL, RCC_TAKE_LEASE, L1_DELIVER_FILL),
    ROW(RCC_L1_II,  L1_FILL,               L1_V,      L1_INSTALL_FILL, RCC_TAKE_LEASE, L1_DELIVER_FILL),
    ROW(RCC_L1_II,  L1_FILL_UNCACHED,      L1_I,      RCC_TAKE_VERSION, L1_DELIVER_FILL),
    GROW(RCC_L1_II, RCC_L1_RENEW,          RCC_GUARD_WRITES, RCC_L1_VI, L1_INSTALL_FILL, RCC_TAKE_LEASE, L1_DELIVER_FILL),
    ROW(RCC_L1_II,  RCC_L1_RENEW,          L1_V,      L1_INSTALL_FILL, RCC_TAKE_LEASE, L1_DELIVER_FILL),
    ROW(RCC_L1_II,  RCC_L1_ACK,            RCC_L1_II, L1_NONE),

    ROW(RCC_L1_VI,  L1_LOAD,               RCC_L1_VI, L1_HIT),
    ROW(RCC_L1_VI,  L1_LOAD_STRONG,        RCC_L1_VI, L1_HIT),
    ROW(RCC_L1_VI,  L1_STORE,              RCC_L1_VI, L1_WRITE_THROUGH),
    ROW(RCC_L1_VI,  L1_STORE_STRONG,       RCC_L1_VI, L1_WRITE_THROUGH),
    ROW(RCC_L1_VI,  L1_ATOMIC,             RCC_L1_VI, L1_SEND_ATOMIC),
    ROW(RCC_L1_VI,  L1_REPLACE,            L1_I,      L1_DROP_LINE),
    ROW(RCC_L1_VI,  RCC_L1_EXPIRED,        L1_I,      L1_DROP_LINE),
    ROW(RCC_L1_VI,  RCC_L1_ACK,            L1_I,      L1_DROP_LINE),
};

_Static_assert(sizeof rcc_l1_table / sizeof rcc_l1_table[0] == RCC_L1_ROWS, "RCC_L1_ROWS is the table's size");

const protocol_own_state rcc_l1_states[2] = {{"VI", true}, {"II", false}};
const char *const rcc_l1_events[3] = {"Expired", "Renew", "Ack"};
const protocol_own_action rcc_l1_actions[5] = {
    {"TakeLease", false}, {"TakeVersion", false}, {"KeepExpired", false}, {"OpenMissII", true}, {"ToII", false},
};
/* name, carries a line, a response at the bank, coherence traffic to a CU, traffic class
 * (docs/noc-energy.md) */
const protocol_own_message rcc_messages[2] = {
    {"RENEW", false, false, false, NOC_TRAFFIC_LD},
    {"HELD_WRITE", true, false, false, NOC_TRAFFIC_ST},
};

/* ---- the L2 table (Fig 3.5b; eviction is the l2_replaced hook, the DRAM fill fill_data) ---- */

const protocol_transition rcc_l2_table[RCC_L2_ROWS] = {
    ROW(RCC_L2_I,    RCC_L2_GETS,   RCC_L2_IV,  RCC_L2_SERVE, RCC_L2_RECORD_READ),
    GROW(RCC_L2_I,   RCC_L2_WRITE,  RCC_GUARD_FULL_LINE, RCC_L2_V, RCC_L2_SERVE, RCC_L2_STAMP_NEW_LINE),
    ROW(RCC_L2_I,    RCC_L2_WRITE,  RCC_L2_IV,  RCC_L2_SERVE, RCC_L2_RECORD_WRITE, RCC_L2_HOLD_WRITE),
    ROW(RCC_L2_I,    RCC_L2_ATOMIC, RCC_L2_IAV, RCC_L2_SERVE, RCC_L2_RECORD_WRITE, RCC_L2_MARK_ATOMIC),
    GROW(RCC_L2_V,   RCC_L2_GETS,   RCC_GUARD_RENEWABLE, RCC_L2_V, RCC_L2_GRANT, RCC_L2_RENEW),
    ROW(RCC_L2_V,    RCC_L2_GETS,   RCC_L2_V,   RCC_L2_GRANT, RCC_L2_SERVE),
    ROW(RCC_L2_V,    RCC_L2_WRITE,  RCC_L2_V,   RCC_L2_STAMP_WRITE, RCC_L2_SERVE),
    ROW(RCC_L2_V,    RCC_L2_ATOMIC, RCC_L2_V,   RCC_L2_STAMP_WRITE, RCC_L2_SERVE),
    ROW(RCC_L2_IV,   RCC_L2_GETS,   RCC_L2_IV,  RCC_L2_SERVE, RCC_L2_RECORD_READ),
    ROW(RCC_L2_IV,   RCC_L2_WRITE,  RCC_L2_IV,  RCC_L2_SERVE, RCC_L2_RECORD_WRITE, RCC_L2_HOLD_WRITE),
    ROW(RCC_L2_IV,   RCC_L2_ATOMIC, RCC_L2_IV,  RCC_L2_SERVE),   /* waits in the MSHR, retaken after the fill */
    ROW(RCC_L2_IAV,  RCC_L2_GETS,   RCC_L2_IAV, RCC_L2_SERVE),   /* IAV: every request waits, retaken after */
    ROW(RCC_L2_IAV,  RCC_L2_WRITE,  RCC_L2_IAV, RCC_L2_SERVE),
    ROW(RCC_L2_IAV,  RCC_L2_ATOMIC, RCC_L2_IAV, RCC_L2_SERVE),
};

_Static_assert(sizeof rcc_l2_table / sizeof rcc_l2_table[0] == RCC_L2_ROWS, "RCC_L2_ROWS is the table's size");

/* ---- configuration ---- */

static const sc_config_key rcc_keys[] = {
    {"rcc.lease_min", SC_KEY_INT, "", 1, 1u << 30, NULL, 0,
     "shortest lease of rcc and rcc-wo's lease predictor, in logical time (Ren Table 3.3: 8)"},
    {"rcc.lease_max", SC_KEY_INT, "", 1, 1u << 30, NULL, 0,
     "longest lease of the predictor, where every L2 line starts, and the fixed lease without it (Table 3.3: 2048)"},
    {"rcc.lease_predictor", SC_KEY_BOOL, "", 0, 0, NULL, 0,
     "predict each L2 line's lease (drop to lease_min on a write, double on a renewal); false: every lease is lease_max"},
    {"rcc.renewal", SC_KEY_BOOL, "", 0, 0, NULL, 0,
     "a read of an expired copy whose L2 line is unchanged gets RENEW without data (Ren §3.4.5)"},
    {"rcc.timestamp_bits", SC_KEY_INT, "bits", 4, 32, NULL, 0,
     "width of every RCC timestamp; a timestamp beyond it rolls all of them over (Table 3.3: 32)"},
    {"rcc.livelock_cycles", SC_KEY_INT, "cycles", 0, 1u << 30, NULL, 0,
     "the livelock guard advances every CU's logical time by 1 each this many GPU cycles; 0: off (Ren §3.4.5: 10000)"},
    {"rcc.strong_loads", SC_KEY_ENUM, "", 0, 0, "refresh|hit", 0,
     "a strong load (relaxed, volatile or acquire at GPU or system scope) of a valid copy: refresh it from the L2 "
     "(RENEW when unchanged), so a spin on a flag sees its write; or hit it like any load (Ren's reading: such "
     "spins wait for the livelock guard)"},
    {"rcc.fill_time", SC_KEY_ENUM, "", 0, 0, "mnow_plus_one|mnow", 0,
     "the ver and exp of a line filled from DRAM: one past the partition's mnow (every evicted lease strictly "
     "before any new write), or mnow as Fig 3.5 writes it"},
    {"rcc.host_write_drop", SC_KEY_ENUM, "", 0, 0, "all|written", 0,
     "an experiment on what a host write between kernels drops from rcc and rcc-wo's L1s: all (every copy of "
     "every L1, the engine's default; the thesis runs one kernel per workload and does not say) or written "
     "(only the copies of the lines the host wrote)"},
};

const sc_config_key_table rcc_config_keys = {rcc_keys, sizeof rcc_keys / sizeof rcc_keys[0]};

_Static_assert(sizeof(rcc_config) <= PROTOCOL_CONFIG_BYTES, "rcc_config outgrows protocol_config");

static int load_config(const sc_config *c, memory_config *m, bool sequential, sc_error *error)
{
    rcc_config *config = (rcc_config *)m->protocol_config;
    int64_t low = sc_config_int(c, "rcc.lease_min"), high = sc_config_int(c, "rcc.lease_max");
    int64_t bits = sc_config_int(c, "rcc.timestamp_bits");
    if (low > high)
        return sc_fail_input(error, "config: rcc.lease_min (%lld) exceeds rcc.lease_max (%lld)", (long long)low,
                       (long long)high);
    uint64_t max_time = (bits >= 64 ? UINT64_MAX : (1ull << bits) - 1);
    if ((uint64_t)high * 2 + 2 > max_time)
        return sc_fail_input(error, "config: rcc.timestamp_bits (%lld) leaves no room for leases of rcc.lease_max (%lld): "
                       "2 * lease_max + 2 must fit", (long long)bits, (long long)high);
    config->lease_min = (uint32_t)low;
    config->lease_max = (uint32_t)high;
    config->predictor = sc_config_bool(c, "rcc.lease_predictor");
    config->renewal = sc_config_bool(c, "rcc.renewal");
    config->max_time = max_time;
    config->livelock = sc_clock_span(m->gpu_clock, (uint64_t)sc_config_int(c, "rcc.livelock_cycles"));
    config->fill_time = strcmp(sc_config_string(c, "rcc.fill_time"), "mnow") ? RCC_FILL_MNOW_PLUS_ONE : RCC_FILL_MNOW;
    config->refresh_strong = !strcmp(sc_config_string(c, "rcc.strong_loads"), "refresh");
    config->sequential = sequential;
    config->host_write_drops_written = !strcmp(sc_config_string(c, "rcc.host_write_drop"), "written");
    return 0;
}

int rcc_load_config_sc(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    return load_config(c, m, true, error);
}

int rcc_load_config_wo(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    return load_config(c, m, false, error);
}

/* ---- counters ---- */

#define COUNT(name, field) {name, NULL, offsetof(rcc_stats, field), PROTOCOL_COUNTER_TOTAL}

const protocol_counter rcc_counters[RCC_COUNTER_COUNT] = {
    COUNT("rcc_expired_loads", expired_loads),
    COUNT("rcc_premature_expiries", premature_expiries),
    COUNT("rcc_renewals", renewals),
    COUNT("rcc_data_responses", data_responses),
    COUNT("rcc_time_advances", time_advances),
    COUNT("rcc_livelock_advances", livelock_advances),
    COUNT("rcc_rollovers", rollovers),
    COUNT("rcc_early_acks", early_acks),
    COUNT("rcc_own_line_waits", own_line_waits),
    COUNT("rcc_strong_refreshes", strong_refreshes),
};

/* ---- the module's state ---- */

/* A CU's side: its logical time (two views), the livelock guard, the lines it has writes in flight
 * to (an MSHR-like table: protocol_word counts the writes, `opened` is the mask of the warps that
 * sent them, by slot mod 64), and the copy its latest expiry dropped, kept for renewal. */
typedef struct rcc_cu {
    uint64_t read_time, write_time;
    uint64_t held_writes;        /* its writes acknowledged early that wait in an L2 MSHR for their fill */
    sc_time guard_from;
    mshr_table *writes;
    bool refreshing;             /* the copy being dropped is a strong load's refresh, not an expiry */
    bool kept, kept_refreshed;   /* a kept copy, and whether a refresh dropped it */
    uint64_t kept_line, kept_exp;
    uint8_t kept_data[TIMING_MAX_LINE_BYTES];
} rcc_cu;

/* An L2 line's own bytes: its predicted lease (0: not set yet, lease_max) and the rollover
 * generation its protocol word belongs to. */
typedef struct rcc_l2_line {
    uint32_t lease;
    uint32_t generation;
} rcc_l2_line;

typedef struct rcc_state {
    rcc_config config;
    const protocol_transition *first[RCC_L2_STATE_COUNT][RCC_L2_EVENT_COUNT];
    rcc_cu *cus;
    uint64_t *mnow;              /* per L2 bank (memory partition) */
    uint32_t generation;         /* rollovers so far */
    rcc_stats stats;
} rcc_state;

/* The number of a CU's lines with writes in flight it can track. */
#define RCC_WRITTEN_LINES 8192
/* Message bits: the rollover generation (mod 64) of the times it carries, the mark of a read whose
 * kept copy a strong load refreshed (it had not expired), and the mark of the atomic that made its
 * line IAV. */
#define GENERATION_BITS 0x3fu
#define REFRESH_BIT 0x40u
#define IAV_ATOMIC_BIT 0x80u

static rcc_state *state_of(const memory_system *memory) { return memory->protocol_state; }

void rcc_build(memory_system *memory)
{
    rcc_state *st = calloc(1, sizeof *st);
    st->config = *(const rcc_config *)memory->config.protocol_config;
    protocol_index_table(rcc_l2_table, RCC_L2_ROWS, RCC_L2_EVENT_COUNT, &st->first[0][0]);
    st->cus = calloc(memory->config.cu_count, sizeof *st->cus);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        st->cus[cu].writes = mshr_create(RCC_WRITTEN_LINES);
    st->mnow = calloc(memory->config.l2_banks, sizeof *st->mnow);
    memory->protocol_state = st;
    memory->protocol_stats = &st->stats;
    memory->l2_writes_through = false;   /* the L2 is write-back (Ren §3.4.3) */
}

void rcc_destroy(memory_system *memory)
{
    rcc_state *st = state_of(memory);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        mshr_destroy(st->cus[cu].writes);
    free(st->cus);
    free(st->mnow);
    free(st);
}

/* ---- timestamps ---- */

static uint64_t max_of(uint64_t a, uint64_t b) { return a > b ? a : b; }

static bool message_current(const rcc_state *st, const message *m)
{
    return (m->protocol_bits & GENERATION_BITS) == (st->generation & GENERATION_BITS);
}

/* A request's time and its expired copy's exp; an answer's ver and exp (0 from an older generation). */
static uint64_t word_low(const rcc_state *st, const message *m)
{
    return message_current(st, m) ? (uint32_t)m->protocol_word : 0;
}

static uint64_t word_high(const rcc_state *st, const message *m)
{
    return message_current(st, m) ? m->protocol_word >> 32 : 0;
}

static void stamp(const rcc_state *st, message *m, uint64_t low, uint64_t high)
{
    m->protocol_word = (uint32_t)low | high << 32;
    m->protocol_bits = (uint8_t)((m->protocol_bits & IAV_ATOMIC_BIT) | (st->generation & GENERATION_BITS));
}

static rcc_l2_line *line_extra(const cache_line *line) { return (rcc_l2_line *)line->extension; }

static bool line_current(const rcc_state *st, const cache_line *line)
{
    return line_extra(line)->generation == st->generation;
}

static uint64_t line_exp(const rcc_state *st, const cache_line *line)
{
    return line_current(st, line) ? (uint32_t)line->protocol_word : 0;
}

static uint64_t line_ver(const rcc_state *st, const cache_line *line)
{
    return line_current(st, line) ? line->protocol_word >> 32 : 0;
}

static void set_line_times(const rcc_state *st, cache_line *line, uint64_t exp, uint64_t ver)
{
    line->protocol_word = (uint32_t)exp | ver << 32;
    line_extra(line)->generation = st->generation;
}

static uint64_t lease_of(const rcc_state *st, const cache_line *line)
{
    uint32_t lease = line_extra(line)->lease;
    return st->config.predictor && lease ? lease : st->config.lease_max;
}

static void set_lease(const rcc_state *st, cache_line *line, uint64_t lease)
{
    line_extra(line)->lease = (uint32_t)(lease > st->config.lease_max ? st->config.lease_max : lease);
}

/* A line filled from DRAM starts at this time (rcc.fill_time). */
static uint64_t fill_time(const rcc_state *st, unsigned bank)
{
    return st->mnow[bank] + (st->config.fill_time == RCC_FILL_MNOW_PLUS_ONE);
}

static rcc_l2_mshr *mshr_extra(const mshr_entry *entry) { return (rcc_l2_mshr *)entry->extension; }

/* The MSHR's times, zeroed first when they belong to an older generation. */
static rcc_l2_mshr *mshr_times(const rcc_state *st, mshr_entry *entry)
{
    rcc_l2_mshr *extra = mshr_extra(entry);
    if (extra->generation != st->generation) {
        extra->lastrd = extra->lastwr = 0;
        extra->generation = st->generation;
    }
    return extra;
}

/* Rollover (§3.8), at once: every partition zeroes its timestamps (lines and MSHRs by generation,
 * mnow), and every L1 sets its time to 0 and drops every copy (misses in flight become stale:
 * their fills are delivered but not cached). Answers and requests in flight from the older
 * generation carry time 0. */
static void rollover(memory_system *memory)
{
    rcc_state *st = state_of(memory);
    st->generation++;
    st->stats.rollovers++;
    memset(st->mnow, 0, memory->config.l2_banks * sizeof *st->mnow);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++) {
        rcc_cu *c = &st->cus[cu];
        c->read_time = c->write_time = 0;
        c->kept = false;
        l1_flash_invalidate(memory, cu);
    }
}

/* ---- the CU's logical time ---- */

/* The livelock guard: the CU's time advances by 1 for every rcc.livelock_cycles passed. */
static void advance_guard(rcc_state *st, rcc_cu *c, sc_time now)
{
    sc_time step = st->config.livelock;
    if (!step || now < c->guard_from + step)
        return;
    uint64_t ticks = (now - c->guard_from) / step;
    c->read_time += ticks;
    c->write_time += ticks;
    c->guard_from += ticks * step;
    st->stats.livelock_advances += ticks;
}

static void join_views(rcc_cu *c)
{
    c->read_time = c->write_time = max_of(c->read_time, c->write_time);
}

/* now = max(now, ver) for the CU's reads (rule 1) or writes (rule 2); under rcc both views. */
static void take_time(rcc_state *st, rcc_cu *c, uint64_t ver, bool for_write)
{
    uint64_t *view = for_write ? &c->write_time : &c->read_time;
    if (ver > *view) {
        *view = ver;
        st->stats.time_advances++;
    }
    if (st->config.sequential)
        join_views(c);
}

void rcc_acquire(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    join_views(&state_of(memory)->cus[cu]);
}

/* A kernel starts after the host saw every write of the previous one: every CU's time moves to the
 * latest time of any CU ([I] the thesis runs one kernel per workload and says nothing of kernel
 * boundaries; each write's version is at most its writer's time once acknowledged, so no copy read
 * before the write stays valid). */
void rcc_kernel_begin(memory_system *memory, sc_time now)
{
    rcc_state *st = state_of(memory);
    uint64_t latest = 0;
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        latest = max_of(latest, max_of(st->cus[cu].read_time, st->cus[cu].write_time));
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        st->cus[cu].read_time = st->cus[cu].write_time = latest;
}

/* A host write (between kernels: no miss or write is in flight) drops the L1 copies of every line
 * or, under rcc.host_write_drop written, of the written lines only; the others keep their leases,
 * whose data the host did not change. */
void rcc_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    memory_host_write_drop_l1s(memory, start, end, is_write, state_of(memory)->config.host_write_drops_written);
}

uint64_t rcc_read_time(const memory_system *memory, unsigned cu) { return state_of(memory)->cus[cu].read_time; }

uint64_t rcc_write_time(const memory_system *memory, unsigned cu) { return state_of(memory)->cus[cu].write_time; }

void rcc_set_time(memory_system *memory, unsigned cu, uint64_t time)
{
    state_of(memory)->cus[cu].read_time = state_of(memory)->cus[cu].write_time = time;
}

void rcc_l2_times(memory_system *memory, uint64_t line_address, uint64_t *exp, uint64_t *ver, uint64_t *lease)
{
    unsigned bank = memory_bank_of(memory, line_address);
    const cache_line *line =
        cache_array_lookup(memory->banks[bank].cache, memory_bank_local_address(memory, line_address));
    *exp = line ? line_exp(state_of(memory), line) : 0;
    *ver = line ? line_ver(state_of(memory), line) : 0;
    *lease = line ? lease_of(state_of(memory), line) : 0;
}

uint64_t rcc_mnow(const memory_system *memory, unsigned bank) { return state_of(memory)->mnow[bank]; }

/* ---- the L1 ---- */

static bool is_load_event(l1_event event) { return event == L1_LOAD || event == L1_LOAD_STRONG; }

static uint64_t warp_bit(unsigned warp) { return 1ull << (warp % 64); }

static bool is_write_event(l1_event event)
{
    return event == L1_STORE || event == L1_STORE_STRONG || event == L1_ATOMIC;
}

/* Whether the warp has a load of the line waiting in the line's L1 MSHR. */
static bool warp_loads_line(memory_system *memory, unsigned cu, uint64_t line_address, unsigned warp)
{
    const mshr_entry *entry = mshr_find(memory->l1[cu].mshrs, line_address);
    for (uint32_t w = 0; entry && w < entry->waiter_count; w++) {
        const memory_op *waiting = memory_op_get(memory, entry->waiters[w] & ~L1_WAITER_MERGED);
        if (waiting->warp == warp && is_load_event((l1_event)waiting->event))
            return true;
    }
    return false;
}

/* A copy found expired is dropped first (lazy expiry), and so is a valid copy a strong load reads
 * under rcc.strong_loads refresh (its read carries the copy's exp: RENEW when it is still current). A warp's accesses to one line keep their
 * order: its load waits while its own write to the line is in flight, and its store or atomic
 * while its own load of the line waits for a fill (which would bring the merged write). */
l1_verdict rcc_before_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                             l1_event *event, sc_time now, sc_error *error)
{
    rcc_state *st = state_of(memory);
    rcc_cu *c = &st->cus[cu];
    advance_guard(st, c, now);
    const cache_line *cached = cache_array_lookup(memory->l1[cu].cache, line->line_address);
    if (cached && (cached->state == L1_V || cached->state == RCC_L1_VI)) {
        bool expired = cached->protocol_word < c->read_time;
        bool refreshed = !expired && *event == L1_LOAD_STRONG && st->config.refresh_strong;
        st->stats.expired_loads += expired && is_load_event(*event);
        st->stats.strong_refreshes += refreshed;
        c->refreshing = refreshed;
        if ((expired || refreshed) && l1_run_event(memory, cu, line->line_address, RCC_L1_EXPIRED, now, error) < 0)
            return L1_FAILED;
    }
    unsigned warp = memory_op_get(memory, op)->warp;
    const mshr_entry *written = mshr_find(c->writes, line->line_address);
    bool waits = is_load_event(*event) ? written && (written->opened & warp_bit(warp))
                                       : is_write_event(*event) && warp_loads_line(memory, cu, line->line_address, warp);
    if (!waits)
        return L1_ACCEPTED;
    st->stats.own_line_waits++;
    return L1_REFUSED_MSHR_FULL;
}

bool rcc_l1_guard(memory_system *memory, const l1_context *context, unsigned guard)
{
    return guard == RCC_GUARD_WRITES && mshr_find(state_of(memory)->cus[context->cu].writes, context->line_address);
}

int rcc_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    rcc_state *st = state_of(memory);
    rcc_cu *c = &st->cus[context->cu];
    switch ((unsigned)action) {
    case RCC_TAKE_LEASE:   /* D.exp = M.exp; L1.now = max(L1.now, M.ver) */
        context->cached->protocol_word = word_high(st, context->message);
        take_time(st, c, word_low(st, context->message), false);
        return 0;
    case RCC_TAKE_VERSION:
        take_time(st, c, word_low(st, context->message), false);
        return 0;
    case RCC_KEEP_EXPIRED:
        c->kept = true;
        c->kept_refreshed = c->refreshing;
        c->kept_line = context->line_address;
        c->kept_exp = context->cached->protocol_word;
        memcpy(c->kept_data, context->cached->data, memory->config.line_bytes);
        return 0;
    case RCC_OPEN_MISS_II:
        l1_open_miss(memory, context, MSG_READ, RCC_L1_II, now);
        return 0;
    case RCC_TO_II:
        context->entry->state = (uint8_t)RCC_L1_II;
        return 0;
    default:
        return l1_action_unknown(memory, context, action, now, error);
    }
}

static bool releases(const memory_op *op)
{
    ptx_semantics semantics = (ptx_semantics)op->request.semantics;
    bool releasing = semantics == PTX_SEM_RELEASE || semantics == PTX_SEM_ACQ_REL || semantics == PTX_SEM_SC;
    return releasing && op->request.scope != PTX_SCOPE_CTA;
}

/* Requests carry the CU's time: GETS{now = read view, exp = the kept expired copy's, whose data the
 * miss keeps for a RENEW}, WRITE and ATOMIC{now = write view}, and count in the CU's written lines. A
 * release joins the views first. */
void rcc_l1_request(memory_system *memory, unsigned cu, uint32_t handle, sc_time now)
{
    rcc_state *st = state_of(memory);
    rcc_cu *c = &st->cus[cu];
    message *m = message_get(memory, handle);
    const memory_op *op = m->op == MEMORY_OP_NONE ? NULL : memory_op_get(memory, m->op);
    advance_guard(st, c, now);
    if (op && releases(op))
        join_views(c);
    if (m->type == MSG_READ) {
        uint64_t exp = 0;
        bool refresh = false;
        mshr_entry *entry = mshr_find(memory->l1[cu].mshrs, m->line_address);
        if (c->kept && c->kept_line == m->line_address && entry && !m->around) {
            memcpy(entry->extension, c->kept_data, memory->config.line_bytes);
            entry->protocol_word = 1;
            exp = c->kept_exp;
            refresh = c->kept_refreshed;
            c->kept = false;
        }
        stamp(st, m, c->read_time, exp);
        m->protocol_bits |= refresh ? REFRESH_BIT : 0;
        return;
    }
    if (m->type != MSG_WRITE && m->type != MSG_ATOMIC)
        return;
    mshr_entry *written = mshr_find(c->writes, m->line_address);
    if (!written)
        written = mshr_allocate(c->writes, m->line_address);
    if (!written && !memory->failed) {   /* reported at the next access or event */
        memory->failed = true;
        sc_fail(&memory->failure, "rcc: CU %u has writes in flight to more than %u lines", cu, RCC_WRITTEN_LINES);
    }
    if (written) {
        written->protocol_word++;
        if (op)
            written->opened |= warp_bit(op->warp);
    }
    stamp(st, m, c->write_time, 0);
}

/* ACK{ver} and an atomic's answer: now = max(now, ver) (the write view), the line's writes in flight
 * drop by one, and the line sees Ack. (The table has no read-around, whose DATA also comes here.) */
int rcc_l1_answer(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    rcc_state *st = state_of(memory);
    message *m = message_get(memory, handle);
    unsigned cu = message_cu(m);
    rcc_cu *c = &st->cus[cu];
    take_time(st, c, word_low(st, m), true);
    mshr_entry *written = mshr_find(c->writes, m->line_address);
    if (written && --written->protocol_word == 0)
        mshr_release(c->writes, written);
    return l1_run_event(memory, cu, m->line_address, RCC_L1_ACK, now, error);
}

/* RENEW{exp}: the miss's kept copy is the line's data; a miss that is no longer current (after a
 * rollover) delivers it uncached. */
int rcc_l1_message(memory_system *memory, uint32_t handle, sc_time now, sc_error *error)
{
    message *m = message_get(memory, handle);
    if (m->type != RCC_MSG_RENEW)
        return l1_message_unknown(memory, handle, now, error);
    unsigned cu = message_cu(m);
    l1_controller *l1 = &memory->l1[cu];
    mshr_entry *entry = mshr_find(l1->mshrs, m->line_address);
    if (!entry || !entry->protocol_word)
        return sc_fail(error, "internal error: rcc: CU %u got RENEW for line 0x%llx without a kept copy", cu,
                       (unsigned long long)m->line_address);
    memcpy(m->data, entry->extension, memory->config.line_bytes);
    bool current = entry->opened == l1->epoch && !(entry->flags & L1_MSHR_CLOSED);
    return l1_run_message_event(memory, handle, current ? RCC_L1_RENEW : L1_FILL_UNCACHED, now, error);
}

/* ---- the L2 ---- */

/* What the actions of one row work on. */
typedef struct rcc_context {
    unsigned bank;
    uint64_t local;
    uint32_t handle;
    message *message;
} rcc_context;

static cache_line *line_of(memory_system *memory, const rcc_context *context)
{
    return cache_array_lookup(memory->banks[context->bank].cache, context->local);
}

static mshr_entry *mshr_of(memory_system *memory, const rcc_context *context)
{
    return mshr_find(memory->banks[context->bank].mshrs, context->local);
}

static rcc_l2_state l2_state_of(memory_system *memory, const rcc_context *context)
{
    const cache_line *line = line_of(memory, context);
    if (!line)
        return RCC_L2_I;
    if (line->state != L2_IV)
        return RCC_L2_V;
    return mshr_extra(mshr_of(memory, context))->atomic ? RCC_L2_IAV : RCC_L2_IV;
}

static bool l2_guard(memory_system *memory, const rcc_context *context, unsigned guard)
{
    const rcc_state *st = state_of(memory);
    if (guard == RCC_GUARD_FULL_LINE)
        return byte_mask_full(&context->message->mask, memory->config.line_bytes);
    const cache_line *line = line_of(memory, context);
    return st->config.renewal && word_high(st, context->message) > line_ver(st, line);
}

/* D.exp = max(D.exp, D.ver + lease, M.now + lease); the answer carries exp and ver. */
static void grant(memory_system *memory, const rcc_context *context)
{
    rcc_state *st = state_of(memory);
    cache_line *line = line_of(memory, context);
    uint64_t exp, ver;
    for (;;) {
        uint64_t lease = lease_of(st, line), now = word_low(st, context->message);
        ver = line_ver(st, line);
        exp = max_of(line_exp(st, line), max_of(ver + lease, now + lease));
        if (exp <= st->config.max_time)
            break;
        rollover(memory);
    }
    uint64_t copy_exp = word_high(st, context->message);
    if (copy_exp > ver && !(context->message->protocol_bits & REFRESH_BIT))
        st->stats.premature_expiries++;
    set_line_times(st, line, exp, ver);
    stamp(st, context->message, ver, exp);
}

/* D.ver = max(M.now, D.ver, D.exp + 1) (rules 2 and 3); the lease predictor drops to its minimum. */
static void stamp_write(memory_system *memory, const rcc_context *context)
{
    rcc_state *st = state_of(memory);
    cache_line *line = line_of(memory, context);
    uint64_t ver;
    for (;;) {
        ver = max_of(word_low(st, context->message), max_of(line_ver(st, line), line_exp(st, line) + 1));
        if (ver <= st->config.max_time)
            break;
        rollover(memory);
    }
    set_line_times(st, line, line_exp(st, line), ver);
    set_lease(st, line, st->config.lease_min);
    stamp(st, context->message, ver, ver);
}

/* A whole-line write the array installed without a fetch: the line starts at the fill time. */
static void stamp_new_line(memory_system *memory, const rcc_context *context)
{
    rcc_state *st = state_of(memory);
    cache_line *line = line_of(memory, context);
    while (fill_time(st, context->bank) + 1 > st->config.max_time)
        rollover(memory);
    uint64_t start = fill_time(st, context->bank);
    set_line_times(st, line, start, start);
    stamp_write(memory, context);
}

static void record(memory_system *memory, const rcc_context *context, bool write)
{
    const rcc_state *st = state_of(memory);
    rcc_l2_mshr *extra = mshr_times(st, mshr_of(memory, context));
    uint32_t now = (uint32_t)word_low(st, context->message);
    if (write) {
        extra->lastwr = (uint32_t)max_of(extra->lastwr, now);
        extra->has_write = 1;
    } else {
        extra->lastrd = (uint32_t)max_of(extra->lastrd, now);
        extra->has_read = 1;
    }
}

/* The write waits in the MSHR (as a held write, merged at the fill) and is acknowledged now with
 * ver = max(MSHR.lastwr, fill time): no later fill gives the line an older version. */
static void hold_write(memory_system *memory, const rcc_context *context, sc_time now)
{
    rcc_state *st = state_of(memory);
    message *m = context->message;
    uint64_t ver;
    for (;;) {
        ver = max_of(mshr_times(st, mshr_of(memory, context))->lastwr, fill_time(st, context->bank));
        if (ver <= st->config.max_time)
            break;
        rollover(memory);
        record(memory, context, true);
    }
    uint32_t ack = message_allocate(memory, MSG_WRITE_ACK, m->destination, m->source, m->line_address);
    message *a = message_get(memory, ack);
    a->op = m->op;
    a->data_source = GSI_SOURCE_L2;
    stamp(st, a, ver, 0);
    m->op = MEMORY_OP_NONE;
    m->type = (uint8_t)RCC_MSG_HELD_WRITE;
    st->cus[message_cu(m)].held_writes++;
    st->stats.early_acks++;
    memory_send(memory, ack, now + sc_clock_span(memory->config.gpu_clock, memory->config.l2_latency));
}

/* RENEW{exp}: the line's data is not sent; the predictor doubles the line's lease. */
static void renew(memory_system *memory, const rcc_context *context, sc_time now)
{
    rcc_state *st = state_of(memory);
    cache_line *line = line_of(memory, context);
    cache_array_touch(memory->banks[context->bank].cache, line);
    memory->stats.l2_hits++;
    set_lease(st, line, lease_of(st, line) * 2);
    st->stats.renewals++;
    message *m = context->message;
    m->type = (uint8_t)RCC_MSG_RENEW;
    m->data_source = GSI_SOURCE_L2;
    stamp(st, m, 0, line_exp(st, line));
    memory_reply(memory, context->handle, now + sc_clock_span(memory->config.gpu_clock, memory->config.l2_latency));
}

static int run_l2_row(memory_system *memory, const rcc_context *context, const protocol_transition *row,
                      sc_time now, sc_error *error)
{
    rcc_state *st = state_of(memory);
    for (unsigned i = 0; i < PROTOCOL_MAX_ACTIONS && row->actions[i]; i++)
        switch ((rcc_l2_action)row->actions[i]) {
        case RCC_L2_SERVE: {
            int status = l2_process(memory, context->bank, context->handle, now, error);
            if (status <= 0)
                return status;
            if (row->state == RCC_L2_V && row->event == RCC_L2_GETS)   /* a hit: DATA{exp, ver} */
                st->stats.data_responses++;
            break;
        }
        case RCC_L2_GRANT:
            grant(memory, context);
            break;
        case RCC_L2_RENEW:
            renew(memory, context, now);
            break;
        case RCC_L2_STAMP_WRITE:
            stamp_write(memory, context);
            break;
        case RCC_L2_STAMP_NEW_LINE:
            stamp_new_line(memory, context);
            break;
        case RCC_L2_RECORD_READ:
            record(memory, context, false);
            break;
        case RCC_L2_RECORD_WRITE:
            record(memory, context, true);
            break;
        case RCC_L2_HOLD_WRITE:
            hold_write(memory, context, now);
            break;
        case RCC_L2_MARK_ATOMIC:
            mshr_extra(mshr_of(memory, context))->atomic = 1;
            context->message->protocol_bits |= IAV_ATOMIC_BIT;
            break;
        default:
            return sc_fail(error, "internal error: rcc: unknown L2 action %u", row->actions[i]);
        }
    return 1;
}

static const char *const l2_state_names[RCC_L2_STATE_COUNT] = {"I", "V", "IV", "IAV"};
static const char *const l2_event_names[RCC_L2_EVENT_COUNT] = {"GETS", "WRITE", "ATOMIC"};

int rcc_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    rcc_state *st = state_of(memory);
    message *m = message_get(memory, handle);
    rcc_l2_event event;
    switch ((unsigned)m->type) {
    case MSG_READ: event = RCC_L2_GETS; break;
    case MSG_WRITE: event = RCC_L2_WRITE; break;
    case MSG_ATOMIC: event = RCC_L2_ATOMIC; break;
    case RCC_MSG_HELD_WRITE:   /* retaken after an atomic that waited for the same fill: already merged */
        rcc_home_data(memory, bank, handle, NULL, GSI_SOURCE_L2, now);
        return 1;
    default:
        return sc_fail(error, "internal error: %s: L2 bank %u got a message of type %u", memory->protocol->name,
                       bank, m->type);
    }
    rcc_context context = {.bank = bank, .local = memory_bank_local_address(memory, m->line_address),
                           .handle = handle, .message = m};
    rcc_l2_state state = l2_state_of(memory, &context);
    const protocol_transition *row = st->first[state][event];
    const protocol_transition *end = rcc_l2_table + RCC_L2_ROWS;
    while (row && row->guard && !l2_guard(memory, &context, row->guard))
        row = protocol_next_alternative(row, end);
    if (!row)
        return sc_fail(error, "internal error: %s has no L2 transition for state %s on event %s",
                       memory->protocol->name, l2_state_names[state], l2_event_names[event]);
    int status = run_l2_row(memory, &context, row, now, error);
    if (status <= 0)
        return status;
    rcc_l2_state after = l2_state_of(memory, &context);
    if (after != row->next)
        return sc_fail(error, "internal error: %s: L2 %s on %s ended in %s, table says %s", memory->protocol->name,
                       l2_state_names[state], l2_event_names[event], l2_state_names[after],
                       l2_state_names[row->next]);
    return 1;
}

/* A request that waited for the fill goes back to the bank's queue instead of being served from it:
 * an atomic in IV, and everything after the atomic of an IAV line (Fig 3.5b: stall). */
bool rcc_fill_must_retake(memory_system *memory, unsigned bank, uint32_t handle)
{
    const message *m = message_get(memory, handle);
    mshr_entry *entry = mshr_find(memory->banks[bank].mshrs, memory_bank_local_address(memory, m->line_address));
    if (mshr_extra(entry)->atomic)
        return !(m->protocol_bits & IAV_ATOMIC_BIT);
    return m->type == MSG_ATOMIC;
}

/* Orders held writes by their writers' times, arrival order among equal ones (insertion sort: few). */
static void sort_held(memory_system *memory, uint32_t *held, unsigned count)
{
    const rcc_state *st = state_of(memory);
    for (unsigned i = 1; i < count; i++) {
        uint32_t h = held[i];
        uint64_t t = word_low(st, message_get(memory, h));
        unsigned j = i;
        for (; j > 0 && word_low(st, message_get(memory, held[j - 1])) > t; j--)
            held[j] = held[j - 1];
        held[j] = h;
    }
}

/* DRAM DATA in IV or IAV (Fig 3.5b): the line's times from mnow and the MSHR, the held writes merged
 * into `data` (the logically later write wins where they overlap), and the answers of the requests
 * the fill serves stamped. */
void rcc_fill_data(memory_system *memory, uint64_t line_address, uint8_t *data)
{
    rcc_state *st = state_of(memory);
    unsigned bank = memory_bank_of(memory, line_address);
    uint64_t local = memory_bank_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(memory->banks[bank].cache, local);
    mshr_entry *entry = mshr_find(memory->banks[bank].mshrs, local);
    rcc_l2_mshr *extra = mshr_extra(entry);
    uint64_t exp, ver, lease = extra->has_write && st->config.predictor ? st->config.lease_min : st->config.lease_max;
    for (;;) {
        const rcc_l2_mshr *times = mshr_times(st, entry);
        uint64_t start = fill_time(st, bank);
        exp = ver = start;
        if (extra->has_write)
            ver = max_of(times->lastwr, start);
        if (!extra->atomic && extra->has_read)
            exp = max_of(ver + lease, times->lastrd + lease);
        if (exp <= st->config.max_time && ver <= st->config.max_time)
            break;
        rollover(memory);
    }
    set_line_times(st, line, exp, ver);
    line_extra(line)->lease = (uint32_t)lease;
    uint32_t *held = malloc((entry->waiter_count + 1) * sizeof *held);
    unsigned held_count = 0;
    bool served = true;
    for (uint32_t w = 0; w < entry->waiter_count; w++) {
        message *m = message_get(memory, entry->waiters[w]);
        if (m->type == RCC_MSG_HELD_WRITE) {
            held[held_count++] = entry->waiters[w];
            continue;
        }
        served = served && !rcc_fill_must_retake(memory, bank, entry->waiters[w]);
        if (!served)
            continue;
        if (m->type == MSG_READ) {
            stamp(st, m, ver, exp);
            st->stats.data_responses++;
        } else {
            stamp(st, m, ver, ver);   /* IAV's atomic: DATA{exp = ver, ver} */
        }
    }
    sort_held(memory, held, held_count);
    for (unsigned i = 0; i < held_count; i++) {
        const message *m = message_get(memory, held[i]);
        byte_mask_copy(data, m->data, &m->mask, memory->config.line_bytes);
    }
    free(held);
}

/* A held write the fill reached: its bytes are in the line already (rcc_fill_data); the line is dirty. */
void rcc_home_data(memory_system *memory, unsigned bank, uint32_t handle, const uint8_t *data, gsi_source source,
                   sc_time when)
{
    const message *m = message_get(memory, handle);
    cache_line *line = cache_array_lookup(memory->banks[bank].cache, memory_bank_local_address(memory, m->line_address));
    line->state = L2_D;
    memory->stats.l2_writes++;
    state_of(memory)->cus[message_cu(m)].held_writes--;
    message_free(memory, handle);
}

/* A kernel ends once the CU's writes are acknowledged and merged into their L2 lines (the host reads
 * memory next). */
bool rcc_l1_drained(const memory_system *memory, unsigned cu)
{
    return l1_writes_outstanding(memory, cu) == 0 && state_of(memory)->cus[cu].held_writes == 0;
}

/* Eviction (§3.7): mnow = max(mnow, D.exp, D.ver). */
void rcc_replaced(memory_system *memory, unsigned bank, const cache_line *line, sc_time now)
{
    rcc_state *st = state_of(memory);
    st->mnow[bank] = max_of(st->mnow[bank], max_of(line_exp(st, line), line_ver(st, line)));
}
