/* model_core.c — the analytical GPU model shared by every mechanism: a closed queueing network
 * of warps solved by approximate mean-value analysis (Schweitzer), one solve per kernel group,
 * in which a line request holds an L1 MSHR (a store a store-buffer entry) for its latency under
 * load, so the CU's MSHRs, not its warps, limit how many requests are in flight.
 *
 * Placement. A launch's C CTAs of w warps go round-robin to P = min(CUs, C) CUs: n+ = ceil(C/P)
 * CTAs on C mod P of them, n- = floor(C/P) on the rest; a CU holds at most r CTAs at once (the
 * occupancy limit: warps, CTAs, registers, shared memory). The network is solved as one CU sees
 * it (solve_view): for the busiest CU, N = P w min(n+, r) warps (its own population on every
 * CU's stations), while the stations all CUs share (L2 banks and their ports, L3, DRAM) carry
 * the load of the W = w sum_CU min(n_CU, r) warps actually resident, at the same per-warp rate
 * (load share s = W/N); a CU holding fewer CTAs, all at once, is solved the same way for its own
 * population and runs faster (in detailed runs of matmul at 36 CTAs on 15 CUs the 2-CTA CUs
 * idle 35% of the time). Each CU loads the shared stations at its own warps' rate, not the
 * view's: when CUs hold fewer CTAs at once, both views are solved first with every warp at the
 * view's rate, then once more with the other CUs' warps at the rate the first pass found for
 * them (a CU bound by its MSHRs sends as many lines whatever its warps: nol1 on gsi, 30 held-out
 * points, mean |error| 6.8% -> 5.4%, vecadd's max 38.7% -> 5.5%).
 *
 * Stations (D = service demand per warp instruction at one of m replicas):
 *   issue       D = 1/issue_rate                                        m = P
 *   SIMD/SFU    D = (n_alu alu_cycles + n_sfu sfu_cycles)/I              m = P
 *   LSU         D = (n_global max(1, k/B) + shared accesses + conflicts + own-line holds)/I   m = P
 *               (conflicts: a banked scratchpad's extra cycles, the profile's conflict degrees
 *               less one per shared access; they also add to the shared accesses' latency in Z_comp)
 *               (a global instruction's k lines go to the L1 one per L1 bank per cycle: B banks,
 *               contiguous lines spread over them, as cache sets are in reuse_histogram.h; a
 *               load the L1 refuses while its warp's write to the line is in flight keeps the
 *               unit until the write is done, for the mechanism that says so (model_demand's
 *               loads_wait_own_writes: RCC-WO): the sum over the profile's own-line gaps g of
 *               max(0, H0 - g c0), H0 the unloaded L2 trip plus the write wait and c0 a gap
 *               instruction's unloaded cycle (issue, SIMD, LSU and the compute, control and
 *               sync delays))
 *   MSHRs       each L2 read line holds one of M for its latency under load H plus its wait at the
 *               CU's port in for its own read's answers ahead of it, (J - 1)/2 data messages
 *               over the J lines the L2 hits (load_misses.h); the busiest CU's view takes the busiest CU's missing lines per
 *               instruction, the other CUs' the rest, here and at the port in; a request finding
 *               A = c Q holding or awaiting one waits (H/M) max(0, A - M + 1)      per CU
 *               (and a read whose L lines beyond the L1 are more than M waits floor((L - 1)/M) H
 *               for its own: they ask for MSHRs together, M at a time; batch_rounds)
 *   store buf.  likewise, written lines and the store buffer's entries           per CU
 *     (the holding itself is the latency a warp waits for its loads, Z_mem below)
 *   the line's trip, each message holding a port for whole NoC cycles (model_point):
 *   CU port out D = (reads, release markers, invalidation acks) x header + (writes, atomics) x data
 *               message                                                  m = P
 *   bank in     the same bytes but the hot line's                        m = banks - 1 (in use, below)
 *   hot bank in the requests for the group's hot lines, all at one bank (split_banks): the
 *               atomics on its most atomically-used line (histogram's bins) and, when the
 *               mechanism sends them to the L2, the loads of its most-loaded line (kmeans's
 *               centroids under nol1), and that bank's share of the rest   m = 1
 *   L2 bank     D = requests + markers + fills (one per cycle), split the same way   m = banks - 1 and 1
 *               (a write-through L2's hot atomics beyond their channel's queues: a DRAM line each;
 *               an ownership protocol's hot line: a forward latency per transfer between L1s)
 *   L3 bank     D = requests reaching the memory side (one lookup per cycle)   m = L3 banks in use
 *               (only with an L3: without one a request probes the CPU cluster at once)
 *   (banks: those that carry the lines the CUs have in flight together, the CUs in step: the
 *   banks holding at least one of them, inflight_banks.h, at most the level's bank count; vecadd
 *   on sahc-apu, whose CUs ask for the same warps' lines at once, 22 and 24 of 64 L2 banks and
 *   5.5 and 6.1 of 16 L3 banks in its two launches: l2.banks 128 and l3.banks 64 take its
 *   detailed run at 32 CUs from 3,165 to 2,219 cycles; on gtx480 all 6 L2 banks)
 *   DRAM        D = (DRAM reads + DRAM writes) line_cycles / e_dram     m = channels
 *   bank out    D = reads x data + (writes, atomics, markers' answers, multicast invalidations)
 *               x header message, split the same way
 *   CU port in  the same, with each invalidation's copy into every L1 it reaches (a broadcast's
 *               one copy per injection into each CU, idle or not: invalidations_on_active_cus)   m = P
 *   Schweitzer: a request arriving at station k finds A_k = c Q_k ahead of it (c = (N-1)/N) and
 *   resides R_k = D_k (1 + A_k); Q_k = X R_k / m_k. At a given throughput X every queue follows
 *   in closed form, so the solution is the root of X cycle(X) = N (solve()), or the throughput
 *   at which the busiest station is fully used (U_k = X D_k s_k / m_k = 1) where that comes first
 *   (then the warps' residences fall short of N / X, and GSI splits the busy cycles in their
 *   proportions, as for any solution).
 * Latencies under load: an L2 hit takes the preset's unloaded L2 latency plus the mean wait of a
 * request on the trip (port out, bank in, bank, bank out, port in: sum of visits x wait over
 * requests), and those the directory forwards to an owner L1 its forward latency too
 * (model_point.c); an L2 miss also its L3 bank's lookup wait and then the memory side's latency: the
 * CPU cluster's or the L3's end-to-end latency (model_point.c) for the misses they answer
 * (model_memory_split), or the DRAM latency plus the DRAM queue's wait; a write the L2 trip.
 * A warp's cycle per instruction is
 *     Z_mem  = a_lat n_ld/I (L1 + p2 (H_L2 - L1) + pm (H_near - H_L2) + p3 (H_DRAM - H_near)),
 *              p2 = P(a load needs the L2): the mechanism's lines beyond the L1 grouped into
 *              missing reads as the profile's configured L1 groups them (load_misses.h: a read's
 *              lines miss together), J lines per missing read; pm, p3 = p2 (1 - (1 - m)^J) with m
 *              the share of those lines the L2 misses / that DRAM answers; H_near the CPU and L3
 *              latencies' mix over the misses they answer
 *     Z_comp = a_dep (n_alu lat_alu + n_sfu lat_sfu + n_shared lat_shared) / I
 *     Z_ctrl = n_branch branch_penalty / I,   Z_sync = (c_bar n_bar + (n_release + r_bar n_bar) H_rel) / I
 *              (H_rel: the mechanism's release latency, by default one L2 trip; r_bar: the releases
 *              a barrier makes where the mechanism's barriers release)
 *     Z_burst = b/I max(0, drain + H_slowest - s cycle)   (barrier-synchronised bursts, below)
 *     Z_order = (sum over the profile's gaps g after reads of max(0, H_read - g cycle) and after
 *              writes of max(0, H_write - g cycle)) / I, with H_read each level's latency weighed
 *              as in Z_mem and H_write = H_L2 + the mechanism's write wait (or L1 for a write
 *              performed in the L1), for a mechanism with an SC core (model_demand's
 *              one_access_at_a_time, Ren §3.12: a warp issues its global accesses one at a time
 *              and its shared accesses wait too): each gap's instructions take the warp's cycle
 *              without memory waits (issue, SIMD and LSU residences, Z_comp, Z_ctrl, Z_sync) and
 *              it waits for the rest of the earlier access's latency. Its ordered reads are
 *              waited for by order, not by data, so Z_mem counts only the other reads (n_ld
 *              less the ordered ones), and its releases and acquires are waived (no H_rel term).
 *              Its warp slot keeps a store that was its warp's last access in flight after the
 *              exit, and the slot's next warp waits for it at its first access: over the gaps g
 *              from such a store to the exit, max(0, H_write - (g + lead) cycle) for the share of
 *              the busiest CU's CTAs that follow another in its slots (lead: the instructions a
 *              warp issues before its first access); the kernel-end release waits for the last
 *              ones, max(0, H0_write - g cycle) on average, at the unloaded write latency H0 (the
 *              CUs' other requests are done by then; final_write_waits).
 *     plus the residences at issue, SIMD, LSU, MSHRs and store buffer; X = N / cycle.
 * Bursts. After a barrier every warp of a CTA issues its loads at once, and the CTAs resident
 * together, started together on the same code, burst together (matmul: each tile step, every CU
 * sends its tile loads, and the L2 banks' out ports (10 GPU cycles per 128-byte line on gtx480)
 * carry the whole GPU's burst: noc.bytes_per_cycle 32 -> 256 takes a detailed run at 9 CUs from
 * 20769 to 12838 cycles). The profiler records per CTA the b bursts (intervals closed by a
 * barrier with read lines), their lines and their s instructions per warp; a burst's interval
 * lasts at least the drain of the CU's and the GPU's bursts through the most loaded of the L1
 * banks, MSHRs, CU port in, L2 bank out ports and DRAM channels (burst_drain) plus the loaded
 * latency of its slowest line (DRAM's if any line in flight at once comes from DRAM), and the
 * warps wait at its barrier for what that exceeds the interval's own instructions at the
 * network's cycle. The GPU's bursts coincide in a launch's first round only (its CTAs start
 * together); later rounds drift apart, each CTA at the pace its own lines are served, so a CU's
 * later round drains its own lines plus the share of the others' drain that falls within it
 * (spread_drain; coinciding_round_share). Under loose round-robin issue a CU's CTAs that read the
 * same lines stay in step, each burst ending with the same fill: that share of the CU's CTAs waits
 * out a burst together (its loads' waits, Z_mem or Z_order, and Z_burst), off the CU's stations,
 * and then computes together, all its warps on the stations (in_step_share; cycle_at), while the
 * memory trip carries their requests at the warps' mean rate (solve_view), and GSI charges the
 * waits' cycles to what every warp waits for (charge_view).
 * The trip's queues are not on the warp's own cycle: they lengthen H, hence Z_mem and the MSHRs'
 * demand, so as a port, bank or channel nears saturation the MSHRs fill and warps queue for them
 * (mem_struct) while the requests in flight wait on the trip (mem_data), as in the detailed CU.
 *
 * Launch cycles  T = I_busiest / (w min(n+, r) X/N) + t_launch + o_launch + t_drain   (the busiest
 * CU's work at its own warps' rate, or a CU holding fewer CTAs at its rate if that takes longer,
 * and at least the launch's longest warp alone, its instructions and its global accesses each at
 * their own unloaded cost, longest_warp_alone;
 * when n+ > r and its last wave is partial (n+ mod r CTAs), that wave runs at the rate of the
 * network viewed from that wave's population, with every CU's last partial wave on the shared
 * stations, and GSI charges each part with its own network; t_drain: a release at kernel end
 * that waits for the lines the mechanism names to reach the DRAM queues, those beyond the
 * queues' room at the channels' rate, for the lines the store buffers still hold
 * (store_buffer_flush), for a write-through L2's writes to reach the DRAM queues
 * (write_through_backlog), and for the last release's acknowledgement where the mechanism names
 * one). Under greedy-then-oldest issue (gpu.scheduler gto) a busiest CU that holds its n+ CTAs all
 * at once (2 <= n+ <= r) finishes them one after another, the oldest first: its busy cycles are
 * the last one's finish with the network solved for each count of CTAs left (oldest_first.h),
 * and each of those phases is charged to GSI with its own view. GSI: a warp spends R_issue of
 * every cycle ready (no_stall), R_LSU and the MSHR and
 * store-buffer residences in mem_struct, Z_mem in mem_data, Z_sync, Z_burst and Z_order (the SC
 * core's issue filter) in sync, R_SIMD in comp_struct, Z_comp in comp_data, Z_ctrl in control. A busy CU cycle is no_stall with
 * probability s = min(1, s_issue X/P); otherwise GSI's Algorithm 2 picks the first category (in
 * its cycle order) that some warp is in, so with per-warp stall shares f_c (normalised over
 * stalls) and n resident warps, P(c) = (1 - F_before(c))^n - (1 - F_before(c) - f_c)^n. A CU is
 * busy for its own CTAs' work at its warps' rate (CTAs of equal work but the busiest CU's);
 * cycles of idle CUs, of CUs that finish before the busiest and launch overhead are idle; the
 * kernel-end release (t_drain and the store-buffer flush) is sync for every active CU.
 * Scratchpad+DMA (docs/local-memory.md): a CU is blocked, with none of its warps issuing, while
 * the DMA engine reads the chunks of its CTAs (dma_blocked_cycles: the first wave's chunks in one
 * stream, each later CTA's after the write-back of the one it replaces, the reads batched by the
 * MSHRs at their unloaded latency); those cycles add to the CU's time as mem_struct, and the last
 * write-back to the kernel-end wait. A stash needs no term here: its first touches and stores are
 * the profile's strong loads and stores.
 * Time-dependent splits (model_core_evaluate_timed: the lease protocols, whose L1 copies lapse and
 * whose writes wait for leases after physical times): a group is served at the GPU cycles its
 * busiest CU takes per warp instruction, solved, and served again at the cycles the solve
 * predicted (from the third evaluation on, at the secant step toward the fixed point:
 * next_served_at), until they settle (spmv under tc-weak at the gtx480 preset: more lapsed hits,
 * more L2 trips, longer cycles, more lapses), or until the split at the cycles just predicted is
 * the split they were predicted from (a group whose split does not move with time: one solve).
 * Free parameters: a_lat, a_dep, c_bar, e_dram, s_issue, o_launch (model.h).
 */
#include "model/model_core.h"

#include "exec/occupancy.h"
#include "model/dram_rows.h"
#include "model/group_memo.h"
#include "model/load_misses.h"
#include "model/oldest_first.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { ISSUE, SIMD, LSU, MSHR, STORE_BUFFER, PORT_OUT, BANK_IN, HOT_BANK_IN, L2_BANK, HOT_L2_BANK, L3_BANK, DRAM, BANK_OUT,
       HOT_BANK_OUT, PORT_IN,
       STATION_COUNT };
enum { FIRST_TRIP_STATION = PORT_OUT, SOLVE_ITERATIONS = 100, BREAKPOINT_PROBES = 4 };
/* The queueing stations' per-station arrays hold one more, always idle, lane so that their
 * loops run over an even count (the compiler's two-lane vector code needs no remainder). */
enum { QUEUE_LANES = STATION_COUNT + STATION_COUNT % 2 };

static double min2(double a, double b) { return a < b ? a : b; }
static double max2(double a, double b) { return a > b ? a : b; }
static double reciprocal(double a) { return a > 0 ? 1.0 / a : 0.0; }

double model_resident_ctas(const model_kernel_profile *k, const model_point *p)
{
    cu_capacity cu = {(uint64_t)p->max_ctas, (uint64_t)p->max_warps, (uint64_t)p->registers, (uint64_t)p->shared_bytes};
    cta_needs cta = {k->terms.cta_warps, k->terms.cta_registers, k->terms.cta_shared_bytes};
    return max2((double)occupancy_ctas_per_cu(&cu, &cta), 1.0);
}

void model_core_prepare_group(model_kernel_profile *k)
{
    model_group_terms *t = &k->terms;
    t->per_instruction = 1.0 / k->warp_instructions;
    t->instructions_per_launch = k->warp_instructions / k->launches;
    t->read_instructions = k->instructions[MODEL_LOAD] + k->instructions[MODEL_LOAD_STRONG] + k->instructions[MODEL_ATOMIC];
    double global_lines = 0, global_instructions = 0;
    for (int a = 0; a < MODEL_ACCESS_COUNT; a++) {
        global_lines += k->lines[a];
        global_instructions += k->instructions[a];
    }
    t->global_instructions = global_instructions;
    t->lines_per_global = global_instructions > 0 ? global_lines / global_instructions : 0.0;
    t->burst_lines = k->barrier_bursts > 0 ? k->barrier_burst_lines / k->barrier_bursts : 0.0;
    t->burst_waits = k->barrier_bursts * k->warps_per_cta * t->per_instruction;
    t->burst_span = k->barrier_bursts > 0 ? k->barrier_burst_instructions / (k->barrier_bursts * k->warps_per_cta) : 0.0;
    t->busiest_per_launch = k->busiest_cu_instructions / k->launches;
    load_misses_prepare(k, t);
    t->longest_warp_per_launch = k->longest_warp_instructions / k->launches;
    t->longest_warp_global_per_launch = k->longest_warp_global_accesses / k->launches;
    t->cta_warps = (uint64_t)k->warps_per_cta;
    t->cta_registers = (uint64_t)(k->registers_per_thread * k->threads_per_cta);
    t->cta_shared_bytes = (uint64_t)k->shared_bytes;
}

/* Hits of a read class at a cache of `lines` lines that the L2 misses. */
static double hits_between(const reuse_summary *class, double l2_lines, double lines)
{
    if (lines <= l2_lines || class->total <= 0)
        return 0.0;
    return reuse_expected_hits(class, (uint64_t)lines) - reuse_expected_hits(class, (uint64_t)l2_lines);
}

/* A set of reads' classes (profile.h: memory side): every read's GPU-wide distance, those of the
 * CPU-owned, fetched and written reads, and the CPU-owned reads' distances in the host's stack. */
typedef struct read_classes {
    const reuse_summary *all, *cpu_owned, *fetched, *written, *cpu_recency;
} read_classes;

/* Where `reads` of those reads (the ones a mechanism's L1 lets through) are served: L2 hits, and
 * the misses by the CPU cluster (CPU-owned lines it still holds), the L3 (lines it holds:
 * fetched, or written when `l3_holds_written`) and DRAM. */
typedef struct read_split {
    double l2, cpu, l3, dram;
} read_split;

static read_split split_reads(const read_classes *c, const model_point *p, double reads, bool l3_holds_written)
{
    uint64_t l2_lines = (uint64_t)p->l2_lines;
    double stack_misses = reuse_expected_misses(c->all, l2_lines);
    double read_misses = max2(min2(stack_misses, reads), 0.0);
    /* The stack counts L1 hits too; the misses a mechanism's L1 lets through keep the classes' mix. */
    double scale = stack_misses > 0 ? read_misses / stack_misses : 0.0;
    double cpu_owned_misses = 0, cpu_held = 0;
    if (p->cpu_lines > 0 && c->cpu_recency->total > 0) {
        cpu_owned_misses = reuse_expected_misses(c->cpu_owned, l2_lines);
        cpu_held = reuse_expected_hits(c->cpu_recency, (uint64_t)p->cpu_lines) / c->cpu_recency->total;
    }
    double l3_hits = hits_between(c->fetched, p->l2_lines, p->l3_lines);
    if (l3_holds_written)
        l3_hits += hits_between(c->written, p->l2_lines, p->l3_lines);
    read_split out = {.l2 = reads - read_misses, .cpu = scale * cpu_owned_misses * cpu_held, .l3 = scale * l3_hits};
    out.dram = max2(read_misses - out.cpu - out.l3, 0.0);
    return out;
}

void model_memory_split(const model_kernel_profile *k, const model_point *p, double read_lines_beyond_l1,
                        bool l3_holds_written, bool stores_write_around, model_demand *out)
{
    uint64_t l2_lines = (uint64_t)p->l2_lines;
    bool around = stores_write_around && p->l2_write_through > 0;
    read_classes classes = {around ? &k->l2_read_around_summary : &k->l2_read_summary, &k->cpu_owned_summary, &k->fetched_summary, &k->written_summary,
                            &k->cpu_recency_summary};
    read_split reads = split_reads(&classes, p, read_lines_beyond_l1, l3_holds_written);
    out->read_lines_cpu = reads.cpu;
    out->read_lines_l3 = reads.l3;
    out->read_lines_dram = reads.dram;
    out->read_lines_l2 = reads.l2;
    out->write_lines = k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG];
    out->write_lines_missed = max2(reuse_expected_misses(&k->l2_write_summary, l2_lines), 0.0);
    out->atomic_lines = k->lines[MODEL_ATOMIC];
    if (p->l2_write_through > 0) {
        out->write_through_lines = out->write_lines + out->atomic_lines;
        out->write_lines_dram = 0.0;
        return;
    }
    /* Dirty lines the L2 evicts (profiler.c): the dirty reuses' misses less the dirty spans'. */
    out->write_lines_dram = max2(reuse_expected_misses(&k->dirty_reuse_summary, l2_lines) -
                                     reuse_expected_misses(&k->dirty_span_summary, l2_lines),
                                 0.0);
}

/* The release at kernel end flushes every CU's store buffer at once: F = min(entries, the CU's
 * buffered lines per launch) lines each. A CU's port sends its F lines one after another, and
 * the L2 banks' in-ports take the GPU's P F lines, banks of them in parallel; the two are taken
 * to add (a bank receives one CU's lines spread over the time its port takes to send them and
 * the other CUs' after them, as the NoC's call-order ports did when this was fitted; its
 * reservation calendars, timing/noc.c, interleave them: the longer of the two fits vecadd's
 * flush better but not the validated suite, README "A wt store waits"). The last write is then
 * acknowledged an L2 trip later. */
static double store_buffer_flush(const model_demand *d, const model_point *p, double launches, double active_cus)
{
    if (d->buffered_write_lines <= 0 || p->store_buffer_entries <= 0)
        return 0.0;
    double flushed = min2(p->store_buffer_entries, d->buffered_write_lines / (launches * active_cus));
    return (flushed + active_cus * flushed / p->l2_banks) * p->noc_data_cycles + p->l2_latency;
}

/* A write-through L2 sends each write and atomic on to DRAM as it takes it (write_through_lines),
 * and its bank waits while the line's DRAM channel has no room in its queues, so the write's
 * acknowledgement waits too; the warps do not (they hold nothing for a write beyond the L1), so the
 * writes pile up in front of the channels. The channels work through the launch's DRAM lines (its
 * reads, write-backs and written-through lines) at their rate, one line every `line_cycles`, while
 * the CUs are busy (`busy` cycles); the release at kernel end waits for the acknowledgement of the
 * last write, i.e. until what is left fits the channels' queues. (sort on qr-apu, wt: each count
 * radix_count writes is a word of a line of its own, 4,096 lines per launch at 10 GPU cycles a line
 * on each of 4 channels; the detailed launch takes 10,232 cycles, of which its 8 CUs spend 78,016
 * of 81,856 CU cycles in sync, waiting at the kernel-end release.) What the queues hold at a release
 * is still the channels' work: the next launch's requests queue behind it, so only the run's last
 * launch (of the profile's last group, `last_group`) leaves it undone and every other launch takes
 * its whole excess over `busy` (sort at 200 MHz: its channels are busy through all 12 launches;
 * vecadd: its first kernel's writes delay the second's reads; docs/calibration.md session 28). */
static double write_through_backlog(const model_demand *d, const model_point *p, double launches, double busy,
                                    double line_cycles, bool last_group)
{
    if (d->write_through_lines <= 0)
        return 0.0;
    double lines = (d->read_lines_dram + d->write_lines_dram + d->write_through_lines) / launches;
    double excess = max2(lines * line_cycles - busy, 0.0);
    return last_group ? excess - min2(p->dram_queue_lines * line_cycles, excess) / launches : excess;
}

/* Writes the L2 posts to DRAM without waiting (posted_write_lines) hold nothing, but each channel
 * takes its requests in arrival order (timing/memory_side.c, send_to_dram), so a DRAM read waits
 * for the writes posted before it. Of a launch's n DRAM reads, spread over it, the last comes after
 * n / (n + 1) of the launch's DRAM lines; the launch lasts until the channels have taken those, at
 * their rate (`line_cycles`), beyond the `busy` cycles the CUs work meanwhile. (stencil on qr-apu
 * under denovo, 7 CUs, 8 KiB L1, 277 MHz DRAM: 2,048 DRAM reads behind 16,038 posted writes;
 * the detailed run takes 61,227 cycles, 29,008 at 4 times the DRAM clock.) */
static double posted_write_wait(const model_demand *d, double launches, double busy, double line_cycles)
{
    if (d->posted_write_lines <= 0 || d->read_lines_dram <= 0)
        return 0.0;
    double reads = d->read_lines_dram / launches;
    double lines = (d->read_lines_dram + d->write_lines_dram + d->write_through_lines + d->posted_write_lines) / launches;
    return max2(lines * reads / (reads + 1.0) * line_cycles - busy, 0.0);
}

/* The kernel end's wait per launch for the leases earlier launches' reads took on the lines it
 * writes (d->earlier_lease_left, lease_model.h): between that read and this launch's busy time the
 * launch before ended, taking `between_launches` (the launch latency, its overhead and its end's
 * other waits) and, where it waited for such a lease too, that wait W' as well: W = max(0, A - W')
 * with A = L - e c - between_launches. Launches that each wait so alternate between A and 0, A/2
 * on average (stencil on sahc-apu at 32 CUs, tc-weak, detailed: its odd launches 1,802-1,826
 * cycles, its even ones 613-667). */
static double earlier_lease_wait(const model_demand *d, double between_launches)
{
    return max2(d->earlier_lease_left - d->earlier_lease_launches * between_launches, 0.0) / 2.0;
}

/* The share of a round of bursts on its most loaded of `banks` L2 banks (the profile's rounds,
 * burst_rounds.h; an even spread beyond the bank counts it records). */
static double burst_bank_share(const model_kernel_profile *k, double banks)
{
    int counted = (int)banks;
    if (k->barrier_burst_lines <= 0 || counted < 1 || counted > BURST_BANK_COUNTS || counted != banks)
        return 1.0 / banks;
    return max2(k->burst_bank_peak_lines[counted - 1] / k->barrier_burst_lines, 1.0 / banks);
}

/* The banks of a level (`banks` of them) that carry the lines in flight together: those holding
 * at least one, over the profile's window positions (inflight_banks.h), at most `banks` (all of
 * them without positions). */
static double banks_in_use(double positions, double banks_held, double banks)
{
    return positions > 0 && banks_held > 0 ? min2(banks_held / positions, banks) : banks;
}

double model_l1_hits(const reuse_summary *summary, const model_point *p)
{
    return reuse_expected_hits(summary, (uint64_t)p->l1_lines);
}

double model_l2_hits(const reuse_summary *summary, const model_point *p)
{
    return reuse_expected_hits(summary, (uint64_t)p->l2_lines);
}

double model_with_strong_hits(const model_kernel_profile *k, double weak_hits)
{
    double hit_ratio = k->lines[MODEL_LOAD] > 0 ? weak_hits / k->lines[MODEL_LOAD] : 0.0;
    return weak_hits + k->lines[MODEL_LOAD_STRONG] * hit_ratio;
}

double model_kept_l1_hits(const model_kernel_profile *k, const model_point *p, double lost_hits)
{
    return model_with_strong_hits(k, max2(model_l1_hits(&k->l1_summary, p) - lost_hits, 0.0));
}

double model_kept_tags_l1_hits(const model_kernel_profile *k, const model_point *p, double host_dropped)
{
    return model_with_strong_hits(k, max2(model_l1_hits(&k->l1_kept_summary, p) - host_dropped, 0.0));
}

double model_host_dropped_l1_hits(const model_kernel_profile *k, const model_point *p, bool drops_written_only)
{
    return model_l1_hits(drops_written_only ? &k->l1_host_written_summary : &k->l1_host_flushed_summary, p);
}

void model_lose_together(const model_kernel_profile *k, double lines, model_demand *out)
{
    double hit_lines = k->l1_hit_gap_summary.total;
    out->lost_together_lines = lines;
    out->lost_together_reads = hit_lines > 0 ? lines * k->l1_hit_fill_groups / hit_lines : 0.0;
}

/* Of `read_instructions` reads of `read_lines` lines, those needing the L2 when `l2_reads` lines
 * are served beyond the L1: a read's lines miss together as the configured L1 groups them
 * (load_misses_reads), but for the lines the L1 lost together (model_lose_together): those come
 * in whole reads, a read in lost_together_reads / read_instructions needing the L2 for them
 * whatever its other lines. They are taken as L2 hits (a copy the L1 held within a lease or
 * until the host's write), so at most its read hits. */
static double reads_needing_l2(const model_group_terms *terms, const model_demand *d, double l2_reads,
                               double read_lines, double read_instructions)
{
    if (d->lost_together_reads <= 0 || read_instructions <= 0)
        return load_misses_reads(terms, read_instructions, read_lines, l2_reads);
    double together = min2(d->lost_together_lines, d->read_lines_l2);
    double others = min2(load_misses_reads(terms, read_instructions, read_lines, l2_reads - together) / read_instructions,
                         1.0);
    return read_instructions * (1.0 - (1.0 - others) * (1.0 - min2(d->lost_together_reads / read_instructions, 1.0)));
}

/* ---- placement ---- */

typedef struct placement {
    double active;          /* CUs with CTAs */
    double warps;           /* resident warps over all CUs */
    double busiest_warps;   /* resident on a CU with the most CTAs */
    double busiest_ctas;    /* n+ */
    double busiest_cus;     /* CUs holding n+ */
    double fewer_ctas;      /* n- (0 when every active CU holds n+) */
    double fewer_warps;     /* resident on a CU holding n- */
    double fewer_waves;     /* n- / min(n-, r): CTA-times a CU holding n- is busy at the busiest's rate */
    double tail_ctas;       /* CTAs of the busiest CU's last wave when it is partial (n+ > r), else 0 */
    double tail_warps;      /* resident warps over all CUs during those last partial waves */
} placement;

/* CTAs of a CU's last wave when it holds n > r CTAs and the last wave is partial, else 0. */
static double partial_wave(double n, double r)
{
    return n > r ? n - r * floor(n / r) : 0.0;
}

/* The placement of a group of which a CU holds r CTAs at once (model_resident_ctas). */
static placement place_ctas(const model_kernel_profile *k, const model_point *p, double r)
{
    placement out;
    double ctas = k->ctas, w = k->warps_per_cta;
    out.active = min2(p->cu_count, ctas);
    double fewer = floor(ctas / out.active), more = ceil(ctas / out.active);
    out.busiest_cus = more > fewer ? ctas - out.active * fewer : out.active;
    double with_fewer = out.active - out.busiest_cus;
    out.fewer_ctas = with_fewer > 0 ? fewer : 0.0;
    out.warps = w * (out.busiest_cus * min2(more, r) + with_fewer * min2(fewer, r));
    out.busiest_warps = w * min2(more, r);
    out.fewer_warps = w * min2(fewer, r);
    out.fewer_waves = fewer > 0 ? fewer / min2(fewer, r) : 0.0;
    out.busiest_ctas = more;
    out.tail_ctas = partial_wave(more, r);
    out.tail_warps = out.tail_ctas > 0 ? w * (out.busiest_cus * out.tail_ctas + with_fewer * partial_wave(fewer, r)) : 0.0;
    return out;
}

/* ---- scratchpad+DMA (docs/local-memory.md) ---- */

/* A group's DMA transfers: per CTA, the chunk's lines read and written back, and a read's
 * latency (the unloaded latency of where it is served: every read goes around the L1). */
typedef struct dma_transfer {
    double lines, writeback_lines, latency;
    read_split reads;   /* over all the group's transfers */
} dma_transfer;

static dma_transfer dma_transfer_of(const model_kernel_profile *k, const model_point *p)
{
    dma_transfer out = {0};
    if (k->dma_lines <= 0)
        return out;
    read_classes classes = {&k->dma_read_summary, &k->dma_cpu_owned_summary, &k->dma_fetched_summary,
                            &k->dma_written_summary, &k->dma_cpu_recency_summary};
    out.reads = split_reads(&classes, p, k->dma_lines, false);
    double ctas = k->ctas * k->launches;
    out.lines = k->dma_lines / ctas;
    out.writeback_lines = k->dma_writeback_lines / ctas;
    out.latency = (out.reads.l2 * p->l2_latency + out.reads.cpu * p->cpu_latency + out.reads.l3 * p->l3_latency +
                   out.reads.dram * p->dram_latency) / k->dma_lines;
    return out;
}

/* Cycles from a DMA engine's first read request of `lines` back-to-back line reads until the last
 * is answered: it presents one every 1 / rate cycles, each holding one of the CU's M MSHRs for
 * its latency H, so when M reads are out the next waits for the first of them to return: the
 * reads go in batches of M, a batch every max(H, M / rate) cycles. */
/* The full rounds a stream of `lines` requests waits beyond its first for `mshrs` MSHRs (asked
 * for together, M at a time): the DMA engine's reads and an instruction's own lines (batch_rounds). */
static double mshr_rounds(double lines, double mshrs)
{
    return floor((lines - 1.0) / mshrs);
}

static double dma_reads_cycles(double lines, double latency, const model_point *p)
{
    double present = 1.0 / p->dma_requests_per_cycle, mshrs = max2(p->l1_mshrs, 1.0);
    double batches = mshr_rounds(lines, mshrs);
    return batches * max2(latency, mshrs * present) + (lines - 1.0 - batches * mshrs) * present + latency;
}

/* Cycles a CU holding `ctas` CTAs of the group (at most `resident` at once) is blocked by their
 * transfers. Its DMA engine serves its CTAs' transfers one after another, and the first access of
 * a CTA whose transfer is incomplete blocks the whole CU until it completes. The first wave's CTAs
 * are placed together, so the CU waits for all their chunks' reads, one stream of first x L lines.
 * Every later CTA is placed when one finishes, whose write-back (W stores, presented first at the
 * engine's rate; they hold no MSHR) precedes its L reads. With dma_blocking warp only the blocked
 * CTA's warps wait, and the other resident CTAs' work covers the later transfers: only the first
 * wave's is counted. */
static double dma_blocked_cycles(const dma_transfer *t, const model_point *p, double ctas, double resident)
{
    if (t->lines <= 0 || ctas <= 0)
        return 0.0;
    double first = min2(ctas, resident);
    double blocked = dma_reads_cycles(first * t->lines, t->latency, p);
    if (p->dma_blocks_cu)
        blocked += (ctas - first) * (t->writeback_lines / p->dma_requests_per_cycle +
                                     dma_reads_cycles(t->lines, t->latency, p));
    return blocked;
}

/* The kernel does not end while write-backs wait to be presented: the last CTA's, or the whole
 * wave's when the CU's CTAs all ran at once (they finish together). */
static double dma_writeback_tail(const dma_transfer *t, const model_point *p, double ctas, double resident)
{
    return (ctas <= resident ? ctas : 1.0) * t->writeback_lines / p->dma_requests_per_cycle;
}

/* ---- the network ---- */

typedef struct network {
    double demand[QUEUE_LANES], replicas[QUEUE_LANES];   /* the idle lane: no demand, one replica */
    /* Fixed for a group (list_queues): the demand of the queueing stations with demand, 0 at the
     * others (the entries, stations without demand, the idle lane), so that a wait is 0 there. */
    double queue_demand[QUEUE_LANES];
    double load_share[QUEUE_LANES];   /* all CUs' load on the station / the load the population puts on it */
    double residence[FIRST_TRIP_STATION];
    /* At the CU's own stations and its entries (those before the trip's; the trip's waits are in
     * the latencies): d residence / d throughput, and for the entries d demand / d throughput
     * (cycle_at, for the solver's steps). */
    double residence_slope[FIRST_TRIP_STATION], demand_slope[FIRST_TRIP_STATION];
    double correction;            /* c = (N-1)/N, the share of the population a request finds ahead of it */
    /* Fixed for a solve (prepare_queues): each queueing station's crowding c D_k s_k / m_k (c U_k
     * per unit of throughput) and D_k c U_k / X (its wait's slope at X = 0), both 0 where
     * queue_demand is. */
    double crowding[QUEUE_LANES], wait_slope[QUEUE_LANES];
    double most_crowding;         /* the largest crowding (0 when none): 1 / Schweitzer's pole */
    double most_use;              /* the largest D_k s_k / m_k (0 when none): 1 / the stations' capacity */
    double delay;                 /* Z_comp + Z_ctrl + Z_sync */
    /* Barrier bursts (burst below): per warp instruction, the bursts' barrier waits; the cycles
     * the bursts of this network's CTAs take to drain; a warp's instructions in a burst's
     * interval; and at the solution, the wait beyond the interval's own time (Z_burst). */
    double burst_waits, burst_drain, burst_span, burst_wait;
    double burst_others, burst_coinciding;   /* the GPU's drain beyond the CU's own; the share of rounds it all coincides */
    double burst_lines;           /* a CU's burst: its lines beyond the L1 */
    double burst_beyond_l2, burst_from_dram;   /* P(some line of a burst's round comes from beyond the L2 / DRAM) */
    double burst_round;           /* the lines of the round those are for (NAN before the group's first view) */
    /* The share of the CU's other CTAs whose rounds run in step with a warp's CTA (in_step_share);
     * of the read lines, those in bursts; and at the solution the part of the warp's waits (Z_burst,
     * and the bursts' share of Z_mem and Z_order) they wait out together, off the stations. */
    double burst_in_step, burst_read_share, burst_blocked;
    double population, throughput;
    double mem_delay;             /* Z_mem at the solution */
    double order_wait;            /* Z_order at the solution (order_waits) */
    double final_write_wait;      /* a warp's store left in flight at its exit: its mean wait after the exit */
    /* The view's CU's missing lines per instruction against the GPU's (load_misses.h): they scale
     * its MSHRs' requests and its port in's read answers (port_in_reads of the port's demand). */
    double miss_share, port_in_reads;
} network;

/* A CU's entries of one kind (MSHRs, store-buffer entries) and the line requests that hold them. */
typedef struct entries {
    double lines;           /* requests per warp instruction */
    double lines_per_cu;    /* lines / active CUs: requests per cycle per CU per unit of throughput */
    double servers;         /* entries per CU */
    double per_server;      /* 1 / servers */
    double rounds;          /* holds per warp instruction an instruction's own requests wait (batch_rounds) */
} entries;

/* What the trip's latencies need from a group: its read mix and unloaded latencies. */
typedef struct memory_paths {
    double l1_latency, l2_latency, near_latency, dram_latency;   /* near: the CPU cluster's and L3's mix */
    /* Per warp instruction: */
    double l2_read_lines, near_read_lines, dram_read_lines, write_lines;
    double memory_lines, dram_lines;   /* requests taking an L3 bank's lookup slot / a DRAM channel */
    double dirty_victim_share;         /* of the L2's misses, those whose fill evicts a dirty line */
    double requests;                   /* line requests leaving the CU */
    double exposed_loads;              /* a_lat x read instructions */
    double needs_l2, needs_memory, needs_dram;   /* P(a load instruction has a line served beyond the L1 / L2 / near memory) */
    double own_answers_wait;           /* a read line's wait at the CU's port for its own read's answers (load_misses.h) */
    entries mshrs, store_buffer;       /* read lines beyond the L1 hold MSHRs, written lines store-buffer entries */
    /* 1 / reads, requests, memory_lines, dram_lines (0 where those are 0): cycle_at's chain of
     * dependent operations multiplies by them rather than divides. */
    double per_read_line, per_request, per_memory_line, per_dram_line;
    /* A warp's order (order_waits): the gaps after its reads and writes that an SC core holds
     * its next access for (NULL: no such wait); 1 / the group's warp instructions; a write's
     * wait beyond its L2 trip, and the share of writes performed in the L1 instead. */
    const reuse_summary *order_reads, *order_writes;
    double per_instruction, write_wait, write_l1_share;
    /* An SC core's warp slot (order_waits): the stores warps leave in flight at their exit, the
     * instructions a warp issues before its first access, and the share of the group's warps
     * that a later warp of the CU follows in their slot. */
    const reuse_summary *order_final_writes;
    double final_write_lead, successor_share;
} memory_paths;

/* The holds per warp instruction that instructions wait for their own requests beyond the first
 * `servers`: an instruction's requests ask for the CU's entries together (a warp's uncoalesced
 * load: one line per thread, 64 on a 64-wide wavefront against 32 MSHRs), so of L requests the
 * first `servers` go at once and each later `servers` wait for a hold to end before they go, as
 * the DMA engine's reads do (dma_reads_cycles): the instruction's last request is answered
 * floor((L - 1) / servers) holds after its first. `instructions` (per warp instruction) send the
 * `lines` (per warp instruction), L = lines / instructions each. */
static double batch_rounds(double instructions, double lines, double servers)
{
    if (instructions <= 0 || lines <= instructions || !(servers >= 1.0))
        return 0.0;
    return instructions * mshr_rounds(lines / instructions, servers);
}

/* Entries `e` (MSHRs, store-buffer entries) each held `hold` cycles by one of `lines` requests per
 * warp instruction, `servers` of them per CU: a request that finds A = c Q requests holding or
 * awaiting one waits hold/servers for each beyond the servers, (hold/servers) max(0, A - servers + 1)
 * (the multi-server form of Schweitzer's estimate); with Q = (X/P) lines (hold + wait) that is
 * linear in Q on each side of the knee. An instruction whose own requests are more than the
 * entries also waits e->rounds holds for them (batch_rounds). Sets the residence (lines x wait
 * + rounds x hold) and its slope in X, given the hold's slope `hold_slope`; false when the
 * entries cannot carry X. */
static bool entries_at(network *net, int k, const entries *e, double hold, double hold_slope)
{
    double correction = net->correction, lines = e->lines, servers = e->servers, per_server = e->per_server;
    double rate_slope = e->lines_per_cu, rate = net->throughput * rate_slope;   /* requests per cycle per CU */
    net->demand[k] = lines * hold;
    net->demand_slope[k] = lines * hold_slope;
    net->residence[k] = e->rounds * hold;
    net->residence_slope[k] = e->rounds * hold_slope;
    if (lines <= 0 || correction * rate * hold <= servers - 1.0)
        return true;
    if (servers <= 0)
        return false;
    double step = hold * per_server, slope = 1.0 - rate * step * correction;
    if (slope <= 0)
        return false;
    /* queue = rate (hold - step (servers - 1)) / slope, differentiated through rate, hold and step. */
    double step_slope = hold_slope * per_server, ahead = hold - step * (servers - 1.0);
    double slope_slope = -correction * (rate_slope * step + rate * step_slope);
    double queue = rate * ahead / slope;
    double queue_slope =
        (rate_slope * ahead + rate * (hold_slope - step_slope * (servers - 1.0)) - queue * slope_slope) / slope;
    net->residence[k] += lines * step * (correction * queue - servers + 1.0);
    net->residence_slope[k] +=
        lines * (step_slope * (correction * queue - servers + 1.0) + step * correction * queue_slope);
    return true;
}

/* The mean latency of a read line beyond the L1, with the L2's, the near memory's and DRAM's
 * latencies `l2`, `near` and `from_dram` weighted by the lines each serves. */
static double read_hold(const memory_paths *m, double l2, double near, double from_dram)
{
    return (m->l2_read_lines * l2 + m->near_read_lines * near + m->dram_read_lines * from_dram) * m->per_read_line;
}

/* The cycles per warp instruction a warp waits, at an access, for an earlier access of its own
 * of latency `latency` to complete, over the profile's gaps (warp instructions in between):
 * each gap g lets the warp spend g cycle of the latency on its own instructions and it waits for
 * the rest (reuse_shortfall); adds the wait's slope in X to *slope. */
static double gap_wait(const memory_paths *m, const reuse_summary *gaps, double latency, double latency_slope,
                       double cycle, double cycle_slope, double *slope)
{
    if (gaps->size == 0)
        return 0.0;
    double short_count, short_gaps;
    double wait = reuse_shortfall(gaps, latency, cycle, &short_count, &short_gaps) * m->per_instruction;
    *slope += (short_count * latency_slope - short_gaps * cycle_slope) * m->per_instruction;
    return wait;
}

/* An SC core's warp slot keeps its warp's last store in flight after the warp exits (the
 * detailed CU frees the slot once the warp's loads are done, and the slot's count of accesses in
 * flight goes to the next warp: timing_internal.h's warp_slot.global_in_flight), so the next warp
 * placed in the slot waits at its first access for the rest of that store's latency: over the
 * profile's gaps g from such a store to its warp's exit, max(0, H_write - (g + lead) cycle) for
 * the share of warps a later warp follows, where lead is the instructions a warp issues before its
 * first access (the CU's order also holds that first access behind a shared access, which the
 * lead ends at). H_write is the write's acknowledgement (`latency[1]` + the mechanism's write
 * wait, or the L1's for a write performed there). The kernel-end release waits for the last
 * warps' stores the same way, without a lead and at the unloaded latencies (network.final_write_wait,
 * the mean over the stores): the CU's other requests are done by then (stencil under tc-strong at
 * the rcc-gpu preset: 190 cycles of `sync/release` per launch in the detailed run, where the loaded
 * latency gave a wait of 1,668). Adds the successors' wait to the network's order_wait and its slope to *slope. */
static void final_write_waits(network *net, const memory_paths *m, const double latency[4], const double latency_slope[4],
                              double cycle, double cycle_slope, double *slope)
{
    net->final_write_wait = 0;
    const reuse_summary *finals = m->order_final_writes;
    if (!finals || finals->size == 0)
        return;
    double shares[2] = {1.0 - m->write_l1_share, m->write_l1_share};
    double write_latency[2] = {latency[1] + m->write_wait, latency[0]}, write_slope[2] = {latency_slope[1], 0.0};
    double unloaded[2] = {m->l2_latency + m->write_wait, m->l1_latency};
    double lead_cycles = m->final_write_lead * cycle, lead_slope = m->final_write_lead * cycle_slope;
    for (int path = 0; path < 2; path++) {
        if (shares[path] <= 0)
            continue;
        double short_count, short_gaps, path_slope = 0;
        net->final_write_wait += shares[path] *
                                 reuse_shortfall(finals, unloaded[path], cycle, &short_count, &short_gaps) / finals->total;
        if (m->successor_share <= 0)
            continue;
        net->order_wait += shares[path] * m->successor_share *
                           gap_wait(m, finals, write_latency[path] - lead_cycles, write_slope[path] - lead_slope, cycle,
                                    cycle_slope, &path_slope);
        *slope += shares[path] * m->successor_share * path_slope;
    }
}

/* An SC core's waits for a warp's own accesses (memory_paths' order_reads and order_writes,
 * Z_order), at the latencies l1, l2, near and from_dram of a read line served there and
 * l2 + write_wait of a write that leaves the CU (the L1's of one performed there), given the cycle
 * a warp's instruction takes when it waits for no memory access (its issue, SIMD and LSU
 * residences and its compute, control and sync delays; a memory-bound warp's mean cycle would
 * count the waits of other accesses in every gap): a read's next ordered access waits for the
 * read's lines (as long as the slowest: an L1 hit with probability 1 - needs_l2, else as
 * load_latency weighs them) and a write's for its acknowledgement. Sets the network's
 * order_wait; adds its slope to *slope. */
static void order_waits(network *net, const memory_paths *m, const double latency[4], const double latency_slope[4],
                        double cycle, double cycle_slope, double *slope)
{
    net->order_wait = 0;
    const double share[4] = {1.0 - m->needs_l2, m->needs_l2 - m->needs_memory, m->needs_memory - m->needs_dram,
                             m->needs_dram};
    for (int level = 0; level < 4; level++) {
        if (share[level] <= 0)
            continue;
        double level_slope = 0;
        net->order_wait += share[level] * gap_wait(m, m->order_reads, latency[level], latency_slope[level], cycle,
                                                   cycle_slope, &level_slope);
        *slope += share[level] * level_slope;
    }
    double write_slope = 0;
    net->order_wait += (1.0 - m->write_l1_share) * gap_wait(m, m->order_writes, latency[1] + m->write_wait,
                                                            latency_slope[1], cycle, cycle_slope, &write_slope);
    *slope += (1.0 - m->write_l1_share) * write_slope;
    if (m->write_l1_share > 0) {
        double l1_slope = 0;
        net->order_wait += m->write_l1_share * gap_wait(m, m->order_writes, latency[0], 0.0, cycle, cycle_slope, &l1_slope);
        *slope += m->write_l1_share * l1_slope;
    }
    final_write_waits(net, m, latency, latency_slope, cycle, cycle_slope, slope);
}

/* Fixed for a group: which stations queue (every station but the entries, where it has demand). */
static void list_queues(network *net)
{
    for (int k = 0; k < QUEUE_LANES; k++)
        net->queue_demand[k] = max2(net->demand[k], 0.0);
    net->queue_demand[MSHR] = net->queue_demand[STORE_BUFFER] = 0.0;
    for (int k = STATION_COUNT; k < QUEUE_LANES; k++)
        net->replicas[k] = 1.0;
}

/* What every cycle_at of a solve shares: the queueing stations' crowding and their waits' slopes
 * at X = 0 (the residences start at 0, as at X = 0). */
static void prepare_queues(network *net)
{
    double correction = net->correction = (net->population - 1.0) / net->population;
    for (int k = 0; k < QUEUE_LANES; k++) {
        net->crowding[k] = correction * net->queue_demand[k] * net->load_share[k] / net->replicas[k];
        net->wait_slope[k] = net->queue_demand[k] * net->crowding[k];
    }
    net->most_crowding = net->most_use = 0;
    for (int k = 0; k < QUEUE_LANES; k++) {
        net->most_crowding = max2(net->most_crowding, net->crowding[k]);
        net->most_use = max2(net->most_use, net->queue_demand[k] * net->load_share[k] / net->replicas[k]);
    }
    for (int k = 0; k < FIRST_TRIP_STATION; k++)
        net->residence[k] = net->residence_slope[k] = 0;
}

/* A burst round's drain when the other CUs' bursts fall anywhere in it (coinciding_round_share):
 * the CU's own drain `own` plus the share of the others' drain `others` (the GPU's round on its
 * most loaded bank or the DRAM channels, beyond the CU's own) that arrives while it lasts,
 * D / (D + compute) of it for a round of D drain and `compute` cycles of the warps' other
 * instructions: D = own + others D / (D + compute), the positive root (own where the others
 * send nothing or the round is all compute; own + others where it has no compute). Sets
 * `slope` to dD / d compute. */
static double spread_drain(double own, double others, double compute, double *slope)
{
    double b = own + others - compute, drain = 0.5 * (b + sqrt(b * b + 4.0 * own * compute));
    double denominator = 2.0 * drain - b;
    *slope = denominator > 0 ? (own - drain) / denominator : 0.0;
    return drain;
}

/* A warp's cycle per instruction at throughput X (every residence set), or INFINITY when some
 * station cannot carry X; `cycle_slope` gets d cycle / d X where it is finite. Schweitzer's
 * estimate at each queueing station: a request arriving at station k finds A_k = Q_k (N-1)/N
 * ahead of it, so R_k = D_k (1 + A_k) and, with Q_k = X R_k / m_k, Q_k = U_k / (1 - c U_k) for
 * U_k = X D_k s_k / m_k and c = (N-1)/N, s_k the station's load share (solve_view): the wait
 * R_k - D_k = D_k v / (1 - v) with v = c U_k, of slope D_k (c U_k / X) / (1 - v)^2. The station
 * cannot carry X from U_k = 1 on: a station serves at most one request per D_k / m_k cycles
 * whatever the estimate says (v = 1 only at U_k = N / (N-1), which a station whose queue is not on
 * the warps' cycle, such as a CU's port carrying its stores, would otherwise reach). */
static double cycle_at(network *net, const memory_paths *m, double throughput, double *cycle_slope)
{
    net->throughput = throughput;
    /* The busiest station's U_k (rounding keeps the order of the products). */
    if (throughput * net->most_use >= 1.0)
        return INFINITY;
    /* Every station's wait and its slope at once (0 where a station does not queue); at X = 0 no
     * request waits and the slopes are prepare_queues'. */
    static const double no_waits[QUEUE_LANES];
    double loaded_wait[QUEUE_LANES], loaded_slope[QUEUE_LANES];
    const double *wait = no_waits, *wait_slope = net->wait_slope;
    if (throughput > 0) {
        for (int k = 0; k < QUEUE_LANES; k++) {
            double v = throughput * net->crowding[k], free_share = 1.0 / (1.0 - v);
            loaded_wait[k] = net->queue_demand[k] * v * free_share;
            loaded_slope[k] = net->wait_slope[k] * free_share * free_share;
        }
        wait = loaded_wait, wait_slope = loaded_slope;
    }
    for (int k = ISSUE; k <= LSU; k++) {   /* the entries' residences are entries_at's */
        net->residence[k] = net->queue_demand[k] + wait[k];
        net->residence_slope[k] = wait_slope[k];
    }
    /* The trip's waits (those every line request beyond the L1 takes, model_point), per request. */
    double trip = (wait[PORT_OUT] + wait[BANK_IN] + wait[HOT_BANK_IN] + wait[L2_BANK] + wait[HOT_L2_BANK] +
                   wait[BANK_OUT] + wait[HOT_BANK_OUT] + wait[PORT_IN]) * m->per_request;
    double trip_slope = (wait_slope[PORT_OUT] + wait_slope[BANK_IN] + wait_slope[HOT_BANK_IN] + wait_slope[L2_BANK] +
                         wait_slope[HOT_L2_BANK] + wait_slope[BANK_OUT] + wait_slope[HOT_BANK_OUT] + wait_slope[PORT_IN]) *
                        m->per_request;
    double lookup_wait = wait[L3_BANK] * m->per_memory_line, lookup_slope = wait_slope[L3_BANK] * m->per_memory_line;
    double dram_wait = wait[DRAM] * m->per_dram_line, dram_slope = wait_slope[DRAM] * m->per_dram_line;
    /* An L2 miss whose fill evicts a dirty line waits, in its bank, until the victim's DRAM
     * channel has room in its write queue (timing/l2_bank.c's victim_waits_for_memory): the DRAM
     * queue's wait, for that share of the misses. */
    double victim_wait = m->dirty_victim_share * dram_wait, victim_slope = m->dirty_victim_share * dram_slope;
    double l2 = m->l2_latency + trip, near = m->near_latency + trip + lookup_wait + victim_wait;
    double from_dram = m->dram_latency + trip + lookup_wait + victim_wait + dram_wait;
    double l2_slope = trip_slope, near_slope = trip_slope + lookup_slope + victim_slope,
           from_dram_slope = near_slope + dram_slope;
    double hold = read_hold(m, l2, near, from_dram) + m->own_answers_wait;
    double hold_slope = read_hold(m, l2_slope, near_slope, from_dram_slope);
    entries mshrs = m->mshrs;
    mshrs.lines *= net->miss_share;
    mshrs.lines_per_cu *= net->miss_share;
    if (!entries_at(net, MSHR, &mshrs, hold, hold_slope) ||
        !entries_at(net, STORE_BUFFER, &m->store_buffer, l2, l2_slope))
        return INFINITY;
    double load_latency = m->l1_latency + m->needs_l2 * (l2 - m->l1_latency) + m->needs_memory * (near - l2) +
                          m->needs_dram * (from_dram - near);
    double load_slope = m->needs_l2 * l2_slope + m->needs_memory * (near_slope - l2_slope) +
                        m->needs_dram * (from_dram_slope - near_slope);
    net->mem_delay = m->exposed_loads * load_latency;
    const double *r = net->residence, *r_slope = net->residence_slope;
    double cycle = net->delay + net->mem_delay + r[ISSUE] + r[SIMD] + r[LSU] + r[MSHR] + r[STORE_BUFFER];
    double slope = m->exposed_loads * load_slope + r_slope[ISSUE] + r_slope[SIMD] + r_slope[LSU] + r_slope[MSHR] +
                   r_slope[STORE_BUFFER];
    double load_waits = net->mem_delay, load_waits_slope = m->exposed_loads * load_slope;
    if (m->order_reads) {
        /* The gap's instructions take the warp's cycle without its memory waits. */
        double own_cycle = net->delay + r[ISSUE] + r[SIMD] + r[LSU];
        double own_slope = r_slope[ISSUE] + r_slope[SIMD] + r_slope[LSU];
        const double latency[4] = {m->l1_latency, l2, near, from_dram};
        const double latency_slope[4] = {0.0, l2_slope, near_slope, from_dram_slope};
        double order_slope = 0;
        order_waits(net, m, latency, latency_slope, own_cycle, own_slope, &order_slope);
        cycle += net->order_wait;
        slope += order_slope;
        load_waits += net->order_wait;
        load_waits_slope += order_slope;
    }
    /* A burst's interval lasts the longer of its drain plus its slowest line's latency and its
     * instructions at this cycle. The slowest line comes from DRAM (or the near memory) if any of
     * the CU's lines in flight at once (at most its MSHRs) does. */
    net->burst_wait = 0;
    double burst_slope = 0;
    if (net->burst_waits > 0) {
        double slowest = l2 + net->burst_beyond_l2 * (near - l2) + net->burst_from_dram * (from_dram - near);
        /* The launch's first rounds coincide GPU-wide; the later ones see the others' drain
         * spread over their rounds, whose other instructions (1/b of the warp's) take this cycle. */
        double later_slope, later = spread_drain(net->burst_drain, net->burst_others, cycle / net->burst_waits, &later_slope);
        double spread = 1.0 - net->burst_coinciding;
        double burst_time = net->burst_coinciding * (net->burst_drain + net->burst_others) + spread * later + slowest;
        net->burst_wait = net->burst_waits * max2(burst_time - net->burst_span * cycle, 0.0);
        if (net->burst_wait > 0) {
            double slowest_slope = l2_slope + net->burst_beyond_l2 * (near_slope - l2_slope) +
                                   net->burst_from_dram * (from_dram_slope - near_slope);
            burst_slope = net->burst_waits * (slowest_slope - net->burst_span * slope) + spread * later_slope * slope;
        }
    }
    /* The in-step share of the CU's CTAs waits out its bursts together, the bursts' loads (Z_mem
     * and Z_order for the bursts' share of the read lines) and the barrier wait beyond them
     * (Z_burst): no warp of theirs is ready meanwhile, so those cycles keep the CU's stations idle
     * and solve_view adds them after; the network's stations see the rest, the in-step CTAs'
     * compute phase, all their warps together. */
    net->burst_blocked = net->burst_in_step * (net->burst_wait + net->burst_read_share * load_waits);
    *cycle_slope = slope + burst_slope - net->burst_in_step * (burst_slope + net->burst_read_share * load_waits_slope);
    return cycle + net->burst_wait - net->burst_blocked;
}

/* The largest throughput every queueing station carries: X D_k s_k / m_k < 1. (The MSHRs' and
 * store buffer's limit depends on the trip's waits, so it stays implicit.) */
static double queue_capacity(const network *net)
{
    return net->most_use > 0 ? 1.0 / net->most_use : INFINITY;
}

/* The throughput at which Schweitzer's waits grow without bound, c X D_k s_k / m_k = 1 at the
 * busiest station (at or beyond queue_capacity): the pole the solver's curves take for the cycle. */
static double queue_pole(const network *net)
{
    return net->most_crowding > 0 ? 1.0 / net->most_crowding : INFINITY;
}

/* ---- the solver ---- */

/* The entries (MSHRs, store buffer) as the solver sees them: at throughput x a request finds
 * A = c x D / P requests holding or awaiting one of s entries (entries_at); they queue beyond
 * A = s - 1 (the knee: the warp's cycle bends up sharply) and cannot carry x from A = s on (the
 * cycle is infinite). D, the requests' holding time, grows with x through the trip's waits. */
enum { ENTRY_KINDS = 2, BELOW_KNEE = 0, QUEUEING, BEYOND_CAPACITY, UNKNOWN_REGIME };
static const int entry_stations[ENTRY_KINDS] = {MSHR, STORE_BUFFER};
#define CAPACITY_MARGIN 0.01   /* a probe for the entries' capacity aims this far below A = s */

typedef struct solver {
    network *net;
    const memory_paths *m;
    double capacity;                 /* queue_capacity */
    double pole, per_pole;           /* queue_pole, and 1 / it (0 when infinite) */
    double tolerance;
    double servers[ENTRY_KINDS];
    double holding_per_demand[ENTRY_KINDS];   /* c / P: A / x per unit of an entries station's demand */
} solver;

/* One evaluation of the network at throughput x. */
typedef struct sample {
    double x, phi;                        /* phi = N / cycle(x) - x */
    double excess;                        /* x cycle(x) - N */
    double cycle, cycle_slope;            /* cycle(x) (INFINITY where the network cannot carry x) and its slope */
    double holding[ENTRY_KINDS];          /* A / x, per kind of entries */
    int regime[ENTRY_KINDS];
    bool root;                            /* |x cycle(x) - N| within the tolerance */
} sample;

/* Evaluates the network at throughput x into `out`. The caller's slot is filled field by field,
 * not returned by value: a returned struct is assembled on the stack and copied with loads wider
 * than its fields' stores, which the processor cannot forward (perf: 60% of sample_at's time). */
static void sample_at(const solver *s, double x, sample *out)
{
    network *net = s->net;
    double cycle_slope = 0, cycle = cycle_at(net, s->m, x, &cycle_slope);
    out->x = x, out->phi = net->population / cycle - x, out->excess = x * cycle - net->population;
    out->root = fabs(out->excess) <= s->tolerance;
    for (int e = 0; e < ENTRY_KINDS; e++) {
        int k = entry_stations[e];
        out->holding[e] = s->holding_per_demand[e] * net->demand[k];
        double holding = out->holding[e] * x;
        out->regime[e] = holding <= s->servers[e] - 1.0 ? BELOW_KNEE : holding < s->servers[e] ? QUEUEING : BEYOND_CAPACITY;
    }
    /* MSHRs beyond capacity stop cycle_at before the store buffer's demand is set. */
    if (!isfinite(cycle) && out->regime[0] == BEYOND_CAPACITY)
        out->regime[1] = UNKNOWN_REGIME;
    out->cycle = cycle, out->cycle_slope = cycle_slope;
}

/* The throughput at which A reaches `target` for entries e, from samples a and b: near a queueing
 * station's pole C (queue_pole) the trip's waits, hence A / x, grow about linearly in t = 1 / (1 - x / C),
 * so A / x is taken linear in t through the two samples and x (A / x) = target solved for t (a
 * quadratic). 0 when the samples say nothing (a kind unknown or infinite at either). */
static double entries_crossing(const solver *s, const sample *a, const sample *b, int e, double target)
{
    if (a->x == b->x || a->regime[e] == UNKNOWN_REGIME || b->regime[e] == UNKNOWN_REGIME ||
        !isfinite(a->holding[e]) || !isfinite(b->holding[e]) || a->holding[e] <= 0)
        return 0.0;
    double ta = 1.0 / (1.0 - a->x / s->pole), tb = 1.0 / (1.0 - b->x / s->pole);
    double slope = (b->holding[e] - a->holding[e]) / (tb - ta), at_zero = a->holding[e] - slope * ta;
    if (!(slope > 0))
        return target / a->holding[e];
    /* pole (1 - 1/t)(at_zero + slope t) = target, times t / pole: */
    double linear = at_zero - slope - target / s->pole;
    double t = (-linear + sqrt(linear * linear + 4.0 * slope * at_zero)) / (2.0 * slope);
    return s->pole * (1.0 - 1.0 / t);
}

/* Where to evaluate next when the bracket's ends lie in different regimes of some entries: the
 * knee (if the lower end is below it) or just short of the capacity (if the lower end queues),
 * predicted from the two latest samples (else the ends), unless an end already sits there or
 * the prediction falls outside the bracket. 0 if none. */
static double breakpoint_probe(const solver *s, const sample *low, const sample *high, const sample *before,
                               const sample *last)
{
    double width = high->x - low->x;
    for (int e = 0; e < ENTRY_KINDS; e++) {
        if (low->regime[e] == high->regime[e] || low->regime[e] == UNKNOWN_REGIME || high->regime[e] == UNKNOWN_REGIME ||
            s->servers[e] <= 1.0)
            continue;
        double target = low->regime[e] == BELOW_KNEE ? s->servers[e] - 1.0 : s->servers[e] - CAPACITY_MARGIN;
        if (fabs(low->holding[e] * low->x - target) < CAPACITY_MARGIN || fabs(high->holding[e] * high->x - target) < CAPACITY_MARGIN)
            continue;
        double x = entries_crossing(s, before, last, e, target);
        if (x == 0)
            x = entries_crossing(s, low, high, e, target);
        if (x > low->x + 1e-6 * width && x < high->x - 1e-6 * width)
            return x;
    }
    return 0.0;
}

/* The entries kind that queues at both ends of the bracket, or -1. There the cycle carries the
 * entries' wait, which grows as A / (s - A) towards their capacity, so phi bends all the way across
 * the bracket; (X cycle(X) - N)(1 - A / s) is close to linear in X instead, and has the same root. */
static int queueing_kind(const sample *low, const sample *high)
{
    for (int e = 0; e < ENTRY_KINDS; e++)
        if (low->regime[e] == QUEUEING && high->regime[e] == QUEUEING)
            return e;
    return -1;
}

/* The function regula falsi interpolates: positive below the root, negative above. */
static double interpolated(const solver *s, const sample *at, int kind)
{
    return kind < 0 ? at->phi : -at->excess * (1.0 - at->holding[kind] * at->x / s->servers[kind]);
}

/* f at y on its single-pole curve a + b / (pole - y) through f's value and slope at x (its
 * tangent without a pole). */
static double single_pole_value(double x, double value, double slope, double pole, double y)
{
    if (!isfinite(pole))
        return value + slope * (y - x);
    double gap = pole - x;
    return value - slope * gap + slope * gap * gap / (pole - y);
}

/* The y at which y f(y) = target for f taken as a + b / (pole - y), the single-pole curve
 * through f's value and slope at x: the lower root of a y^2 - (a pole + b + target) y +
 * target pole = 0, 2 target pole / (B + sqrt(B^2 - 4 a target pole)) with B = a pole + b +
 * target (Newton's step on y f(y) without a pole). 0 when there is none. */
static double single_pole_root(double x, double value, double slope, double pole, double target)
{
    if (!isfinite(pole)) {
        double total_slope = value + x * slope;
        return total_slope > 0 ? x - (x * value - target) / total_slope : 0.0;
    }
    double gap = pole - x, b = slope * gap * gap, a = value - slope * gap;
    double linear = a * pole + b + target, discriminant = linear * linear - 4.0 * a * target * pole;
    if (!(linear > 0) || !(discriminant >= 0))
        return 0.0;
    return 2.0 * target * pole / (linear + sqrt(discriminant));
}

/* The next throughput to try from a sample. Where some entries queue, Newton's step on
 * (x cycle(x) - N)(1 - A / s)(1 - x / C), which has phi's root but neither the entries' pole at
 * A = s nor the queueing stations' pole C (queue_pole), so it is close to a low-order
 * polynomial. Below the entries' knee, the root of x cycle(x) = N with cycle on its single-pole
 * curve towards C (single_pole_root; from 0 that starts near the balanced bound), unless A
 * there (A / x on its single-pole curve: A = x (c / P) D, and D holds the trip's waits) is past
 * the knee: then the root is in the entries' queueing band, and the next point is its middle,
 * A = s - 1/2. */
static double newton_target(const solver *s, const sample *at)
{
    const network *net = s->net;
    double cycle = at->cycle, cycle_slope = at->cycle_slope;
    double x = at->x, per_pole = s->per_pole, room = 1.0 - x * per_pole;
    for (int e = 0; e < ENTRY_KINDS; e++)
        if (at->regime[e] == QUEUEING) {
            double holding_slope = s->holding_per_demand[e] * net->demand_slope[entry_stations[e]];
            double free = 1.0 - at->holding[e] * x / s->servers[e];
            double free_slope = -(at->holding[e] + x * holding_slope) / s->servers[e];
            double value = at->excess * free * room;
            double slope =
                ((cycle + x * cycle_slope) * free + at->excess * free_slope) * room - at->excess * free * per_pole;
            return slope > 0 ? x - value / slope : 0.0;
        }
    double target = single_pole_root(x, cycle, cycle_slope, s->pole, net->population);
    for (int e = 0; e < ENTRY_KINDS; e++) {
        if (at->regime[e] != BELOW_KNEE || s->servers[e] <= 1.0 || !(target > x))
            continue;
        double holding_slope = s->holding_per_demand[e] * net->demand_slope[entry_stations[e]];
        if (target * single_pole_value(x, at->holding[e], holding_slope, s->pole, target) > s->servers[e] - 1.0)
            target = min2(target, single_pole_root(x, at->holding[e], holding_slope, s->pole, s->servers[e] - 0.5));
    }
    return target;
}

/* The latest sample's step (newton_target) if it lands inside the bracket; the upper end when
 * that end was not evaluated and the step reaches it (phi may stay > 0 up to the capacity);
 * else 0. */
static double newton_step(const solver *s, const sample *last, const sample *low, const sample *high, bool high_assumed)
{
    if (!isfinite(last->cycle))
        return 0.0;
    double x = newton_target(s, last);
    if (high_assumed && x >= high->x)
        return high->x;
    return x > low->x && x < high->x ? x : 0.0;
}

/* Leaves the network at a sample within the solver's tolerance: its residences are the
 * sample's, its throughput the root that Newton's step from the sample predicts (x cycle(x) - N
 * has slope cycle + x cycle'), so the throughput's error is about the square of the sample's. */
static void settle(network *net, const sample *at)
{
    double slope = at->cycle + at->x * at->cycle_slope;
    net->throughput = slope > 0 ? at->x - at->excess / slope : at->x;
}

/* A solve keeps four samples (low, high, before, last); one slot more always holds none of them. */
enum { SAMPLE_SLOTS = 5 };

/* A slot of `pool` that none of the kept samples occupies (there is one: SAMPLE_SLOTS > 4). */
static sample *free_slot(sample pool[SAMPLE_SLOTS], const sample *low, const sample *high, const sample *before,
                         const sample *last)
{
    sample *slot = pool;
    while (slot == low || slot == high || slot == before || slot == last)
        slot++;
    return slot;
}

/* The throughput X at which N = X cycle(X), found as the root of phi(X) = N / cycle(X) - X:
 * cycle grows with X, so phi falls from N / cycle(0) at 0 and has one root between 0 and the
 * unloaded N / cycle(0), below every queueing station's capacity. Unlike X cycle(X) - N, phi stays
 * finite where a station saturates (N / cycle goes to 0 there, phi to -X), so just below the
 * capacity phi = -X needs no evaluation; nor does phi at N / cycle(0), which is <= 0. The first
 * sample is at 0 (no request waits there); the next is its Newton-like step, or `below_root`
 * when the caller knows a throughput below the root that lies beyond that step (a view with
 * fewer warps than one already solved: its warps run at least at that view's per-warp rate,
 * often within a few percent of the root). The bracket
 * [low, high] (phi(low) > 0 > phi(high)) narrows with every sample. The next point is the latest
 * sample's Newton-like step (newton_target: cycle_at gives cycle's slope in closed form) when
 * that lands inside the bracket (or the unevaluated capacity, when it reaches that: a station
 * whose queue the warps' cycle does not see, DRAM carrying only writes, can saturate first, and
 * then phi > 0 up to the capacity, where the network is); otherwise, where the MSHRs or the
 * store buffer start to queue or reach capacity between the ends (phi bends sharply there), that
 * bend, predicted by entries_crossing (at most BREAKPOINT_PROBES a solve); otherwise regula falsi
 * with the Anderson-Bjorck scaling of an end kept twice (on phi, or on the function
 * queueing_kind names when the entries queue at both ends). Stops when
 * |X cycle(X) - N| <= 1e-4 N, and settles the throughput at the Newton step from there (settle):
 * every residence grows with X, so each is then within 1e-4 of the cycle of its value at the
 * root (the stall split within 1e-4) while the throughput, hence the cycles, is within about
 * 1e-8 (bench model's points move by at most 2e-9), far below the model's own error of a few
 * percent; or when the bracket is down to a few ulps (with the MSHRs near capacity the cycle is
 * so steep that a bracket 1e-9 wide can leave X cycle(X) 1e-3 off N). Leaves the network's
 * residences at the last sample. */
static void solve(network *net, const memory_paths *m, double below_root)
{
    prepare_queues(net);
    solver s = {.net = net, .m = m, .capacity = queue_capacity(net), .pole = queue_pole(net),
                .tolerance = 1e-4 * net->population, .servers = {m->mshrs.servers, m->store_buffer.servers}};
    s.per_pole = isfinite(s.pole) ? 1.0 / s.pole : 0.0;
    for (int e = 0; e < ENTRY_KINDS; e++)
        s.holding_per_demand[e] = net->correction / net->replicas[entry_stations[e]];
    double high_x = s.capacity * (1.0 - 1e-9);
    bool high_assumed = true;   /* phi(high) = -high taken, not evaluated */
    /* The samples live in `pool`; low, high, before and last point into it (a sample is not
     * changed once taken), and each new sample takes a slot none of them holds. */
    sample pool[SAMPLE_SLOTS];
    sample *low = &pool[0], *high = &pool[1];
    sample_at(&s, 0.0, low);
    *high = (sample){.regime = {UNKNOWN_REGIME, UNKNOWN_REGIME}};
    high->x = min2(low->phi, high_x), high->phi = -high->x;
    if (below_root > 0 && below_root < high->x && !(newton_target(&s, low) > below_root)) {
        sample *guess = &pool[2];
        sample_at(&s, below_root, guess);
        if (guess->root) {
            settle(net, guess);
            return;
        }
        if (guess->phi >= 0)
            low = guess;
        else   /* not below the root after all */
            high = guess, high_assumed = false;
    }
    sample *before = low, *last = low;
    int kind = -1, kept = 0, probes = 0;   /* kept: +1 low kept on the last step, -1 high kept */
    double f_low = low->phi, f_high = high->phi;   /* regula falsi's values (interpolated), scaled */
    for (int iteration = 0; iteration < SOLVE_ITERATIONS && high->x - low->x > 4e-16 * high->x; iteration++) {
        /* A station whose queue the warps' cycle does not see (DRAM carrying only writes) can
         * saturate first: then phi > 0 up to the capacity and low creeps towards it. */
        if (high_assumed && high->x - low->x < 1e-6 * high->x) {
            sample *at = free_slot(pool, low, high, before, last);
            sample_at(&s, high->x, at);
            high = last = at;
            if (high->root) {
                settle(net, high);
                return;
            }
            if (high->phi >= 0)
                return;   /* the network is at the capacity */
            high_assumed = false, kept = 0;
            f_high = interpolated(&s, high, kind);
        }
        double x = newton_step(&s, last, low, high, high_assumed);
        if (x == 0 && probes < BREAKPOINT_PROBES && (x = breakpoint_probe(&s, low, high, before, last)) > 0)
            probes++;
        int bracket_kind = queueing_kind(low, high);
        if (bracket_kind != kind) {
            kind = bracket_kind, kept = 0;
            f_low = interpolated(&s, low, kind), f_high = interpolated(&s, high, kind);
        }
        if (x > 0) {
            kept = 0;
        } else {
            x = high->x - f_high * (high->x - low->x) / (f_high - f_low);
            if (!(x > low->x && x < high->x))
                x = 0.5 * (low->x + high->x);
        }
        sample *next = free_slot(pool, low, high, before, last);
        sample_at(&s, x, next);
        if (next->root) {
            settle(net, next);
            return;
        }
        if (high_assumed && x == high->x && next->phi >= 0)
            return;   /* the network is at the capacity (phi > 0 up to it) */
        before = last, last = next;
        double f = interpolated(&s, next, kind);
        if (next->phi < 0) {
            if (kept == 1) {
                double scale = 1.0 - f / f_high;
                f_low *= scale > 0 ? scale : 0.5;
            }
            high = next, f_high = f, kept = 1, high_assumed = false;
        } else {
            if (kept == -1) {
                double scale = 1.0 - f / f_low;
                f_high *= scale > 0 ? scale : 0.5;
            }
            low = next, f_low = f, kept = -1;
        }
    }
    double cycle_slope;
    cycle_at(net, m, low->x, &cycle_slope);
}

/* A group's barrier-synchronised bursts (profile.h): after a barrier every warp of a CTA issues
 * its loads at once, and the CTAs a CU or the GPU holds at once, started together on the same
 * code, burst together. The barrier ending the burst waits for its last line, which leaves the
 * most loaded station after the whole burst has passed it. */
typedef struct burst {
    double waits;                      /* barrier waits after a burst per warp instruction */
    double merged_share;               /* of a CTA's bursts, those with a read merged with a miss in flight */
    double read_share;                 /* of the group's read lines, those in bursts */
    double span;                       /* a warp's instructions in a burst's interval */
    double lines, beyond_l1, dram;     /* one CTA's burst: read lines; of those beyond the L1; from DRAM */
    double l1_banks, mshrs, hold;      /* the CU: L1 banks, MSHRs, a read line's unloaded latency */
    double together_ctas;                     /* CTAs GPU-wide whose bursts coincide with the view's */
    double coinciding_share;           /* the view's rounds in which they do (coinciding_round_share) */
    double port_cycles, bank_share, dram_cycles;   /* a line's NoC port cycles; the GPU's burst lines on the
                                                    * most loaded L2 bank (burst_bank_share); channel cycles per line over the channels */
} burst;

/* Cycles the last line of a burst of `cu_ctas` CTAs per CU and the GPU's coinciding CTAs waits
 * beyond its own latency: the burst's passage through the most loaded of the L1 banks, the
 * MSHRs (those beyond the MSHRs wait for one to free, hold/MSHRs apart), the CU's port in, an
 * L2 bank and its port out (the round's lines on its most loaded bank), and the DRAM channels. */
static double burst_drain(const burst *b, double cu_ctas, double *others)
{
    double gpu_ctas = b->together_ctas, cu_lines = b->beyond_l1 * cu_ctas, gpu_lines = b->beyond_l1 * gpu_ctas;
    double own = b->lines * cu_ctas / b->l1_banks;
    own = max2(own, max2(cu_lines - b->mshrs, 0.0) * b->hold / b->mshrs);
    own = max2(own, cu_lines * b->port_cycles);
    own = max2(own, b->dram * cu_ctas * b->dram_cycles);
    double gpu = max2(own, gpu_lines * b->bank_share * max2(b->port_cycles, 1.0));
    gpu = max2(gpu, b->dram * gpu_ctas * b->dram_cycles);
    *others = gpu - own;
    return own;
}

/* The share of a view's burst rounds in which the other CUs' bursts coincide with its own: the
 * CTAs the launch starts together burst together in their first round only; from then on each
 * CTA's rounds run at the pace of the lines it happens to be served first, and the GPU's bursts
 * fall anywhere in each other's rounds (matmul, wt, gtx480, 12 CUs: the CTAs' first barriers lie
 * within 1,145 cycles of each other, their last ones 2,627 apart, a tile step being 1,500-2,500).
 * `first_wave_ctas` of the view's `ctas` CTAs start with the launch. */
static double coinciding_round_share(const model_kernel_profile *k, double first_wave_ctas, double ctas)
{
    double rounds = k->barrier_bursts / (k->launches * k->ctas);   /* a CTA's bursts per launch */
    if (rounds <= 0 || ctas <= 0)
        return 0.0;
    return min2(first_wave_ctas / ctas, 1.0) / max2(rounds, 1.0);
}

/* The share of a CU's other CTAs whose burst rounds run in step with a CTA's, of `cu_ctas` CTAs
 * a CU holding them, `merged_share` of the bursts having a read that merged with the CU's miss
 * of the line in flight (profile.h: barrier_bursts_merged). Under loose round-robin issue a CU's
 * CTAs that read the same lines reach them together: the first misses, the others merge with its
 * miss, and all of them end the burst with the same fill, then compute together on the CU's
 * stations and burst again together; CTAs reading other lines drift apart, each at the pace its
 * own lines come back, and compute while the others wait. Where the CTAs fall in groups of g
 * reading the same lines, g - 1 of a group's g bursts merge: g = 1 / (1 - merged_share), at most
 * the CU's CTAs; (g - 1) / (cu_ctas - 1) of a CTA's companions wait out its bursts with it, and
 * that share of the wait leaves the CU's stations idle (matmul small on rcc-gpu, lrr, 24 KiB:
 * each CU's 3 CTAs share B's tile column at 12 CUs, and the detailed run takes 15,618 cycles
 * against 11,676 under gto; at 14 CUs none share and lrr costs nothing: 11,777 against 12,628). */
static double in_step_share(double merged_share, double cu_ctas)
{
    if (cu_ctas <= 1.0 || merged_share <= 0)
        return 0.0;
    double together = 1.0 / max2(1.0 - merged_share, 1.0 / cu_ctas);
    return (together - 1.0) / (cu_ctas - 1.0);
}

/* Stations every CU shares: their load comes from all CUs' warps, not only from the population. */
static const int shared_stations[] = {BANK_IN, HOT_BANK_IN, L2_BANK, HOT_L2_BANK, L3_BANK, DRAM, BANK_OUT, HOT_BANK_OUT};

/* The network as one CU of `warps_per_cu` resident warps sees it: every active CU's own
 * stations carry that many warps, and the shared stations the load of `total_warps` warps at
 * the same per-warp rate; the warps wait at barriers for bursts of those CTAs to drain. Returns
 * that rate (warp instructions per cycle per warp). `slower_rate`: a per-warp rate this view's
 * warps certainly reach (that of a view with more warps on every station), or 0. */
static double solve_view(network *net, const memory_paths *m, const burst *b, double warps_per_cu, double total_warps,
                         double warps_per_cta, double miss_share, double slower_rate)
{
    net->population = warps_per_cu * net->replicas[ISSUE];
    net->miss_share = miss_share;
    net->queue_demand[PORT_IN] = max2(net->demand[PORT_IN] + (miss_share - 1.0) * net->port_in_reads, 0.0);
    net->burst_waits = b->waits;
    net->burst_span = b->span;
    net->burst_drain = b->waits > 0 ? burst_drain(b, warps_per_cu / warps_per_cta, &net->burst_others) : 0.0;
    net->burst_coinciding = b->coinciding_share;
    net->burst_in_step = b->waits > 0 ? in_step_share(b->merged_share, warps_per_cu / warps_per_cta) : 0.0;
    net->burst_read_share = b->read_share;
    net->burst_lines = b->beyond_l1 * warps_per_cu / warps_per_cta;
    /* The slowest line of a burst's round (the CU's lines in flight at once, at most its MSHRs)
     * comes from beyond the L2 or from DRAM if any of them does. */
    double reads = m->mshrs.lines, round = min2(net->burst_lines, m->mshrs.servers);
    bool bursts = b->waits > 0 && reads > 0;
    /* A group's views share its read mix, so a view whose round has as many lines as the last
     * one's (the busiest view solved again; rounds capped at the MSHRs) has the same odds; and
     * without near reads the two odds are one (no second pow()). */
    if (!(round == net->burst_round)) {
        net->burst_round = round;
        net->burst_from_dram = bursts ? load_misses_any_of(m->dram_read_lines / reads, round) : 0.0;
        net->burst_beyond_l2 = !bursts                    ? 0.0
                               : m->near_read_lines == 0 ? net->burst_from_dram
                                                         : load_misses_any_of((m->near_read_lines + m->dram_read_lines) / reads, round);
    }
    /* The in-step CTAs' waits off the stations (cycle_at) leave the network solved at their compute
     * phase's rate; the memory trip's stations carry the requests at the warps' mean rate, that
     * rate's share of the network's (trip_rate), which the solution gives: solved again until it
     * settles. Taking the settled rate as the next guess converges linearly (backprop's views took
     * 5-28 solves); the secant through the last two guesses' gaps, while it stays in (0, 1], takes
     * a few. The first guess is the rate of the unloaded network (cycle_at at no throughput: one
     * evaluation, no solve; no station queues there), mostly nearer the settled rate than 1 (no
     * waits off the stations): backprop's in-step views took 6.5 solves a view from 1, 5.9 from it,
     * matmul's 4.5 and 4.0; dlb's, whose gap bends near its root, 2.7 and 3.0 (callgrind, bench
     * model; docs/model-speed.md, session 34). It stops when the gap is within 1e-8 of the rate, the
     * precision of the solve's own throughput (solve: about 1e-8): a pass more moves the rate by
     * less than the solve resolves (backprop 5.9 -> 5.75 solves a view, matmul 4.0 -> 3.5). */
    double trip_rate = 1.0, cycle = 0, last_rate = 0, last_gap = 0;
    if (net->burst_in_step > 0) {
        double slope, unloaded = cycle_at(net, m, 0.0, &slope), rate = unloaded / (unloaded + net->burst_blocked);
        if (rate > 0 && rate <= 1)
            trip_rate = rate;
    }
    for (int pass = 0; pass < SOLVE_ITERATIONS; pass++) {
        for (int k = 0; k < QUEUE_LANES; k++)
            net->load_share[k] = k >= FIRST_TRIP_STATION ? trip_rate : 1.0;
        for (size_t s = 0; s < sizeof shared_stations / sizeof shared_stations[0]; s++)
            net->load_share[shared_stations[s]] = trip_rate * total_warps / net->population;
        solve(net, m, slower_rate * net->population);
        cycle = net->population / net->throughput;
        double gap = cycle / (cycle + net->burst_blocked) - trip_rate;
        if (!(fabs(gap) > 1e-8))
            break;
        double next = trip_rate + gap;
        if (pass > 0 && gap != last_gap) {
            double secant = trip_rate - gap * (trip_rate - last_rate) / (gap - last_gap);
            if (secant > 0 && secant <= 1)
                next = secant;
        }
        last_rate = trip_rate;
        last_gap = gap;
        trip_rate = next;
    }
    net->throughput = net->population / (cycle + net->burst_blocked);
    return net->throughput / net->population;
}

/* The cycles of a launch's longest warp alone, a floor under its CU's busy time: a CTA ends with
 * its last warp, and a warp issuing more instructions than its CTA's others runs its last ones
 * with them gone, each at its own unloaded cost (cycle_at with no throughput: no station queues).
 * The unloaded cycle is the cycle without memory waits (issue, SIMD, LSU and the compute, control
 * and sync delays: what every instruction pays on average) plus the memory waits (the loads'
 * latencies, the SC core's order waits, the bursts' waits), which belong to the global accesses:
 * the warp pays the first for each of its instructions and the second, per global access, for
 * each of its own. radix_move's rank loop counts the earlier threads' digits in shared memory, so
 * on sahc-apu (64-thread warps, one per scheduler) its warp 3 runs 255 iterations and warp 0 63:
 * the detailed launch takes 5,203 cycles, the warps' mean instructions at the network's rate
 * 2,689. reduction's warp 0 runs the shared-memory tree's last levels: on rcc-gpu its 24 extra
 * instructions (of 182) are shared and ALU steps, not the mean instruction's DRAM loads. Leaves
 * the network's residences at that cycle: called after the view is taken. */
static double longest_warp_alone(network *net, const memory_paths *m, const model_group_terms *terms)
{
    double slope, lone_cycle = cycle_at(net, m, 0.0, &slope) + net->burst_blocked;
    if (!isfinite(lone_cycle))
        return 0.0;
    const double *r = net->residence;
    double own_cycle = net->delay + r[ISSUE] + r[SIMD] + r[LSU];
    double global_share = terms->global_instructions * terms->per_instruction;   /* global accesses per instruction */
    double wait_per_access = global_share > 0 ? (lone_cycle - own_cycle) / global_share : 0.0;
    return terms->longest_warp_per_launch * own_cycle + terms->longest_warp_global_per_launch * wait_per_access;
}

/* The use of the busiest of the stations a launch's leads leave idle (the load/store unit, the
 * MSHRs and store buffer, and the trip's), U_k = X D_k s_k / m_k at the solved throughput (the
 * entries': their mean occupancy over their count). Taken right after the view's solve. */
static double memory_use(const network *net, const memory_paths *m)
{
    double use = 0;
    for (int k = LSU; k < STATION_COUNT; k++) {
        double servers = k == MSHR ? m->mshrs.servers : k == STORE_BUFFER ? m->store_buffer.servers : 1.0;
        if (isfinite(servers) && servers > 0)
            use = max2(use, net->throughput * net->demand[k] * net->load_share[k] / (net->replicas[k] * servers));
    }
    return use;
}

/* The cycles a CU's first CTAs take for their warps' leads (profile.h: first_access_leads): they
 * start together, so each warp issues its instructions before its first access in step with the
 * others under loose round-robin issue (none of them waits for anything), at the CU's issue rate and
 * its SIMD units' rate for their ALU instructions, before any line is asked for. (stencil under
 * nol1 on qr-apu: each 64-thread warp issues 23 ALU instructions before its first load, 7 of them
 * parameter loads; the 32 warps of a CU's 8 CTAs take ~736 cycles of its one ALU instruction a
 * cycle, and its port in, saturated for the rest of the launch, carries nothing for the first
 * ~700 cycles of each launch.) Under greedy-then-oldest issue (gpu.scheduler gto) the oldest
 * warp issues its whole lead and its first access before the others issue: its lines are asked
 * for after one warp's lead, and the others' leads overlap them (no such phase). */
static double lead_cycles(const model_kernel_profile *k, const model_point *p, double warps)
{
    if (p->oldest_first || k->first_access_warps <= 0)
        return 0.0;
    double lead = k->first_access_leads / k->first_access_warps, alu = k->first_access_lead_alu / k->first_access_warps;
    return warps * max2(alu * p->alu_cycles, lead / p->issue_rate);
}

/* ---- GSI ---- */

/* GSI categories in Algorithm 2's order after no_stall, with the share of a warp's time in each. */
static const int stall_order[] = {GSI_MEM_STRUCT, GSI_MEM_DATA, GSI_SYNC, GSI_COMP_STRUCT, GSI_COMP_DATA, GSI_CONTROL};
enum { STALL_KINDS = 6 };

/* base^n for a whole n by repeated squaring: a few multiplications instead of pow(). */
static double whole_power(double base, unsigned n)
{
    double result = 1.0;
    for (; n; n >>= 1, base *= base)
        if (n & 1)
            result *= base;
    return result;
}

static void charge_stalls(const double share[STALL_KINDS], unsigned warps_per_cu, double busy_cycles,
                          double no_stall_share, double stalls[GSI_CATEGORY_COUNT])
{
    double total = 0;
    for (int s = 0; s < STALL_KINDS; s++)
        total += share[s];
    stalls[GSI_NO_STALL] += busy_cycles * no_stall_share;
    if (total <= 0) {
        stalls[GSI_NO_STALL] += busy_cycles * (1.0 - no_stall_share);
        return;
    }
    /* none_through[s]: 1 - F_through(c_s), and its power: P(no warp in c_s or an earlier category). */
    double none_through[STALL_KINDS], none_through_power[STALL_KINDS], none_before = 1.0, none_power = 1.0;
    for (int s = 0; s < STALL_KINDS; s++)
        none_before = none_through[s] = max2(none_before - share[s] / total, 0.0);
    for (int s = 0; s < STALL_KINDS; s++)   /* a category without share: the power of the one before */
        none_through_power[s] = s > 0 && none_through[s] == none_through[s - 1] ? none_through_power[s - 1]
                                                                                 : whole_power(none_through[s], warps_per_cu);
    for (int s = 0; s < STALL_KINDS; s++) {
        stalls[stall_order[s]] += busy_cycles * (1.0 - no_stall_share) * (none_power - none_through_power[s]);
        none_power = none_through_power[s];
    }
}

/* What the GSI split needs of a solved view (solve_view), kept while the network solves the next. */
typedef struct view {
    double mem_struct, mem_data, burst_wait, order_wait, comp_struct;   /* per warp instruction */
    /* Of those waits, the in-step CTAs' off the stations, of that mem_data's, and the cycles they
     * charge to mem_struct and to mem_data (view_of). */
    double blocked, blocked_mem, blocked_struct, blocked_data;
    double population, throughput;
} view;

/* GSI's categories of the in-step CTAs' blocked cycles (cycle_at's burst_blocked), in Algorithm
 * 2's order: while the CU's burst has more lines than its MSHRs, warps wait for one (mem_struct;
 * the first of the burst's rounds of MSHRs that are not its last); then for the slowest line as
 * for their loads, by data (mem_data) or by order (sync). Taken from the solved network only, not
 * at every sample of the solve. */
static view view_of(const network *net, const memory_paths *m)
{
    double load_waits = net->mem_delay;
    if (m->order_reads)
        load_waits += net->order_wait;
    double for_mshrs = net->burst_lines > m->mshrs.servers ? 1.0 - m->mshrs.servers / net->burst_lines : 0.0;
    double data_share = load_waits > 0 ? net->mem_delay / load_waits : 0.0;
    return (view){
        .mem_struct = net->residence[LSU] + net->residence[MSHR] + net->residence[STORE_BUFFER],
        .mem_data = net->mem_delay, .burst_wait = net->burst_wait, .order_wait = net->order_wait,
        .comp_struct = net->residence[SIMD],
        .blocked = net->burst_blocked, .blocked_mem = net->burst_in_step * net->burst_read_share * net->mem_delay,
        .blocked_struct = for_mshrs * net->burst_blocked,
        .blocked_data = (1.0 - for_mshrs) * data_share * net->burst_blocked,
        .population = net->population, .throughput = net->throughput,
    };
}

/* Charges `busy_cycles` CU cycles of a solved view to the GSI categories (charge_stalls); none
 * when there are none. While in-step CTAs wait out their bursts together every warp of theirs
 * waits, so those cycles are the waits' own (mem_struct while the burst waits for MSHRs, then
 * mem_data or sync as their loads wait by data or by order; cycle_at); the rest is the network's,
 * at its rate while they compute. */
static void charge_view(const view *v, double active_cus, double z_sync, double z_comp, double z_ctrl,
                        double issue_spread, double busy_cycles, double stalls[GSI_CATEGORY_COUNT])
{
    if (busy_cycles == 0)
        return;
    double cycle = v->population / v->throughput, blocked_cycles = busy_cycles * v->blocked / cycle;
    if (v->blocked > 0) {
        stalls[GSI_MEM_STRUCT] += blocked_cycles * v->blocked_struct / v->blocked;
        stalls[GSI_MEM_DATA] += blocked_cycles * v->blocked_data / v->blocked;
        stalls[GSI_SYNC] += blocked_cycles * (1.0 - (v->blocked_struct + v->blocked_data) / v->blocked);
    }
    double share[STALL_KINDS] = {v->mem_struct, v->mem_data - v->blocked_mem,
                                 z_sync + v->burst_wait + v->order_wait - (v->blocked - v->blocked_mem), v->comp_struct,
                                 z_comp, z_ctrl};
    double computing = v->population / (cycle - v->blocked);
    charge_stalls(share, (unsigned)(v->population / active_cus + 0.5), busy_cycles - blocked_cycles,
                  min2(1.0, issue_spread * computing / active_cus), stalls);
}

/* ---- one kernel group ---- */

/* A bank-side station's demand per warp instruction, `total` of it over all banks: the hot bank
 * (the one of the group's hottest line) takes the hottest line's `hot` and its share of the rest,
 * the other banks the rest of the rest. */
static void split_banks(network *net, int spread, int hot_bank, double total, double hot, double banks)
{
    net->demand[spread] = (total - hot) * (1.0 - 1.0 / banks);
    net->replicas[spread] = max2(banks - 1.0, 1.0);
    net->demand[hot_bank] = hot + (total - hot) / banks;
    net->replicas[hot_bank] = 1;
}

/* The cycles a CU's load/store unit stays held by loads it refuses while their warp's write to
 * the line is in flight (LSU above; under an SC core the order keeps such a load from issuing),
 * at unloaded latencies: each waits the L2 trip plus the write wait less its gap's instructions,
 * each taking `gap_cycle` (an instruction's unloaded cycle without memory waits). */
static double own_line_holds(const model_kernel_profile *k, const model_point *p, const model_demand *d, double gap_cycle)
{
    if (!d->loads_wait_own_writes || d->one_access_at_a_time || k->own_line_summary.size == 0)
        return 0.0;
    double short_count, short_gaps;
    return reuse_shortfall(&k->own_line_summary, p->l2_latency + d->write_wait, gap_cycle, &short_count, &short_gaps);
}

/* The invalidation copies the active CUs' in ports take (the port-in station's replicas are the
 * active CUs): a broadcast puts one copy into every L1, so an active CU's port takes one per
 * injection however many CUs idle, and the copies into idle CUs load no active port (qr's
 * radix_count on sahc-apu: 16 CTAs on 32 CUs, and the idle CUs' ports take as many invalidation
 * bytes as the active ones'); copies to the sharers go to active CUs only. */
static double invalidations_on_active_cus(const model_demand *d, const model_point *p, double active_cus)
{
    if (!d->invalidations_broadcast || p->cu_count <= 0)
        return d->invalidation_deliveries;
    return d->invalidation_deliveries * min2(active_cus / p->cu_count, 1.0);
}

/* What a solved group's prediction (charge_group) takes from its solve (solve_group). */
typedef struct solved_group {
    placement where;
    view busiest_view, tail_view, fewer_view;
    /* Greedy-then-oldest issue's drain (oldest_first.h): with m of the busiest CU's CTAs left, its
     * view and its share of the busy cycles, for m = 1 .. drain_phases (0: no such drain). */
    int drain_phases;
    view drain_view[OLDEST_FIRST_MAX_CTAS - 1];
    double drain_share[OLDEST_FIRST_MAX_CTAS - 1];
    bool fewer_resident;
    double resident;                     /* CTAs a CU holds at once */
    double busy, fewer_busy, tail_share;   /* a busiest and a fewer-CTA CU's busy cycles; the tail's share */
    double dma_busiest, dma_fewer;       /* their cycles blocked by DMA transfers */
    dma_transfer dma;
    double kernel_end_wait, backlog, launch_cycles;
    double z_sync, z_comp, z_ctrl;
    double l2_reads, memory_reads, atomics;
    double per_instruction;              /* the busiest CU's GPU cycles per warp instruction of its own */
} solved_group;

/* Solves a group's network for its demand `d` and its DMA transfers `dma` (dma_transfer_of at the
 * point) into `g`; false for a group without instructions (nothing to predict). Of the point it
 * reads neither the cache sizes nor the profile key (memo_use_of). Inlined into its one caller,
 * solve_group_once. */
static inline __attribute__((always_inline)) bool solve_group(const model_kernel_profile *k, const model_point *p,
                                                              const model_params *params, const model_demand *d,
                                                              bool last_group, const dma_transfer *dma,
                                                              solved_group *g)
{
    const double *theta = params->value;
    const model_group_terms *terms = &k->terms;
    double launches = k->launches;
    if (terms->instructions_per_launch <= 0)
        return false;
    double resident = model_resident_ctas(k, p);
    placement where = place_ctas(k, p, resident);
    double per = terms->per_instruction;   /* totals -> per warp instruction */

    double read_instructions = terms->read_instructions;
    double near_reads = d->read_lines_cpu + d->read_lines_l3, memory_reads = near_reads + d->read_lines_dram;
    double read_lines = d->read_lines_l1 + d->read_lines_l2 + memory_reads;
    double l2_reads = d->read_lines_l2 + memory_reads;
    double l2_misses = memory_reads + min2(d->write_lines_missed, d->write_lines);   /* as model_core_evaluate counts them */
    memory_paths paths = {
        .l1_latency = p->l1_latency, .dram_latency = p->dram_latency,
        .l2_latency = p->l2_latency +
                      (d->read_lines_l2 > 0 ? min2(d->read_lines_forwarded / d->read_lines_l2, 1.0) * d->forward_latency : 0.0),
        .near_latency = near_reads > 0 ? (d->read_lines_cpu * p->cpu_latency + d->read_lines_l3 * p->l3_latency) / near_reads
                                       : p->l3_latency,
        .l2_read_lines = d->read_lines_l2 * per, .near_read_lines = near_reads * per,
        .dram_read_lines = d->read_lines_dram * per, .write_lines = d->write_lines * per,
        .memory_lines = p->l3_lines > 0 ? (memory_reads + d->write_lines_dram) * per : 0.0,   /* no L3: no lookup slot */
        .dram_lines = (d->read_lines_dram + d->write_lines_dram) * per,
        .dirty_victim_share = l2_misses > 0 ? min2(d->write_lines_dram / l2_misses, 1.0) : 0.0,
        .requests = (l2_reads + d->write_lines) * per,
        .exposed_loads = theta[MODEL_LATENCY_EXPOSURE] *
                         (read_instructions - (d->one_access_at_a_time ? k->order_reads_summary.total : 0.0)) * per,
    };
    /* A read's lines beyond the L1 miss together (load_misses.h; and those the L1 lost together,
     * reads_needing_l2): J of them per missing read, of which the L2 misses any (J lines
     * independently) or, without L2 read hits, all; and without near reads every memory read is a
     * DRAM read (no second or third pow()). */
    double missing_reads = reads_needing_l2(terms, d, l2_reads, read_lines, read_instructions);
    double lines_per_missing_read = missing_reads > 0 ? l2_reads / missing_reads : 0.0;
    paths.needs_l2 = read_instructions > 0 ? min2(missing_reads / read_instructions, 1.0) : 0.0;
    paths.needs_memory = memory_reads == l2_reads ? paths.needs_l2
                         : l2_reads > 0 ? paths.needs_l2 * load_misses_any_of(memory_reads / l2_reads, lines_per_missing_read)
                                        : 0.0;
    paths.needs_dram = d->read_lines_dram == memory_reads ? paths.needs_memory
                       : l2_reads > 0 ? paths.needs_l2 * load_misses_any_of(d->read_lines_dram / l2_reads, lines_per_missing_read)
                                      : 0.0;
    paths.own_answers_wait =
        load_misses_port_wait(lines_per_missing_read, l2_reads > 0 ? d->read_lines_l2 / l2_reads : 0.0, p->noc_data_cycles);
    double read_lines_beyond_l1 = paths.l2_read_lines + paths.near_read_lines + paths.dram_read_lines;
    /* The reads that need the L2 send their lines beyond the L1 together. */
    paths.mshrs = (entries){read_lines_beyond_l1, read_lines_beyond_l1 / where.active, p->l1_mshrs, 1.0 / p->l1_mshrs,
                            batch_rounds(paths.needs_l2 * read_instructions * per, read_lines_beyond_l1, p->l1_mshrs)};
    /* Without a store buffer (l1.store_buffer_entries 0) each store writes through and holds no
     * entry: no requests, unbounded entries. */
    bool buffered = p->store_buffer_entries > 0;
    paths.store_buffer = buffered ? (entries){paths.write_lines, paths.write_lines / where.active, p->store_buffer_entries,
                                              1.0 / p->store_buffer_entries, 0.0}
                                  : (entries){0.0, 0.0, INFINITY, 0.0, 0.0};
    paths.per_read_line = reciprocal(read_lines_beyond_l1);
    paths.per_request = reciprocal(paths.requests);
    paths.per_memory_line = reciprocal(paths.memory_lines);
    paths.per_dram_line = reciprocal(paths.dram_lines);
    paths.per_instruction = per;
    paths.write_wait = d->write_wait;
    paths.write_l1_share = d->write_l1_share;
    if (d->one_access_at_a_time) {
        paths.order_reads = &k->order_reads_summary, paths.order_writes = &k->order_writes_summary;
        paths.order_final_writes = &k->order_final_write_summary;
        paths.final_write_lead = k->order_final_write_summary.total > 0
                                     ? k->order_final_write_leads / k->order_final_write_summary.total
                                     : 0.0;
        /* The busiest CU's CTAs beyond those it holds at once each follow one in its slots. */
        paths.successor_share = max2(where.busiest_ctas - min2(where.busiest_ctas, resident), 0.0) / where.busiest_ctas;
    }
    double global_instructions = terms->global_instructions;
    double lsu_cycles = global_instructions > 0 ? global_instructions * max2(1.0, terms->lines_per_global / p->l1_banks)
                                                : 0.0;
    double atomics = min2(d->atomic_lines, l2_reads), requests = l2_reads + d->write_lines;
    double hot_atomics = atomics * k->atomic_hottest_share, hot_loads = min2(d->hot_load_lines, l2_reads - atomics);
    /* Port cycles of the requests (reads: a header; writes and atomics: a line) and the answers
     * (reads: a line, renewals a header; writes and atomics: a header). */
    double cycles_out = (l2_reads - atomics + d->marker_messages + d->invalidation_acks) * p->noc_header_cycles +
                        (d->write_lines + atomics) * p->noc_data_cycles;
    double cycles_back = (l2_reads - atomics - d->renewed_lines) * p->noc_data_cycles +
                         (d->write_lines + atomics + d->marker_messages + d->renewed_lines) * p->noc_header_cycles;
    /* A multicast invalidation holds its bank's out port once and each L1's in port. */
    double bank_out_cycles = cycles_back + d->invalidation_injections * p->noc_header_cycles;
    double port_in_cycles = cycles_back + invalidations_on_active_cus(d, p, where.active) * p->noc_header_cycles;
    double dram_lines = d->read_lines_dram + d->write_lines_dram;
    /* GPU cycles a channel takes per line of this group's DRAM stream (its row locality, and the
     * read/write turnarounds of its write-backs and written-through lines among its reads). */
    double dram_written = d->write_lines_dram + d->write_through_lines;
    double stream_line = dram_channel_line_cycles(p, terms->dram_row_hit_share,
                                                  dram_written > 0 ? dram_written / (d->read_lines_dram + dram_written) : 0.0,
                                                  terms->dram_turnaround_share);
    /* A banked scratchpad's conflicts hold the load/store unit and delay the access's result. */
    double conflict_cycles = p->scratchpad_banked ? k->shared_conflict_cycles : 0.0;
    double z_comp = theta[MODEL_DEPENDENCE_EXPOSURE] *
                    (k->alu * p->alu_latency + k->sfu * p->sfu_latency + k->shared_accesses * p->shared_latency +
                     conflict_cycles) * per;
    double z_ctrl = k->branches * p->branch_penalty * per;
    double release_latency = d->release_latency > 0 ? d->release_latency : p->l2_latency;
    double releases = d->one_access_at_a_time ? 0.0 : k->releases + k->barriers * d->barrier_releases;
    double z_sync = (theta[MODEL_BARRIER_CYCLES] * k->barriers + releases * release_latency) * per;
    double simd_demand = (k->alu * p->alu_cycles + k->sfu * p->sfu_cycles) * per;
    double lsu_demand = (lsu_cycles + k->shared_accesses + conflict_cycles) * per;
    network net = {
        .demand = {
            [ISSUE] = 1.0 / p->issue_rate,
            [SIMD] = simd_demand,
            [LSU] = lsu_demand + own_line_holds(k, p, d, z_comp + z_ctrl + z_sync + 1.0 / p->issue_rate + simd_demand +
                                                                lsu_demand) * per,
            [PORT_OUT] = cycles_out * per, [L3_BANK] = paths.memory_lines,
            [DRAM] = dram_lines * stream_line * per, [PORT_IN] = port_in_cycles * per,
        },
        .replicas = {
            [ISSUE] = where.active, [SIMD] = where.active, [LSU] = where.active, [MSHR] = where.active,
            [STORE_BUFFER] = where.active, [PORT_OUT] = where.active,
            [L3_BANK] = max2(banks_in_use(k->inflight_positions, k->inflight_l3_banks_held, p->l3_banks), 1),
            [DRAM] = p->dram_channels, [PORT_IN] = where.active,
        },
        .delay = z_comp + z_ctrl + z_sync,
        .burst_round = NAN,
        .port_in_reads = (l2_reads - atomics) * p->noc_data_cycles * per,
    };
    /* The L2 banks that carry the lines in flight together take the requests, the CUs in step. */
    double l2_banks = banks_in_use(k->inflight_positions, k->inflight_l2_banks_held, p->l2_banks);
    split_banks(&net, BANK_IN, HOT_BANK_IN, cycles_out * per,
                (hot_atomics * p->noc_data_cycles + hot_loads * p->noc_header_cycles) * per, l2_banks);
    /* A write-through L2's bank performs an atomic only when the line's DRAM channel has room for
     * its write (write_through_backlog): the hot line's atomics, all on one channel, leave its bank
     * one per channel line time once they have filled that channel's queues (histogram's bins on
     * qr-apu: 512 atomics on one line per launch of histogram_global, which the detailed run
     * performs in 4,897 cycles, 10 GPU cycles a line, counting 451 DRAM writes). The line's writes
     * all hit its bank's open row, so its channel takes one per line time, the bus's rate: the
     * other traffic's row misses (dram_rows.h) are not theirs. */
    double hot_atomic_extra = 0.0;
    if (d->write_through_lines > 0 && hot_atomics > 0) {
        double channel_line = p->dram_line_cycles;
        double queued = p->dram_queue_lines / p->dram_channels, per_launch = hot_atomics / launches;
        hot_atomic_extra = max2(per_launch - queued, 0.0) * launches * max2(channel_line - 1.0, 0.0);
    }
    /* An ownership protocol's hot line moves from L1 to L1 through its directory bank, which holds it
     * for each transfer (d->hot_line_hold_cycles): that bank serves nothing else of it meanwhile. */
    split_banks(&net, L2_BANK, HOT_L2_BANK,
                (requests + memory_reads + d->marker_messages + hot_atomic_extra + d->hot_line_hold_cycles) * per,
                (hot_atomics + hot_atomic_extra + hot_loads + d->hot_line_hold_cycles) * per, l2_banks);
    split_banks(&net, BANK_OUT, HOT_BANK_OUT, bank_out_cycles * per,
                (hot_loads * p->noc_data_cycles + hot_atomics * p->noc_header_cycles) * per, l2_banks);
    list_queues(&net);
    double burst_lines = terms->burst_lines;
    double dram_cycles = stream_line / p->dram_channels;   /* per line, GPU-wide */
    burst bursts = {
        .waits = terms->burst_waits, .lines = burst_lines, .span = terms->burst_span,
        .merged_share = k->barrier_bursts > 0 ? k->barrier_bursts_merged / k->barrier_bursts : 0.0,
        .read_share = min2(reciprocal(k->lines[MODEL_LOAD] + k->lines[MODEL_LOAD_STRONG] + k->lines[MODEL_ATOMIC]) *
                           k->barrier_burst_lines, 1.0),
        .beyond_l1 = read_lines > 0 ? burst_lines * l2_reads / read_lines : 0.0,
        .dram = read_lines > 0 ? burst_lines * d->read_lines_dram / read_lines : 0.0,
        .l1_banks = p->l1_banks, .mshrs = p->l1_mshrs,
        .hold = read_hold(&paths, paths.l2_latency, paths.near_latency, paths.dram_latency),
        .port_cycles = p->noc_data_cycles, .bank_share = burst_bank_share(k, p->l2_banks),
        .dram_cycles = dram_cycles,
    };
    /* The busiest CUs decide the launch's length: their warps' rate with their own population on
     * their stations. A CU holding fewer CTAs, all at once, runs its warps at their own rate; one
     * holding as many at once as the busiest at the busiest's rate. Each view is solved on the
     * same network in turn (solve_view sets everything that differs). CUs holding as many CTAs at
     * once run their rounds in step, and their bursts coincide; CUs holding fewer run at another
     * pace, so their bursts fall anywhere in the others' rounds. */
    burst fewer_bursts = bursts, tail_bursts = bursts;
    bursts.together_ctas = where.busiest_cus * where.busiest_warps / k->warps_per_cta;
    fewer_bursts.together_ctas = (where.active - where.busiest_cus) * where.fewer_warps / k->warps_per_cta;
    tail_bursts.together_ctas = where.tail_warps / k->warps_per_cta;
    double fewer_ctas = where.fewer_ctas, busiest_ctas = where.busiest_ctas;
    bursts.coinciding_share = coinciding_round_share(k, min2(busiest_ctas, resident), busiest_ctas - where.tail_ctas);
    fewer_bursts.coinciding_share = coinciding_round_share(k, min2(fewer_ctas, resident), fewer_ctas);
    tail_bursts.coinciding_share = 0.0;
    double busiest = terms->busiest_per_launch, cta_work = busiest / where.busiest_ctas;
    double busiest_share =
        load_misses_beyond_share(terms->busiest_miss_share, k->l1_missing_load_lines, read_lines, l2_reads);
    double fewer_share =
        load_misses_beyond_share(load_misses_fewer_share(k, where.busiest_cus), k->l1_missing_load_lines, read_lines,
                                 l2_reads);
    double busiest_rate = solve_view(&net, &paths, &bursts, where.busiest_warps, where.warps, k->warps_per_cta,
                                     busiest_share, 0.0);
    g->busiest_view = view_of(&net, &paths), g->tail_view = g->busiest_view, g->fewer_view = g->busiest_view;
    /* The busiest CU's first CTAs' leads, and (only where they have one) its busiest memory
     * station's use at this view's solution, which later solves overwrite. */
    double lead = lead_cycles(k, p, where.busiest_warps);
    double busiest_memory_use = lead > 0 ? memory_use(&net, &paths) : 0.0;
    double final_write_wait = net.final_write_wait;   /* the busiest CU's last stores, for the kernel end */
    double longest_warp_busy = longest_warp_alone(&net, &paths, terms);
    bool fewer_resident = where.fewer_ctas > 0 && where.fewer_warps < where.busiest_warps;
    double fewer_rate = busiest_rate;
    if (fewer_resident) {
        /* Each CU loads the shared stations at its own warps' rate: solved once with every warp at
         * the view's rate, then once more with the other CUs' warps at the rate found for them. A
         * view whose second load is its first (both views at one rate: a shared station saturated,
         * whose capacity every warp shares alike) would repeat its first solve, a function of the
         * same inputs: it keeps it (bit-identical, docs/model-speed.md session 29). */
        double busiest_load = where.busiest_cus * where.busiest_warps;
        double fewer_load = (where.active - where.busiest_cus) * where.fewer_warps;
        fewer_rate = solve_view(&net, &paths, &fewer_bursts, where.fewer_warps, where.warps, k->warps_per_cta, fewer_share,
                                busiest_rate);
        g->fewer_view = view_of(&net, &paths);
        double busiest_total = busiest_load + fewer_load * fewer_rate / busiest_rate;
        bool busiest_again = busiest_total != where.warps;
        if (busiest_again) {
            busiest_rate =
                solve_view(&net, &paths, &bursts, where.busiest_warps, busiest_total, k->warps_per_cta, busiest_share, 0.0);
            g->busiest_view = view_of(&net, &paths);
            if (lead > 0)
                busiest_memory_use = memory_use(&net, &paths);
            final_write_wait = net.final_write_wait;
        }
        double fewer_total = busiest_load * busiest_rate / fewer_rate + fewer_load;
        if (busiest_again || fewer_total != where.warps) {
            fewer_rate = solve_view(&net, &paths, &fewer_bursts, where.fewer_warps, fewer_total, k->warps_per_cta,
                                    fewer_share, busiest_rate);
            g->fewer_view = view_of(&net, &paths);
        }
    }
    double busy = busiest / (where.busiest_warps * busiest_rate), tail_share = 0;
    /* A partial last wave runs with fewer warps resident: the same network at that population. */
    if (where.tail_ctas > 0) {
        double tail_rate = solve_view(&net, &paths, &tail_bursts, k->warps_per_cta * where.tail_ctas, where.tail_warps,
                                      k->warps_per_cta, busiest_share, busiest_rate);
        g->tail_view = view_of(&net, &paths);
        double full_time = (where.busiest_ctas - where.tail_ctas) * cta_work / (where.busiest_warps * busiest_rate);
        double tail_time = cta_work / (k->warps_per_cta * tail_rate);
        busy = full_time + tail_time;
        tail_share = tail_time / busy;
    }
    /* Greedy-then-oldest issue: the CTAs a CU starts together finish one after another, the last
     * ones with fewer beside them (oldest_first.h); each CU's CTAs drain alike, the m left on the
     * busiest CUs beside at most m on the others. */
    g->drain_phases = 0;
    if (p->oldest_first && where.tail_ctas == 0 && where.busiest_ctas >= 2 &&
        where.busiest_ctas <= min2(resident, OLDEST_FIRST_MAX_CTAS)) {
        int ctas = (int)where.busiest_ctas;
        double cu_rate[OLDEST_FIRST_MAX_CTAS], finish[OLDEST_FIRST_MAX_CTAS], w = k->warps_per_cta, rate = busiest_rate;
        cu_rate[ctas - 1] = where.busiest_warps * busiest_rate;
        burst left_bursts = bursts;
        for (int m = ctas - 1; m >= 1; m--) {
            double left_ctas = where.busiest_cus * m + (where.active - where.busiest_cus) * min2(where.fewer_ctas, m);
            left_bursts.together_ctas = left_ctas;
            rate = solve_view(&net, &paths, &left_bursts, w * m, w * left_ctas, w, busiest_share, rate);
            cu_rate[m - 1] = w * m * rate;
            g->drain_view[m - 1] = view_of(&net, &paths);
        }
        oldest_first_finish(cu_rate, ctas, cta_work, finish);
        busy = finish[ctas - 1];
        for (int m = 1; m < ctas; m++)   /* m CTAs left: from the (ctas - m)-th finish to the next */
            g->drain_share[m - 1] = (finish[ctas - m] - finish[ctas - m - 1]) / busy;
        g->drain_phases = ctas - 1;
    }
    /* The leads of the busiest CU's first CTAs run before any of its memory work, which takes at
     * least its busiest memory station's share of the launch after them. */
    if (lead > 0)
        busy = max2(busy, lead + busiest_memory_use * busy);
    busy = max2(busy, longest_warp_busy);
    double fewer_busy = fewer_resident ? cta_work / (k->warps_per_cta * fewer_rate)
                                       : where.fewer_waves * cta_work / (k->warps_per_cta * busiest_rate);
    /* Scratchpad+DMA: the CUs blocked by their CTAs' transfers (GSI mem_struct, pending_dma). */
    double dma_busiest = dma_blocked_cycles(dma, p, where.busiest_ctas, resident);
    double dma_fewer = dma_blocked_cycles(dma, p, where.fewer_ctas, resident);
    double kernel_busy = max2(busy + dma_busiest, fewer_busy + dma_fewer);
    /* The release at kernel end: lines beyond what the DRAM queues take leave at the channels' rate. */
    double drain = max2(d->release_drain_lines - p->dram_queue_lines, 0.0) * dram_cycles;
    double backlog = max2(write_through_backlog(d, p, launches, kernel_busy, dram_cycles, last_group),
                          posted_write_wait(d, launches, kernel_busy, dram_cycles));
    double kernel_end_wait = drain + backlog +
                             store_buffer_flush(d, p, launches, where.active) + d->kernel_end_latency +
                             dma_writeback_tail(dma, p, where.busiest_ctas, resident) + final_write_wait;
    kernel_end_wait += earlier_lease_wait(d, p->launch_latency + theta[MODEL_LAUNCH_OVERHEAD] + kernel_end_wait);
    double launch_cycles = kernel_busy + p->launch_latency + theta[MODEL_LAUNCH_OVERHEAD] + kernel_end_wait;
    g->where = where, g->fewer_resident = fewer_resident, g->resident = resident;
    g->busy = busy, g->fewer_busy = fewer_busy, g->tail_share = tail_share;
    g->dma_busiest = dma_busiest, g->dma_fewer = dma_fewer, g->dma = *dma;
    g->kernel_end_wait = kernel_end_wait, g->backlog = backlog, g->launch_cycles = launch_cycles;
    g->z_sync = z_sync, g->z_comp = z_comp, g->z_ctrl = z_ctrl;
    g->l2_reads = l2_reads, g->memory_reads = memory_reads, g->atomics = atomics;
    g->per_instruction = terms->busiest_per_launch > 0 ? busy / terms->busiest_per_launch : 0.0;
    return true;
}

/* The GSI split of a solved group's CUs' cycles over one launch, summed over CUs (the stalls
 * table's mean rows once divided by the CU count: charge_group); it reads only the solve, the
 * point's CU count and the issue spread, so a memo keeps it with the solve (group_solve). The only
 * use of issue_spread, which therefore never moves the cycles: model_parameter_moves_cycles. */
static inline __attribute__((always_inline)) void gsi_split(const model_point *p, const model_params *params,
                                                            const solved_group *g, double stalls[GSI_CATEGORY_COUNT])
{
    const placement *where = &g->where;
    double busy = g->busy, fewer_busy = g->fewer_busy, tail_share = g->tail_share, resident = g->resident;
    double kernel_end_wait = g->kernel_end_wait, backlog = g->backlog, launch_cycles = g->launch_cycles;
    double z_sync = g->z_sync, z_comp = g->z_comp, z_ctrl = g->z_ctrl;
    bool fewer_resident = g->fewer_resident;
    /* The cycles of CUs holding fewer CTAs that run at the busiest's rate go with the busiest's
     * view (one charge_view: it is linear in the cycles). */
    double spread = params->value[MODEL_ISSUE_SPREAD];
    double busiest_cycles = where->busiest_cus * busy;
    double fewer_cycles = (where->active - where->busiest_cus) * fewer_busy;
    double fewer_at_busiest_rate = fewer_resident ? 0.0 : fewer_cycles;
    double drained_share = 0;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        stalls[c] = 0.0;
    for (int m = 0; m < g->drain_phases; m++) {
        charge_view(&g->drain_view[m], where->active, z_sync, z_comp, z_ctrl, spread, busiest_cycles * g->drain_share[m],
                    stalls);
        drained_share += g->drain_share[m];
    }
    charge_view(&g->busiest_view, where->active, z_sync, z_comp, z_ctrl, spread,
                busiest_cycles * (1 - tail_share - drained_share) + fewer_at_busiest_rate, stalls);
    charge_view(&g->tail_view, where->active, z_sync, z_comp, z_ctrl, spread, busiest_cycles * tail_share, stalls);
    charge_view(&g->fewer_view, where->active, z_sync, z_comp, z_ctrl, spread, fewer_cycles - fewer_at_busiest_rate,
                stalls);
    /* The kernel-end release: an active CU waits for its writes to drain (GSI sync, as the detailed
     * model charges a CU's cycles from kernel end until its L1 is drained); the rest is idle. A
     * write-through backlog is mem_struct instead where a CU starts CTAs after its first wave: their
     * accesses wait behind the earlier CTAs' written-through stores (vecadd on qr-apu at 204 MHz
     * DRAM: 81.0% of the detailed CU cycles in mem_struct, 0.03% in sync). */
    double backlog_struct = where->busiest_ctas > resident ? backlog : 0.0;
    stalls[GSI_SYNC] += where->active * (kernel_end_wait - backlog_struct);
    stalls[GSI_MEM_STRUCT] += where->active * backlog_struct;
    double dma_cycles = where->busiest_cus * g->dma_busiest + (where->active - where->busiest_cus) * g->dma_fewer;
    stalls[GSI_MEM_STRUCT] += dma_cycles;
    stalls[GSI_IDLE] += p->cu_count * launch_cycles - busiest_cycles - fewer_cycles - dma_cycles -
                        where->active * kernel_end_wait;
}

/* Adds a solved group's prediction to `out`: its cycles, its GSI split (`stalls`: gsi_split) over
 * its launches and its traffic. */
static inline __attribute__((always_inline)) void charge_group(const model_kernel_profile *k, const model_point *p,
                                                               const model_demand *d, const solved_group *g,
                                                               const double stalls[GSI_CATEGORY_COUNT],
                                                               model_prediction *out)
{
    double launches = k->launches;
    double l2_reads = g->l2_reads, memory_reads = g->memory_reads, atomics = g->atomics;
    const dma_transfer *dma = &g->dma;
    out->cycles += launches * g->launch_cycles;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        out->stalls[c] += launches * stalls[c] / p->cu_count;

    out->l1_hits += d->read_lines_l1;
    out->l1_misses += k->lines[MODEL_LOAD] - min2(d->read_lines_l1, k->lines[MODEL_LOAD]);
    out->l2_hits += d->read_lines_l2 + d->write_lines - min2(d->write_lines_missed, d->write_lines);
    out->l2_misses += memory_reads + min2(d->write_lines_missed, d->write_lines);
    out->cpu_probe_hits += d->read_lines_cpu;
    out->l3_hits += d->read_lines_l3;
    out->l3_misses += p->l3_lines > 0 ? d->read_lines_dram : 0.0;
    double line_message = p->line_bytes + MEMORY_MESSAGE_HEADER_BYTES;
    out->noc_bytes_to_cus += (l2_reads - d->renewed_lines) * line_message +
                             (d->write_lines + d->marker_messages + d->invalidation_deliveries + d->renewed_lines) *
                                 MEMORY_MESSAGE_HEADER_BYTES;
    out->noc_bytes_from_cus += (l2_reads - atomics + d->marker_messages + d->invalidation_acks) * MEMORY_MESSAGE_HEADER_BYTES +
                               (d->write_lines + atomics) * line_message;
    /* The DMA engines' reads (around the L1) and write-backs. */
    double dma_memory_reads = dma->reads.cpu + dma->reads.l3 + dma->reads.dram;
    out->l2_hits += dma->reads.l2;
    out->l2_misses += dma_memory_reads;
    out->cpu_probe_hits += dma->reads.cpu;
    out->l3_hits += dma->reads.l3;
    out->l3_misses += p->l3_lines > 0 ? dma->reads.dram : 0.0;
    out->noc_bytes_to_cus += k->dma_lines * line_message + k->dma_writeback_lines * MEMORY_MESSAGE_HEADER_BYTES;
    out->noc_bytes_from_cus += k->dma_lines * MEMORY_MESSAGE_HEADER_BYTES + k->dma_writeback_lines * line_message;
    out->dram_read_bytes += (d->read_lines_dram + dma->reads.dram) * p->line_bytes;
    out->dram_write_bytes += (d->write_lines_dram + d->write_through_lines + d->posted_write_lines) * p->line_bytes;
}

/* ---- a sweep's memo of solved groups (group_memo.h) ---- */

/* What an evaluation's groups share in their solves: the point without what no solve reads (the
 * cache sizes, NaN, and the profile key, zeroed: they reach a solve only through its demand and
 * its DMA reads, which are in its key) and the parameters. A solve found in a memo is found by
 * this setting and its group_key: every input solve_group and gsi_split read. */
typedef struct solve_setting {
    model_point point;
    model_params params;
} solve_setting;

/* A group's own inputs to its solve: its kernel (the profile's, constant while the memo holds
 * it), whether it is the profile's last (write_through_backlog), its demand (served into a
 * cleared demand: its padding is zero) and its DMA transfers (dma_transfer_of at the real point:
 * they read the L2's size). */
typedef struct group_key {
    const model_kernel_profile *kernel;
    uint64_t last_group;
    model_demand demand;
    dma_transfer dma;
} group_key;

/* A memo's value: the solve, and its GSI split once a charge has needed it. */
typedef struct group_solve {
    solved_group solved;
    bool has_instructions, split_done;
    double stalls[GSI_CATEGORY_COUNT];
} group_solve;

/* The memo attached to this thread and the index of this evaluation's setting in it. */
typedef struct memo_use {
    group_memo *memo;
    int setting;
    solve_setting of;
} memo_use;

/* The setting of an evaluation at `p` with `params` in the attached memo (use->memo NULL: none). */
static void memo_use_of(const model_point *p, const model_params *params, memo_use *use)
{
    use->memo = group_memo_attached();
    if (!use->memo)
        return;
    solve_setting *s = &use->of;
    memset(s, 0, sizeof *s);
    memcpy(&s->point, p, sizeof *p);
    /* The bytes between the flag and the next field, and the profile key's, compare equal. */
    memset((char *)&s->point + offsetof(model_point, oldest_first) + sizeof p->oldest_first, 0,
           offsetof(model_point, alu_cycles) - offsetof(model_point, oldest_first) - sizeof p->oldest_first);
    memset((char *)&s->point + offsetof(model_point, profile_key), 0, sizeof *p - offsetof(model_point, profile_key));
    s->point.l1_lines = NAN, s->point.l2_lines = NAN;
    s->params = *params;
    use->setting = group_memo_setting(use->memo, s, sizeof *s);
}

/* The solve of group `k` for demand `d` at the point `p`: with a memo, the one it holds for this
 * setting and the group's key, or a new one, solved at the setting's point and stored there (in
 * `own` when the memo cannot store it); without one, a new one in `own`. */
static group_solve *solve_group_once(const memo_use *use, const model_kernel_profile *k, const model_point *p,
                                     const model_params *params, const model_demand *d, bool last_group,
                                     group_solve *own)
{
    dma_transfer dma = dma_transfer_of(k, p);
    group_solve *solve = own;
    if (use->memo) {
        group_key key;
        memset(&key, 0, sizeof key);
        key.kernel = k, key.last_group = last_group, key.dma = dma;
        memcpy(&key.demand, d, sizeof *d);
        group_solve *kept = group_memo_find(use->memo, use->setting, &key, sizeof key);
        if (kept)
            return kept;
        kept = group_memo_store(use->memo, use->setting, &key, sizeof key, sizeof *kept);
        if (kept)
            solve = kept;
        p = &use->of.point;
    }
    solve->has_instructions = solve_group(k, p, params, d, last_group, &dma, &solve->solved);
    solve->split_done = false;
    return solve;
}

/* Adds a group's solve to `out` (charge_group), with its GSI split, computed at its first charge. */
static void charge_solve(const model_kernel_profile *k, const model_point *p, const model_params *params,
                         const model_demand *d, group_solve *solve, model_prediction *out)
{
    if (!solve->has_instructions)
        return;
    if (!solve->split_done)
        gsi_split(p, params, &solve->solved, solve->stalls), solve->split_done = true;
    charge_group(k, p, d, &solve->solved, solve->stalls, out);
}

void model_core_evaluate(const model_profile *profile, const model_point *point, const model_params *params,
                         model_serve_fn serve, model_prediction *out)
{
    memo_use use;
    memo_use_of(point, params, &use);
    memset(out, 0, sizeof *out);
    for (int g = 0; g < profile->kernel_count; g++) {
        const model_kernel_profile *k = &profile->kernels[g];
        bool last_group = g == profile->kernel_count - 1;
        model_demand demand;
        memset(&demand, 0, sizeof demand);
        serve(k, point, &demand);
        group_solve own;
        charge_solve(k, point, params, &demand, solve_group_once(&use, k, point, params, &demand, last_group, &own), out);
    }
}

/* A timed group's fixed point: settled when an evaluation's cycles per instruction move less than
 * this share from those it was served at, or after this many evaluations. */
#define TIMED_TOLERANCE 1e-4
enum { TIMED_EVALUATIONS = 30 };

/* The cycles per instruction to serve a timed group at next, given the last two it was served at
 * (`served`) and the cycles each evaluation predicted (`predicted`): the secant step on the
 * residual predicted - served, whose root is the fixed point. Plain substitution (serve at what
 * was predicted) converges only linearly: served at 0, 1.24, 1.85, 2.13, ... a group of lud under
 * tc-strong took 12 evaluations to settle, each step closing 55 % of the gap. The step falls back
 * to substitution where the secant is undefined or leaves the cycles' domain (not finite, or
 * negative). */
static double next_served_at(const double served[2], const double predicted[2])
{
    double residual_before = predicted[0] - served[0], residual = predicted[1] - served[1];
    double change = residual - residual_before;
    double step = change != 0.0 ? served[1] - residual * (served[1] - served[0]) / change : NAN;
    return isfinite(step) && step >= 0.0 ? step : predicted[1];
}

/* Adds every field of `part` to `into` (the assertion fails when model_prediction gains a field). */
_Static_assert(sizeof(model_prediction) == (12 + GSI_CATEGORY_COUNT) * sizeof(double),
               "add_prediction must add every field of model_prediction");
static void add_prediction(model_prediction *into, const model_prediction *part)
{
    into->cycles += part->cycles;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        into->stalls[c] += part->stalls[c];
    into->l1_hits += part->l1_hits, into->l1_misses += part->l1_misses;
    into->l2_hits += part->l2_hits, into->l2_misses += part->l2_misses;
    into->cpu_probe_hits += part->cpu_probe_hits, into->l3_hits += part->l3_hits, into->l3_misses += part->l3_misses;
    into->noc_bytes_to_cus += part->noc_bytes_to_cus, into->noc_bytes_from_cus += part->noc_bytes_from_cus;
    into->dram_read_bytes += part->dram_read_bytes, into->dram_write_bytes += part->dram_write_bytes;
}

/* Serves a timed group at `served_at` cycles per instruction into a cleared demand (its padding
 * too: two servings that give the same split compare equal byte for byte). */
static void serve_timed(model_timed_serve_fn serve, const model_kernel_profile *k, const model_point *point,
                        double served_at, model_demand *demand)
{
    memset(demand, 0, sizeof *demand);
    serve(k, point, served_at, demand);
}

int model_core_evaluate_timed(const model_profile *profile, const model_point *point, const model_params *params,
                              model_timed_serve_fn serve, model_prediction *out)
{
    int evaluations = 0;
    memo_use use;
    memo_use_of(point, params, &use);
    memset(out, 0, sizeof *out);
    for (int g = 0; g < profile->kernel_count; g++) {
        const model_kernel_profile *k = &profile->kernels[g];
        model_prediction part;
        model_demand demand, next_demand;
        group_solve own, *solved;
        double served_at = 0.0, served[2] = {0.0, 0.0}, predicted[2] = {0.0, 0.0};
        serve_timed(serve, k, point, served_at, &demand);
        /* Each evaluation solves the group; only the one it settles at is charged (its GSI split
         * and traffic), with the demand it was solved for. */
        for (int evaluation = 1;; evaluation++) {
            /* The last solve stays where it is until the next (group_memo_find). */
            solved = solve_group_once(&use, k, point, params, &demand, g == profile->kernel_count - 1, &own);
            double cycles = solved->has_instructions ? solved->solved.per_instruction : 0.0;
            evaluations++;
            if (evaluation == TIMED_EVALUATIONS || fabs(cycles - served_at) <= TIMED_TOLERANCE * cycles)
                break;
            served[0] = served[1], predicted[0] = predicted[1];
            served[1] = served_at, predicted[1] = cycles;
            served_at = evaluation == 1 ? cycles : next_served_at(served, predicted);
            serve_timed(serve, k, point, served_at, &next_demand);
            /* Served at the cycles just predicted with the same split, the group would predict
             * them again: they are the fixed point, and `solved` its solution (a group whose
             * split does not depend on time settles in one evaluation). */
            if (served_at == cycles && memcmp(&next_demand, &demand, sizeof demand) == 0)
                break;
            demand = next_demand;
        }
        memset(&part, 0, sizeof part);
        charge_solve(k, point, params, &demand, solved, &part);
        add_prediction(out, &part);
    }
    return evaluations;
}
