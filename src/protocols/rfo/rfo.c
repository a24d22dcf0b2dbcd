/* rfo.c — the rfo module's entry in the mechanism registry (protocols/mechanism.c): its name,
 * what it is, where the seeds specify it, and its parts. */
#include "protocols/mechanism.h"
#include "protocols/rfo/rfo.h"

const sc_mechanism mechanism_rfo = {
    .name = "rfo",
    .description = "read-for-ownership MOESI L1s with a full-map directory at the L2: stores obtain ownership first",
    .seed = "QuickRelease §2.4.2, §3.3, U14",
    .protocol = &protocol_rfo,
    .model = &model_rfo,
    .params_file = "src/protocols/rfo/rfo_params.json",
    .config_keys = &rfo_config_keys,
    .block_config_keys = &directory_config_keys,
    .virtual_networks = 5,   /* MESI's five (Ren Table 3.3): the same directory messages, so the same
                                request, forward and response chains to keep apart */
};
