/* denovo_model.c — where DeNovo (denovo_protocol.c, denovo_l2.c) serves each line request:
 *   L1 hits   = hits of the per-CU weak-load stacks at this L1 less the reuses that cross an
 *               acquire or an atomic of the CU (self-invalidation drops Valid words; the owned
 *               words an acquire keeps are not told apart by the profile, so their reuse across
 *               acquires is not counted: a lower bound on DeNovo's hits);
 *   forwarded = the loads of lines another CU wrote last go to the L2, which forwards them to
 *               the owner L1 (the writer registered the words): an L2 trip plus the forward's
 *               extra hop (denovo_load_point: the owner's L1 latency and one more NoC trip);
 *   stores    = every weak store waits in the write-combining store buffer and is registered at
 *               the L2 when the buffer is full or at a release, as wt's are written (registrations
 *               of owned words, which DeNovo retires in place, are not told apart either);
 *   L2 hits and misses and where the misses are served (model_memory_split).
 * Timing, stalls and traffic follow from the shared network (model_core.c). */
#include <math.h>

#include "model/model_core.h"
#include "protocols/denovo/denovo.h"

/* The point's terms this model reads (denovo_load_point). */
enum { DENOVO_TERM_FORWARD_LATENCY };

static void serve_denovo(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double hits = fmax(model_l1_hits(&k->l1_summary, p) - model_l1_hits(&k->l1_crossing_summary, p), 0.0);
    double beyond = k->lines[MODEL_LOAD] - hits + k->lines[MODEL_LOAD_STRONG] + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, out);
    out->read_lines_l1 = hits;
    out->read_lines_forwarded = fmin(k->remote_read_after_write, out->read_lines_l2);
    out->forward_latency = p->protocol_terms[DENOVO_TERM_FORWARD_LATENCY];
    out->buffered_write_lines = k->lines[MODEL_STORE];
}

static void evaluate_denovo(const model_profile *profile, const model_point *point, const model_params *params,
                            model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_denovo, out);
}

/* The forward's extra hop: the owner's L1 lookup and the NoC trip from the owner to the requester. */
static int denovo_load_point(const sc_config *config, model_point *point, sc_error *error)
{
    double gpu_per_noc = sc_config_float(config, "gpu.clock") / sc_config_float(config, "noc.clock");
    point->protocol_terms[DENOVO_TERM_FORWARD_LATENCY] = sc_config_float(config, "l1.latency") +
                                                         sc_config_float(config, "noc.latency") * gpu_per_noc +
                                                         point->noc_header_cycles + point->noc_data_cycles;
    return 0;
}

const model_mechanism model_denovo = {.name = "denovo", .evaluate = evaluate_denovo, .load_point = denovo_load_point};
