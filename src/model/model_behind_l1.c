/* model_behind_l1.c — L2 miss ratios behind an L1 (model_behind_l1.h).
 *
 * Each L1 capacity class c of the profile holds the L2 distances of the reads that reach the L2
 * behind an L1 of 2^(c + PROFILE_L1_CLASS_FIRST) lines. For an L1 between two classes the reads'
 * misses and count are interpolated linearly in log2 of the L1's lines (the classes double);
 * below the first class, linearly in lines from no L1 (the GPU-wide stack of every request, at 0
 * lines) to the first class; above the last class, the last class stands. The ratio is the
 * interpolated misses over the interpolated reads. */
#include "model/model_behind_l1.h"

#include <math.h>

#include "model/reuse_histogram.h"

typedef struct class_reads {
    double reads, misses;
} class_reads;

static class_reads reads_of(const reuse_summary *summary, uint64_t l2_lines)
{
    return (class_reads){summary->total, summary->total - reuse_expected_hits(summary, l2_lines)};
}

double model_behind_l1_miss_ratio(const model_kernel_profile *k, double l1_lines, uint64_t l2_lines)
{
    double first = (double)profile_l1_class_lines(0), last = (double)profile_l1_class_lines(PROFILE_L1_CLASSES - 1);
    class_reads lower, upper;
    double weight;                /* of the upper end */
    if (l1_lines < first) {
        lower = reads_of(&k->l2_read_summary, l2_lines);
        upper = reads_of(&k->behind_l1_summary[0], l2_lines);
        weight = l1_lines / first;
    } else if (l1_lines >= last) {
        lower = upper = reads_of(&k->behind_l1_summary[PROFILE_L1_CLASSES - 1], l2_lines);
        weight = 0;
    } else {
        double position = log2(l1_lines / first);
        int c = (int)position;
        lower = reads_of(&k->behind_l1_summary[c], l2_lines);
        upper = reads_of(&k->behind_l1_summary[c + 1], l2_lines);
        weight = position - c;
    }
    double reads = lower.reads + weight * (upper.reads - lower.reads);
    double misses = lower.misses + weight * (upper.misses - lower.misses);
    return reads > 0 ? fmax(misses, 0.0) / reads : 0.0;
}
