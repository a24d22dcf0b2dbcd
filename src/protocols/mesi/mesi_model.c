/* mesi_model.c — where MESI directory coherence (mesi_protocol.c) serves each line request, in
 * the form mesi.stores selects (load_mesi_point reads it into the point).
 *
 * write_back: the ownership protocols' model (common/ownership_model.c) with MESI's choices: a
 * read of another CU's modified line writes the owner's data home and leaves both copies shared
 * (M -> S), so only the first read after a write is forwarded and later ones read the home; the
 * memory-side L3 is not writable (the engine's default), so the L2's dirty victims go to DRAM.
 *
 * write_through (Ren §3.2's MESI; no L1 owns a line, so nothing is fetched for ownership,
 * forwarded or put back):
 *   L1 hits       = every reuse of the per-CU load stacks at this L1 (SC cores waive acquires and
 *                   kernel boundaries keep the L1), less the reuses across a host write of their
 *                   line (the host write drops it) and those across a store of any CU to the line
 *                   (the writer drops its own copy, the directory invalidates every other one);
 *                   an atomic drops the CU's own copy (the profile's L1 stack forgets the line),
 *                   while the reuses across another CU's atomic are not subtracted (the profile
 *                   records no such class); strong loads hit at the weak loads' rate;
 *   stores        = every store line is written through to the L2 at once, as wt's strong
 *                   stores are (none waits in a store buffer for a release: no
 *                   buffered_write_lines); atomics are performed at the L2 (model_memory_split);
 *   invalidations = each write that finds the line shared sends one invalidation to each other
 *                   CU that read it since the line's previous write (the profile's
 *                   write_invalidations: a bank's injection, one L1's delivery), and that L1
 *                   answers with an ack to the bank.
 * A write's wait for those acks (Ren §3.15: the store's latency is the L2 round trip plus the
 * invalidations' round trip) is not a term of the model, nor is the SC core's one access at a
 * time that makes a warp wait for it: the calibrated exposure parameters take them up, as for
 * tc-strong and rcc. Timing, stalls and traffic follow from model_core.c. */
#include <string.h>

#include "protocols/common/ownership_model.h"
#include "protocols/mesi/mesi.h"

/* The point's term this model adds (load_mesi_point): 1 when mesi.stores is write_through. */
enum { MESI_TERM_WRITES_THROUGH = OWNERSHIP_TERM_COUNT };

static void serve_write_through(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double lost = model_l1_hits(&k->l1_host_written_summary, p) + model_l1_hits(&k->l1_rewritten_summary, p);
    double hits = model_kept_l1_hits(k, p, lost);
    model_memory_split(k, p, k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC],
                       false, out);
    out->read_lines_l1 = hits;
    out->invalidation_injections = out->invalidation_deliveries = out->invalidation_acks = k->write_invalidations;
}

static void serve_mesi(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    if (p->protocol_terms[MESI_TERM_WRITES_THROUGH] > 0)
        serve_write_through(k, p, out);
    else
        ownership_serve(k, p, (ownership_choices){.l3_takes_writes = false, .read_writes_home = true}, out);
}

static void evaluate_mesi(const model_profile *profile, const model_point *point, const model_params *params,
                          model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_mesi, out);
}

/* The ownership protocols' forward latency, and how the L1s take stores (mesi.stores). */
static int load_mesi_point(const sc_config *config, model_point *point, sc_error *error)
{
    if (ownership_load_point(config, point, error) < 0)
        return -1;
    point->protocol_terms[MESI_TERM_WRITES_THROUGH] = !strcmp(sc_config_string(config, "mesi.stores"), "write_through");
    return 0;
}

const model_mechanism model_mesi = {.name = "mesi", .evaluate = evaluate_mesi, .load_point = load_mesi_point};
