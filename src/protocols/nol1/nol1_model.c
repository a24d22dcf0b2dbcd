/* nol1_model.c — where the no-L1 baseline (nol1_protocol.c) serves each line request: nothing
 * at the L1; every load, store and atomic goes to the L2, whose hits and misses (and where the
 * misses are served) come from the GPU-wide stack (model_memory_split); the loads of the most-loaded
 * line all reach its one L2 bank (a read hot spot: kmeans's centroids). Timing, stalls and
 * traffic follow from model_core.c. */
#include "model/model_core.h"
#include "protocols/nol1/nol1.h"

static void serve_nol1(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    model_memory_split(k, p, k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] + k->lines[MODEL_ATOMIC], false, true,
                       out);
    out->read_lines_l1 = 0;
    out->hot_load_lines = k->load_hottest_share * (k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG]);
}

static void evaluate_nol1(const model_profile *profile, const model_point *point, const model_params *params,
                          model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_nol1, out);
}

const model_mechanism model_nol1 = {.name = "nol1", .evaluate = evaluate_nol1};
