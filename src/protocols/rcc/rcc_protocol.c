/* rcc_protocol.c — RCC, Relativistic Cache Coherence (Ren's thesis chapter 3,
 * ../shared/seeds/digests/004-ren-part1.md §3.2-§3.9), on the RCC building block
 * (common/rcc_core.h: the L1 and L2 tables of Fig 3.5, logical time, renewal, the predictor,
 * rollover) with SC cores (common/sc_core.h: one global access per warp at a time, fences are
 * no-ops, §3.3 "provided the core scheduler is modified to ensure that only one global memory
 * access per warp is issued at any given time, RCC supports SC"). Each CU has one logical time:
 * loads, stores and atomics all read and advance it. */
#include "protocols/common/rcc_core.h"
#include "protocols/common/sc_core.h"
#include "protocols/rcc/rcc.h"

static const protocol_hooks rcc_hooks = {RCC_HOOK_FIELDS(rcc_build, rcc_load_config_sc), SC_CORE_HOOKS};

const sc_protocol protocol_rcc = {
    .name = "rcc",
    RCC_VOCABULARY,
    .hooks = &rcc_hooks,
};
