/* model_behind_l1.h — the L2 miss ratio of the reads that reach the L2 behind a write-through L1
 * of any capacity, from the profile's behind-an-L1 stacks (profile.h: Behind an L1). */
#ifndef SYNCSCOPE_MODEL_BEHIND_L1_H
#define SYNCSCOPE_MODEL_BEHIND_L1_H

#include <stdint.h>

#include "model/profile.h"

/* L2 misses per read reaching an L2 of `l2_lines` lines behind L1s of `l1_lines` lines per CU. */
double model_behind_l1_miss_ratio(const model_kernel_profile *kernel, double l1_lines, uint64_t l2_lines);

#endif
