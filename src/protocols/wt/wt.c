/* wt.c — the wt module's entry in the mechanism registry (protocols/mechanism.c): its name,
 * what it is, where the seeds specify it, and its parts. */
#include "protocols/mechanism.h"
#include "protocols/wt/wt.h"

const sc_mechanism mechanism_wt = {
    .name = "wt",
    .description = "write-through GPU coherence: L1 invalidated at acquire, writes performed at release",
    .seed = "QuickRelease §2.2, GSI §4.2, SAHC",
    .protocol = &protocol_wt,
    .model = &model_wt,
    .params_file = "src/protocols/wt/wt_params.json",
};
