/* run_timing.c — the detailed mode of a run session: the timing engine on a device, and its
 * report as stall rows and metrics. */
#include "session/run_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocols/mechanism.h"
#include "timing/endpoint.h"
#include "timing/protocol.h"
#include "timing/protocol_hooks.h"
#include "timing/timing_engine.h"

void *run_timing_engine(const sc_config *config, const char *mechanism, uint64_t jitter, sc_error *error)
{
    const sc_protocol *protocol = sc_protocol_find(mechanism);
    if (!protocol)
        return sc_fail(error, "mechanism %s has no detailed protocol (see syncscope list mechanisms)", mechanism),
               NULL;
    timing_config timing;
    if (timing_config_load(config, jitter, &timing, error) < 0 ||
        timing_config_load_protocol(config, protocol, &timing, error) < 0) {
        sc_fail_prefix(error, "system %s", sc_config_system(config));
        return NULL;
    }
    timing.memory.noc_energy.virtual_networks = sc_mechanism_virtual_networks(sc_mechanism_find(mechanism));
    return timing_engine_create(&timing, protocol, error);
}

sc_device *run_timing_device(const sc_config *config, const char *mechanism, uint64_t jitter, void **engine,
                             sc_error *error)
{
    *engine = run_timing_engine(config, mechanism, jitter, error);
    if (!*engine)
        return NULL;
    sc_device *device = sc_device_create((unsigned)sc_config_int(config, "gpu.warp_size"), error);
    if (!device) {
        timing_engine_ops.destroy(*engine);
        return NULL;
    }
    sc_device_set_engine(device, &timing_engine_ops, *engine);
    return device;
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

void run_timing_add_metric(run_timing *timing, int kernel, const char *name, double value, const char *unit)
{
    if (timing->metric_count == timing->metric_capacity) {
        timing->metric_capacity = timing->metric_capacity ? 2 * timing->metric_capacity : 64;
        timing->metrics = realloc(timing->metrics, (size_t)timing->metric_capacity * sizeof *timing->metrics);
    }
    timing->metrics[timing->metric_count++] = (sc_metric_row){kernel, name, value, unit};
}

static void add_metric(run_timing *timing, const char *name, double value, const char *unit)
{
    run_timing_add_metric(timing, -1, name, value, unit);
}

/* A metric whose name is built at run time; the name is kept until release. */
static void add_built_metric(run_timing *timing, const char *name, double value, const char *unit)
{
    timing->names = realloc(timing->names, (size_t)(timing->name_count + 1) * sizeof *timing->names);
    timing->names[timing->name_count] = strdup(name);
    add_metric(timing, timing->names[timing->name_count++], value, unit);
}

/* The bytes of one endpoint ("noc_bytes_out.cu3"). */
static void add_named_metric(run_timing *timing, const char *prefix, const char *endpoint_name, unsigned index,
                             double value)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%s%u", prefix, endpoint_name, index);
    add_built_metric(timing, name, value, "bytes");
}

/* Bytes one NoC endpoint sent and received. */
static void add_endpoint_link_metrics(run_timing *timing, const timing_report *report, const char *name,
                                      endpoint e)
{
    unsigned port = endpoint_port(e, report->cu_count);
    add_named_metric(timing, "noc_bytes_out", name, e.index, (double)report->noc->bytes_out[port]);
    add_named_metric(timing, "noc_bytes_in", name, e.index, (double)report->noc->bytes_in[port]);
}

/* Bytes each NoC endpoint sent and received: the traffic of every CU's and L2 bank's link. */
static void add_link_metrics(run_timing *timing, const timing_report *report)
{
    for (unsigned cu = 0; cu < report->cu_count; cu++)
        add_endpoint_link_metrics(timing, report, "cu", endpoint_cu(cu));
    for (unsigned bank = 0; bank < report->l2_banks; bank++)
        add_endpoint_link_metrics(timing, report, "l2_bank", endpoint_l2_bank(bank));
}

/* The NoC's bytes and flits per traffic class (noc_bytes.ld ... noc_flits.rcl), and its energy
 * in nJ (link and router, dynamic and static, and their total). */
static void add_traffic_metrics(run_timing *timing, const timing_report *report)
{
    for (int c = 0; c < NOC_TRAFFIC_CLASS_COUNT; c++) {
        char name[64];
        snprintf(name, sizeof name, "noc_bytes.%s", noc_traffic_class_name((noc_traffic_class)c));
        add_built_metric(timing, name, (double)report->noc->class_bytes[c], "bytes");
        snprintf(name, sizeof name, "noc_flits.%s", noc_traffic_class_name((noc_traffic_class)c));
        add_built_metric(timing, name, (double)report->noc->class_flits[c], "flits");
    }
    const noc_energy *energy = &report->noc_energy;
    add_metric(timing, "noc_energy_link_dynamic", energy->link_dynamic * 1e-3, "nJ");
    add_metric(timing, "noc_energy_router_dynamic", energy->router_dynamic * 1e-3, "nJ");
    add_metric(timing, "noc_energy_link_static", energy->link_static * 1e-3, "nJ");
    add_metric(timing, "noc_energy_router_static", energy->router_static * 1e-3, "nJ");
    add_metric(timing, "noc_energy", noc_energy_total(energy) * 1e-3, "nJ");
}

static void add_kernel_metrics(run_timing *timing, const timing_report *report)
{
    for (size_t k = 0; k < report->kernel_record_count; k++) {
        const timing_kernel_record *r = &report->kernel_records[k];
        int kernel = (int)k;
        run_timing_add_metric(timing, kernel, "cycles", (double)r->cycles, "GPU cycles");
        run_timing_add_metric(timing, kernel, "ipc", ratio((double)r->warp_instructions, (double)r->cycles),
                          "warp instructions/cycle");
        run_timing_add_metric(timing, kernel, "l1_hits", (double)r->l1_hits, NULL);
        run_timing_add_metric(timing, kernel, "l1_misses", (double)r->l1_misses, NULL);
        run_timing_add_metric(timing, kernel, "l2_hits", (double)r->l2_hits, NULL);
        run_timing_add_metric(timing, kernel, "l2_misses", (double)r->l2_misses, NULL);
        run_timing_add_metric(timing, kernel, "dram_reads", (double)r->dram_reads, NULL);
        run_timing_add_metric(timing, kernel, "dram_writes", (double)r->dram_writes, NULL);
        run_timing_add_metric(timing, kernel, "noc_bytes", (double)r->noc_bytes, "bytes");
        for (int c = 0; report->gsi && c < GSI_CATEGORY_COUNT; c++)
            run_timing_add_metric(timing, kernel, gsi_category_name((gsi_category)c), (double)r->stalls.category[c],
                              "CU cycles");
    }
}


/* sim.access_latencies: each kind's distribution, for the kinds the run issued. */
static void add_access_latency_metrics(run_timing *timing, access_latencies *latencies)
{
    for (int k = 0; k < ACCESS_LATENCY_KINDS; k++) {
        access_latency_summary s = access_latencies_summary(latencies, (access_latency_kind)k);
        if (s.count == 0)
            continue;
        const struct {
            const char *name;
            double value;
        } parts[] = {{"count", (double)s.count}, {"mean", s.mean}, {"p10", s.p10}, {"p50", s.p50},
                     {"p90", s.p90},             {"p99", s.p99},   {"max", s.max}};
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
            char name[64];
            snprintf(name, sizeof name, "access_latency_%s.%s", parts[p].name, access_latency_kind_name((access_latency_kind)k));
            add_built_metric(timing, name, parts[p].value, p == 0 ? NULL : "GPU cycles");
        }
    }
}

void run_timing_collect(void *engine, run_timing *timing)
{
    timing_report report;
    timing_engine_report(engine, &report);
    timing->present = true;
    timing->cycles = report.cycles;
    timing->cu_count = report.cu_count;
    timing->gsi = report.gsi;
    timing->per_cu = malloc(report.cu_count * sizeof *timing->per_cu);
    memcpy(timing->per_cu, report.per_cu, report.cu_count * sizeof *timing->per_cu);
    timing->total = report.total;
    add_metric(timing, "cycles", (double)report.cycles, "GPU cycles");
    add_metric(timing, "ipc", ratio((double)report.warp_instructions, (double)report.cycles), "warp instructions/cycle");
    if (report.memory) {
        const memory_stats *m = report.memory;
        add_metric(timing, "l1_hits", (double)m->l1_hits, NULL);
        add_metric(timing, "l1_load_accesses", (double)m->l1_load_accesses, NULL);
        add_metric(timing, "l1_misses", (double)m->l1_misses, NULL);
        add_metric(timing, "l1_mshr_merges", (double)m->l1_merges, NULL);
        add_metric(timing, "l1_read_arounds", (double)m->l1_read_arounds, NULL);
        add_metric(timing, "l1_line_invalidations", (double)m->l1_invalidations, NULL);
        add_metric(timing, "l1_flash_invalidations", (double)m->l1_flash_invalidations, NULL);
        add_metric(timing, "l1_write_throughs", (double)m->l1_write_throughs, NULL);
        add_metric(timing, "store_buffer_drains", (double)m->store_buffer_drains, NULL);
        add_metric(timing, "l1_mshr_occupancy_mean", ratio((double)m->mshr_occupancy_sum, (double)m->mshr_samples), "entries");
        add_metric(timing, "l1_mshr_occupancy_peak", (double)m->mshr_peak, "entries");
        add_metric(timing, "l2_hits", (double)m->l2_hits, NULL);
        add_metric(timing, "l2_misses", (double)m->l2_misses, NULL);
        add_metric(timing, "l2_writes", (double)m->l2_writes, NULL);
        add_metric(timing, "l2_atomics", (double)m->l2_atomics, NULL);
        add_metric(timing, "l2_writebacks", (double)m->l2_writebacks, NULL);
        add_metric(timing, "l2_write_throughs", (double)m->l2_write_throughs, NULL);
        add_metric(timing, "l1_data_bytes_in", (double)m->l1_data_bytes_in, "bytes");
        add_metric(timing, "l1_coherence_bytes_in", (double)m->l1_coherence_bytes_in, "bytes");
        add_metric(timing, "l2_write_bytes_in", (double)m->l2_write_bytes_in, "bytes");
        add_metric(timing, "memory_write_bytes", (double)m->memory_write_bytes, "bytes");
        add_metric(timing, "dram_write_requests", (double)m->dram_write_requests, NULL);
        add_metric(timing, "l2_memory_write_waits", (double)m->l2_memory_write_waits, "cycles");
        add_metric(timing, "dram_write_queue_peak", (double)m->dram_write_queue_peak, NULL);
        add_metric(timing, "l3_hits", (double)m->l3_hits, NULL);
        add_metric(timing, "l3_misses", (double)m->l3_misses, NULL);
        add_metric(timing, "l3_writebacks", (double)m->l3_writebacks, NULL);
        add_metric(timing, "cpu_probes", (double)m->cpu_probes, NULL);
        add_metric(timing, "cpu_probe_hits", (double)m->cpu_probe_hits, NULL);
        add_metric(timing, "cpu_invalidations", (double)m->cpu_invalidations, NULL);
        add_metric(timing, "cpu_writebacks", (double)m->cpu_writebacks, NULL);
    }
    if (report.filters_issue) {
        add_metric(timing, "issue_filter_holds", (double)report.filter_holds, NULL);
        add_metric(timing, "issue_filter_hold_cycles_mean", ratio((double)report.filter_hold_cycles,
                                                                  (double)report.filter_holds), "GPU cycles");
    }
    if (report.access_latencies)
        add_access_latency_metrics(timing, report.access_latencies);
    add_metric(timing, "warp_releases", (double)report.releases, NULL);
    add_metric(timing, "warp_releases_waited", (double)report.releases_waited, NULL);
    add_metric(timing, "warp_release_wait_cycles_mean",
               ratio((double)report.release_wait_cycles, (double)report.releases_waited), "GPU cycles");
    if (report.dma_line_requests) {
        add_metric(timing, "dma_line_requests", (double)report.dma_line_requests, NULL);
        add_metric(timing, "dma_mshr_refused_cycles", (double)report.dma_mshr_refused_cycles, "CU cycles");
    }
    if (report.protocol_stats)
        for (unsigned c = 0; c < report.protocol_counter_count; c++) {
            const protocol_counter *counter = &report.protocol_counters[c];
            add_metric(timing, counter->name, protocol_counter_value(counter, report.protocol_stats), counter->unit);
        }
    if (report.noc) {
        add_metric(timing, "noc_messages", (double)report.noc->messages, NULL);
        add_metric(timing, "noc_bytes", (double)report.noc->bytes, "bytes");
        add_traffic_metrics(timing, &report);
    }
    if (report.dram) {
        const dram_stats *d = report.dram;
        add_metric(timing, "dram_reads", (double)d->reads, NULL);
        add_metric(timing, "dram_writes", (double)d->writes, NULL);
        add_metric(timing, "dram_row_hits", (double)d->row_hits, NULL);
        add_metric(timing, "dram_refreshes", (double)d->refreshes, NULL);
        add_metric(timing, "dram_bytes", (double)d->bytes, "bytes");
        add_metric(timing, "dram_queue_occupancy_mean", ratio((double)d->queue_occupancy_sum, (double)d->queue_samples),
                   "entries");
        add_metric(timing, "dram_queue_occupancy_peak", (double)d->queue_peak, "entries");
    }
    add_metric(timing, "event_queue_peak", (double)report.event_queue_peak, "events");
    if (report.noc)
        add_link_metrics(timing, &report);
    add_kernel_metrics(timing, &report);
}

void run_timing_release(run_timing *timing)
{
    free(timing->per_cu);
    free(timing->metrics);
    for (int i = 0; i < timing->name_count; i++)
        free(timing->names[i]);
    free(timing->names);
    *timing = (run_timing){0};
}

/* Appends the leaf rows of one CU's (or the mean's) counters, scaled by `scale`. */
static int append_rows(const gsi_counters *counters, int cu, double scale, sc_stall_row *rows, int count)
{
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++) {
        const char *category = gsi_category_name((gsi_category)c);
        if (c == GSI_MEM_DATA || c == GSI_MEM_STRUCT || c == GSI_SYNC) {
            int subs = c == GSI_MEM_DATA ? GSI_SOURCE_COUNT : c == GSI_MEM_STRUCT ? GSI_STRUCT_COUNT : GSI_SYNC_KIND_COUNT;
            for (int s = 0; s < subs; s++) {
                uint64_t value = c == GSI_MEM_DATA ? counters->source[s]
                                 : c == GSI_MEM_STRUCT ? counters->struct_cause[s] : counters->sync_kind[s];
                const char *name = c == GSI_MEM_DATA ? gsi_source_name((gsi_source)s)
                                   : c == GSI_MEM_STRUCT ? gsi_struct_cause_name((gsi_struct_cause)s)
                                                         : gsi_sync_kind_name((gsi_sync_kind)s);
                if (value)
                    rows[count++] = (sc_stall_row){cu, category, name, (double)value * scale};
            }
        } else if (counters->category[c]) {
            rows[count++] = (sc_stall_row){cu, category, NULL, (double)counters->category[c] * scale};
        }
    }
    return count;
}

int run_timing_stall_rows(const run_timing *timing, sc_stall_row **rows)
{
    enum { LEAVES = GSI_CATEGORY_COUNT + GSI_SOURCE_COUNT + GSI_STRUCT_COUNT + GSI_SYNC_KIND_COUNT };
    *rows = malloc(((size_t)timing->cu_count + 1) * LEAVES * sizeof **rows);
    int count = 0;
    for (unsigned cu = 0; cu < timing->cu_count; cu++)
        count = append_rows(&timing->per_cu[cu], (int)cu, 1.0, *rows, count);
    if (timing->cu_count)
        count = append_rows(&timing->total, -1, 1.0 / timing->cu_count, *rows, count);
    return count;
}
