/* rcc_model.h — where the Relativistic Cache Coherence protocols (common/rcc_core.h: rcc, rcc-wo)
 * serve each line request, for their analytical models (Ren §3.15: a store's latency is the L2
 * round trip with no permission wait; RCC's cost is extra L1 misses from clock jumps). */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_RCC_MODEL_H
#define SYNCSCOPE_PROTOCOLS_COMMON_RCC_MODEL_H

#include "model/model_core.h"

/* Of the L1 reuses the CU keeps, the share whose copy the L2's evictions have expired by then
 * (Ren §3.4.4, rcc_core.c's eviction and fill_time): an evicted line raises its partition's mnow to
 * its exp, a line filled from DRAM takes ver = mnow (+1), and a CU that reads it moves its time
 * there, past every lease granted before that line's last grant. A copy granted at some time
 * therefore lapses once a line the L2 granted after it has been evicted, whatever the lease
 * lengths (rcc.lease_max and the predictor only scale logical time): a line nobody touches again
 * falls out of an LRU L2 of l lines sum over k < l of total / misses(k) of the group's accesses
 * after its last touch (at depth k an access of distance k or more, misses(k) of the global read
 * stack's total, moves it down), i.e. T = I sum 1 / misses(k) of the busiest CU's I
 * instructions. A reuse g instructions after the CU's previous load of the line (the profile's
 * l1_hit_gaps) finds its copy lapsed for certain when g >= T and otherwise with probability
 * g / T (the grant came no later than that load, at a uniformly random point of a fall:
 * lease_lapsed_share's reading with T for the lease), 1 - shortfall(T, 1) / T over the gaps
 * (reuse_lapsed_share; T from reuse_lru_fall_accesses), once the L2 is full: the share (F - l) / F
 * of the group whose fills evict (F its read misses at l lines). 0 while the L2 holds every line
 * it fills (F <= l). */
double rcc_turnover_lapsed_share(const model_kernel_profile *kernel, const model_point *point);

/* L1 hits: every reuse of the per-CU load stacks at this L1 (the copy is kept across acquires and
 * kernels), less the reuses across a host write between kernels (of any line under
 * rcc.host_write_drop all, which drops every copy of every L1; of their own line under written),
 * less the reuses across a store of any CU to the line (the store's version passes every
 * lease on it, so the copy has expired: a necessary miss) and less the expired-lease extra misses:
 * of the remaining hits, the share of the group's loads that read another CU's write
 * (remote_read_after_write / load lines, at most 1), each of which moves the CU's logical time to
 * that write's version, past the leases of its other copies ([I] the model's reading of §3.15's
 * "extra misses from clock jumps"; the lease predictor is not a term), and less the share of what
 * is left that the L2's evictions expired (rcc_turnover_lapsed_share); under rcc.renewal the L2
 * answers those expired copies it still holds (at its hit share of the reads beyond the L1) with
 * RENEW, a header without the line (model_demand's renewed_lines). The expired copies and those
 * the host's write dropped are lost with the other lines their load filled, so they miss in whole
 * reads (model_lose_together). Misses, atomics
 * and every store (written through, acknowledged after an L2 round trip with no wait for
 * permission) go to the L2 (model_memory_split). What the core adds is each mechanism's: rcc's SC
 * core issues a warp's accesses one at a time (rcc/rcc_model.c), rcc-wo orders a warp's load
 * behind its own write to the line in flight (rcc_wo/rcc_wo_model.c); model_core.h's
 * model_demand. */
void rcc_serve(const model_kernel_profile *kernel, const model_point *point, model_demand *out);

/* Both RCC protocols make the L2 write-back whatever l2.write_policy says (rcc_core.c); the
 * point's terms say what a host write drops (rcc.host_write_drop) and whether the L2 renews
 * (rcc.renewal). */
int rcc_load_point(const sc_config *config, model_point *point, sc_error *error);

#endif
