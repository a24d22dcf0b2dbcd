/* model_qr.c — where QuickRelease (protocols/qr.c) serves each line request:
 *   rL1 read hits = every reuse of the per-CU load stacks at this L1 (QR's acquire is a plain
 *                   load and kernel start keeps the rL1), less the loads of lines another CU
 *                   wrote last (its write-out broadcast an invalidation of the line); strong
 *                   loads are plain loads and hit at the same rate;
 *   writes        = stores combine in the wL1, so each line written in a launch leaves once
 *                   (written_lines, at most one per store line request);
 *   atomics go to the L2; L2 hits and misses and where the misses are served (model_memory_split).
 * Simplifications: the wL1's capacity (a line evicted early and written again leaves twice) and
 * the rL1 copies a CU's own write-outs invalidate are not modelled. Timing, stalls and traffic
 * follow from model_core.c. */
#include <math.h>

#include "model/model_core.h"

static void serve_qr(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double hits = model_kept_l1_hits(k, p);
    model_memory_split(k, p, k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC], false,
                       out);
    out->read_lines_l1 = hits;
    out->write_lines = fmin(k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG], k->written_lines);
}

static void evaluate_qr(const model_profile *profile, const model_point *point, const model_params *params,
                        model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_qr, out);
}

const model_mechanism model_qr = {"qr", evaluate_qr};
