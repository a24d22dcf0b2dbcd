/* rcc_wo_protocol.c — RCC-WO, the weakly ordered RCC (Ren §3.4.6,
 * ../shared/seeds/digests/004-ren-part1.md §3.10), on the RCC building block (common/rcc_core.h)
 * with the engine's weak core: the PTX scoped model. Each CU keeps two logical times: the read view,
 * which loads send and advance, and the write view, which stores and atomics send and advance, so
 * a store no longer expires the CU's cached copies of other lines. A fence, an acquire (completing
 * ld.acquire or atom.acquire, a fence with acquire semantics, kernel start) and a release (the
 * request of st.release, atom/red with release semantics) set both views to the larger. The
 * engine's release waits until every write of the CU is acknowledged, so the write view includes
 * their versions before the release's own request leaves ([I] the thesis's "small change in how
 * stores update L2 metadata" is not specified: the L2 rules are RCC's).
 *
 * rcc.wo_issue (an experiment; default weak) one_at_a_time gives the cores the SC core's order
 * (common/sc_core.h: a warp's next global, shared or local access waits while one of its global
 * accesses is in flight) without its waiver: fences, acquires and releases still join the views
 * and wait as above. rcc-wo with it differs from rcc only in the two views and in what its fences,
 * acquires and releases do, which splits RCC-WO's gain over RCC (Ren Fig 3.10) into those and
 * dropping the SC issue rule. The analytical model does not model it. */
#include <string.h>

#include "protocols/common/rcc_core.h"
#include "protocols/common/sc_core.h"
#include "protocols/rcc_wo/rcc_wo.h"

static const sc_config_key rcc_wo_keys[] = {
    {"rcc.wo_issue", SC_KEY_ENUM, "", 0, 0, "weak|one_at_a_time", 0,
     "an experiment on rcc-wo's cores: weak (the engine's weak core, Ren §3.4.6) or one_at_a_time (the SC core's "
     "one global access per warp at a time, §3.3, with rcc-wo's fences, acquires and releases kept)"},
};

const sc_config_key_table rcc_wo_config_keys = {rcc_wo_keys, sizeof rcc_wo_keys / sizeof rcc_wo_keys[0]};

_Static_assert(sizeof(rcc_wo_config) <= PROTOCOL_CONFIG_BYTES, "rcc_wo_config outgrows protocol_config");

/* RCC's keys with the two views, then rcc.wo_issue. */
static int load_rcc_wo_config(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    if (rcc_load_config_wo(c, mechanism, m, error) < 0)
        return -1;
    ((rcc_wo_config *)m->protocol_config)->one_at_a_time = !strcmp(sc_config_string(c, "rcc.wo_issue"),
                                                                   "one_at_a_time");
    return 0;
}

/* RCC's state; under rcc.wo_issue one_at_a_time the issue filter (none by default, so the engine
 * asks nothing). */
static void build_rcc_wo(memory_system *memory)
{
    rcc_build(memory);
    if (((const rcc_wo_config *)memory->config.protocol_config)->one_at_a_time)
        memory->hooks.issue_filter = sc_core_order;
}

static const protocol_hooks rcc_wo_hooks = {RCC_HOOK_FIELDS(build_rcc_wo, load_rcc_wo_config)};

const sc_protocol protocol_rcc_wo = {
    .name = "rcc-wo",
    RCC_VOCABULARY,
    .hooks = &rcc_wo_hooks,
};
