/* mesi.c — the mesi module's entry in the mechanism registry (protocols/mechanism.c): its name,
 * what it is, where the seeds specify it, and its parts. */
#include "protocols/mechanism.h"
#include "protocols/mesi/mesi.h"

const sc_mechanism mechanism_mesi = {
    .name = "mesi",
    .description = "MESI with SC cores: a full-map blocking directory at the L2; stores write through to the "
                   "L2 once every other copy is invalidated (mesi.stores write_through) or obtain ownership in "
                   "write-back L1s (write_back); each warp issues one global access at a time",
    .seed = "Ren §3.2, §3.11 (SC baseline), Sorin-Hill-Wood primer",
    .protocol = &protocol_mesi,
    .model = &model_mesi,
    .params_file = "src/protocols/mesi/mesi_params.json",
    .config_keys = &mesi_config_keys,
    .block_config_keys = &directory_config_keys,
    .memory_model = SC_MODEL_SEQUENTIAL,
    .virtual_networks = 5,   /* Ren Table 3.3: five virtual networks for MESI */
};
