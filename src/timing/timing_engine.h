/* timing_engine.h — the detailed, cycle-level timing model as an engine of a device
 * (host/host_api.h): compute units issuing real PTX through the SIMT executor, the memory
 * system below them (memory_system.h) with a pluggable coherence protocol, and the GSI stall
 * inspector charging every CU cycle of every kernel. */
#ifndef SYNCSCOPE_TIMING_TIMING_ENGINE_H
#define SYNCSCOPE_TIMING_TIMING_ENGINE_H

#include "host/host_api.h"
#include "timing/protocol.h"
#include "stalls/gsi.h"
#include "timing/access_latency.h"
#include "timing/timing_config.h"

extern const sc_engine_ops timing_engine_ops;

/* Creates the engine for a device of `warp_size` lanes (must equal the configuration's). */
void *timing_engine_create(const timing_config *config, const sc_protocol *protocol, sc_error *error);

/* What one launch measured. */
typedef struct timing_kernel_record {
    uint64_t cycles, warp_instructions;
    uint64_t ctas;                   /* CTAs run: the launch part, as its steady window left it */
    /* The steady window (timing_engine_measure_steady): cycles and warp instructions issued from
     * the dispatch of the CTA it opened at to the dispatch of the part's last CTA; 0 when no
     * window was asked for or the launch is too short to have one. */
    uint64_t steady_cycles, steady_warp_instructions;
    /* The steady window closed before the launch part had installed as many lines in the L2 as
     * it holds: it measured while the L2 still held lines from before the part (a sampled
     * window's functionally warmed ones). */
    bool steady_before_turnover;
    uint64_t l1_hits, l1_misses, l2_hits, l2_misses, dram_reads, dram_writes, noc_bytes;
    uint64_t dram_busy_cycles;       /* GPU cycles the DRAM data buses carried data, per channel */
    gsi_counters stalls;             /* summed over CUs */
} timing_kernel_record;

/* What a run measured, summed over its launches so far. */
typedef struct timing_report {
    uint64_t cycles;                 /* GPU cycles, kernel launch to completion, summed over kernels */
    unsigned cu_count;
    bool gsi;                        /* sim.gsi: false leaves every GSI counter zero */
    const gsi_counters *per_cu;      /* cu_count entries; each sums to `cycles` (under sim.gsi) */
    gsi_counters total;              /* summed over CUs */
    uint64_t warp_instructions;
    uint64_t kernels;
    const memory_stats *memory;
    const struct protocol_counter *protocol_counters;   /* the mechanism's own metrics (protocol_hooks.h) */
    const void *protocol_stats;      /* what they read */
    unsigned protocol_counter_count;
    const noc_stats *noc;            /* per NoC port (endpoint_port): CUs 0..cu_count-1, then L2 banks */
    noc_energy noc_energy;           /* the NoC's energy over the run's simulated time (`cycles`) */
    unsigned l2_banks;
    const dram_stats *dram;
    uint64_t event_queue_peak;
    bool filters_issue;              /* the protocol has an issue filter; then its holds: */
    uint64_t filter_holds;           /* warps it held back, each until it let them go */
    uint64_t filter_hold_cycles;     /* the GPU cycles of those holds */
    access_latencies *access_latencies;   /* sim.access_latencies's (access_latency.h), else NULL */
    uint64_t releases;               /* warp releases performed (not waived by an issue filter) */
    uint64_t releases_waited;        /* of those, the ones that waited before issuing */
    uint64_t release_wait_cycles;    /* their waits' GPU cycles, first refusal to issue */
    uint64_t dma_line_requests;      /* line loads of DMA engines the L1s accepted */
    uint64_t dma_mshr_refused_cycles;   /* CU cycles a DMA engine's line load was refused an MSHR */
    const timing_kernel_record *kernel_records;   /* one per launch, in order */
    size_t kernel_record_count;
} timing_report;

void timing_engine_report(void *engine, timing_report *report);

/* CTAs of `launch` the whole GPU holds at once (occupancy: warps, CTA slots, registers, shared
 * memory per CU, times the CUs); 0 if one CTA does not fit. */
uint64_t timing_engine_resident_ctas(const void *engine, const sc_launch *launch);

/* Makes the following launches record a steady window opening when the CTA `cta_offset` after
 * the launch's first is dispatched (UINT64_MAX: none, the default) and measuring the CTAs from
 * there to the launch part's end. A sampled run opens it after its warm-up waves, so the window
 * sees a full GPU with warm caches and no drain. Where the launch is then in the second turnover
 * of its caches (the L2's lines, and every L1's where the L1s are write-back), or in the first
 * turnover of write-back L1s (timing_engine.c, mark_steady_window), the window opens later, and
 * the launch part is extended where needed, up to the CTA `latest_end`, so that the window
 * measures at least `ctas` CTAs. */
void timing_engine_measure_steady(void *engine, uint64_t cta_offset, uint64_t ctas, uint64_t latest_end);

unsigned timing_engine_line_bytes(const void *engine);

/* Functional warming between launches (memory_warm_line, memory_warm_finish). */
void timing_engine_warm_line(void *engine, sc_device *device, uint64_t address, bool wrote);
void timing_engine_warm_finish(void *engine, sc_device *device);

#endif
