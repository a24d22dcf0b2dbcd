/* tc_weak_model.c — where TC-Weak (tc_weak_protocol.c) serves each line request: the lease
 * protocols' split (common/lease_model.h). Timing, stalls and traffic follow from the shared
 * network (model_core.c). */
#include "protocols/common/lease_model.h"
#include "protocols/tc_weak/tc_weak.h"

static void evaluate_tc_weak(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate_timed(profile, point, params, lease_serve, out);
}

const model_mechanism model_tc_weak = {.name = "tc-weak", .evaluate = evaluate_tc_weak, .load_point = lease_load_point};
