/* model_core.h — the queueing network every mechanism's model shares (model_core.c). A
 * mechanism says only where each kernel group's line requests are served (model_demand); the
 * core turns that into cycles, the GSI breakdown and traffic. */
#ifndef SYNCSCOPE_MODEL_MODEL_CORE_H
#define SYNCSCOPE_MODEL_MODEL_CORE_H

#include <stdbool.h>

#include "model/model.h"
#include "timing/memory_system.h"

/* Line requests of one kernel group (all its launches), by where they are served. */
typedef struct model_demand {
    double read_lines_l1;       /* loads and atomics answered by the L1 */
    double read_lines_l2;       /* answered by an L2 hit */
    double read_lines_forwarded;   /* of those, answered by the owner L1 the directory forwards to */
    double forward_latency;        /* GPU cycles a forwarded read takes beyond an L2 trip */
    double renewed_lines;       /* of the L2's hits, those answered by a header without the line (rcc's RENEW) */
    double read_lines_cpu;      /* L2 misses answered by the CPU cluster (it owns the line) */
    double read_lines_l3;       /* L2 misses answered by a memory-side L3 hit */
    double read_lines_dram;     /* L2 misses answered from DRAM */
    double write_lines;         /* write-through stores reaching the L2 */
    double write_lines_missed;  /* of the write lines, those the L2 misses (it allocates them unread) */
    double write_lines_dram;    /* dirty lines the L2 evicts to DRAM */
    double write_through_lines; /* writes and atomics a write-through L2 sends on to DRAM as it takes
                                 * them (model_point.l2_write_through): they hold no warp, but the
                                 * kernel-end release waits for DRAM's queues to take the last */
    double posted_write_lines;  /* DRAM writes the L2 takes without waiting for room in the channels'
                                 * queues (denovo's registrations and owned write-backs under a
                                 * write-through L2): they hold no warp and no release, but a DRAM
                                 * read queues behind those posted before it */
    double atomic_lines;        /* of the reads beyond the L1, atomics performed at the L2 (they carry operands) */
    double hot_load_lines;      /* of the loads beyond the L1, those of the group's most-loaded line (all at one bank) */
    double hot_line_hold_cycles;   /* cycles the directory holds the group's most atomically-used line for
                                    * its ownership transfers, one after another (ownership_model.c) */
    double release_drain_lines; /* per launch: lines the release at kernel end waits to hand to DRAM */
    double buffered_write_lines;   /* of the write lines, those a write-combining store buffer holds until
                                    * it is full or a release (wt's weak stores): each CU sends what its
                                    * buffer holds at kernel end */
    double release_latency;     /* GPU cycles a warp waits for each of its releases (0: one L2 trip) */
    double barrier_releases;    /* releases a warp makes at each of its barriers (1 where barriers release) */
    double marker_messages;     /* control messages without a line the CUs send the L2 banks for their
                                 * releases (qr's markers), each answered by one back */
    double invalidation_injections;   /* invalidations the L2 banks multicast to the L1s: one injection
                                       * out of a bank each ... */
    double invalidation_deliveries;   /* ... and one copy into each L1 it reaches */
    bool invalidations_broadcast;     /* each reaches every L1, the idle CUs' too (qr's wL2
                                       * evictions), not only the CUs that share the line */
    double invalidation_acks;   /* control messages without a line the L1s send the L2 banks to
                                 * acknowledge invalidations (a directory counts them) */
    double kernel_end_latency;  /* per launch: the kernel-end release's wait beyond its drain (the
                                 * last release's acknowledgement) */
    /* Per launch of the group: of the launches whose kernel end waits for a lease an earlier
     * launch's read took (lease_model.h: lease_earlier_left), that lease's time left L - e c at the
     * launch's end, counting only the launches' busy time, and their share of the launches. The
     * core takes off the time between the two launches (model_core.c: earlier_lease_wait). */
    double earlier_lease_left, earlier_lease_launches;
    /* The core (model_core.c): an SC core issues a warp's global and shared accesses one at a
     * time behind its global access in flight, and waives releases and acquires (Z_order);
     * otherwise a warp's load of a line may wait for its own write to the line in flight,
     * refused by the L1 and holding the CU's load/store unit meanwhile (the LSU's own-line
     * holds). A write is in flight for its L2 trip plus write_wait. */
    bool one_access_at_a_time, loads_wait_own_writes;
    double write_wait;          /* GPU cycles a write waits beyond its L2 trip before it is performed */
    double write_l1_share;      /* of the writes, those performed in the L1 (an owned line): its latency */
    /* Of the L2's read hits, the lines of copies the L1 lost together (model_lose_together: a
     * lease's lapse, a host write's flush) and the reads they come in: one missing read for all
     * of a read's lines rather than a chance for each (model_core.c: reads_needing_l2). */
    double lost_together_lines, lost_together_reads;
} model_demand;

typedef void (*model_serve_fn)(const model_kernel_profile *kernel, const model_point *point, model_demand *out);

/* Fills the group's profile-only terms (profile.h: model_group_terms); profile_prepare calls it. */
void model_core_prepare_group(model_kernel_profile *kernel);

void model_core_evaluate(const model_profile *profile, const model_point *point, const model_params *params,
                         model_serve_fn serve, model_prediction *out);

/* A mechanism whose split depends on time (the lease protocols' L1 copies lapse after a physical
 * time: protocols/common/lease_model.h) serves a group given the GPU cycles its busiest CU takes
 * per warp instruction of its own (`cu_instruction_cycles`; 0: not known yet). */
typedef void (*model_timed_serve_fn)(const model_kernel_profile *kernel, const model_point *point,
                                     double cu_instruction_cycles, model_demand *out);

/* model_core_evaluate for such a mechanism: each group is served first at 0 cycles, then at the
 * cycles per instruction that evaluation predicted, then at secant steps toward the fixed point
 * (the split decides the cycles, the cycles the split), until the cycles served at and predicted
 * agree within 1e-4, or until the split at the cycles just predicted is the one they were
 * predicted from. Returns the group evaluations it made (all groups together). */
int model_core_evaluate_timed(const model_profile *profile, const model_point *point, const model_params *params,
                              model_timed_serve_fn serve, model_prediction *out);

/* Where a group's reads beyond the L1 are served: L2 hits and misses at this point's L2
 * (unfiltered GPU-wide stack: an access that hits in an L1 would hit in the larger L2 too), and
 * the misses by the profile's memory-side classes (profile.h): CPU-owned lines that the CPU
 * cluster still holds (their host-stack distance below its capacity) go to the CPU, lines the
 * L3 holds (fetched, or written when `l3_holds_written`) whose distance is below the L3's
 * capacity to the L3, the rest to DRAM. Writes: every store line reaches the L2; a write-back L2
 * (allocating) writes a dirty line back to DRAM when it evicts it (profiler.c), a write-through
 * one (model_point.l2_write_through) sends every write and atomic on to DRAM at once and holds no
 * dirty line (every atomic is taken to change its line: a failed CAS, which writes nothing
 * through in the detailed L2, is not told apart in the profile). When `stores_write_around`
 * (the mechanism's stores reach the L2 as plain writes) a write-through L2 writes a store it
 * misses around itself without allocating the line (timing/l2_bank.c), so a read hits only if
 * the stores since its line's previous read found the line too (profile.h: l2_reads_around);
 * the reads that miss for that alone go to DRAM (the L3 does not allocate on writes). */
void model_memory_split(const model_kernel_profile *kernel, const model_point *point, double read_lines_beyond_l1,
                        bool l3_holds_written, bool stores_write_around, model_demand *out);

/* L1 read hits of a mechanism that keeps its L1 across acquires and kernel boundaries: every
 * reuse of the per-CU load stacks at this L1 less `lost_hits` (the reuses the mechanism's
 * invalidations take away); strong loads hit at the weak loads' rate. */
double model_kept_l1_hits(const model_kernel_profile *kernel, const model_point *point, double lost_hits);
/* L1 read hits of a set-associative L1 kept on its own tags across acquires and kernels (the
 * profile's l1_loads_kept: a line survives only if its set kept it) less `host_dropped` (the
 * reuses a host write takes away); strong loads hit at the weak loads' rate. */
double model_kept_tags_l1_hits(const model_kernel_profile *kernel, const model_point *point, double host_dropped);
/* The L1 read hits of every load given the weak loads' hits: strong loads hit at their rate. */
double model_with_strong_hits(const model_kernel_profile *kernel, double weak_hits);

/* The L1 reuses (hits at this point's L1) a host write takes away: every copy of every L1
 * (l1_loads_host_flushed), or only the copies of the lines the host wrote
 * (l1_loads_host_written) when `drops_written_only` (rcc.host_write_drop, tc.host_write_drop). */
double model_host_dropped_l1_hits(const model_kernel_profile *kernel, const model_point *point, bool drops_written_only);

/* Records in `out` that the L1 loses `lines` of its hits together with the other lines their
 * load filled: the copies one load filled lapse at the same reuse (a lease taken at their fill,
 * lease_model.h; RCC's lease at their fill's logical time, rcc_model.h), and a host write's
 * flush drops them all. A reuse then misses a whole fill group of lines at once, one read for
 * the profile's lines per group (l1_hit_fill_groups of the kept tags' hits, l1_hit_gaps). */
void model_lose_together(const model_kernel_profile *kernel, double lines, model_demand *out);

/* CTAs of the group one CU holds at once (the occupancy limit: warps, CTAs, registers, shared
 * memory; at least 1: the detailed model rejects a CTA that fits nowhere). */
double model_resident_ctas(const model_kernel_profile *kernel, const model_point *point);

/* Hits at this point's L1 / L2 of a profile histogram's summary. */
double model_l1_hits(const reuse_summary *summary, const model_point *point);
double model_l2_hits(const reuse_summary *summary, const model_point *point);

#endif
