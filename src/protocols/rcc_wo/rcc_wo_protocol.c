/* rcc_wo_protocol.c — RCC-WO, the weakly ordered RCC (Ren §3.4.6,
 * ../shared/seeds/digests/004-ren-part1.md §3.10), on the RCC building block (common/rcc_core.h)
 * with the engine's weak core: the PTX scoped model. Each CU keeps two logical times: the read view,
 * which loads send and advance, and the write view, which stores and atomics send and advance, so
 * a store no longer expires the CU's cached copies of other lines. A fence, an acquire (completing
 * ld.acquire or atom.acquire, a fence with acquire semantics, kernel start) and a release (the
 * request of st.release, atom/red with release semantics) set both views to the larger. The
 * engine's release waits until every write of the CU is acknowledged, so the write view includes
 * their versions before the release's own request leaves ([I] the thesis's "small change in how
 * stores update L2 metadata" is not specified: the L2 rules are RCC's). */
#include "protocols/common/rcc_core.h"
#include "protocols/rcc_wo/rcc_wo.h"

static const protocol_hooks rcc_wo_hooks = {RCC_HOOK_FIELDS(rcc_load_config_wo)};

const sc_protocol protocol_rcc_wo = {
    .name = "rcc-wo",
    RCC_VOCABULARY,
    .hooks = &rcc_wo_hooks,
};
