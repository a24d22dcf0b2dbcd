/* lease_model.h — where the physical-time lease protocols (common/lease.h: tc-strong, tc-weak)
 * serve each line request, for their analytical models. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_LEASE_MODEL_H
#define SYNCSCOPE_PROTOCOLS_COMMON_LEASE_MODEL_H

#include "model/model_core.h"

/* L1 hits: every reuse of the per-CU load stacks at this L1 (acquires keep the L1: a copy lapses
 * only when its lease runs out, which the profile cannot see, and when the CU writes the line);
 * strong loads hit at the weak loads' rate. Misses, atomics and every store (written through at
 * once, no store buffer) go to the L2 (model_memory_split). What the lease protocols add to a
 * store's latency (TC-Strong's wait at the L2 until the line's leases expire; TC-Weak's fences
 * waiting for the GWCT) is not a term of the model: the calibrated exposure parameters take it
 * up. TC-Strong's SC core, which makes a warp wait for each store's L2 trip, is
 * (tc_strong/tc_strong_model.c). */
void lease_serve(const model_kernel_profile *kernel, const model_point *point, model_demand *out);

#endif
