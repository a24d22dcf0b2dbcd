/* model_core.c — the analytical GPU model shared by every mechanism: a closed queueing network
 * of warps solved by approximate mean-value analysis (Schweitzer), one solve per kernel group.
 *
 * Per launch of a group with I warp instructions, C CTAs of w warps:
 *   resident CTAs per CU   r = min(occupancy limit (warps, CTAs, registers, shared memory), ceil(C / CUs))
 *   active CUs             P = min(CUs, C);   population  N = r w P warps
 *   per-instruction delays (a warp waits, nothing queues):
 *     Z_mem  = a_lat * n_ld/I * (L1 + p2 (L2 - L1) + p3 (DRAM - L2)),  p2, p3 = P(a load's k lines
 *              need the L2 / DRAM) = 1 - (1 - m)^k with m the line miss ratios the mechanism gives
 *     Z_comp = a_dep * (n_alu lat_alu + n_sfu lat_sfu + n_shared lat_shared) / I
 *     Z_ctrl = n_branch * branch_penalty / I
 *     Z_sync = (c_bar n_bar + n_release L2) / I
 *   queueing stations (D = service demand per warp instruction at one of m replicas):
 *     issue      D = 1/issue_rate                          m = P
 *     SIMD/SFU   D = (n_alu alu_cycles + n_sfu sfu_cycles)/I m = P
 *     LSU        D = (global lines + shared accesses)/I     m = P   (one line per cycle)
 *     MSHRs      D = (L2 reads x their latency / MSHRs + L2 writes x L2 / store-buffer entries)/I,
 *                m = P: the limit on requests in flight per CU, as Seidmann's approximation of an
 *                M-server station (the latency itself is in Z_mem)
 *     NoC to CU  D = bytes to the CU / port bytes per cycle m = P
 *     NoC from CU, L2 bank ports: likewise                  m = P, banks
 *     L2 banks   D = L2 requests / I (one per cycle)        m = banks
 *     DRAM       D = DRAM lines * line_cycles / (e_dram I)  m = channels
 *   Schweitzer AMVA:  R_k = D_k (1 + Q_k (N-1)/N),  X = N / (Z + sum R_k),  Q_k = X R_k / m_k
 *   launch cycles  T = I_busiest / (X / P) + t_launch + o_launch   (I_busiest: the busiest CU's work)
 * GSI: a warp spends R_issue of every cycle-time Z + sum R_k ready (no_stall), R_LSU in
 * mem_struct, Z_mem and the memory queues in mem_data, Z_sync in sync, R_SIMD in comp_struct,
 * Z_comp in comp_data, Z_ctrl in control. A busy CU cycle is no_stall with probability
 * s = min(1, s_issue X/P); otherwise GSI's Algorithm 2 picks the first category (in its cycle
 * order) that some warp is in, so with per-warp stall shares f_c (normalised over stalls) and
 * n = r w resident warps, P(c) = (1 - F_before(c))^n - (1 - F_before(c) - f_c)^n. Cycles of idle
 * CUs, of CUs that finish before the busiest, and launch overhead are idle.
 * Free parameters: a_lat, a_dep, c_bar, e_dram, s_issue, o_launch (model.h).
 */
#include "model/model_core.h"

#include <math.h>
#include <string.h>

enum { ISSUE, SIMD, LSU, MSHR, NOC_TO_CU, NOC_FROM_CU, BANK_PORT, L2_BANK, DRAM, STATION_COUNT };
enum { MVA_ITERATIONS = 24 };

#define HEADER_BYTES 8.0   /* address and command of every NoC message (timing/memory_system.h) */

typedef struct network {
    double demand[STATION_COUNT], replicas[STATION_COUNT], residence[STATION_COUNT];
    double delay, population, throughput;
} network;

/* Schweitzer's approximate MVA of a closed network with one delay and STATION_COUNT queues,
 * iterated until the throughput moves by less than 1e-7 (relative), at most MVA_ITERATIONS times. */
static void solve(network *net)
{
    double queue[STATION_COUNT], share[STATION_COUNT], correction = (net->population - 1.0) / net->population;
    for (int k = 0; k < STATION_COUNT; k++) {
        share[k] = 1.0 / net->replicas[k];
        queue[k] = net->population * share[k] / STATION_COUNT;
    }
    net->throughput = 0;
    for (int iteration = 0; iteration < MVA_ITERATIONS; iteration++) {
        double cycle = net->delay;
        for (int k = 0; k < STATION_COUNT; k++) {
            net->residence[k] = net->demand[k] * (1.0 + queue[k] * correction);
            cycle += net->residence[k];
        }
        double previous = net->throughput;
        net->throughput = net->population / cycle;
        for (int k = 0; k < STATION_COUNT; k++)
            queue[k] = 0.5 * queue[k] + 0.5 * net->throughput * net->residence[k] * share[k];
        if (fabs(net->throughput - previous) < 1e-7 * net->throughput)
            break;
    }
}

static double min2(double a, double b) { return a < b ? a : b; }
static double max2(double a, double b) { return a > b ? a : b; }

/* CTAs of the group one CU holds at once (at least 1: the detailed model rejects a CTA that fits nowhere). */
static double resident_ctas(const model_kernel_profile *k, const model_point *p)
{
    double ctas = min2(p->max_ctas, floor(p->max_warps / k->warps_per_cta));
    ctas = min2(ctas, floor(p->registers / (k->registers_per_thread * k->threads_per_cta)));
    if (k->shared_bytes > 0)
        ctas = min2(ctas, floor(p->shared_bytes / k->shared_bytes));
    return max2(ctas, 1.0);
}

void model_l2_split(const model_kernel_profile *k, const model_point *p, double read_lines_beyond_l1, model_demand *out)
{
    double read_hits = reuse_expected_hits(&k->l2_read_summary, (uint64_t)p->l2_lines, (uint64_t)p->l2_ways);
    double read_misses = min2(k->l2_read_summary.total - read_hits, read_lines_beyond_l1);
    double write_hits = reuse_expected_hits(&k->l2_write_summary, (uint64_t)p->l2_lines, (uint64_t)p->l2_ways);
    out->read_lines_dram = max2(read_misses, 0.0);
    out->read_lines_l2 = read_lines_beyond_l1 - out->read_lines_dram;
    out->write_lines = k->lines[MODEL_STORE] + k->lines[MODEL_STORE_STRONG];
    out->write_lines_dram = max2(k->l2_write_summary.total - write_hits, 0.0);
}

double model_kept_l1_hits(const model_kernel_profile *k, const model_point *p)
{
    double weak_hits = reuse_expected_hits(&k->l1_summary, (uint64_t)p->l1_lines, (uint64_t)p->l1_ways);
    weak_hits = max2(weak_hits - k->remote_read_after_write, 0.0);
    double hit_ratio = k->lines[MODEL_LOAD] > 0 ? weak_hits / k->lines[MODEL_LOAD] : 0.0;
    return weak_hits + k->lines[MODEL_LOAD_STRONG] * hit_ratio;
}

/* P(at least one of k independent lines, each missing with probability m, misses). */
static double any_of(double miss_ratio, double lines_per_instruction)
{
    return miss_ratio <= 0 ? 0.0 : 1.0 - pow(1.0 - min2(miss_ratio, 1.0), max2(lines_per_instruction, 1.0));
}

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
    double before = 0;
    for (int s = 0; s < STALL_KINDS; s++) {
        double f = share[s] / total;
        double probability = whole_power(max2(1.0 - before, 0.0), warps_per_cu) -
                             whole_power(max2(1.0 - before - f, 0.0), warps_per_cu);
        stalls[stall_order[s]] += busy_cycles * (1.0 - no_stall_share) * probability;
        before += f;
    }
}

static void evaluate_group(const model_kernel_profile *k, const model_point *p, const model_params *params,
                           const model_demand *d, model_prediction *out)
{
    const double *theta = params->value;
    double launches = k->launches, I = k->warp_instructions / launches;
    if (I <= 0)
        return;
    double active = min2(p->cu_count, k->ctas), resident = min2(resident_ctas(k, p), ceil(k->ctas / p->cu_count));
    double warps_per_cu = resident * k->warps_per_cta;
    double per = 1.0 / k->warp_instructions;   /* totals -> per warp instruction */

    double read_instructions = k->instructions[MODEL_LOAD] + k->instructions[MODEL_LOAD_STRONG] + k->instructions[MODEL_ATOMIC];
    double read_lines = d->read_lines_l1 + d->read_lines_l2 + d->read_lines_dram;
    double lines_per_read = read_instructions > 0 ? read_lines / read_instructions : 1.0;
    double beyond_l1 = read_lines > 0 ? (d->read_lines_l2 + d->read_lines_dram) / read_lines : 0.0;
    double to_dram = read_lines > 0 ? d->read_lines_dram / read_lines : 0.0;
    double load_latency = p->l1_latency + any_of(beyond_l1, lines_per_read) * (p->l2_latency - p->l1_latency) +
                          any_of(to_dram, lines_per_read) * (p->dram_latency - p->l2_latency);
    double z_mem = theta[MODEL_LATENCY_EXPOSURE] * read_instructions * load_latency * per;
    double z_comp = theta[MODEL_DEPENDENCE_EXPOSURE] *
                    (k->alu * p->alu_latency + k->sfu * p->sfu_latency + k->shared_accesses * p->shared_latency) * per;
    double z_ctrl = k->branches * p->branch_penalty * per;
    double z_sync = (theta[MODEL_BARRIER_CYCLES] * k->barriers + k->releases * p->l2_latency) * per;

    double l2_reads = d->read_lines_l2 + d->read_lines_dram;
    double global_lines = 0;
    for (int a = 0; a < MODEL_ACCESS_COUNT; a++)
        global_lines += k->lines[a];
    double bytes_to_cus = l2_reads * (p->line_bytes + HEADER_BYTES) + d->write_lines * HEADER_BYTES;
    double bytes_from_cus = l2_reads * HEADER_BYTES + d->write_lines * (p->line_bytes + HEADER_BYTES);
    network net = {
        .demand = {
            [ISSUE] = 1.0 / p->issue_rate,
            [SIMD] = (k->alu * p->alu_cycles + k->sfu * p->sfu_cycles) * per,
            [LSU] = (global_lines + k->shared_accesses) * per,
            [MSHR] = ((d->read_lines_l2 * p->l2_latency + d->read_lines_dram * p->dram_latency) / p->l1_mshrs +
                      d->write_lines * p->l2_latency / p->store_buffer_entries) * per,
            [NOC_TO_CU] = bytes_to_cus / p->noc_bytes_per_cycle * per,
            [NOC_FROM_CU] = bytes_from_cus / p->noc_bytes_per_cycle * per,
            [BANK_PORT] = bytes_to_cus / p->noc_bytes_per_cycle * per,
            [L2_BANK] = (l2_reads + d->write_lines) * per,
            [DRAM] = (d->read_lines_dram + d->write_lines_dram) * p->dram_line_cycles /
                     theta[MODEL_DRAM_EFFICIENCY] * per,
        },
        .replicas = {active, active, active, active, active, active, p->l2_banks, p->l2_banks, p->dram_channels},
        .delay = z_mem + z_comp + z_ctrl + z_sync,
        .population = warps_per_cu * active,
    };
    solve(&net);
    double per_cu_rate = net.throughput / active, busiest = k->busiest_cu_instructions / launches;
    double busy = busiest / per_cu_rate, overhead = p->launch_latency + theta[MODEL_LAUNCH_OVERHEAD];
    double launch_cycles = busy + overhead;
    out->cycles += launches * launch_cycles;

    /* GSI, summed over CUs then divided by the CU count (the stalls table's mean rows). */
    double cycle_time = net.delay;
    for (int s = 0; s < STATION_COUNT; s++)
        cycle_time += net.residence[s];
    double share[STALL_KINDS] = {
        net.residence[LSU] + net.residence[MSHR],
        z_mem + net.residence[NOC_TO_CU] + net.residence[NOC_FROM_CU] + net.residence[BANK_PORT] +
            net.residence[L2_BANK] + net.residence[DRAM],
        z_sync, net.residence[SIMD], z_comp, z_ctrl,
    };
    for (int s = 0; s < STALL_KINDS; s++)
        share[s] /= cycle_time;
    double busy_cu_cycles = busy * (I / busiest);   /* the active CUs' busy cycles together */
    double stalls[GSI_CATEGORY_COUNT] = {0};
    charge_stalls(share, (unsigned)warps_per_cu, busy_cu_cycles, min2(1.0, theta[MODEL_ISSUE_SPREAD] * per_cu_rate), stalls);
    stalls[GSI_IDLE] += p->cu_count * launch_cycles - busy_cu_cycles;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        out->stalls[c] += launches * stalls[c] / p->cu_count;

    out->l1_hits += d->read_lines_l1;
    out->l1_misses += k->lines[MODEL_LOAD] - min2(d->read_lines_l1, k->lines[MODEL_LOAD]);
    out->l2_hits += d->read_lines_l2 + d->write_lines - min2(d->write_lines_dram, d->write_lines);
    out->l2_misses += d->read_lines_dram + min2(d->write_lines_dram, d->write_lines);
    out->noc_bytes_to_cus += bytes_to_cus;
    out->noc_bytes_from_cus += bytes_from_cus;
    out->dram_read_bytes += d->read_lines_dram * p->line_bytes;
    out->dram_write_bytes += d->write_lines_dram * p->line_bytes;
}

void model_core_evaluate(const model_profile *profile, const model_point *point, const model_params *params,
                         model_serve_fn serve, model_prediction *out)
{
    memset(out, 0, sizeof *out);
    for (int g = 0; g < profile->kernel_count; g++) {
        model_demand demand;
        serve(&profile->kernels[g], point, &demand);
        evaluate_group(&profile->kernels[g], point, params, &demand, out);
    }
}
