/* wt_model.c — where write-through GPU coherence (wt_protocol.c) serves each line request:
 *   L1 hits  = hits of the per-CU weak-load stacks at this L1 (reuse_histogram.h), minus the
 *              reuses that cross an acquire or an atomic of the CU (the L1 was flash-invalidated
 *              or the line dropped: cold for wt);
 *   L1 misses, strong loads and atomics go to the L2; every store is written through to it,
 *              a weak one when the store buffer, which combines them, needs its entry or at a
 *              release (kernel end: model_core.c's flush);
 *   L2 hits and misses and where the misses are served (model_memory_split).
 * Timing, stalls and traffic follow from the shared network (model_core.c). */
#include "model/model_core.h"
#include "protocols/wt/wt.h"

static void serve_wt(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double hits = reuse_expected_hits(&k->l1_summary, (uint64_t)p->l1_lines) -
                  reuse_expected_hits(&k->l1_crossing_summary, (uint64_t)p->l1_lines);
    hits = hits < 0 ? 0 : hits;
    double beyond = k->lines[MODEL_LOAD] - hits + k->lines[MODEL_LOAD_STRONG] + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, true, out);
    out->read_lines_l1 = hits;
    out->buffered_write_lines = k->lines[MODEL_STORE];
}

static void evaluate_wt(const model_profile *profile, const model_point *point, const model_params *params,
                        model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_wt, out);
}

const model_mechanism model_wt = {.name = "wt", .evaluate = evaluate_wt};
