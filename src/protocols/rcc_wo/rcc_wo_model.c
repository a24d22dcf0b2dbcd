/* rcc_wo_model.c — where RCC-WO (rcc_wo_protocol.c) serves each line request: the RCC protocols' split
 * (common/rcc_model.h), with a warp's loads ordered behind its own writes to their line. Timing,
 * stalls and traffic follow from the shared network (model_core.c). */
#include "protocols/common/rcc_model.h"
#include "protocols/rcc_wo/rcc_wo.h"

/* A warp's load waits while its own write to the line is in flight (common/rcc_core.c's
 * rcc_before_access): the L1 refuses it, and the refused access holds the CU's load/store unit
 * (compute_unit.c's ldst_step), an MSHR-full stall of every warp that needs the unit
 * (model_core.c: the LSU's own-line holds, mem_struct). */
static void serve_rcc_wo(const model_kernel_profile *kernel, const model_point *point, model_demand *out)
{
    rcc_serve(kernel, point, out);
    out->loads_wait_own_writes = true;
}

static void evaluate_rcc_wo(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_rcc_wo, out);
}

const model_mechanism model_rcc_wo = {.name = "rcc-wo", .evaluate = evaluate_rcc_wo, .load_point = rcc_load_point};
