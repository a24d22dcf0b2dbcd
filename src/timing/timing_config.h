/* timing_config.h — the timing model's parameters, derived from a resolved system
 * configuration (config/). Latency keys of the presets are what a CU observes end to end
 * ("L2 hit latency 29-61 cycles"), so the model derives its per-component latencies from them:
 *
 *   L2 bank latency  = l2.latency - l1.tag_latency - unloaded NoC round trip (nearest bank)
 *   NoC hop latency  = (l2.latency_max - l2.latency) / (2 x the mesh diameter), mesh only
 *   DRAM pipeline    = dram.latency - l2.latency - memory-side lookup - (tRCD + tCL + one burst),
 *                      in time; the memory-side lookup is l3.latency (0 without an L3), or
 *                      cpu.probe_latency if longer when a null directory (directory.entries 0)
 *                      probes a CPU cluster (cpu.count > 0) on every request
 *   CPU cluster      = cpu.l2_size, cpu.l2_associativity ways (cpu.l2_size 0: cpu.count x
 *                      cpu.l1_size, cpu.l1_associativity ways); none when cpu.count is 0
 *
 * A protocol's own keys (its write-cache levels, a full-map directory) are loaded by its module,
 * and only when its mechanism is selected (timing_config_load_protocol).
 *
 * A configuration whose end-to-end latencies are shorter than its parts allow is rejected with
 * a message naming the keys. dram.latency_max and l1.remote_latency* are not used (the mesh
 * distance already spreads DRAM latencies; a load served by another L1 takes the modelled trip
 * through the directory and the owner instead).
 */
#ifndef SYNCSCOPE_TIMING_TIMING_CONFIG_H
#define SYNCSCOPE_TIMING_TIMING_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "stalls/gsi.h"
#include "timing/memory_system.h"

typedef struct core_config {
    unsigned cu_count, warp_size;
    unsigned max_warps, max_ctas, registers, schedulers, issue_width;
    uint64_t shared_bytes;
    bool greedy_then_oldest;              /* else loose round-robin */
    unsigned simd_units, simd_interval;   /* cycles a warp occupies a SIMD unit */
    unsigned sfu_interval;                /* cycles a warp occupies the SFU */
    unsigned alu_latency, sfu_latency, shared_latency, local_latency;
    bool scratchpad_banked;               /* local_memory.timing banked: bank conflicts serialise */
    unsigned scratchpad_banks, scratchpad_bank_bytes;
    unsigned dma_requests_per_cycle;      /* DMA engine issue rate (dma_engine.c) */
    bool dma_blocks_warp;                 /* local_memory.dma_blocking warp: only the accessing warp waits */
    unsigned branch_penalty;              /* cycles before a warp's next instruction after a taken branch */
    bool store_wait;                      /* gpu.store_wait performed: no global access while a store is in flight */
    unsigned kernel_launch_latency;
    uint64_t max_cycles;
    gsi_policy policy;
    bool acquire_atomic_wait_is_data;     /* gsi.acquire_atomic_wait mem_data (compute_unit.c: check_own_state) */
    bool access_latencies;                /* sim.access_latencies: keep every global access's latency */
    bool gsi;                             /* sim.gsi: classify and charge every CU cycle (compute_unit.c) */
    bool dma_wait_mshr_full;              /* gsi.dma_wait mshr_full (dma_engine.c: dma_blocks) */
} core_config;

typedef struct timing_config {
    core_config core;
    memory_config memory;
} timing_config;

/* The engine's parameters, shared by every protocol (protocol_config left zero). */
int timing_config_load(const sc_config *config, uint64_t jitter, timing_config *out, sc_error *error);

/* Completes `timing` (from timing_config_load) for `protocol`: its module's load_config hook
 * reads, derives and checks the keys it owns into timing->memory.protocol_config, failing with
 * the key of a bad value named. */
int timing_config_load_protocol(const sc_config *config, const sc_protocol *protocol, timing_config *timing,
                                sc_error *error);

#endif
