/* lease_model.c — the lease protocols' serving split (lease_model.h). */
#include "protocols/common/lease_model.h"

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
    const reuse_summary *gaps = &k->l1_hit_gap_summary;
    double lease = p->protocol_terms[LEASE_TERM_CYCLES];
    if (cu_instruction_cycles <= 0 || lease <= 0 || gaps->total <= 0)
        return 0.0;
    double short_count, short_gaps;
    double kept = reuse_shortfall(gaps, lease, cu_instruction_cycles, &short_count, &short_gaps) / lease;
    return 1.0 - kept / gaps->total;
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

double lease_dropped_hits(const model_kernel_profile *k, const model_point *p)
{
    const reuse_summary *host_dropped = p->protocol_terms[LEASE_TERM_HOST_DROPS_WRITTEN] > 0
                                            ? &k->l1_host_written_summary
                                            : &k->l1_host_flushed_summary;
    return model_l1_hits(host_dropped, p) + model_l1_hits(&k->l1_own_stored_summary, p);
}

void lease_serve(const model_kernel_profile *k, const model_point *p, double cu_instruction_cycles, model_demand *out)
{
    double kept = model_kept_l1_hits(k, p, lease_dropped_hits(k, p));
    double hits = kept * (1.0 - lease_lapsed_share(k, p, cu_instruction_cycles));
    double beyond = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, out);
    out->read_lines_l1 = hits;
}
