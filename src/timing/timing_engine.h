/* timing_engine.h — the detailed, cycle-level timing model as an engine of a device
 * (host/host_api.h): compute units issuing real PTX through the SIMT executor, the memory
 * system below them (memory_system.h) with a pluggable coherence protocol, and the GSI stall
 * inspector charging every CU cycle of every kernel. */
#ifndef SYNCSCOPE_TIMING_TIMING_ENGINE_H
#define SYNCSCOPE_TIMING_TIMING_ENGINE_H

#include "host/host_api.h"
#include "protocols/protocol.h"
#include "stalls/gsi.h"
#include "timing/timing_config.h"

extern const sc_engine_ops timing_engine_ops;

/* Creates the engine for a device of `warp_size` lanes (must equal the configuration's). */
void *timing_engine_create(const timing_config *config, const sc_protocol *protocol, sc_error *error);

/* What one launch measured. */
typedef struct timing_kernel_record {
    uint64_t cycles, warp_instructions;
    uint64_t l1_hits, l1_misses, l2_hits, l2_misses, dram_reads, dram_writes, noc_bytes;
    gsi_counters stalls;             /* summed over CUs */
} timing_kernel_record;

/* What a run measured, summed over its launches so far. */
typedef struct timing_report {
    uint64_t cycles;                 /* GPU cycles, kernel launch to completion, summed over kernels */
    unsigned cu_count;
    const gsi_counters *per_cu;      /* cu_count entries; each sums to `cycles` */
    gsi_counters total;              /* summed over CUs */
    uint64_t warp_instructions;
    uint64_t kernels;
    const memory_stats *memory;
    bool directory;                  /* the protocol has a directory (its dir_* counters mean something) */
    bool sync_fifo;                  /* the protocol has QR's wL1 and S-FIFO (its QR counters mean something) */
    const noc_stats *noc;            /* endpoints: CUs 0..cu_count-1, then L2 banks */
    unsigned l2_banks;
    const dram_stats *dram;
    uint64_t event_queue_peak;
    const timing_kernel_record *kernel_records;   /* one per launch, in order */
    size_t kernel_record_count;
} timing_report;

void timing_engine_report(void *engine, timing_report *report);

#endif
