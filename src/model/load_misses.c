/* load_misses.c — a group's read instructions that miss the L1 together and their answers' wait
 * at the CU's port in (load_misses.h). */
#include "model/load_misses.h"

#include <math.h>

double load_misses_any_of(double miss_ratio, double lines_per_instruction)
{
    if (miss_ratio <= 0)
        return 0.0;
    double hit_ratio = 1.0 - fmin(miss_ratio, 1.0);
    return 1.0 - (lines_per_instruction <= 1.0 ? hit_ratio : pow(hit_ratio, lines_per_instruction));
}

/* Missing lines per warp instruction. */
static double misses_per_instruction(double lines, double instructions)
{
    return instructions > 0 ? lines / instructions : 0.0;
}

void load_misses_prepare(const model_kernel_profile *k, model_group_terms *terms)
{
    /* Strong loads and atomics go beyond the L1 with every line. */
    double bypassing_reads = k->instructions[MODEL_LOAD_STRONG] + k->instructions[MODEL_ATOMIC];
    double bypassing_lines = k->lines[MODEL_LOAD_STRONG] + k->lines[MODEL_ATOMIC];
    terms->missing_reads = k->l1_missing_loads + bypassing_reads;
    terms->missing_read_lines = k->l1_missing_load_lines + bypassing_lines;
    double mean = misses_per_instruction(k->l1_missing_load_lines, k->warp_instructions);
    double busiest = misses_per_instruction(k->busiest_cu_l1_missing_lines, k->busiest_cu_instructions);
    terms->busiest_miss_share = mean > 0 && busiest > 0 ? busiest / mean : 1.0;
}

double load_misses_reads(const model_group_terms *terms, double reads, double lines, double beyond)
{
    if (beyond <= 0 || reads <= 0 || lines <= 0)
        return 0.0;
    double profiled_reads = terms->missing_reads, profiled_lines = terms->missing_read_lines;
    if (profiled_reads <= 0 || profiled_lines <= 0)
        return reads * load_misses_any_of(beyond / lines, lines / reads);
    if (beyond <= profiled_lines)
        return profiled_reads * beyond / profiled_lines;
    double other_reads = reads - profiled_reads, other_lines = lines - profiled_lines;
    if (other_reads <= 0 || other_lines <= 0)
        return fmin(profiled_reads, reads);
    return profiled_reads + other_reads * load_misses_any_of((beyond - profiled_lines) / other_lines,
                                                             other_lines / other_reads);
}

double load_misses_port_wait(double lines_per_missing_read, double l2_hit_share, double message_cycles)
{
    double together = lines_per_missing_read * l2_hit_share;
    return together > 1.0 ? 0.5 * (together - 1.0) * message_cycles : 0.0;
}

double load_misses_fewer_share(const model_kernel_profile *k, double busiest_cus)
{
    double mean = misses_per_instruction(k->l1_missing_load_lines, k->warp_instructions);
    double lines = k->l1_missing_load_lines - busiest_cus * k->busiest_cu_l1_missing_lines;
    double instructions = k->warp_instructions - busiest_cus * k->busiest_cu_instructions;
    if (mean <= 0 || k->busiest_cu_l1_missing_lines <= 0 || instructions <= 0)
        return 1.0;
    return fmax(lines, 0.0) / instructions / mean;
}

double load_misses_beyond_share(double profiled_share, double l1_missing_lines, double lines, double beyond_lines)
{
    if (beyond_lines <= 0 || l1_missing_lines <= 0 || l1_missing_lines >= beyond_lines || lines <= l1_missing_lines)
        return profiled_share;
    /* The CU's lines per instruction are the mean's; of them it misses profiled_share times the
     * mean's misses, and the mechanism sends on the same share of the rest, its L1 hits. */
    double hits_sent = (beyond_lines - l1_missing_lines) / (lines - l1_missing_lines);
    double own_hits = fmax(lines - profiled_share * l1_missing_lines, 0.0);
    return (profiled_share * l1_missing_lines + hits_sent * own_hits) / beyond_lines;
}
