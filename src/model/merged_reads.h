/* merged_reads.h — the L1 reads that merge with a miss in flight and so wait for its fill
 * (docs/calibration.md, "A CU's in-step CTAs merge their shared reads", session 31). Under
 * loose round-robin issue (gpu.scheduler lrr) a CU's CTAs run their rounds in step, so CTAs that
 * read the same lines (matmul's B tiles, on a CU holding CTAs of one column) request them
 * together: the first misses and the others merge with its miss in its MSHR. The reuse
 * histograms count a merge as an L1 hit, but the merged read waits for the line's fill, from
 * wherever the miss is served; under greedy-then-oldest issue the CTAs are staggered and the
 * later read finds the line filled. The profiler, timing issue in the configured scheduler's
 * order, counts the merges among the loads its L1 tags serve (profile.h: l1_load_merges). */
#ifndef SYNCSCOPE_MODEL_MERGED_READS_H
#define SYNCSCOPE_MODEL_MERGED_READS_H

#include "model/profile.h"

/* Of a group's `l1_read_lines` read lines served by the L1, those that merge with a miss in
 * flight: the profile's share of merges among the loads its configured L1 tags serve. */
double merged_read_lines(const model_kernel_profile *k, double l1_read_lines);

#endif
