/* sc_core.c — the SC core's issue filter and its one-access-at-a-time order (sc_core.h). */
#include "protocols/common/sc_core.h"

/* The accesses an SC core orders behind the warp's global accesses in flight. */
#define SC_CORE_ORDERED (ISSUE_GLOBAL_LOAD | ISSUE_GLOBAL_STORE | ISSUE_GLOBAL_ATOMIC | ISSUE_SHARED_ACCESS | \
                         ISSUE_LOCAL_ACCESS)

issue_verdict sc_core_order(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                            unsigned global_in_flight)
{
    issue_verdict verdict = ISSUE_ALLOWED;
    if ((traits->flags & SC_CORE_ORDERED) && global_in_flight > 0)
        verdict.sync = GSI_SYNC_ORDERING;
    return verdict;
}

issue_verdict sc_core_issue_filter(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                                   unsigned global_in_flight)
{
    issue_verdict verdict = sc_core_order(memory, cu, warp, traits, global_in_flight);
    verdict.ordering_waived = true;
    return verdict;
}
