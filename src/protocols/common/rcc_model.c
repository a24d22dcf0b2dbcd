/* rcc_model.c — the RCC protocols' serving split (rcc_model.h). */
#include "protocols/common/rcc_model.h"

#include <math.h>

void rcc_serve(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double kept = model_kept_l1_hits(k, p, model_l1_hits(&k->l1_rewritten_summary, p));
    double loads = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG];
    double jumps = loads > 0 ? fmin(1.0, k->remote_read_after_write / loads) : 0.0;
    double hits = kept * (1.0 - jumps);
    model_memory_split(k, p, loads - hits + k->lines[MODEL_ATOMIC], false, out);
    out->read_lines_l1 = hits;
}

int rcc_load_point(const sc_config *config, model_point *point, sc_error *error)
{
    (void)config, (void)error;
    point->l2_write_through = 0.0;   /* the L2 is write-back (rcc_core.c, Ren §3.4.3) */
    return 0;
}
