/* lease_model.h — where the physical-time lease protocols (common/lease.h: tc-strong, tc-weak)
 * serve each line request, for their analytical models. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_LEASE_MODEL_H
#define SYNCSCOPE_PROTOCOLS_COMMON_LEASE_MODEL_H

#include "model/model_core.h"

/* The point's terms the lease models read (lease_load_point): tc.lease_cycles, GPU cycles; 1 when
 * a host write drops only the L1 copies of the lines it wrote (tc.host_write_drop written), 0
 * when it drops every copy of every L1 (all). */
enum { LEASE_TERM_CYCLES = 0, LEASE_TERM_HOST_DROPS_WRITTEN };

int lease_load_point(const sc_config *config, model_point *point, sc_error *error);

/* Of the L1 reuses an L1 of the point's size keeps, the share whose copy's lease has lapsed by
 * then, when the busiest CU takes `cu_instruction_cycles` GPU cycles per warp instruction of its
 * own (0: none lapse). A copy lapses L = tc.lease_cycles after the L2 granted it (lease.h), and
 * a hit does not renew it: the lease begins at the fill that brought the copy, and a lapsed
 * reuse misses and fetches the line again with a new lease (LeaseExpired). So the reuses of a
 * copy lapse where its age crosses a lease: a reuse a instructions after the fill (the profile's
 * l1_hit_ages; a - g at the CU's previous load of the line, l1_hit_previous_ages) lapses when a
 * multiple of T = L / c lies in (a - g, a], counting leases from the fill, which is exact while
 * the reuses after a lapse follow it closely (spmv's chains of reuses of x: session 28,
 * docs/calibration.md). Summed over the reuses, floor(a / T) - floor((a - g) / T) is that count
 * for a gap g < T; a gap of a lease or more lapses once for certain (l1_hit_gaps), where the
 * floors count g / T on average: sum floor(a / T) - sum floor((a - g) / T) - sum over g >= T of
 * (g / T - 1), over the reuses (reuse_floor_sum). The lease taken at the load that missed, not
 * at the L2's grant a request's trip later, makes ages a little longer than the detailed
 * L1's. */
double lease_lapsed_share(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles);

/* The GPU cycles a write (store or atomic line request) waits on average at the L2 until the
 * line's latest lease has expired (TC-Strong's rows LEASED/WRITES_WAIT x Write: HOLD_WRITE), at
 * `cu_instruction_cycles` cycles per instruction of the busiest CU (0: none wait): a write g of
 * those instructions after the line's latest load (the profile's write_lease_gaps) waits
 * max(0, L - g c), summed over the gaps (reuse_shortfall) and spread over all of the group's
 * write lines. That load is taken to have taken the lease: so it did where it missed its L1 or
 * found its copy lapsed (sort's radix_offsets reloads each line it then writes); where its L1
 * answered it the lease is older and the wait shorter, so the term is an upper bound. */
double lease_write_wait(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles);

/* The GPU cycles TC-Weak's kernel end waits per launch for its writes' global write completion
 * time (GWCT, lease.h: the line's latest lease expiry; the CU counts a write outstanding until
 * then), at `cu_instruction_cycles` cycles per instruction of the busiest CU (0: none): a launch
 * whose latest load of a line it then wrote came e of those instructions before its end (the
 * profile's kernel_end_lease_ages) ends max(0, L - e c) after its last instruction, taking that
 * load as the lease's grant (lease_write_wait's reading: an upper bound where an L1 hit answered
 * it). */
double lease_kernel_end_wait(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles);

/* The leases an earlier launch's reads took on the lines a launch writes, where the launch itself
 * did not read them (the profile's kernel_end_earlier_lease_ages: stencil writes the grid the
 * launch before read): the kernel end waits for them under both lease protocols (TC-Weak's GWCT;
 * TC-Strong's last stores are performed only once the lease is over). Fills the demand's
 * earlier_lease_left (max(0, L - e c) summed over those launches, per launch of the group: e c
 * counts only the launches' busy time) and earlier_lease_launches (their share of the group's
 * launches); the core takes off the time between the launches. */
void lease_earlier_left(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles,
                        model_demand *out);

/* L1 hits: the reuses the configured L1 hits when it keeps its lines across acquires and drops a
 * line at its CU's own store or atomic (the profile's l1_loads_kept: write-no-allocate, lease.h's
 * rows V x Store/Atomic; a store of another CU leaves the copy until its lease runs out), less
 * those a host write dropped (every copy, or under tc.host_write_drop written those of its
 * lines), less the lapsed share of the rest (lease_lapsed_share); strong loads hit at the weak
 * loads' rate. The lapsed copies and those the host's write dropped are lost with the other lines
 * their load filled (a lease begins at the fill), so they miss in whole reads
 * (model_lose_together). Misses, atomics and every
 * store (written through at once, no store buffer) go to the L2 (model_memory_split). What the
 * lease protocols add to a store's latency (TC-Strong's wait at the L2 until the line's leases
 * expire; TC-Weak's fences waiting for the GWCT) is the mechanism's own: TC-Strong's wait is
 * lease_write_wait, which its SC core makes its warps wait for (tc_strong/tc_strong_model.c);
 * TC-Weak's kernel end waits for the GWCT, lease_kernel_end_wait (tc_weak/tc_weak_model.c). */
void lease_serve(const model_kernel_profile *kernel, const model_point *point, double cu_instruction_cycles,
                 model_demand *out);

#endif
