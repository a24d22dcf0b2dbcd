/* tc_weak_model.c — where TC-Weak (tc_weak_protocol.c) serves each line request: the lease
 * protocols' split (common/lease_model.h), and its kernel end's wait for its writes' global write
 * completion time (lease_kernel_end_wait; for leases an earlier launch took, lease_earlier_left).
 * Timing, stalls and traffic follow from the shared
 * network (model_core.c). */
#include "protocols/common/lease_model.h"
#include "protocols/tc_weak/tc_weak.h"

static void serve_tc_weak(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles,
                          model_demand *out)
{
    lease_serve(kernel, point, cu_instruction_cycles, out);
    out->kernel_end_latency = lease_kernel_end_wait(kernel, point, cu_instruction_cycles);
    lease_earlier_left(kernel, point, cu_instruction_cycles, out);
}

static void evaluate_tc_weak(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate_timed(profile, point, params, serve_tc_weak, out);
}

const model_mechanism model_tc_weak = {.name = "tc-weak", .evaluate = evaluate_tc_weak, .load_point = lease_load_point};
