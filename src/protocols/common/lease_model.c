/* lease_model.c — the lease protocols' serving split (lease_model.h). */
#include "protocols/common/lease_model.h"

#include <math.h>
#include <string.h>

int lease_load_point(const sc_config *config, model_point *point, sc_error *error)
{
    (void)error;
    point->protocol_terms[LEASE_TERM_CYCLES] = (double)sc_config_int(config, "tc.lease_cycles");
    point->protocol_terms[LEASE_TERM_HOST_DROPS_WRITTEN] = !strcmp(sc_config_string(config, "tc.host_write_drop"),
                                                                   "written");
    return 0;
}

double lease_lapsed_share(const model_kernel_profile *k, const model_point *p, double cu_instruction_cycles)
{
    double lease = p->protocol_terms[LEASE_TERM_CYCLES], reuses = k->l1_hit_gap_summary.total;
    if (cu_instruction_cycles <= 0 || lease <= 0 || reuses <= 0)
        return 0.0;
    double period = lease / cu_instruction_cycles;   /* a lease, in the CU's warp instructions */
    double crossings = reuse_floor_sum(&k->l1_hit_age_summary, period) -
                       reuse_floor_sum(&k->l1_hit_previous_age_summary, period);
    double short_count, short_gaps;
    reuse_shortfall(&k->l1_hit_gap_summary, lease, cu_instruction_cycles, &short_count, &short_gaps);
    const reuse_span *all = &k->l1_hit_gap_summary.spans[k->l1_hit_gap_summary.size];
    double long_count = all->count_before - short_count, long_gaps = all->distances_before - short_gaps;
    double lapses = crossings - (long_gaps / period - long_count);
    return fmin(fmax(lapses / reuses, 0.0), 1.0);
}

/* The summed shortfall max(0, L - t c) over the summarized times t, per `per` (0 where nothing
 * is summarized or c is not known). */
static double lease_left(const reuse_summary *times, const model_point *p, double cu_instruction_cycles, double per)
{
    double lease = p->protocol_terms[LEASE_TERM_CYCLES];
    if (cu_instruction_cycles <= 0 || lease <= 0 || times->total <= 0 || per <= 0)
        return 0.0;
    double short_count, short_times;
    return reuse_shortfall(times, lease, cu_instruction_cycles, &short_count, &short_times) / per;
}

double lease_write_wait(const model_kernel_profile *k, const model_point *p, double cu_instruction_cycles)
{
    double writes = k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG] + k->lines[MODEL_ATOMIC];
    return lease_left(&k->write_lease_gap_summary, p, cu_instruction_cycles, writes);
}

double lease_kernel_end_wait(const model_kernel_profile *k, const model_point *p, double cu_instruction_cycles)
{
    return lease_left(&k->kernel_end_lease_age_summary, p, cu_instruction_cycles, k->launches);
}

void lease_earlier_left(const model_kernel_profile *k, const model_point *p, double cu_instruction_cycles,
                        model_demand *out)
{
    const reuse_summary *ages = &k->kernel_end_earlier_lease_age_summary;
    out->earlier_lease_left = lease_left(ages, p, cu_instruction_cycles, k->launches);
    out->earlier_lease_launches = k->launches > 0 ? ages->total / k->launches : 0.0;
}

void lease_serve(const model_kernel_profile *k, const model_point *p, double cu_instruction_cycles, model_demand *out)
{
    double host_dropped = model_host_dropped_l1_hits(k, p, p->protocol_terms[LEASE_TERM_HOST_DROPS_WRITTEN] > 0);
    double kept = model_kept_tags_l1_hits(k, p, host_dropped);
    double hits = kept * (1.0 - lease_lapsed_share(k, p, cu_instruction_cycles));
    model_lose_together(k, kept - hits + host_dropped, out);
    double beyond = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, true, out);
    out->read_lines_l1 = hits;
}
