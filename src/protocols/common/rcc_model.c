/* rcc_model.c — the RCC protocols' serving split (rcc_model.h). */
#include "protocols/common/rcc_model.h"

#include <math.h>
#include <string.h>

/* The point's term (rcc_load_point): 1 when a host write drops only the L1 copies of the lines it
 * wrote (rcc.host_write_drop written), 0 when it drops every copy of every L1 (all). */
enum { RCC_TERM_HOST_DROPS_WRITTEN };

void rcc_serve(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double lost = model_host_dropped_l1_hits(k, p, p->protocol_terms[RCC_TERM_HOST_DROPS_WRITTEN] > 0) +
                  model_l1_hits(&k->l1_rewritten_summary, p);
    double kept = model_kept_l1_hits(k, p, lost);
    double loads = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG];
    double jumps = loads > 0 ? fmin(1.0, k->remote_read_after_write / loads) : 0.0;
    double hits = kept * (1.0 - jumps);
    model_memory_split(k, p, loads - hits + k->lines[MODEL_ATOMIC], false, out);
    out->read_lines_l1 = hits;
}

int rcc_load_point(const sc_config *config, model_point *point, sc_error *error)
{
    (void)error;
    point->l2_write_through = 0.0;   /* the L2 is write-back (rcc_core.c, Ren §3.4.3) */
    point->protocol_terms[RCC_TERM_HOST_DROPS_WRITTEN] = !strcmp(sc_config_string(config, "rcc.host_write_drop"),
                                                                 "written");
    return 0;
}
