/* tc_weak_protocol.c — TC-Weak (Singh et al. HPCA 2013; Ren's TCW,
 * ../shared/seeds/digests/004-ren-part1.md §3.11: "stores proceed without stalling (write
 * atomicity is relaxed). Fences stall until a physical time when all prior stores are globally
 * visible. No SC."), on the lease building block (common/lease.h: the L1 table, lazy expiry,
 * the L2's lease controller) with the engine's weak core: the PTX scoped model.
 *
 * A store is performed at the L2 at once; its global write completion time (GWCT) is the line's
 * latest lease expiry, before which other L1s may still read the old value. The CU counts the
 * store outstanding until its acknowledgement has arrived and its GWCT has passed, so a fence,
 * a release and the end of a kernel wait until every prior store of the CU is globally visible;
 * an acquire needs nothing, since every copy the L1 holds lapses by its lease.
 *
 * tc.weak_issue (an experiment; default weak) one_at_a_time gives the cores the SC core's order
 * (common/sc_core.h: a warp's next global, shared or local access waits while one of its global
 * accesses is in flight, a store until its acknowledgement) without its waiver: fences and
 * releases still wait for the GWCT. tc-weak with it differs from tc-strong in that its stores do
 * not wait at the L2 for the line's leases (its fences wait for their GWCT instead), which splits
 * RCC's gain over TC-Strong (Ren Fig 3.8, C3) into the lease wait of TC-Strong's stores and the
 * rest. It is not sequentially consistent (write atomicity stays relaxed). The analytical model
 * does not model it. Its L2 lease table: */
#include <string.h>

#include "protocols/common/lease.h"
#include "protocols/common/sc_core.h"
#include "protocols/tc_weak/tc_weak.h"

#define ROW PROTOCOL_ROW

static const protocol_transition tc_weak_l2[] = {
    ROW(LEASE_FREE,   LEASE_READ,  LEASE_LEASED, LEASE_GRANT, LEASE_SERVE),
    ROW(LEASE_FREE,   LEASE_WRITE, LEASE_FREE,   LEASE_SERVE),
    ROW(LEASE_LEASED, LEASE_READ,  LEASE_LEASED, LEASE_GRANT, LEASE_SERVE),
    ROW(LEASE_LEASED, LEASE_WRITE, LEASE_LEASED, LEASE_SERVE, LEASE_STAMP_GWCT),
};

static const lease_machine tc_weak_machine = {tc_weak_l2, sizeof tc_weak_l2 / sizeof tc_weak_l2[0]};

static const sc_config_key tc_weak_keys[] = {
    {"tc.weak_issue", SC_KEY_ENUM, "", 0, 0, "weak|one_at_a_time", 0,
     "an experiment on tc-weak's cores: weak (the engine's weak core, Ren §3.11) or one_at_a_time (the SC core's "
     "one global access per warp at a time, §3.12, with tc-weak's fences and releases kept)"},
};

const sc_config_key_table tc_weak_config_keys = {tc_weak_keys, sizeof tc_weak_keys / sizeof tc_weak_keys[0]};

_Static_assert(sizeof(tc_weak_config) <= PROTOCOL_CONFIG_BYTES, "tc_weak_config outgrows protocol_config");

/* The lease keys, then tc.weak_issue. */
static int load_tc_weak_config(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    if (lease_load_config(c, mechanism, m, error) < 0)
        return -1;
    ((tc_weak_config *)m->protocol_config)->one_at_a_time = !strcmp(sc_config_string(c, "tc.weak_issue"),
                                                                    "one_at_a_time");
    return 0;
}

/* The lease machine; under tc.weak_issue one_at_a_time the issue filter (none by default, so the
 * engine asks nothing). */
static void build_tc_weak(memory_system *memory)
{
    lease_build(memory, &tc_weak_machine);
    if (((const tc_weak_config *)memory->config.protocol_config)->one_at_a_time)
        memory->hooks.issue_filter = sc_core_order;
}

static const protocol_hooks tc_weak_hooks = {LEASE_HOOK_FIELDS(build_tc_weak, load_tc_weak_config)};

const sc_protocol protocol_tc_weak = {
    .name = "tc-weak",
    LEASE_VOCABULARY,
    .hooks = &tc_weak_hooks,
    .counters = lease_counters,
    .counter_count = LEASE_COUNTER_COUNT,
};
