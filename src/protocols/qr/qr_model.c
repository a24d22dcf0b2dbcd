/* qr_model.c — where QuickRelease (qr_protocol.c, qr_l1.c, qr_write_path.c) serves each line
 * request, and what its releases, barriers and atomics cost:
 *   rL1 read hits = every reuse of the per-CU load stacks at this L1 (QR's acquire is a plain
 *                   load and kernel start keeps the rL1), less the reuses across a host write
 *                   (as if the host write dropped every rL1 line; the detailed qr drops only the
 *                   lines written, issue 22) and those across a store of any CU to the line (a wL2
 *                   eviction broadcasts an invalidation to every rL1, and a load that finds
 *                   dirty bytes in its own wL1 writes them out and misses); strong loads are
 *                   plain loads and hit at the same rate. The stacks place CTA i of a launch on
 *                   CU (C + i) mod cu_count, as the detailed dispatch does while every CTA fits at
 *                   once; when a launch has more CTAs than the GPU holds, the detailed dispatch
 *                   puts each later one on the CU whose slot frees first and starts the next
 *                   launch after the last of them, so a CTA does not come back to the CU that
 *                   read its lines in the launch before: the reuses across a kernel start are
 *                   then misses, as wt's are (docs/calibration.md, "qr's stencil on gtx480":
 *                   stencil at 8 CUs, 48 KiB, 33,782 detailed hits and merges against 33,255
 *                   under wt; at 16 CUs, one round, the stacks' hits exactly at a fully
 *                   associative L1);
 *   rL2           = the GPU-wide stack's hits (model_memory_split), less the reads of lines
 *                   stored to since their previous read: the wL2 eviction that wrote the line
 *                   out invalidated the rL2's copy, so they are served by the memory side: by
 *                   the L3 when an earlier read fetched the line into it (a GPU write updates a
 *                   present L3 copy in place), else by DRAM (the L3 does not allocate on writes);
 *   writes        = stores combine in each CU's wL1 of l1.write_cache_size, so a line leaves a
 *                   CU once per launch, and again when the wL1 evicted it before a later store
 *                   (the CU's written-line stack, l1_writes, at the wL1's lines: a line several
 *                   CUs write leaves each of them, radix_count's counts 16 times; radix_offsets'
 *                   one CU stores to 256 lines in turn through a 64-line wL1, so every store
 *                   line leaves); every release drains
 *                   the wL2 and the wL3 to memory, so each launch's written lines reach DRAM,
 *                   and the release at kernel end waits until the lines still held in them (a
 *                   launch's written lines, at most the wL2s' and wL3's capacity) are handed to
 *                   the DRAM queues (qr_release_marker_cycles_mean in detailed runs);
 *   invalidations = each written line's wL2 eviction multicasts an invalidation to every rL1
 *                   (one injection at its bank, a copy into each CU), and so does each atomic to
 *                   every other CU's rL1 (qr_atomic_performed);
 *   releases      = a release (st.release, fence) sends a batch of release markers, one to each
 *                   L2 bank, each answered by an acknowledgement once it has passed the wL2 slice
 *                   and the wL3; the warp waits for them: an L2 trip plus a marker's latency
 *                   through each of the two levels (directory.latency), its H_rel. Under
 *                   gpu.barrier_release_scope global a barrier is such a release: one of the
 *                   work-group when its last warp arrives, every warp waiting for it
 *                   (gpu.barrier_release_granularity work_group, U10), or one of each warp
 *                   before it arrives (wavefront). A barrier's release waits only when its
 *                   warps wrote since their previous release: a group's barrier batches are at
 *                   most its warps' global stores (a release that finds nothing written out
 *                   waits for the previous batch, taken as done).
 *                   A wavefront's exit sends its batch without waiting (U9), and so does each
 *                   CU's release at kernel end; the kernel ends when the last batch is
 *                   acknowledged, one H_rel after the drain;
 *   atomics       go to the L2, where they are performed and written through to memory (every
 *                   atomic line counted as a DRAM write: a failed CAS writes nothing) as the
 *                   bank performs them, whatever l2.write_policy: a write-through L2's writes
 *                   (write_through_lines), whose bank waits for room in the line's DRAM channel,
 *                   so a hot line's atomics go at one channel's rate (model_core.c; histogram on
 *                   qr-apu at dram.clock 204MHz: 450 DRAM writes a launch of histogram_global in
 *                   9,200 cycles, the channel's line time 19.6 cycles).
 * Not modelled: the wL1's S-FIFO1 (a full one evicts a block before the wL1 is full), reads
 * served by the wL2 before a release drains it, the writes ahead of a marker that lengthen its
 * drain, an atomic's wait for its invalidations to arrive, and releases (st.release, fences,
 * exits) that send no batch because nothing was written out since the previous one (each is
 * counted as a batch). Timing, stalls and traffic follow from model_core.c. */
#include <math.h>

#include "model/model_core.h"
#include "protocols/qr/qr.h"

/* The point's terms this model adds (load_qr_point): the wL2 slices' and wL3's lines, a
 * marker's latency through one level, whether a barrier is a release (1) or not (0), and whether
 * that release is each warp's (1) or the work-group's (0), and each CU's wL1 lines. */
enum { QR_TERM_WRITE_CACHE_LINES, QR_TERM_MARKER_CYCLES, QR_TERM_BARRIERS_RELEASE, QR_TERM_BARRIER_PER_WARP,
       QR_TERM_WL1_LINES };

/* Where the reads and writes are served. */
static void serve_lines(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    double lost = model_l1_hits(&k->l1_host_flushed_summary, p) + model_l1_hits(&k->l1_rewritten_summary, p);
    /* A launch with later rounds loses every reuse across a kernel start; the host's and the
     * stores' losses are among those (a host write comes between launches, and a load after
     * another CU's store acquires first), so they are not counted again. */
    if (k->ctas > p->cu_count * model_resident_ctas(k, p))
        lost = fmax(model_l1_hits(&k->l1_crossing_summary, p), lost);
    double hits = model_kept_l1_hits(k, p, lost);
    model_memory_split(k, p, k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC], false,
                       false, out);
    double refetched = model_l2_hits(&k->fetched_rewritten_summary, p);
    double rewritten = model_l2_hits(&k->written_rewritten_summary, p);
    double moved = fmin(refetched + rewritten, out->read_lines_l2);
    double to_l3 = p->l3_lines > p->l2_lines && moved > 0 ? moved * refetched / (refetched + rewritten) : 0.0;
    out->read_lines_l2 -= moved;
    out->read_lines_l3 += to_l3;
    out->read_lines_dram += moved - to_l3;
    out->read_lines_l1 = hits;
    out->write_lines = reuse_expected_misses(&k->l1_write_summary, (uint64_t)p->protocol_terms[QR_TERM_WL1_LINES]);
    out->write_lines_missed = out->write_lines;
    out->write_lines_dram = out->write_lines;   /* the wL2s and wL3 hand them to DRAM (the release's drain) */
    out->write_through_lines = out->atomic_lines;   /* the L2 writes each atomic through as it performs it */
    out->release_drain_lines = fmin(out->write_lines / k->launches, p->protocol_terms[QR_TERM_WRITE_CACHE_LINES]);
}

/* What the releases (markers), barriers, exits and atomics add. */
static void serve_synchronization(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    out->release_latency = p->l2_latency + 2 * p->protocol_terms[QR_TERM_MARKER_CYCLES];
    /* A barrier's release is one batch per warp arrival, or per work-group barrier (the group's
     * warps' arrivals), sent only when its warps wrote out lines since their previous one, so the
     * barrier batches are at most the global stores; each warp waits at each barrier whose
     * release sent a batch. */
    double stores = k->instructions[MODEL_STORE] + k->instructions[MODEL_STORE_STRONG];
    double releasing_barriers = k->barriers * p->protocol_terms[QR_TERM_BARRIERS_RELEASE] *
                                (p->protocol_terms[QR_TERM_BARRIER_PER_WARP] > 0 ? 1.0 : 1.0 / k->warps_per_cta);
    double barrier_batches = fmin(releasing_barriers, stores);
    out->barrier_releases = releasing_barriers > 0 ? barrier_batches / releasing_barriers : 0.0;
    double exits = k->launches * k->ctas * k->warps_per_cta;
    double kernel_end_batches = k->launches * fmin(p->cu_count, k->ctas);
    double batches = k->releases + barrier_batches + exits + kernel_end_batches;
    out->marker_messages = batches * p->l2_banks;
    out->kernel_end_latency = out->release_latency;
    out->invalidation_injections = out->write_lines + out->atomic_lines;
    out->invalidation_deliveries = out->write_lines * p->cu_count + out->atomic_lines * (p->cu_count - 1);
    out->invalidations_broadcast = true;
}

static void serve_qr(const model_kernel_profile *k, const model_point *p, model_demand *out)
{
    serve_lines(k, p, out);
    serve_synchronization(k, p, out);
}

static void evaluate_qr(const model_profile *profile, const model_point *point, const model_params *params,
                        model_prediction *out)
{
    model_core_evaluate(profile, point, params, serve_qr, out);
}

/* The write caches' capacity that a release at kernel end may find full, the markers' latency
 * and the barrier's scope and granularity (qr_config.c). */
static int load_qr_point(const sc_config *config, model_point *point, sc_error *error)
{
    qr_config qr;
    unsigned banks = (unsigned)point->l2_banks;
    if (qr_config_derive(config, (unsigned)point->line_bytes, banks, &qr, error) < 0)
        return -1;
    point->protocol_terms[QR_TERM_WRITE_CACHE_LINES] = (double)qr.wl2_blocks_per_bank * banks + qr.wl3_blocks;
    point->protocol_terms[QR_TERM_MARKER_CYCLES] = qr.marker_latency;
    point->protocol_terms[QR_TERM_BARRIERS_RELEASE] = qr.barriers_release ? 1.0 : 0.0;
    point->protocol_terms[QR_TERM_BARRIER_PER_WARP] = qr.barrier_release_per_wavefront ? 1.0 : 0.0;
    point->protocol_terms[QR_TERM_WL1_LINES] = qr.write_cache_lines;
    return 0;
}

const model_mechanism model_qr = {.name = "qr", .evaluate = evaluate_qr, .load_point = load_qr_point};
