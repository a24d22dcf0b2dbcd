/* sc_core.h — the SC core, a building block of the mechanisms Ren's chapter 3 runs as SC
 * configurations (MESI, TC-Strong, RCC; ../shared/seeds/digests/004-ren-part1.md §3.3, §3.12):
 * "global memory instructions execute sequentially and local-memory operations stall while any
 * global access is outstanding"; fences stay in the code but are hardware no-ops.
 *
 * It is an issue filter (protocol_hooks.h): a warp's next global load, store or atomic, and its
 * next shared or local access, waits while the warp has a global access in flight
 * (warp_slot.global_in_flight: a load until its data arrives, an atomic until its answer, a
 * store until it is performed: l1_controller.c says when), charged to GSI as a SYNC stall of
 * sub-category `ordering`; and every instruction issues with its acquire and release waived (no
 * release wait, no acquire hook), so fences, ld.acquire, st.release and atomics with ordering
 * semantics order nothing beyond what the one-at-a-time issue already orders.
 *
 * Sequential consistency then needs the hierarchy to make each access globally performed when its
 * operation completes (a coherent protocol: MESI's ownership, a lease protocol whose stores wait
 * for every lease); the mechanism's registry entry declares the model (SC_MODEL_SEQUENTIAL) that
 * the litmus tests check it against. A protocol adds SC_CORE_HOOKS to its hooks table. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_SC_CORE_H
#define SYNCSCOPE_PROTOCOLS_COMMON_SC_CORE_H

#include "timing/memory_internal.h"

issue_verdict sc_core_issue_filter(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                                   unsigned global_in_flight);

/* The SC core's order alone, without the waiver, as an issue filter: the verdict on an
 * instruction with `traits` of a warp with `global_in_flight` global accesses in flight; the
 * mechanism's fences, acquires and releases keep their effect (the experiments rcc-wo's
 * rcc.wo_issue and tc-weak's tc.weak_issue one_at_a_time). */
issue_verdict sc_core_order(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                            unsigned global_in_flight);

/* The hooks an SC core sets, for a protocol's hooks table. */
#define SC_CORE_HOOKS .issue_filter = sc_core_issue_filter

#endif
