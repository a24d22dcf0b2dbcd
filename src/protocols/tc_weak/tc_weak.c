/* tc_weak.c — the tc-weak module's entry in the mechanism registry (protocols/mechanism.c): its
 * name, what it is, where the seeds specify it, and its parts. */
#include "protocols/common/lease.h"
#include "protocols/mechanism.h"
#include "protocols/tc_weak/tc_weak.h"

const sc_mechanism mechanism_tc_weak = {
    .name = "tc-weak",
    .description = "TC-Weak: write-through L1s hold copies for a physical-time lease; stores proceed at once, "
                   "fences and releases wait until the CU's stores are globally visible (their GWCT)",
    .seed = "Ren §3.11 (TCW, Singh et al. HPCA 2013)",
    .protocol = &protocol_tc_weak,
    .model = &model_tc_weak,
    .params_file = "src/protocols/tc_weak/tc_weak_params.json",
    .config_keys = &tc_weak_config_keys,
    .block_config_keys = &lease_config_keys,
    .virtual_networks = 2,   /* Ren Table 3.3: two for every mechanism but MESI */
};
