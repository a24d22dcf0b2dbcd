/* run_sampled.c — the sampled mode of a run session: the sampled engine on a device, and its
 * estimate as cycles, stall rows and metrics (see run_sampled.h); an estimate without an interval
 * is stored with sample.has_interval 0. */
#include "session/run_sampled.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "session/run_session.h"

sc_device *run_sampled_device(const sc_config *config, const char *mechanism, uint64_t jitter,
                              const sampling_options *sampling, void **engine, sc_error *error)
{
    void *timing = run_timing_engine(config, mechanism, jitter, error);
    if (!timing)
        return NULL;
    sc_device *device = sc_device_create((unsigned)sc_config_int(config, "gpu.warp_size"), error);
    if (!device) {
        timing_engine_ops.destroy(timing);
        return NULL;
    }
    functional_engine_options functional = run_session_functional_options(config);
    *engine = sampled_engine_create(sampling, timing, &functional);
    sc_device_set_engine(device, &sampled_engine_ops, *engine);
    return device;
}

/* Each CU's stall breakdown of the detailed parts, scaled to the estimated cycles (none under
 * sim.gsi false: the counters stay zero). */
static void scale_stalls(const timing_report *detailed, uint64_t cycles, run_timing *timing)
{
    timing->cu_count = detailed->cu_count;
    timing->gsi = detailed->gsi;
    timing->per_cu = calloc(detailed->cu_count + 1, sizeof *timing->per_cu);
    for (unsigned c = 0; detailed->gsi && c < detailed->cu_count; c++) {
        gsi_scale(&detailed->per_cu[c], cycles, &timing->per_cu[c]);
        gsi_accumulate(&timing->total, &timing->per_cu[c]);
    }
}

void run_sampled_settings(const sampling_options *sampling, sc_metric_row settings[RUN_SAMPLED_SETTING_COUNT])
{
    settings[0] = (sc_metric_row){-1, "sample.period", sampling->period, NULL};
    settings[1] = (sc_metric_row){-1, "sample.window_waves", sampling->window_waves, "waves"};
    settings[2] = (sc_metric_row){-1, "sample.warmup_waves", sampling->warmup_waves, "waves"};
    settings[3] = (sc_metric_row){-1, "sample.warmup_launches", sampling->warmup_launches, "launches"};
}

void run_sampled_collect(void *engine, const sampling_options *sampling, run_timing *timing, run_sample *sample,
                         sc_kernel_row *kernels, int kernel_count)
{
    sampled_report report;
    sampled_engine_report(engine, &report);
    timing_report detailed;
    timing_engine_report(sampled_engine_timing(engine), &detailed);
    uint64_t cycles = (uint64_t)llround(report.cycles);
    *sample = (run_sample){
        .present = true,
        .cycles = report.cycles,
        .ci_low = report.ci_low,
        .ci_high = report.ci_high,
        .has_ci = report.has_ci,
        .detailed_fraction = report.warp_instructions
                                 ? (double)report.detailed_warp_instructions / (double)report.warp_instructions : 0.0,
        .units = report.units,
        .options = *sampling,
    };
    if (report.dram_bound_kernel)
        snprintf(sample->dram_bound_kernel, sizeof sample->dram_bound_kernel, "%s", report.dram_bound_kernel);
    if (report.first_turnover_kernel)
        snprintf(sample->first_turnover_kernel, sizeof sample->first_turnover_kernel, "%s",
                 report.first_turnover_kernel);
    if (!report.has_ci)
        snprintf(sample->no_ci_reason, sizeof sample->no_ci_reason,
                 "kernel %s (%llu launches) has one measured window or launch of its size class",
                 report.unsampled_kernel, (unsigned long long)report.unsampled_kernel_launches);
    timing->present = true;
    timing->cycles = cycles;
    scale_stalls(&detailed, cycles, timing);
    run_timing_add_metric(timing, -1, "cycles", (double)cycles, "GPU cycles");
    run_timing_add_metric(timing, -1, "ipc", cycles ? (double)report.warp_instructions / (double)cycles : 0.0,
                          "warp instructions/cycle");
    run_timing_add_metric(timing, -1, "sample.estimated_cycles", report.cycles, "GPU cycles");
    /* 0: no interval, an unreliable estimate (docs/sampled-runs.md); queries filter on it. */
    run_timing_add_metric(timing, -1, "sample.has_interval", report.has_ci ? 1.0 : 0.0, NULL);
    /* 1: a kernel's rate is the DRAM bound, its windows too short to be steady. */
    run_timing_add_metric(timing, -1, "sample.dram_bound", report.dram_bound_kernel ? 1.0 : 0.0, NULL);
    /* 1: a kernel's windows measured while their L2 still held lines from before them. */
    run_timing_add_metric(timing, -1, "sample.first_turnover", report.first_turnover_kernel ? 1.0 : 0.0, NULL);
    if (report.has_ci) {
        run_timing_add_metric(timing, -1, "sample.ci_low", report.ci_low, "GPU cycles");
        run_timing_add_metric(timing, -1, "sample.ci_high", report.ci_high, "GPU cycles");
    }
    run_timing_add_metric(timing, -1, "sample.detailed_fraction", sample->detailed_fraction, "warp instructions");
    run_timing_add_metric(timing, -1, "sample.detailed_warp_instructions", (double)report.detailed_warp_instructions,
                          "instructions");
    run_timing_add_metric(timing, -1, "sample.detailed_cycles", (double)report.detailed_cycles, "GPU cycles");
    run_timing_add_metric(timing, -1, "sample.windows", (double)report.units, NULL);
    sc_metric_row settings[RUN_SAMPLED_SETTING_COUNT];
    run_sampled_settings(sampling, settings);
    for (int s = 0; s < RUN_SAMPLED_SETTING_COUNT; s++)
        run_timing_add_metric(timing, -1, settings[s].name, settings[s].value, settings[s].unit);
    for (int k = 0; k < kernel_count && (size_t)k < report.launch_count; k++) {
        kernels[k].cycles = report.launch_cycles[k];
        run_timing_add_metric(timing, k, "cycles", report.launch_cycles[k], "GPU cycles (estimated)");
    }
}
