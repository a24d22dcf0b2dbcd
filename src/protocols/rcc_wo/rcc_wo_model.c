/* rcc_wo_model.c — where RCC-WO (rcc_wo_protocol.c) serves each line request: the RCC protocols' split
 * (common/rcc_model.h). Timing, stalls and traffic follow from the shared network (model_core.c). */
#include "protocols/common/rcc_model.h"
#include "protocols/rcc_wo/rcc_wo.h"

static void evaluate_rcc_wo(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate(profile, point, params, rcc_serve, out);
}

const model_mechanism model_rcc_wo = {.name = "rcc-wo", .evaluate = evaluate_rcc_wo};
