/* nol1.c — the nol1 module's entry in the mechanism registry (protocols/mechanism.c): its name,
 * what it is, where the seeds specify it, and its parts. */
#include "protocols/mechanism.h"
#include "protocols/nol1/nol1.h"

const sc_mechanism mechanism_nol1 = {
    .name = "nol1",
    .description = "no L1 for global data: every access goes to the shared L2",
    .seed = "QuickRelease §3.1",
    .protocol = &protocol_nol1,
    .model = &model_nol1,
    .params_file = "src/protocols/nol1/nol1_params.json",
};
