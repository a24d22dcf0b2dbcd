/* model_point.c — a design point's numbers from a resolved configuration (model.h). Latencies
 * are the presets' end-to-end figures, as a CU observes them; on a mesh the mean of the
 * nearest and farthest bank's latency. The memory side's (timing/memory_side.c) add their
 * lookups to the L2's: a CPU-owned line answers cpu.probe_latency after its lookup starts, an L3
 * hit after the memory side's lookup (l3.latency, or the probe's latency when every request
 * probes the CPU cluster). */
#include "model/model.h"

#include <string.h>

#include "model/dram_rows.h"
#include "timing/memory_system.h"
#include "timing/timing_config.h"

static double ceil_ratio(double a, double b)
{
    double q = a / b;
    return (double)(int64_t)q < q ? (double)(int64_t)q + 1 : q;
}

int model_point_from_config(const sc_config *c, model_point *p, sc_error *error)
{
    timing_config timing;
    if (timing_config_load(c, 0, &timing, error) < 0)
        return -1;
    bool mesh = strcmp(sc_config_string(c, "noc.topology"), "mesh") == 0;
    double gpu_hz = sc_config_float(c, "gpu.clock"), warp = sc_config_float(c, "gpu.warp_size");
    double line = sc_config_float(c, "l1.line_size");
    *p = (model_point){
        .cu_count = sc_config_float(c, "gpu.cu_count"),
        .max_warps = sc_config_float(c, "gpu.max_warps_per_cu"),
        .max_ctas = sc_config_float(c, "gpu.max_ctas_per_cu"),
        .registers = sc_config_float(c, "gpu.registers_per_cu"),
        .shared_bytes = sc_config_float(c, "gpu.shared_memory_per_cu"),
        .issue_rate = sc_config_float(c, "gpu.schedulers_per_cu") * sc_config_float(c, "gpu.issue_width"),
        .alu_cycles = ceil_ratio(warp, sc_config_float(c, "gpu.simd_width")) / sc_config_float(c, "gpu.simd_units"),
        .sfu_cycles = ceil_ratio(warp, sc_config_float(c, "gpu.sfu_width")),
        .alu_latency = sc_config_float(c, "gpu.alu_latency"),
        .sfu_latency = sc_config_float(c, "gpu.sfu_latency"),
        .shared_latency = sc_config_float(c, "gpu.shared_memory_latency"),
        .branch_penalty = sc_config_float(c, "gpu.branch_penalty"),
        .launch_latency = sc_config_float(c, "gpu.kernel_launch_latency"),
        .line_bytes = line,
        .l1_lines = sc_config_float(c, "l1.size") / line,
        .l1_banks = sc_config_float(c, "l1.banks"),
        .l1_latency = sc_config_float(c, "l1.tag_latency") + sc_config_float(c, "l1.latency"),
        .l1_mshrs = sc_config_float(c, "l1.mshrs"),
        .store_buffer_entries = sc_config_float(c, "l1.store_buffer_entries"),
        .l2_lines = sc_config_float(c, "l2.size") / line,
        .l2_banks = sc_config_float(c, "l2.banks"),
        .l2_latency = mesh ? 0.5 * (sc_config_float(c, "l2.latency") + sc_config_float(c, "l2.latency_max"))
                           : sc_config_float(c, "l2.latency"),
        .dram_latency = mesh ? 0.5 * (sc_config_float(c, "dram.latency") + sc_config_float(c, "dram.latency_max"))
                             : sc_config_float(c, "dram.latency"),
        .dram_channels = sc_config_float(c, "dram.channels"),
        .dram_line_cycles = ceil_ratio(line, sc_config_float(c, "dram.bus_bytes")) * gpu_hz /
                            sc_config_float(c, "dram.clock"),
    };
    p->oldest_first = timing.core.greedy_then_oldest;
    p->scratchpad_banked = timing.core.scratchpad_banked;
    p->dma_requests_per_cycle = timing.core.dma_requests_per_cycle;
    p->dma_blocks_cu = !timing.core.dma_blocks_warp;
    const memory_config *memory = &timing.memory;
    dram_rows_point_terms(&memory->dram, gpu_hz / sc_config_float(c, "dram.clock"), p);
    p->dram_queue_lines = (double)memory->dram.channels * (memory->dram.queue_entries + memory->dram_write_queue_entries);
    p->l2_write_through = memory->l2_write_through ? 1.0 : 0.0;
    if (memory->cpu_cache_bytes) {
        p->cpu_lines = (double)memory->cpu_cache_bytes / line;
        p->cpu_latency = p->l2_latency + memory->cpu_probe_latency;
    }
    if (memory->l3_enabled) {
        p->l3_lines = (double)memory->l3_bytes / line;
        p->l3_banks = memory->l3_banks;
        p->l3_latency = p->l2_latency + memory_side_lookup_cycles(memory);
    }
    /* A message holds a port for whole NoC cycles (timing/noc.c), a header alone for one. */
    double noc_port_bytes = sc_config_float(c, "noc.bytes_per_cycle"), gpu_per_noc = gpu_hz / sc_config_float(c, "noc.clock");
    p->noc_data_cycles = ceil_ratio(line + MEMORY_MESSAGE_HEADER_BYTES, noc_port_bytes) * gpu_per_noc;
    p->noc_header_cycles = ceil_ratio(MEMORY_MESSAGE_HEADER_BYTES, noc_port_bytes) * gpu_per_noc;
    profile_key_of(c, p->profile_key);
    return 0;
}

int model_point_of_mechanism(const model_mechanism *mechanism, const sc_config *config, model_point *point,
                             sc_error *error)
{
    return mechanism->load_point ? mechanism->load_point(config, point, error) : 0;
}
