/* rcc.c — the rcc module's entry in the mechanism registry (protocols/mechanism.c): its name, what
 * it is, where the seeds specify it, and its parts. */
#include "protocols/common/rcc_core.h"
#include "protocols/mechanism.h"
#include "protocols/rcc/rcc.h"

const sc_mechanism mechanism_rcc = {
    .name = "rcc",
    .description = "Relativistic Cache Coherence with SC cores: logical-time leases; a store takes its write "
                   "permission at once by moving the writer's clock past the line's leases",
    .seed = "Ren §3.3-§3.9, §3.12 (RCC, Fig 3.5)",
    .protocol = &protocol_rcc,
    .model = &model_rcc,
    .params_file = "src/protocols/rcc/rcc_params.json",
    .config_keys = &rcc_config_keys,
    .virtual_networks = 2,   /* Ren Table 3.3: two for every mechanism but MESI */
    .memory_model = SC_MODEL_SEQUENTIAL,
};
