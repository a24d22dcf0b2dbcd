/* run_timing.c — the detailed mode of a run session: the timing engine on a device, and its
 * report as stall rows and metrics. */
#include "cli/run_timing.h"

#include <stdlib.h>
#include <string.h>

#include "protocols/protocol.h"
#include "timing/timing_engine.h"

sc_device *run_timing_device(const sc_config *config, const char *mechanism, uint64_t jitter, void **engine,
                             sc_error *error)
{
    const sc_protocol *protocol = sc_protocol_find(mechanism);
    if (!protocol)
        return sc_fail(error, "mechanism %s has no detailed protocol yet (detailed runs support wt and nol1)",
                       mechanism), NULL;
    timing_config timing;
    if (timing_config_load(config, jitter, &timing, error) < 0) {
        sc_fail_prefix(error, "system %s", sc_config_system(config));
        return NULL;
    }
    sc_device *device = sc_device_create(timing.core.warp_size, error);
    if (!device)
        return NULL;
    *engine = timing_engine_create(&timing, protocol, error);
    sc_device_set_engine(device, &timing_engine_ops, *engine);
    return device;
}

static void add_metric(run_timing *timing, const char *name, double value, const char *unit)
{
    if (timing->metric_count < RUN_TIMING_MAX_METRICS)
        timing->metrics[timing->metric_count++] = (sc_metric_row){-1, name, value, unit};
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

void run_timing_collect(void *engine, run_timing *timing)
{
    timing_report report;
    timing_engine_report(engine, &report);
    timing->present = true;
    timing->cycles = report.cycles;
    timing->cu_count = report.cu_count;
    timing->per_cu = malloc(report.cu_count * sizeof *timing->per_cu);
    memcpy(timing->per_cu, report.per_cu, report.cu_count * sizeof *timing->per_cu);
    timing->total = report.total;
    add_metric(timing, "cycles", (double)report.cycles, "GPU cycles");
    add_metric(timing, "ipc", ratio((double)report.warp_instructions, (double)report.cycles), "warp instructions/cycle");
    if (report.memory) {
        const memory_stats *m = report.memory;
        add_metric(timing, "l1_hits", (double)m->l1_hits, NULL);
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
    }
    if (report.noc) {
        add_metric(timing, "noc_messages", (double)report.noc->messages, NULL);
        add_metric(timing, "noc_bytes", (double)report.noc->bytes, "bytes");
    }
    if (report.dram) {
        const dram_stats *d = report.dram;
        add_metric(timing, "dram_reads", (double)d->reads, NULL);
        add_metric(timing, "dram_writes", (double)d->writes, NULL);
        add_metric(timing, "dram_row_hits", (double)d->row_hits, NULL);
        add_metric(timing, "dram_bytes", (double)d->bytes, "bytes");
        add_metric(timing, "dram_queue_occupancy_mean", ratio((double)d->queue_occupancy_sum, (double)d->queue_samples),
                   "entries");
        add_metric(timing, "dram_queue_occupancy_peak", (double)d->queue_peak, "entries");
    }
    add_metric(timing, "event_queue_peak", (double)report.event_queue_peak, "events");
}

void run_timing_release(run_timing *timing)
{
    free(timing->per_cu);
    timing->per_cu = NULL;
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
