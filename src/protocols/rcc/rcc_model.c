/* rcc_model.c — where RCC (rcc_protocol.c) serves each line request: the RCC protocols' split
 * (common/rcc_model.h), with the SC core's one access at a time (model_core.c's Z_order). Timing,
 * stalls and traffic follow from the shared network (model_core.c). */
#include "protocols/common/rcc_model.h"
#include "protocols/rcc/rcc.h"

/* RCC's SC core (rcc_protocol.c: SC_CORE_HOOKS): one global access of a warp at a time. */
static void serve_rcc(const model_kernel_profile *kernel, const model_point *point, model_demand *out)
{
    rcc_serve(kernel, point, out);
    out->one_access_at_a_time = true;
}

static void evaluate_rcc(const model_profile *profile, const model_point *point, const model_params *params,
                         model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_rcc, out);
}

const model_mechanism model_rcc = {.name = "rcc", .evaluate = evaluate_rcc, .load_point = rcc_load_point};
