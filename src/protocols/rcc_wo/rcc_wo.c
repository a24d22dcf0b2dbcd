/* rcc_wo.c — the rcc-wo module's entry in the mechanism registry (protocols/mechanism.c): its
 * name, what it is, where the seeds specify it, and its parts. */
#include "protocols/common/rcc_core.h"
#include "protocols/mechanism.h"
#include "protocols/rcc_wo/rcc_wo.h"

const sc_mechanism mechanism_rcc_wo = {
    .name = "rcc-wo",
    .description = "RCC weakly ordered: logical-time leases with a read view and a write view per CU, which "
                   "fences, acquires and releases join",
    .seed = "Ren §3.4.6 (RCC-WO), with §3.3-§3.9",
    .protocol = &protocol_rcc_wo,
    .model = &model_rcc_wo,
    .params_file = "src/protocols/rcc_wo/rcc_wo_params.json",
    .config_keys = &rcc_wo_config_keys,
    .block_config_keys = &rcc_config_keys,
    .virtual_networks = 2,   /* Ren Table 3.3: two for every mechanism but MESI */
};
