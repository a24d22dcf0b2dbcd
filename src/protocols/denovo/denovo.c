/* denovo.c — the denovo module's entry in the mechanism registry (protocols/mechanism.c): its
 * name, what it is, where the seeds specify it, and its parts. */
#include "protocols/denovo/denovo.h"
#include "protocols/mechanism.h"

const sc_mechanism mechanism_denovo = {
    .name = "denovo",
    .description = "DeNovo GPU L1: word-granular Valid/Registered state, stores registered for ownership at the "
                   "L2 when the store buffer is flushed, reads of owned words forwarded to the owner L1",
    .seed = "GSI §4.1, §4.3",
    .protocol = &protocol_denovo,
    .config_keys = &denovo_config_keys,
    .model = &model_denovo,
    .params_file = "src/protocols/denovo/denovo_params.json",
};
