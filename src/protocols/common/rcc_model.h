/* rcc_model.h — where the Relativistic Cache Coherence protocols (common/rcc_core.h: rcc, rcc-wo)
 * serve each line request, for their analytical models (Ren §3.15: a store's latency is the L2
 * round trip with no permission wait; RCC's cost is extra L1 misses from clock jumps). */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_RCC_MODEL_H
#define SYNCSCOPE_PROTOCOLS_COMMON_RCC_MODEL_H

#include "model/model_core.h"

/* L1 hits: every reuse of the per-CU load stacks at this L1 (the copy is kept across acquires and
 * kernels), less the reuses across a host write between kernels (of any line under
 * rcc.host_write_drop all, which drops every copy of every L1; of their own line under written),
 * less the reuses across a store of any CU to the line (the store's version passes every
 * lease on it, so the copy has expired: a necessary miss) and less the expired-lease extra misses:
 * of the remaining hits, the share of the group's loads that read another CU's write
 * (remote_read_after_write / load lines, at most 1), each of which moves the CU's logical time to
 * that write's version, past the leases of its other copies ([I] the model's reading of §3.15's
 * "extra misses from clock jumps"; renewal and the lease predictor are not terms). Misses, atomics
 * and every store (written through, acknowledged after an L2 round trip with no wait for
 * permission) go to the L2 (model_memory_split). What the core adds is each mechanism's: rcc's SC
 * core issues a warp's accesses one at a time (rcc/rcc_model.c), rcc-wo orders a warp's load
 * behind its own write to the line in flight (rcc_wo/rcc_wo_model.c); model_core.h's
 * model_demand. */
void rcc_serve(const model_kernel_profile *kernel, const model_point *point, model_demand *out);

/* Both RCC protocols make the L2 write-back whatever l2.write_policy says (rcc_core.c); the
 * point's term says what a host write drops (rcc.host_write_drop). */
int rcc_load_point(const sc_config *config, model_point *point, sc_error *error);

#endif
