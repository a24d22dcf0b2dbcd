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
 *   L2 hits and misses and where the misses are served (model_memory_split);
 *   DRAM writes = under a write-through L2 (qr-apu) each registration's words go on to DRAM as the
 *               bank merges them (denovo_l2.c, merge_into_line), but the bank acknowledges the
 *               registration without waiting for room in the line's DRAM channel queues (it
 *               waits for that only with a write or an atomic: l2_bank.c,
 *               write_through_waits_for_memory): only
 *               the atomics are the written-through lines the kernel-end release waits behind
 *               (model_core.c, write_through_backlog); the registrations are posted writes, which
 *               the launch's DRAM reads queue behind (model_core.c, posted_write_wait), and so are
 *               the owned lines an L1 replaces, which go back to the bank with their words
 *               (denovo_protocol.c, send_writeback; denovo_l2.c, writeback_arrived) and on to DRAM
 *               as the bank merges them: per CU and launch, of the W lines it stores to (the cold
 *               stores of its written-line stack, l1_writes) and the F it fills for loads, an LRU
 *               L1 of C lines taken as a stream keeps W C / (W + F) of the written ones, so
 *               max(0, W - W C / (W + F)) go back (replaced_owned_lines).
 * Timing, stalls and traffic follow from the shared network (model_core.c). */
#include <math.h>

#include "model/model_core.h"
#include "protocols/denovo/denovo.h"

/* The point's terms this model reads (denovo_load_point). */
enum { DENOVO_TERM_FORWARD_LATENCY };

/* The group's line requests that register words at the L2 (weak and strong stores). */
static double registered_lines(const model_kernel_profile *k)
{
    return k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG];
}

/* The owned lines the L1s replace over the group's launches (the write-backs above), of the
 * `load_fills` lines the L1s fill for loads. */
static double replaced_owned_lines(const model_kernel_profile *k, const model_point *p, double load_fills)
{
    double cu_launches = fmin(p->cu_count, k->ctas) * k->launches;
    if (cu_launches <= 0 || k->l1_writes.cold <= 0)
        return 0.0;
    double written = k->l1_writes.cold / cu_launches, filled = load_fills / cu_launches;
    return cu_launches * fmax(written - written * p->l1_lines / (written + filled), 0.0);
}

static void serve_denovo(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double hits = fmax(model_l1_hits(&k->l1_summary, p) - model_l1_hits(&k->l1_crossing_summary, p), 0.0);
    double beyond = k->lines[MODEL_LOAD] - hits + k->lines[MODEL_LOAD_STRONG] + k->lines[MODEL_ATOMIC];
    model_memory_split(k, p, beyond, false, false, out);
    out->read_lines_l1 = hits;
    out->read_lines_forwarded = fmin(k->remote_read_after_write, out->read_lines_l2);
    out->forward_latency = p->protocol_terms[DENOVO_TERM_FORWARD_LATENCY];
    out->buffered_write_lines = k->lines[MODEL_STORE];
    if (p->l2_write_through > 0) {
        out->write_through_lines = out->atomic_lines;   /* registrations do not wait for DRAM */
        out->posted_write_lines = registered_lines(k) + replaced_owned_lines(k, p, k->lines[MODEL_LOAD] - hits);
    }
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
