/* tc_strong.c — the tc-strong module's entry in the mechanism registry (protocols/mechanism.c):
 * its name, what it is, where the seeds specify it, and its parts. */
#include "protocols/common/lease.h"
#include "protocols/mechanism.h"
#include "protocols/tc_strong/tc_strong.h"

const sc_mechanism mechanism_tc_strong = {
    .name = "tc-strong",
    .description = "TC-Strong with SC cores: write-through L1s hold copies for a physical-time lease; a store "
                   "waits at the L2 until every lease on its line has expired",
    .seed = "Ren §3.11 (TCS, Singh et al. HPCA 2013), §3.12",
    .protocol = &protocol_tc_strong,
    .model = &model_tc_strong,
    .params_file = "src/protocols/tc_strong/tc_strong_params.json",
    .config_keys = &lease_config_keys,
    .memory_model = SC_MODEL_SEQUENTIAL,
    .virtual_networks = 2,   /* Ren Table 3.3: two for every mechanism but MESI */
};
