/* profile.h — a workload profile: what the analytical models need to know about a workload,
 * gathered once by a functional pass (profiler.h) and stored in the `profiles` table as JSON.
 *
 * Per group of launches (one kernel with one grid size; nw's diagonals of tiles or bfs's levels
 * form one group per distinct grid) it holds the instruction mix by functional unit, the
 * global memory instructions and the line requests they coalesce into by access kind, the
 * synchronization events (barriers, acquire and release fences), LRU stack-distance
 * histograms at line granularity for the L1 (one stack per CU, CTAs placed on CUs as the
 * detailed model places them: round-robin, each launch continuing where the previous one
 * stopped, so CTA i of a launch after C earlier CTAs starts on CU (C + i) mod cu_count) and
 * the L2 (one stack for the whole GPU), the sharing between CUs (lines touched by several CUs;
 * loads of lines another CU wrote last, the first of each CU after each write; the other CUs
 * that loaded a line since its previous write, at each write), atomic
 * contention (the hottest line's share of atomics, and of loads), the read lines a CTA requests
 * between two barriers (its barrier-synchronised bursts), footprint, CTA count
 * and each CTA's resources for occupancy, and the busiest CU's share of the warp instructions.
 *
 * Synchronization and the L1: every L1 reuse is recorded in `l1_loads`; those whose previous
 * access lies before an acquire of that CU (kernel start, ld.acquire, atom with acquire
 * semantics, fence.acq_rel/sc at GPU or system scope) or before an atomic of that CU on the line
 * are recorded again in `l1_loads_crossing`. A mechanism that flash-invalidates its L1 at an
 * acquire and drops the line on an atomic (wt) treats the crossing reuses as cold; one that does
 * not may use them. Reuses whose previous access lies before a host write (a copy to the device or
 * a memset between launches) of any line are recorded again in `l1_loads_host_flushed` (the
 * detailed model flash-invalidates the L1s of a mechanism without a directory then), those
 * before a host write of their own line in `l1_loads_host_written` (every mechanism drops that
 * line), and the others before a store of any CU to the line in `l1_loads_rewritten` (QR's
 * invalidations, a load that finds dirty bytes in its wL1). `l1_loads_kept` holds every reuse
 * again, as the configured L1 (size, associativity, fills) would see it if it kept its lines
 * across acquires and dropped a line at its CU's own store or atomic (a write-no-allocate L1 that
 * self-invalidates by time: the lease protocols, whose acquires keep the L1): a reuse those tags
 * hit counts just below the L1's lines (or at its distance, if below), one they miss at them (or
 * at its distance, if beyond). `l1_loads_owned` holds every load (a cold one too) as the L1 of
 * an ownership protocol would see it: tags kept across acquires into which a CU's store or atomic
 * installs its line (the GetM's data) and from which another CU's store or atomic drops it (the
 * directory invalidates the copies of the CUs that read the line since its previous write, and
 * that write's CU's), counted as `l1_loads_kept` counts (a first load of a line its CU wrote is
 * a hit). The profile itself is mechanism-independent.
 *
 * Memory side. Each read line request (load or atomic) is also classified by where an L2 miss
 * would be answered, from the order of its line's latest host write (a copy to the device or a
 * memset, which leaves the line dirty in the CPU cluster and drops the L3's copy), latest GPU
 * write (which takes the line from the CPU) and latest fetch (a GPU read of a line the CPU does not
 * own, which brings it into the L3): `l2_reads_cpu_owned` (host-written, no GPU write since: the
 * CPU cluster answers, if it still holds the line: `cpu_recency` holds these reads' distances in
 * the host's own LRU stack), `l2_reads_fetched` (fetched since the host write: in the L3),
 * `l2_reads_written` (GPU-written since, not fetched: in the L3 only if GPU writes allocate
 * there, as RFO's write-back L3 does), and the rest of `l2_reads` (memory only: DRAM). Each
 * class holds the reads' GPU-wide distances, so the L2 and the L3 capacities apply to it alike;
 * a host write drops the L2's copy, so an access after a host write of its line is cold in both
 * L2 histograms. The reads of the fetched and written classes whose line was stored to since its
 * previous read are recorded again in `l2_reads_fetched_rewritten` and
 * `l2_reads_written_rewritten` (QR's wL2 evictions invalidate the rL2's copy).
 *
 * Validity. A profile depends on how CTAs map to CUs, how many a CU holds at once, how lanes
 * coalesce into lines and how the profiler interleaves a CU's warps (profiler.c), so it is keyed
 * by (workload, size, seed, system) and the configuration keys that change these: gpu.cu_count,
 * gpu.warp_size, gpu.max_ctas_per_cu, gpu.max_warps_per_cu, gpu.registers_per_cu,
 * gpu.shared_memory_per_cu (with the CTA slots they decide how many CTAs a CU holds,
 * exec/occupancy.h), gpu.shared_memory_banks and local_memory.bank_bytes (the shared accesses'
 * conflict degrees), l1.line_size (= l2.line_size), gpu.schedulers_per_cu, gpu.issue_width,
 * l1.banks, gpu.scheduler, l1.size and l1.mshrs (the profiler times issue: the L1's capacity
 * decides which loads miss and its MSHRs how long they stall their warps, so how warps
 * interleave), and dram.channels, dram.banks_per_channel and dram.row_size (which lines share a
 * DRAM row: dram_stream_row_hits) and dram.request_queue (the requests a channel chooses among:
 * dram_replayed_turnarounds). Changing any of them needs a new profile (taken automatically).
 * Otherwise the L2's and other caches' capacities, associativities, latencies, clocks, NoC and
 * the other DRAM parameters and store buffers do not: the models apply them to the same profile.
 */
#ifndef SYNCSCOPE_MODEL_PROFILE_H
#define SYNCSCOPE_MODEL_PROFILE_H

#include <stdint.h>

#include "base/error.h"
#include "config/config.h"
#include "model/burst_rounds.h"
#include "model/reuse_histogram.h"

typedef enum model_access {
    MODEL_LOAD = 0,           /* weak global load: may use the L1 */
    MODEL_LOAD_STRONG,        /* relaxed/volatile/acquire load at GPU or system scope */
    MODEL_STORE,
    MODEL_STORE_STRONG,
    MODEL_ATOMIC,             /* atom and red */
    MODEL_ACCESS_COUNT
} model_access;

/* Terms of the model core's equations that depend on a group alone, not on the design point
 * (model_core.c: model_core_prepare_group, called by profile_prepare), so that a sweep computes
 * them once per profile rather than at every point. */
typedef struct model_group_terms {
    double per_instruction;               /* 1 / warp_instructions: totals -> per warp instruction */
    double instructions_per_launch;       /* warp_instructions / launches */
    double read_instructions;             /* loads, strong loads and atomics */
    double global_instructions;           /* every global memory instruction */
    double lines_per_global;              /* their line requests per instruction (0 without any) */
    double burst_lines;                   /* a CTA's burst's read lines (0 without bursts) */
    double burst_waits;                   /* barrier waits after a burst per warp instruction */
    double burst_span;                    /* a warp's instructions in a burst's interval */
    double busiest_per_launch;            /* busiest_cu_instructions / launches */
    double dram_row_hit_share;            /* of its DRAM stream (model/dram_rows.h: dram_rows_prepare) */
    double dram_turnaround_share;         /* its replayed turnarounds / the random interleaving's (dram_rows_prepare) */
    double missing_reads, missing_read_lines;   /* reads with a line beyond the configured L1, their lines (load_misses.h) */
    double busiest_miss_share;            /* the busiest CU's missing lines per instruction / the GPU's (1: as the mean) */
    double longest_warp_per_launch;       /* longest_warp_instructions / launches */
    double longest_warp_global_per_launch;   /* longest_warp_global_accesses / launches */
    uint64_t cta_warps, cta_registers, cta_shared_bytes;   /* a CTA's needs (exec/occupancy.h) */
} model_group_terms;

typedef struct model_kernel_profile {
    char name[96];
    double launches;                    /* launches merged into the group */
    double ctas;                        /* CTAs per launch */
    double warps_per_cta, threads_per_cta, shared_bytes, registers_per_thread;
    /* Totals over the group's launches. */
    double warp_instructions, thread_instructions;
    double alu, sfu, branches, barriers, other_control;   /* by functional unit */
    double shared_accesses;             /* shared/local/param accesses (never leave the CU) */
    double acquires, releases;          /* GPU/system-scope acquire and release events, fences included */
    double instructions[MODEL_ACCESS_COUNT], lines[MODEL_ACCESS_COUNT];
    double busiest_cu_instructions;     /* summed per launch over the busiest CU, CTA i on CU i mod cu_count */
    /* The weak loads the configured L1 misses (l1_tags, profiler.c): the load instructions with a
     * line missing and their missing lines (a kmeans point load misses its 32 lines together or
     * not at all), and, summed per launch, the missing lines of the CU busiest_cu_instructions
     * counts (load_misses.h). */
    double l1_missing_loads, l1_missing_load_lines, busiest_cu_l1_missing_lines;
    double longest_warp_instructions;   /* summed per launch: the most warp instructions one of its warps issues */
    double longest_warp_global_accesses;   /* summed per launch: that warp's global loads, stores and atomics */
    double footprint_lines, written_lines, shared_lines, remote_read_after_write;
    /* Over the stores and atomics (line requests), the CUs other than the writer that loaded the
     * line since its previous write (profiler.c): the invalidations a full-map directory sends
     * when each write finds the line shared (mesi's write-through stores). */
    double write_invalidations;
    /* The DRAM stream's row locality (model/dram_rows.h): the line requests the GPU-wide stack
     * finds cold (reads and writes), and those of them that find their DRAM row open when the
     * profiler replays them, in its order, through one open row per bank of the configuration's
     * DRAM mapping (dram.channels, dram.banks_per_channel, dram.row_size: profile keys). */
    double dram_stream_lines, dram_stream_row_hits;
    /* The DRAM stream's read/write turnarounds (model/dram_turnarounds.h), summed per launch: the
     * pairs each channel's per-bank-target scheduler makes over the cold reads and the written
     * lines in the profiler's order with its queue full (dram.request_queue: a profile key), and
     * the pairs a random interleaving of the same lines would make. */
    double dram_replayed_turnarounds, dram_interleaved_turnarounds;
    double atomic_hottest_share;        /* atomics on the most atomically-used line / all atomic lines */
    double load_hottest_share;          /* loads of the most-loaded line / all load lines (per launch, averaged) */
    /* Barrier-synchronised bursts: a CTA's intervals between barriers (closed by a barrier) in
     * which its warps request read lines (loads and atomics), and those intervals' read lines
     * and warp instructions (the barrier's included), over all CTAs. */
    double barrier_bursts, barrier_burst_lines, barrier_burst_instructions;
    /* Of those bursts, the ones in which a read line merged with its CU's miss of the line in
     * flight (fill_tags.h): under loose round-robin issue a CU's CTAs that read the same lines
     * reach them in step, and a merged read ends its burst with the other CTA's fill. */
    double barrier_bursts_merged;
    /* [B - 1]: over the launches' rounds of bursts (burst_rounds.h), the read lines of each
     * round's most loaded of B L2 banks; / barrier_burst_lines is the share on the hot bank. */
    double burst_bank_peak_lines[BURST_BANK_COUNTS];
    /* The window positions of the CUs' line requests beyond the L1 (inflight_banks.h: each CU's
     * l1.mshrs consecutive requests, in step), and summed over them the L2 banks (of l2.banks)
     * and the L3 banks (of l3.banks) that hold at least one line in flight; held over positions
     * is the banks of that level that carry the lines in flight. */
    double inflight_positions, inflight_l2_banks_held, inflight_l3_banks_held;
    reuse_histogram l1_loads, l1_loads_crossing;   /* per-CU stacks, weak loads */
    /* Per-CU stacks of the lines each CU stores to (stores and strong stores), restarted at
     * every launch: a CU's first store to a line in a launch is cold (a line several CUs write,
     * radix_count's digit-major counts, is cold once per CU), a later one counts at the distinct
     * lines the CU stored to since. A write-combining L1 of C lines sends a line out once per
     * cold store and per reuse at C or more (radix_offsets' one CU cycles its stores over 256
     * lines); each CU must own a line once to write it. */
    reuse_histogram l1_writes;
    reuse_histogram l1_loads_host_flushed, l1_loads_host_written, l1_loads_rewritten;   /* of l1_loads: see above */
    reuse_histogram l1_loads_kept;                 /* l1_loads on tags kept across acquires: see above */
    reuse_histogram l1_loads_owned;                /* every load on an ownership L1's tags: see above */
    reuse_histogram l2_reads, l2_writes;           /* GPU-wide stack of every line request */
    /* Each read of l2_reads at the largest of its distance and those of the stores to its line
     * since the line's previous read: where the stores' lines reach a write-through L2, which
     * writes a store it misses around itself without allocating the line (timing/l2_bank.c),
     * the read hits only if each of those stores found the line and it is still there (stencil:
     * the first launch writes the grid the host left out of the L2, and the second launch's
     * reads of it all miss, 1,024 DRAM reads on qr-apu). */
    reuse_histogram l2_reads_around;
    reuse_histogram l2_reads_cpu_owned, l2_reads_fetched, l2_reads_written;   /* of l2_reads: memory side */
    reuse_histogram l2_reads_fetched_rewritten, l2_reads_written_rewritten;  /* of those: stored since read */
    reuse_histogram cpu_recency;                   /* host-stack distances of the CPU-owned reads */
    /* The L2's write-backs (profiler.c): of the GPU-wide accesses to a line written since it was
     * last taken, their distance, and the smaller of it and the largest distance since the write
     * (the line's dirty span); the end of the run counts as an access at the line's final depth. */
    reuse_histogram l2_dirty_reuses, l2_dirty_spans;
    /* A warp's order (profiler.c; the same log-linear buckets, counting warp instructions rather
     * than lines). order_after_reads: for each global load or atomic instruction whose warp's next
     * global or shared access comes before any other instruction reads a register it loads (GSI
     * charges an ordered instruction's wait to sync, before mem_data), the warp's instructions in
     * between; order_after_writes: for each store instruction followed by a global or shared
     * access of its warp, the instructions in between (an SC core holds that access until the
     * earlier one completes). own_line_loads: for each load instruction of a line its warp
     * stored or atomically wrote among the warp's 8 latest written lines (OWN_LINE_WRITES), the
     * instructions since the latest such write (the smallest over the instruction's lines; RCC
     * orders a warp's load behind its own write in flight to the line); the write is then taken
     * as done, so only the first load after it counts. */
    reuse_histogram order_after_reads, order_after_writes, own_line_loads;
    /* For each warp whose last global access is a store (no ordered access after it), the
     * instructions from that store to the warp's exit (order_final_writes), and the sum over
     * those warps of the instructions each issued before its first ordered access
     * (order_final_write_leads): an SC core's warp slot keeps the store in flight after its warp
     * exits, and the next warp placed in the slot issues that many instructions before its first
     * access waits for it (timing/timing_internal.h: warp_slot.global_in_flight). */
    reuse_histogram order_final_writes;
    double order_final_write_leads;
    /* Over the warps that make a global or shared access, their leads (the instructions each
     * issues before its first such access) and of those the ALU instructions (profiler.c's
     * warp_order): a launch's first CTAs start together, so their warps run their leads in step
     * on the SIMD units before any of their lines is asked for (model_core.c: lead_cycles). */
    double first_access_warps, first_access_leads, first_access_lead_alu;
    /* For each reuse of l1_loads_kept at a distance below the profiled L1's lines (l1.size, a
     * profile key: the reuses an L1 of the point's size keeps), the warp instructions its CU
     * issued since the CU's previous load of the line (the same buckets, counting instructions;
     * across launches too): a lease protocol's copy lapses by time
     * (protocols/common/lease_model.h). */
    reuse_histogram l1_hit_gaps;
    /* For the same reuses, the warp instructions its CU issued since the load that last missed
     * the kept tags (the fill that took the copy's lease), at the reuse (l1_hit_ages) and at the
     * CU's previous load of the line (l1_hit_previous_ages: the age less the gap): the lease
     * starts at the fill, so a reuse lapses where the copy's age crosses a lease
     * (protocols/common/lease_model.h). */
    reuse_histogram l1_hit_ages, l1_hit_previous_ages;
    /* Of the same reuses, the groups a load's lines form by the fill they came from: a reuse
     * starts a group unless its request's previous reuse that the kept tags hit came from the same
     * missing load (the same fill, so the same age). A group's lines lapse at the same reuse, and
     * their L2 trips are one missing read (model_core.h: model_lose_together). */
    double l1_hit_fill_groups;
    /* For each store or atomic line request of a line loaded before in its launch, the GPU's time
     * since the line's latest load (of any CU, weak or strong), in warp instructions of the
     * busiest CU (each launch counted at its busiest CU's): a TC-Strong store waits at the L2 for
     * the lease a read took (protocols/common/lease_model.h). */
    reuse_histogram write_lease_gaps;
    /* For each launch that stores or atomically writes a line loaded before in the launch, the
     * GPU's time (as write_lease_gaps counts it) from the latest such load, over the launch's
     * writes, to the launch's end: TC-Weak's kernel end waits for its writes' global write
     * completion time, the line's lease (protocols/common/lease_model.h). */
    reuse_histogram kernel_end_lease_ages;
    /* The same age for each launch whose written lines were loaded in earlier launches only (the
     * lease a read of the launch before took: stencil reads in one launch the grid the next one
     * writes), whose kernel end waits for it under both lease protocols. */
    reuse_histogram kernel_end_earlier_lease_ages;
    /* The banked scratchpad (timing/scratchpad.h, docs/local-memory.md): over the shared accesses,
     * each one's conflict degree less 1 at gpu.shared_memory_banks banks of local_memory.bank_bytes
     * (the cycles a banked scratchpad adds to the load/store unit and to the access's latency). */
    double shared_conflict_cycles;
    /* A launch's local-memory mapping (docs/local-memory.md): its bytes per CTA (0: none).
     * Scratchpad+DMA: every CTA's chunk lines, which its CU's DMA engine reads when the CTA is
     * placed and writes back when it finishes (summed over the group's CTAs; not warp requests,
     * so in no count above), and where the L2 would answer the reads: their GPU-wide distances
     * and memory-side classes, as l2_reads and its classes hold the warps' (a write-back is not
     * entered in the stacks). Stash: a load of mapped words the stash does not hold (its first
     * access, or the first since an acquire of its CU) is a strong global load of their global
     * words, counted in instructions/lines[MODEL_LOAD_STRONG] and every stack like one, and here
     * too; a store to mapped words is also a plain global store of them (in MODEL_STORE), and the
     * distinct words stored are the stash's dirty words. */
    double mapped_bytes_per_cta;
    double dma_lines, dma_writeback_lines;
    double stash_first_touch_loads, stash_first_touch_lines, stash_store_lines, stash_dirty_words;
    reuse_histogram dma_reads, dma_reads_cpu_owned, dma_reads_fetched, dma_reads_written, dma_cpu_recency;
    /* Precomputed by profile_prepare for the models. */
    model_group_terms terms;
    reuse_summary l1_summary, l1_crossing_summary, l1_write_summary, l2_read_summary, l2_write_summary;
    reuse_summary l2_read_around_summary;
    reuse_summary l1_host_flushed_summary, l1_host_written_summary, l1_rewritten_summary, l1_kept_summary;
    reuse_summary l1_owned_summary;
    reuse_summary cpu_owned_summary, fetched_summary, written_summary, cpu_recency_summary;
    reuse_summary fetched_rewritten_summary, written_rewritten_summary;
    reuse_summary dirty_reuse_summary, dirty_span_summary;
    reuse_summary order_reads_summary, order_writes_summary, order_final_write_summary, own_line_summary, l1_hit_gap_summary, write_lease_gap_summary;
    reuse_summary l1_hit_age_summary, l1_hit_previous_age_summary;
    reuse_summary kernel_end_lease_age_summary, kernel_end_earlier_lease_age_summary;
    reuse_summary dma_read_summary, dma_cpu_owned_summary, dma_fetched_summary, dma_written_summary,
        dma_cpu_recency_summary;
} model_kernel_profile;

/* Room for profile_key_of's key with every key at its largest value. */
#define PROFILE_KEY_BYTES 224

typedef struct model_profile {
    char workload[128];
    char params[160];                   /* workload parameters JSON, as runs store them */
    char system[64];
    char key[PROFILE_KEY_BYTES];        /* profile_key_of: the configuration it is valid for */
    unsigned cu_count, warp_size, line_bytes;
    int kernel_count;
    model_kernel_profile *kernels;
} model_profile;

/* "cu=15 warp=32 ctas=8 warps=48 registers=32768 shared=49152 line=128 schedulers=2 issue=2
 * banks=4 spbanks=32 spword=4 dram=6x16x2048 scheduler=gto l1=32768 ways=4 mshrs=32 format=20": the configuration keys a profile depends on,
 * and the version of the profile's contents (a stored profile of an older format is taken
 * again). */
void profile_key_of(const sc_config *config, char key[PROFILE_KEY_BYTES]);

/* Fills the summaries and the group terms the models evaluate; call after building or loading. */
void profile_prepare(model_profile *profile);
void profile_free(model_profile *profile);

/* JSON form stored in profiles.profile (malloc'd), and back. */
char *profile_to_json(const model_profile *profile);
model_profile *profile_from_json(const char *json, sc_error *error);

#endif
