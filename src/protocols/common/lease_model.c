/* lease_model.c — the lease protocols' serving split (lease_model.h). */
#include "protocols/common/lease_model.h"

void lease_serve(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double hits = model_kept_l1_hits(k, p, 0.0);
    double beyond = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, out);
    out->read_lines_l1 = hits;
}
