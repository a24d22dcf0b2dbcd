/* ownership_model.c — where an ownership protocol with a full-map directory at the L2
 * (directory.c; rfo_protocol.c, mesi_protocol.c) serves each line request:
 *   L1 read hits = the loads the CUs' ownership L1s hit at this L1 (l1_loads_owned: acquires and
 *                  kernel boundaries keep the L1, a CU's store or atomic installs its line with
 *                  its GetM, another CU's write invalidates the copy: stencil's CUs read in each
 *                  launch rows of the tile they wrote in the launch before, and first read the
 *                  halo rows their neighbours wrote, loads their L1s missed anyway), less the
 *                  reuses across a host write of their line (the host write drops it);
 *                  strong loads hit at the same rate as weak ones (acquire is local);
 *   ownership    = each CU that writes a line in a launch fetches it for ownership once (GetM: a
 *                  read that returns data), so stores add the CUs' cold stores (l1_writes) to
 *                  the reads beyond the L1; of those, the GetMs after the line's first in the
 *                  launch find it in another CU's L1 and are forwarded there (below);
 *                  atomics are performed in the L1 after their own GetM, counted the same way;
 *   Puts         = replacing an E, O or M line sends a Put carrying it to the directory
 *                  (write_lines): every line granted E or M (the fills beyond the L1 of lines
 *                  no other CU touches in the launch, 1 - shared_lines/footprint_lines of them,
 *                  and at least the written lines) is replaced, except those the CUs' L1s
 *                  still hold at the end;
 *   forwards     = the GetMs of a line another CU owns (above), and
 *                  the loads of lines another CU wrote last miss the L1 (the writer's GetM
 *                  invalidated the copy) and the directory forwards them to the owner, which
 *                  answers through it: an L2 trip plus the forward latency (ownership_load_point).
 *                  When the owner keeps the dirty line (MOESI's O) every such load is
 *                  forwarded; when a read writes it home (MESI's M -> S) only the first read
 *                  after a write is, at most one per written line, and that home write is a
 *                  write even if the L1s still hold the line at the end;
 *   DRAM writes  = with a write-back L3, written lines whose distance exceeds the L3's capacity
 *                  reach DRAM; otherwise (and without an L3) the L2's dirty victims do;
 *   L2 hits and misses and where the misses are served (model_memory_split): the L3 holds the
 *                  lines the GPU wrote too, under both protocols: a write-back L3 (rfo) takes
 *                  the writes; one that does not (mesi) still holds them, as every written line
 *                  was first fetched for ownership, its GetM's home read passing the L3, which
 *                  allocates the line on its DRAM fill (timing/memory_side.c, step 3), and the
 *                  L2's write-back of the line updates that copy in place (W2). Measured (mesi,
 *                  qr-apu, vecadd small at 6 CUs, 32 KiB L1 and 384 KiB L2): saxpy rereads the
 *                  4,096 lines of c that vecadd wrote, 3,256 L3 hits and 840 L2 hits, no DRAM
 *                  read (vecadd's GetMs of c made the run's 4,096);
 *   hot line     = the atomics on the group's most atomically-used line (histogram's bins) move
 *                  it from L1 to L1: each GetM finds it owned, the blocking directory forwards it
 *                  to the owner and defers the next GetM until the owner's answer is in, so the
 *                  directory's bank holds the line for a forward latency per transfer, one
 *                  transfer after another. The line visits the CUs in turn, and a visit performs
 *                  the atomics the CU's warps have waiting: at least one of each of its warps that
 *                  has one, so a launch's transfers are at most its CUs' visits, the line's
 *                  atomics per warp (at least one) for each CU's turn of resident CTAs (measured,
 *                  histogram_global on gtx480, 16 CTAs of 8 warps, 8 atomics a warp: 32, 56, 64,
 *                  80 and 120 GetMs a launch at 4, 7, 8, 10 and 15 CUs, rfo and mesi alike; its
 *                  18.3 atomics a visit at 7 CUs are the 2-3 CTAs' warps a CU holds). A warp
 *                  that is not held to one access in flight can perform a second atomic in the
 *                  same visit when it is ready before the next forward arrives, so rfo's visits
 *                  are fewer again; the model counts them at most one per warp (on sahc-apu, 16
 *                  CTAs of 4 warps on 16 CUs: 65-66 GetMs a launch at directory.latency 10 and 40
 *                  and noc.latency 10 and 19, two atomics a warp a visit; on gtx480 at
 *                  directory.latency 20 and 40, not a preset value: 77 and 64 at 15 CUs). An SC
 *                  core (mesi) has one access of a warp in flight, so its visits are exactly the
 *                  CUs' visits above (measured, mesi on sahc-apu, 512 atomics a launch: 128 GetMs
 *                  at 4 warps a CU, 16 CUs; 64 at 8 warps, 8 CUs; 40 at 16 warps, 4 CUs, where
 *                  the count above is 32).
 * Simplifications: the forwards' own NoC messages, recalls and the directory's capacity are
 * not modelled. Timing, stalls and traffic follow from model_core.c. */
#include "protocols/common/ownership_model.h"

#include <math.h>

/* The group's transfers of its most atomically-used line between L1s, per launch at most one per
 * atomic line request on it, none when the launch's CTAs run on one CU. The line visits each CU
 * once a round and a visit performs at least one atomic of each of the CU's warps that has one,
 * so the transfers are at most the CUs' turns (each active CU once for each turn of the CTAs it
 * holds at once) times the line's atomics per warp, at least one. Under an SC core (the demand's
 * one_access_at_a_time, which the mechanism sets before ownership_serve) a warp has one access in
 * flight, so a visit performs exactly one atomic of each waiting warp and the transfers are those
 * visits; otherwise a warp may perform more in a visit, and the transfers are also at most one
 * for each warp. */
static double hot_line_transfers(const model_kernel_profile *k, const model_point *p, bool one_access_at_a_time)
{
    double active = fmin(k->ctas, p->cu_count);
    if (k->launches <= 0 || active <= 1)
        return 0.0;
    double hot_per_launch = k->lines[MODEL_ATOMIC] * k->atomic_hottest_share / k->launches;
    double warps = k->ctas * k->warps_per_cta;
    double cu_turns = fmax(active, ceil(k->ctas / model_resident_ctas(k, p)));
    double visits = cu_turns * fmax(hot_per_launch / warps, 1.0);
    double per_launch = one_access_at_a_time ? visits : fmin(visits, warps);
    return k->launches * fmin(hot_per_launch, per_launch);
}

/* The GetMs of the group's stores: each CU that stores to a line in a launch fetches it for
 * ownership once (the cold stores of the CUs' written-line stacks, l1_writes), at most one per
 * store line request. Of those, every one after the line's first in the launch finds it owned
 * by another CU's L1 (radix_move's 16 CTAs each store keys into most of the 256 output lines). */
static double owned_writes(const model_kernel_profile *k)
{
    return fmin(k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG], k->l1_writes.cold);
}

void ownership_serve(const model_kernel_profile *k, const model_point *p, ownership_choices choices,
                     model_demand *out)
{
    double hits = model_with_strong_hits(
        k, fmax(model_l1_hits(&k->l1_owned_summary, p) - model_l1_hits(&k->l1_host_written_summary, p), 0.0));
    double ownership = owned_writes(k);
    double beyond = k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] - hits + k->lines[MODEL_ATOMIC] + ownership;
    model_memory_split(k, p, beyond, true, false, out);   /* the L3 holds the written lines (above) */
    out->read_lines_l1 = hits;
    double taken_from_owners = fmax(ownership - k->written_lines, 0.0);
    double forwarded = (choices.read_writes_home ? fmin(k->remote_read_after_write, k->written_lines)
                                                 : k->remote_read_after_write) +
                       taken_from_owners;
    out->read_lines_forwarded = fmin(forwarded, out->read_lines_l2);
    out->forward_latency = p->protocol_terms[OWNERSHIP_TERM_FORWARD_LATENCY];
    double exclusive = k->footprint_lines > 0 ? 1.0 - fmin(k->shared_lines / k->footprint_lines, 1.0) : 1.0;
    double owned_fills = fmax(beyond * exclusive, k->written_lines);
    double home_writes = choices.read_writes_home ? out->read_lines_forwarded : 0.0;
    out->write_lines = fmax(owned_fills - p->l1_lines * p->cu_count, home_writes);
    if (choices.l3_takes_writes && p->l3_lines > 0)
        out->write_lines_missed = out->write_lines_dram =
            fmax(reuse_expected_misses(&k->l2_write_summary, (uint64_t)p->l3_lines), 0.0);
    out->atomic_lines = 0;
    out->hot_line_hold_cycles = hot_line_transfers(k, p, out->one_access_at_a_time) * out->forward_latency;
}

int ownership_load_point(const sc_config *config, model_point *point, sc_error *error)
{
    double gpu_per_noc = sc_config_float(config, "gpu.clock") / sc_config_float(config, "noc.clock");
    point->protocol_terms[OWNERSHIP_TERM_FORWARD_LATENCY] =
        sc_config_float(config, "directory.latency") + 2 * sc_config_float(config, "noc.latency") * gpu_per_noc +
        point->noc_header_cycles + point->noc_data_cycles;
    point->l2_write_through = 0.0;   /* the L2 is the home of the lines the L1s write back (directory.c) */
    return 0;
}
