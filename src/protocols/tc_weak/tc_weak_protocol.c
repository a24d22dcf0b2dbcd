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
 * an acquire needs nothing, since every copy the L1 holds lapses by its lease. Its L2 lease
 * table: */
#include "protocols/common/lease.h"
#include "protocols/tc_weak/tc_weak.h"

#define ROW PROTOCOL_ROW

static const protocol_transition tc_weak_l2[] = {
    ROW(LEASE_FREE,   LEASE_READ,  LEASE_LEASED, LEASE_GRANT, LEASE_SERVE),
    ROW(LEASE_FREE,   LEASE_WRITE, LEASE_FREE,   LEASE_SERVE),
    ROW(LEASE_LEASED, LEASE_READ,  LEASE_LEASED, LEASE_GRANT, LEASE_SERVE),
    ROW(LEASE_LEASED, LEASE_WRITE, LEASE_LEASED, LEASE_SERVE, LEASE_STAMP_GWCT),
};

static const lease_machine tc_weak_machine = {tc_weak_l2, sizeof tc_weak_l2 / sizeof tc_weak_l2[0]};

static void build_tc_weak(memory_system *memory) { lease_build(memory, &tc_weak_machine); }

static const protocol_hooks tc_weak_hooks = {LEASE_HOOK_FIELDS(build_tc_weak)};

const sc_protocol protocol_tc_weak = {
    .name = "tc-weak",
    LEASE_VOCABULARY,
    .hooks = &tc_weak_hooks,
    .counters = lease_counters,
    .counter_count = LEASE_COUNTER_COUNT,
};
