/* rfo_model.c — where RFO directory coherence (rfo_protocol.c) serves each line request: the
 * ownership protocols' model (common/ownership_model.c) with rfo's choices: the owner of a
 * modified line keeps it dirty when another CU reads it (MOESI's O, so every such read is
 * forwarded to it), and the L3 is write-back and takes the L2's victims (rfo's build makes it
 * writable), so it holds the lines the GPU wrote and only its victims reach DRAM. */
#include "protocols/common/ownership_model.h"
#include "protocols/rfo/rfo.h"

static void serve_rfo(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    ownership_serve(k, p, (ownership_choices){.l3_takes_writes = true, .read_writes_home = false}, out);
}

static void evaluate_rfo(const model_profile *profile, const model_point *point, const model_params *params,
                         model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_rfo, out);
}

const model_mechanism model_rfo = {.name = "rfo", .evaluate = evaluate_rfo, .load_point = ownership_load_point};
