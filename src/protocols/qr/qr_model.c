/* qr_model.c — where QuickRelease (qr_protocol.c, qr_l1.c, qr_write_path.c) serves each line
 * request:
 *   rL1 read hits = every reuse of the per-CU load stacks at this L1 (QR's acquire is a plain
 *                   load and kernel start keeps the rL1), less the reuses across a host write
 *                   (as if the host write dropped every rL1 line; the detailed qr drops only the
 *                   lines written, issue 22) and those across a store of any CU to the line (a wL2
 *                   eviction broadcasts an invalidation to every rL1, and a load that finds
 *                   dirty bytes in its own wL1 writes them out and misses); strong loads are
 *                   plain loads and hit at the same rate;
 *   rL2           = the GPU-wide stack's hits (model_memory_split), less the reads of lines
 *                   stored to since their previous read: the wL2 eviction that wrote the line
 *                   out invalidated the rL2's copy, so they are served by the memory side: by
 *                   the L3 when an earlier read fetched the line into it (a GPU write updates a
 *                   present L3 copy in place), else by DRAM (the L3 does not allocate on writes);
 *   writes        = stores combine in the wL1, so each line written in a launch leaves once
 *                   (written_lines, at most one per store line request); every release drains
 *                   the wL2 and the wL3 to memory, so each launch's written lines reach DRAM,
 *                   and the release at kernel end waits until the lines still held in them (a
 *                   launch's written lines, at most the wL2s' and wL3's capacity) are handed to
 *                   the DRAM queues (qr_release_marker_cycles_mean in detailed runs);
 *   atomics go to the L2.
 * Simplifications: not modelled since issue 22 are the per-wavefront release batches (other
 * wavefronts' stores go on while a release waits), the release markers at wavefront exit and
 * barriers, and atomics written through to memory; the wL1's capacity (a line evicted early and written again leaves twice) and
 * reads served by the wL2 before a release drains it are not modelled. Timing, stalls and
 * traffic follow from model_core.c. */
#include <math.h>

#include "model/model_core.h"
#include "protocols/qr/qr.h"

/* The point's term this model adds (load_qr_point): the wL2 slices' and wL3's lines. */
enum { QR_TERM_WRITE_CACHE_LINES };

static void serve_qr(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double lost = model_l1_hits(&k->l1_host_flushed_summary, p) + model_l1_hits(&k->l1_rewritten_summary, p);
    double hits = model_kept_l1_hits(k, p, lost);
    model_memory_split(k, p, k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC], false,
                       out);
    double refetched = model_l2_hits(&k->fetched_rewritten_summary, p);
    double rewritten = model_l2_hits(&k->written_rewritten_summary, p);
    double moved = fmin(refetched + rewritten, out->read_lines_l2);
    double to_l3 = p->l3_lines > p->l2_lines && moved > 0 ? moved * refetched / (refetched + rewritten) : 0.0;
    out->read_lines_l2 -= moved;
    out->read_lines_l3 += to_l3;
    out->read_lines_dram += moved - to_l3;
    out->read_lines_l1 = hits;
    out->write_lines = fmin(k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG], k->written_lines);
    out->write_lines_missed = out->write_lines_dram = out->write_lines;
    out->release_drain_lines = fmin(out->write_lines / k->launches, p->protocol_terms[QR_TERM_WRITE_CACHE_LINES]);
}

static void evaluate_qr(const model_profile *profile, const model_point *point, const model_params *params,
                        model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_qr, out);
}

/* The write caches' capacity that a release at kernel end may find full (qr_config.c). */
static int load_qr_point(const sc_config *config, model_point *point, sc_error *error)
{
    qr_config qr;
    unsigned banks = (unsigned)point->l2_banks;
    if (qr_config_derive(config, (unsigned)point->line_bytes, banks, &qr, error) < 0)
        return -1;
    point->protocol_terms[QR_TERM_WRITE_CACHE_LINES] = (double)qr.wl2_blocks_per_bank * banks + qr.wl3_blocks;
    return 0;
}

const model_mechanism model_qr = {.name = "qr", .evaluate = evaluate_qr, .load_point = load_qr_point};
