/* qr.c — the qr module's entry in the mechanism registry (protocols/mechanism.c): its name,
 * what it is, where the seeds specify it, and its parts. */
#include "protocols/mechanism.h"
#include "protocols/qr/qr.h"

const sc_mechanism mechanism_qr = {
    .name = "qr",
    .description = "QuickRelease: read-only rL1s, write-combining wL1s ordered by S-FIFOs, release markers, "
        "rL1 invalidations broadcast on writes at the L2, acquire as a plain load",
    .seed = "QuickRelease §2-§3",
    .protocol = &protocol_qr,
    .model = &model_qr,
    .params_file = "src/protocols/qr/qr_params.json",
    .config_keys = &qr_config_keys,
};
