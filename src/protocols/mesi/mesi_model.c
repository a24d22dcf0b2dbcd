/* mesi_model.c — where MESI directory coherence (mesi_protocol.c) serves each line request, in
 * the form mesi.stores selects (load_mesi_point reads it into the point), under the SC core
 * mesi_protocol.c sets in both forms: a warp's global and shared accesses wait for its global
 * access in flight (model_core.c's Z_order).
 *
 * write_back: the ownership protocols' model (common/ownership_model.c) with MESI's choices: a
 * read of another CU's modified line writes the owner's data home and leaves both copies shared
 * (M -> S), so only the first read after a write is forwarded and later ones read the home; the
 * memory-side L3 is not writable (the engine's default), so the L2's dirty victims go to DRAM
 * (the L3 still holds the written lines: their GetMs fetched them through it).
 * A store in flight: the first store of a line the launch writes fetches ownership (an L2 trip);
 * the others hit the owned line and are done at the L1's latency (write_l1_share). The GetM's
 * invalidations of other sharers are not a term of the store's latency.
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
 * A write waits for those acks (Ren §3.15: the store's latency is the L2 round trip plus the
 *                   invalidations' round trip): the writes that find sharers, taken as
 *                   write_invalidations / written lines (at most 1: an upper bound, since one
 *                   write may invalidate several sharers at once), wait directory.latency plus
 *                   an invalidation's and an ack's NoC trip (write_wait; load_mesi_point).
 * Timing, stalls and traffic follow from model_core.c. */
#include <math.h>
#include <string.h>

#include "protocols/common/ownership_model.h"
#include "protocols/mesi/mesi.h"

/* The point's terms this model adds (load_mesi_point): 1 when mesi.stores is write_through, and
 * the GPU cycles a write-through write waits for its invalidations beyond its L2 trip. */
enum { MESI_TERM_WRITES_THROUGH = OWNERSHIP_TERM_COUNT, MESI_TERM_INVALIDATION_LATENCY };

static void serve_write_through(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double lost = model_l1_hits(&k->l1_host_written_summary, p) + model_l1_hits(&k->l1_rewritten_summary, p);
    double hits = model_kept_l1_hits(k, p, lost);
    model_memory_split(k, p, k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC],
                       false, false, out);
    out->read_lines_l1 = hits;
    out->invalidation_injections = out->invalidation_deliveries = out->invalidation_acks = k->write_invalidations;
    double writes = k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG] + k->lines[MODEL_ATOMIC];
    double waiting = writes > 0 ? fmin(k->write_invalidations / writes, 1.0) : 0.0;
    out->write_wait = waiting * p->protocol_terms[MESI_TERM_INVALIDATION_LATENCY];
}

/* The write-back form's stores: those of a line the launch wrote before hit its owned copy (the
 * first one fetches ownership, ownership_serve). */
static void serve_write_back(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    ownership_serve(k, p, (ownership_choices){.l3_takes_writes = false, .read_writes_home = true}, out);
    double stores = k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG];
    out->write_l1_share = stores > 0 ? 1.0 - fmin(stores, k->written_lines) / stores : 0.0;
}

static void serve_mesi(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    out->one_access_at_a_time = true;   /* the SC core (mesi_protocol.c: SC_CORE_HOOKS); ownership_serve reads it */
    if (p->protocol_terms[MESI_TERM_WRITES_THROUGH] > 0)
        serve_write_through(k, p, out);
    else
        serve_write_back(k, p, out);
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
    double gpu_per_noc = sc_config_float(config, "gpu.clock") / sc_config_float(config, "noc.clock");
    point->protocol_terms[MESI_TERM_INVALIDATION_LATENCY] =
        sc_config_float(config, "directory.latency") +
        2 * (sc_config_float(config, "noc.latency") * gpu_per_noc + point->noc_header_cycles);
    return 0;
}

const model_mechanism model_mesi = {.name = "mesi", .evaluate = evaluate_mesi, .load_point = load_mesi_point};
