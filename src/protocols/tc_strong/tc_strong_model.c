/* tc_strong_model.c — where TC-Strong (tc_strong_protocol.c) serves each line request: the lease
 * protocols' split (common/lease_model.h), with the SC core's one access at a time (model_core.c's
 * Z_order) and its writes' wait at the L2 for the line's lease. Timing, stalls and traffic follow
 * from the shared network (model_core.c). */
#include "protocols/common/lease_model.h"
#include "protocols/tc_strong/tc_strong.h"

/* TC-Strong's SC core (tc_strong_protocol.c: SC_CORE_HOOKS): one global access of a warp at a
 * time, a write's completing after its wait at the L2 until the line's lease has expired
 * (lease_write_wait; where an earlier launch's read took the lease, the kernel end waits for it:
 * lease_earlier_left). */
static void serve_tc_strong(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles,
                            model_demand *out)
{
    lease_serve(kernel, point, cu_instruction_cycles, out);
    out->one_access_at_a_time = true;
    out->write_wait = lease_write_wait(kernel, point, cu_instruction_cycles);
    lease_earlier_left(kernel, point, cu_instruction_cycles, out);
}

static void evaluate_tc_strong(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate_timed(profile, point, params, serve_tc_strong, out);
}

const model_mechanism model_tc_strong = {
    .name = "tc-strong", .evaluate = evaluate_tc_strong, .load_point = lease_load_point};
