/* tc_strong_protocol.c — TC-Strong (Singh et al. HPCA 2013; Ren's SC configuration TCS,
 * ../shared/seeds/digests/004-ren-part1.md §3.11: "Stores stall at the L2 until every lease on
 * the address has expired. It supports SC if the core does not reorder. Evicted L2 blocks stay
 * in an MSHR until expiry."), on the lease building block (common/lease.h: the L1 table, lazy
 * expiry, the L2's lease controller) with SC cores (common/sc_core.h: one global access per warp
 * at a time, fences are no-ops, §3.12).
 *
 * A store is performed at the L2 once no L1 can still read the old value, and its
 * acknowledgement then completes it for its warp, so the warp's next access comes after it in
 * every L1's view: sequential consistency, with a store's latency the L2 round trip plus the
 * wait for the line's leases (§3.1, §3.15). Its L2 lease table: */
#include "protocols/common/lease.h"
#include "protocols/common/sc_core.h"
#include "protocols/tc_strong/tc_strong.h"

#define ROW PROTOCOL_ROW

static const protocol_transition tc_strong_l2[] = {
    ROW(LEASE_FREE,        LEASE_READ,   LEASE_LEASED,      LEASE_GRANT, LEASE_SERVE),
    ROW(LEASE_FREE,        LEASE_WRITE,  LEASE_FREE,        LEASE_SERVE),
    ROW(LEASE_LEASED,      LEASE_READ,   LEASE_LEASED,      LEASE_GRANT, LEASE_SERVE),
    ROW(LEASE_LEASED,      LEASE_WRITE,  LEASE_WRITES_WAIT, LEASE_HOLD_WRITE),
    ROW(LEASE_WRITES_WAIT, LEASE_READ,   LEASE_WRITES_WAIT, LEASE_CARRY, LEASE_SERVE),
    ROW(LEASE_WRITES_WAIT, LEASE_WRITE,  LEASE_WRITES_WAIT, LEASE_HOLD_WRITE),
    ROW(LEASE_WRITES_WAIT, LEASE_EXPIRY, LEASE_FREE,        LEASE_RELEASE_WRITES),
};

static const lease_machine tc_strong_machine = {tc_strong_l2, sizeof tc_strong_l2 / sizeof tc_strong_l2[0]};

static void build_tc_strong(memory_system *memory) { lease_build(memory, &tc_strong_machine); }

static const protocol_hooks tc_strong_hooks = {LEASE_HOOK_FIELDS(build_tc_strong, lease_load_config), SC_CORE_HOOKS};

const sc_protocol protocol_tc_strong = {
    .name = "tc-strong",
    LEASE_VOCABULARY,
    .hooks = &tc_strong_hooks,
    .counters = lease_counters,
    .counter_count = LEASE_COUNTER_COUNT,
};
