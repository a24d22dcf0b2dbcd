/* tc_strong_model.c — where TC-Strong (tc_strong_protocol.c) serves each line request: the lease
 * protocols' split (common/lease_model.h), with the SC core's one access at a time (model_core.c's
 * Z_order). Timing, stalls and traffic follow from the shared network (model_core.c). */
#include "protocols/common/lease_model.h"
#include "protocols/tc_strong/tc_strong.h"

/* TC-Strong's SC core (tc_strong_protocol.c: SC_CORE_HOOKS): one global access of a warp at a
 * time; a store's wait at the L2 for the line's leases is not a term (lease_model.h). */
static void serve_tc_strong(const model_kernel_profile *kernel, const model_point *point, model_demand *out)
{
    lease_serve(kernel, point, out);
    out->one_access_at_a_time = true;
}

static void evaluate_tc_strong(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_tc_strong, out);
}

const model_mechanism model_tc_strong = {.name = "tc-strong", .evaluate = evaluate_tc_strong};
