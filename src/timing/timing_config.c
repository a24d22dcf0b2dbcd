/* timing_config.c — derives the timing model's parameters from a system configuration and
 * rejects inconsistent ones (see timing_config.h for the derivations). */
#include "timing/timing_config.h"

#include "timing/protocol_hooks.h"

#include <string.h>

static unsigned ceil_div(uint64_t a, uint64_t b)
{
    return (unsigned)((a + b - 1) / b);
}

static int load_core(const sc_config *c, core_config *core, sc_error *error)
{
    unsigned warp = (unsigned)sc_config_int(c, "gpu.warp_size");
    *core = (core_config){
        .cu_count = (unsigned)sc_config_int(c, "gpu.cu_count"),
        .warp_size = warp,
        .max_warps = (unsigned)sc_config_int(c, "gpu.max_warps_per_cu"),
        .max_ctas = (unsigned)sc_config_int(c, "gpu.max_ctas_per_cu"),
        .registers = (unsigned)sc_config_int(c, "gpu.registers_per_cu"),
        .schedulers = (unsigned)sc_config_int(c, "gpu.schedulers_per_cu"),
        .issue_width = (unsigned)sc_config_int(c, "gpu.issue_width"),
        .shared_bytes = (uint64_t)sc_config_int(c, "gpu.shared_memory_per_cu"),
        .greedy_then_oldest = strcmp(sc_config_string(c, "gpu.scheduler"), "gto") == 0,
        .simd_units = (unsigned)sc_config_int(c, "gpu.simd_units"),
        .simd_interval = ceil_div(warp, (uint64_t)sc_config_int(c, "gpu.simd_width")),
        .sfu_interval = ceil_div(warp, (uint64_t)sc_config_int(c, "gpu.sfu_width")),
        .alu_latency = (unsigned)sc_config_int(c, "gpu.alu_latency"),
        .sfu_latency = (unsigned)sc_config_int(c, "gpu.sfu_latency"),
        .shared_latency = (unsigned)sc_config_int(c, "gpu.shared_memory_latency"),
        .local_latency = (unsigned)sc_config_int(c, "l1.latency"),
        .scratchpad_banked = strcmp(sc_config_string(c, "local_memory.timing"), "banked") == 0,
        .scratchpad_banks = (unsigned)sc_config_int(c, "gpu.shared_memory_banks"),
        .scratchpad_bank_bytes = (unsigned)sc_config_int(c, "local_memory.bank_bytes"),
        .dma_requests_per_cycle = (unsigned)sc_config_int(c, "local_memory.dma_requests_per_cycle"),
        .dma_blocks_warp = strcmp(sc_config_string(c, "local_memory.dma_blocking"), "warp") == 0,
        .branch_penalty = (unsigned)sc_config_int(c, "gpu.branch_penalty"),
        .store_wait = strcmp(sc_config_string(c, "gpu.store_wait"), "performed") == 0,
        .kernel_launch_latency = (unsigned)sc_config_int(c, "gpu.kernel_launch_latency"),
        .max_cycles = (uint64_t)sc_config_int(c, "sim.max_cycles"),
    };
    core->policy = gsi_default_policy();
    core->acquire_atomic_wait_is_data = strcmp(sc_config_string(c, "gsi.acquire_atomic_wait"), "mem_data") == 0;
    core->access_latencies = sc_config_bool(c, "sim.access_latencies");
    core->gsi = sc_config_bool(c, "sim.gsi");
    core->dma_wait_mshr_full = strcmp(sc_config_string(c, "gsi.dma_wait"), "mshr_full") == 0;
    if (gsi_parse_order(sc_config_string(c, "gsi.instruction_order"), core->policy.instruction_order,
                        "gsi.instruction_order", error) < 0 ||
        gsi_parse_order(sc_config_string(c, "gsi.cycle_order"), core->policy.cycle_order, "gsi.cycle_order", error) < 0)
        return -1;
    return 0;
}

static noc_topology topology_of(const char *name)
{
    if (strcmp(name, "mesh") == 0)
        return NOC_MESH;
    return strcmp(name, "ideal") == 0 ? NOC_IDEAL : NOC_CROSSBAR;
}

/* The NoC's energy parameters (noc_energy.h); the virtual networks are the mechanism's, set
 * by whoever picks it (two until then: a request and a response network). */
static noc_energy_config load_noc_energy(const sc_config *c)
{
    return (noc_energy_config){
        .buffer_write = sc_config_float(c, "noc.buffer_write_energy"),
        .buffer_read = sc_config_float(c, "noc.buffer_read_energy"),
        .crossbar = sc_config_float(c, "noc.crossbar_energy"),
        .arbitration = sc_config_float(c, "noc.arbitration_energy"),
        .link = sc_config_float(c, "noc.link_energy"),
        .buffer_leakage = sc_config_float(c, "noc.buffer_leakage"),
        .router_leakage = sc_config_float(c, "noc.router_leakage"),
        .link_leakage = sc_config_float(c, "noc.link_leakage"),
        .virtual_networks = 2,
        .vcs_per_network = (unsigned)sc_config_int(c, "noc.vcs_per_network"),
        .vc_depth = (unsigned)sc_config_int(c, "noc.vc_depth"),
    };
}

/* A mesh needs a grid to place the CUs and L2 banks on (they share its nodes when it is smaller
 * than their number). */
static int load_noc(const sc_config *c, noc_config *network, sc_error *error)
{
    *network = (noc_config){
        .topology = topology_of(sc_config_string(c, "noc.topology")),
        .clock = sc_clock_from_hz(sc_config_float(c, "noc.clock")),
        .latency = (unsigned)sc_config_int(c, "noc.latency"),
        .bytes_per_cycle = (unsigned)sc_config_int(c, "noc.bytes_per_cycle"),
        .rows = (unsigned)sc_config_int(c, "noc.mesh_rows"),
        .columns = (unsigned)sc_config_int(c, "noc.mesh_columns"),
    };
    if (network->topology != NOC_MESH)
        network->rows = network->columns = 0;
    else if (network->rows == 0 || network->columns == 0)
        return sc_fail_input(error, "noc.mesh_rows/noc.mesh_columns: a mesh (noc.topology mesh) needs at least one row and "
                       "one column, not %u x %u", network->rows, network->columns);
    return 0;
}

/* Spreads the L2's NUCA latency range over the mesh's hops (2 x diameter hops at most per round trip). */
static void derive_hop_latency(const sc_config *c, memory_config *m)
{
    if (m->noc.topology != NOC_MESH || m->noc.rows * m->noc.columns == 0)
        return;
    unsigned diameter = m->noc.rows - 1 + m->noc.columns - 1;
    uint64_t spread = (uint64_t)(sc_config_int(c, "l2.latency_max") - sc_config_int(c, "l2.latency"));
    if (diameter == 0 || spread == 0)
        return;
    sc_time spread_time = sc_clock_span(m->gpu_clock, spread);
    m->noc.hop_latency = (unsigned)((spread_time / (2 * diameter) + m->noc.clock.period / 2) / m->noc.clock.period);
}

static sc_time noc_round_trip(const memory_config *m)
{
    if (m->noc.topology == NOC_IDEAL)
        return 0;
    uint64_t cycles = 2ull * m->noc.latency + ceil_div(MEMORY_MESSAGE_HEADER_BYTES, m->noc.bytes_per_cycle) +
                      ceil_div(MEMORY_MESSAGE_HEADER_BYTES + m->line_bytes, m->noc.bytes_per_cycle);
    return sc_clock_span(m->noc.clock, cycles);
}

/* The L3's tags per bank, and the CPU cluster's last level (the shared L2, or without one the
 * cores' L1s taken together). */
static int load_memory_side(const sc_config *c, memory_config *m, sc_error *error)
{
    m->l3_enabled = sc_config_bool(c, "l3.enabled");
    m->l3_bytes = (uint64_t)sc_config_int(c, "l3.size");
    m->l3_associativity = (unsigned)sc_config_int(c, "l3.associativity");
    m->l3_banks = (unsigned)sc_config_int(c, "l3.banks");
    m->l3_latency = (unsigned)sc_config_int(c, "l3.latency");
    uint64_t l3_set = (uint64_t)m->l3_associativity * m->line_bytes;
    if (m->l3_enabled && (m->l3_bytes % m->l3_banks || m->l3_bytes / m->l3_banks % l3_set ||
                          m->l3_bytes / m->l3_banks == 0))
        return sc_fail_input(error, "l3.size: %llu bytes is not a whole number (at least one) of sets of l3.associativity "
                       "x %u-byte lines per bank (l3.banks %u)", (unsigned long long)m->l3_bytes, m->line_bytes,
                       m->l3_banks);
    uint64_t cores = (uint64_t)sc_config_int(c, "cpu.count");
    if (cores == 0)
        return 0;
    uint64_t cpu_line = (uint64_t)sc_config_int(c, "cpu.line_size");
    if (cpu_line != m->line_bytes)
        return sc_fail_input(error, "cpu.line_size: %llu bytes must equal l2.line_size (%u) in the timing model when "
                       "cpu.count is not 0", (unsigned long long)cpu_line, m->line_bytes);
    bool shared_l2 = sc_config_int(c, "cpu.l2_size") > 0;
    m->cpu_cache_bytes = shared_l2 ? (uint64_t)sc_config_int(c, "cpu.l2_size") : cores * (uint64_t)sc_config_int(c, "cpu.l1_size");
    m->cpu_cache_associativity = (unsigned)sc_config_int(c, shared_l2 ? "cpu.l2_associativity" : "cpu.l1_associativity");
    if (m->cpu_cache_bytes % ((uint64_t)m->cpu_cache_associativity * m->line_bytes))
        return sc_fail_input(error, "%s: the CPU cluster's last level (%llu bytes) must be a multiple of its associativity "
                       "x the line size", shared_l2 ? "cpu.l2_size" : "cpu.l1_size",
                       (unsigned long long)m->cpu_cache_bytes);
    m->cpu_probe_latency = (unsigned)sc_config_int(c, "cpu.probe_latency");
    m->cpu_null_directory = sc_config_int(c, "directory.entries") == 0;
    return 0;
}

static int load_dram(const sc_config *c, memory_config *m, sc_error *error)
{
    dram_config *d = &m->dram;
    *d = (dram_config){
        .channels = (unsigned)sc_config_int(c, "dram.channels"),
        .banks_per_channel = (unsigned)sc_config_int(c, "dram.banks_per_channel"),
        .row_bytes = (uint64_t)sc_config_int(c, "dram.row_size"),
        .line_bytes = m->line_bytes,
        .interleave_bytes = m->line_bytes,
        .bus_bytes = (unsigned)sc_config_int(c, "dram.bus_bytes"),
        .queue_entries = (unsigned)sc_config_int(c, "dram.request_queue"),
        .frfcfs = strcmp(sc_config_string(c, "dram.scheduler"), "frfcfs") == 0,
        .clock = sc_clock_from_hz(sc_config_float(c, "dram.clock")),
        .t_cl = (unsigned)sc_config_int(c, "dram.t_cl"), .t_rcd = (unsigned)sc_config_int(c, "dram.t_rcd"),
        .t_rp = (unsigned)sc_config_int(c, "dram.t_rp"), .t_ras = (unsigned)sc_config_int(c, "dram.t_ras"),
        .t_rc = (unsigned)sc_config_int(c, "dram.t_rc"), .t_rrd = (unsigned)sc_config_int(c, "dram.t_rrd"),
        .t_wl = (unsigned)sc_config_int(c, "dram.t_wl"), .t_wr = (unsigned)sc_config_int(c, "dram.t_wr"),
        .t_cdlr = (unsigned)sc_config_int(c, "dram.t_cdlr"), .t_faw = (unsigned)sc_config_int(c, "dram.t_faw"),
        .t_rtw = (unsigned)sc_config_int(c, "dram.t_rtw"), .t_rfc = (unsigned)sc_config_int(c, "dram.t_rfc"),
        .t_refi = (unsigned)sc_config_int(c, "dram.t_refi"),
    };
    unsigned burst = ceil_div(m->line_bytes, d->bus_bytes);
    sc_time core = sc_clock_span(d->clock, (uint64_t)d->t_rcd + d->t_cl + burst);
    sc_time end_to_end = sc_clock_span(m->gpu_clock, (uint64_t)sc_config_int(c, "dram.latency"));
    sc_time l2 = sc_clock_span(m->gpu_clock, (uint64_t)sc_config_int(c, "l2.latency"));
    sc_time memory_side = sc_clock_span(m->gpu_clock, memory_side_lookup_cycles(m));
    if (end_to_end < l2 + memory_side + core)
        return sc_fail_input(error, "dram.latency: %lld GPU cycles is less than l2.latency plus the memory side's lookup "
                       "(l3.latency, or cpu.probe_latency under a null directory: %u) plus one DRAM access "
                       "(tRCD + tCL + burst = %.0f GPU cycles)", (long long)sc_config_int(c, "dram.latency"),
                       memory_side_lookup_cycles(m), (double)core / (double)m->gpu_clock.period);
    d->pipeline_latency = end_to_end - l2 - memory_side - core;
    if (d->t_rfc && d->t_refi <= d->t_rfc)
        return sc_fail_input(error, "dram.t_refi: a refresh every %u DRAM cycles cannot last dram.t_rfc = %u cycles", d->t_refi,
                       d->t_rfc);
    m->dram_write_queue_entries = (unsigned)sc_config_int(c, "dram.write_queue");
    return 0;
}

static int load_memory(const sc_config *c, memory_config *m, unsigned cu_count, uint64_t jitter, sc_error *error)
{
    uint64_t l1_line = (uint64_t)sc_config_int(c, "l1.line_size"), l2_line = (uint64_t)sc_config_int(c, "l2.line_size");
    if (l1_line != l2_line)
        return sc_fail_input(error, "l1.line_size (%llu) and l2.line_size (%llu) must be equal in the timing model",
                       (unsigned long long)l1_line, (unsigned long long)l2_line);
    if (l1_line > TIMING_MAX_LINE_BYTES)
        return sc_fail_input(error, "l1.line_size: the timing model supports lines up to %d bytes, not %llu",
                       TIMING_MAX_LINE_BYTES, (unsigned long long)l1_line);
    unsigned l2_banks = (unsigned)sc_config_int(c, "l2.banks");
    *m = (memory_config){
        .cu_count = cu_count,
        .line_bytes = (unsigned)l1_line,
        .gpu_clock = sc_clock_from_hz(sc_config_float(c, "gpu.clock")),
        .l1_bytes = (uint64_t)sc_config_int(c, "l1.size"),
        .l1_associativity = (unsigned)sc_config_int(c, "l1.associativity"),
        .l1_banks = (unsigned)sc_config_int(c, "l1.banks"),
        .l1_mshrs = (unsigned)sc_config_int(c, "l1.mshrs"),
        .store_buffer_entries = (unsigned)sc_config_int(c, "l1.store_buffer_entries"),
        .l1_tag_latency = (unsigned)sc_config_int(c, "l1.tag_latency"),
        .l1_latency = (unsigned)sc_config_int(c, "l1.latency"),
        .l2_bytes = (uint64_t)sc_config_int(c, "l2.size"),
        .l2_associativity = (unsigned)sc_config_int(c, "l2.associativity"),
        .l2_banks = l2_banks,
        .jitter = jitter,
    };
    uint64_t l2_mshrs = (uint64_t)sc_config_int(c, "l2.mshrs");
    m->l2_mshrs_per_bank = l2_mshrs / l2_banks ? (unsigned)(l2_mshrs / l2_banks) : 1;
    m->l2_write_through = !strcmp(sc_config_string(c, "l2.write_policy"), "write_through");
    if (m->l1_bytes % ((uint64_t)m->l1_associativity * m->line_bytes))
        return sc_fail_input(error, "l1.size: %llu bytes is not a multiple of l1.associativity x line size (%u x %u)",
                             (unsigned long long)m->l1_bytes, m->l1_associativity, m->line_bytes);
    if (m->l2_bytes % l2_banks || (m->l2_bytes / l2_banks) % ((uint64_t)m->l2_associativity * m->line_bytes))
        return sc_fail_input(error, "l2.size: %llu bytes does not split over l2.banks (%u) into banks that are multiples "
                             "of l2.associativity x line size (%u x %u)",
                             (unsigned long long)m->l2_bytes, l2_banks, m->l2_associativity, m->line_bytes);
    if (load_noc(c, &m->noc, error) < 0)
        return -1;
    m->noc_energy = load_noc_energy(c);
    derive_hop_latency(c, m);
    sc_time round_trip = noc_round_trip(m) + sc_clock_span(m->gpu_clock, m->l1_tag_latency);
    sc_time l2 = sc_clock_span(m->gpu_clock, (uint64_t)sc_config_int(c, "l2.latency"));
    if (l2 < round_trip + m->gpu_clock.period)
        return sc_fail_input(error, "l2.latency: %lld GPU cycles is less than the unloaded trip to an L2 bank and back "
                       "(l1.tag_latency + 2 x noc.latency + serialisation = %.0f GPU cycles)",
                       (long long)sc_config_int(c, "l2.latency"), (double)round_trip / (double)m->gpu_clock.period);
    m->l2_latency = (unsigned)((l2 - round_trip) / m->gpu_clock.period);
    if (load_memory_side(c, m, error) < 0)
        return -1;
    return load_dram(c, m, error);
}

int timing_config_load(const sc_config *config, uint64_t jitter, timing_config *out, sc_error *error)
{
    if (load_core(config, &out->core, error) < 0)
        return -1;
    return load_memory(config, &out->memory, out->core.cu_count, jitter, error);
}

int timing_config_load_protocol(const sc_config *config, const sc_protocol *protocol, timing_config *timing,
                                sc_error *error)
{
    if (!protocol->hooks || !protocol->hooks->load_config)
        return 0;
    return protocol->hooks->load_config(config, protocol->name, &timing->memory, error);
}
