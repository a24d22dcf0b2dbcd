/* merged_reads.c — the L1 reads that wait for a miss's fill (merged_reads.h). */
#include "model/merged_reads.h"

double merged_read_lines(const model_kernel_profile *k, double l1_read_lines)
{
    if (k->l1_tag_serves <= 0 || l1_read_lines <= 0)
        return 0.0;
    double share = k->l1_load_merges / k->l1_tag_serves;
    return l1_read_lines * (share < 1.0 ? share : 1.0);
}
