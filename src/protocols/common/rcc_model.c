/* rcc_model.c — the RCC protocols' serving split (rcc_model.h). */
#include "protocols/common/rcc_model.h"

#include <math.h>
#include <string.h>

/* The point's terms (rcc_load_point): 1 when a host write drops only the L1 copies of the lines it
 * wrote (rcc.host_write_drop written), 0 when it drops every copy of every L1 (all); 1 when the L2
 * renews an expired copy of an unchanged line without its data (rcc.renewal). */
enum { RCC_TERM_HOST_DROPS_WRITTEN, RCC_TERM_RENEWAL };

double rcc_turnover_lapsed_share(const model_kernel_profile *k, const model_point *p)
{
    const reuse_summary *gaps = &k->l1_hit_gap_summary, *reads = &k->l2_read_summary;
    double fills = reuse_expected_misses(reads, (uint64_t)p->l2_lines);
    double evictions = fills - p->l2_lines;
    if (evictions <= 0 || k->busiest_cu_instructions <= 0 || gaps->total <= 0)
        return 0.0;
    double turnover = reuse_lru_fall_accesses(reads, p->l2_lines) * k->busiest_cu_instructions / reads->total;
    if (!isfinite(turnover))
        return 0.0;
    return evictions / fills * reuse_lapsed_share(gaps, turnover, 1.0);
}

void rcc_serve(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double host_dropped = model_host_dropped_l1_hits(k, p, p->protocol_terms[RCC_TERM_HOST_DROPS_WRITTEN] > 0);
    double lost = host_dropped + model_l1_hits(&k->l1_rewritten_summary, p);
    double in_the_stack = model_kept_l1_hits(k, p, lost);
    double in_the_sets = model_kept_tags_l1_hits(k, p, host_dropped);
    double kept = fmin(in_the_stack, in_the_sets);
    double loads = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG];
    double jumps = loads > 0 ? fmin(1.0, k->remote_read_after_write / loads) : 0.0;
    double unwritten = kept * (1.0 - jumps);
    double hits = unwritten * (1.0 - rcc_turnover_lapsed_share(k, p));
    model_lose_together(k, unwritten - hits + host_dropped, out);
    double beyond = loads - hits + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, false, out);
    out->read_lines_l1 = hits;
    /* The lapsed copies' lines were not written since: the L2 renews those it still holds (at its
     * hit share of the reads beyond the L1); one it refilled from DRAM has a later version. */
    if (p->protocol_terms[RCC_TERM_RENEWAL] > 0 && beyond > 0)
        out->renewed_lines = (unwritten - hits) * out->read_lines_l2 / beyond;
}

int rcc_load_point(const sc_config *config, model_point *point, sc_error *error)
{
    (void)error;
    point->l2_write_through = 0.0;   /* the L2 is write-back (rcc_core.c, Ren §3.4.3) */
    point->protocol_terms[RCC_TERM_HOST_DROPS_WRITTEN] = !strcmp(sc_config_string(config, "rcc.host_write_drop"),
                                                                 "written");
    point->protocol_terms[RCC_TERM_RENEWAL] = sc_config_bool(config, "rcc.renewal");
    return 0;
}
