/* bench_sampled.c — `syncscope bench sampled`: the accuracy and cost of sampled runs. Runs every
 * workload of the suite in full detail and sampled, and prints per workload the full cycles, the
 * estimate, its error and 95% interval, the share of warp instructions simulated in detail, the
 * wall-time speedup and a verdict against the 2 %-at-1/20 target:
 *  - "met": within 2 % with at most 1/20 of the warp instructions in detail;
 *  - "work differs": the sampled run executed another number of warp instructions than the full
 *    one (spin loops, work stealing or a host loop whose round count depends on timing: fast-
 *    forwarding changes the run itself, so it is no sample of the full run);
 *  - "too small": some kernel got a single measured window or launch (no interval), or more than
 *    1/20 ran in detail (too few waves or launches to sample 1 in 20);
 *  - "missed": sampleable, but off by more than 2 %. */
#include "cli/bench_sampled.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/progress.h"
#include "cli/options.h"
#include "session/run_session.h"

static void print_header(const char *system, const char *mechanism, sc_workload_size size,
                         const sampling_options *sampling)
{
    printf("sampled vs full detailed, system %s, mechanism %s, size %s, period %u, windows of %g waves "
           "(%g warm-up), %u warm-up launches\n", system, mechanism, sc_workload_size_name(size), sampling->period,
           sampling->window_waves, sampling->warmup_waves, sampling->warmup_launches);
    printf("%-14s %10s %7s %11s %11s %8s %23s %6s %9s %8s %8s %7s %6s  %s\n", "workload", "warp-instr", "work%",
           "full-cycles", "estimate", "error%", "95% CI", "in-CI", "detailed%", "full-s", "sample-s", "speedup",
           "check", "verdict");
}

typedef struct verdict_counts {
    int met, sampleable;
} verdict_counts;

static const char *verdict_of(const run_result *full, const run_result *sampled, double error_percent,
                              verdict_counts *counts)
{
    const run_sample *sample = &sampled->sample;
    if (sampled->stats.warp_instructions != full->stats.warp_instructions)
        return "work differs";
    if (!sample->has_ci || sample->detailed_fraction > 0.05)
        return "too small";
    counts->sampleable++;
    if (fabs(error_percent) > 2.0)
        return "missed";
    counts->met++;
    return "met";
}

static void print_row(const char *workload, const run_result *full, const run_result *sampled,
                      verdict_counts *counts)
{
    const run_sample *sample = &sampled->sample;
    double truth = (double)full->timing.cycles;
    char interval[32] = "none";
    const char *inside = "-";
    if (sample->has_ci) {
        snprintf(interval, sizeof interval, "[%.0f, %.0f]", sample->ci_low, sample->ci_high);
        inside = truth >= sample->ci_low && truth <= sample->ci_high ? "yes" : "no";
    }
    bool checks = full->check.passed && sampled->check.passed;
    double full_work = (double)full->stats.warp_instructions;
    double error_percent = truth > 0 ? 100.0 * (sample->cycles - truth) / truth : 0.0;
    printf("%-14s %10llu %+7.2f %11.0f %11.0f %+8.2f %23s %6s %9.2f %8.2f %8.2f %7.1f %6s  %s\n", workload,
           (unsigned long long)full->stats.warp_instructions,
           full_work > 0 ? 100.0 * ((double)sampled->stats.warp_instructions - full_work) / full_work : 0.0, truth,
           sample->cycles, error_percent, interval, inside, 100.0 * sample->detailed_fraction, full->wall_seconds,
           sampled->wall_seconds, sampled->wall_seconds > 0 ? full->wall_seconds / sampled->wall_seconds : 0.0,
           checks ? "ok" : "FAIL", verdict_of(full, sampled, error_percent, counts));
}

int bench_sampled(const char *system, const char *mechanism, const char *only, sc_workload_size size,
                  const sampling_options *sampling)
{
    sc_error error = {{0}};
    sc_config *config = sc_config_load(system, NULL, NULL, 0, &error);
    if (!config) {
        fprintf(stderr, "syncscope bench: %s\n", error.message);
        return cli_failure_status(&error);
    }
    int count, status = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    print_header(system, mechanism, size, sampling);
    verdict_counts counts = {0};
    sc_progress progress;
    sc_progress_start(&progress, "bench sampled", "workloads", only ? 1 : count);
    for (int i = 0; i < count; i++) {
        if (only && strcmp(only, suite[i]->name) != 0)
            continue;
        run_request request = {.system = system, .mechanism = mechanism, .workload = suite[i]->name,
                               .mode = "detailed", .size = size, .seed = 1, .sampling = *sampling};
        run_result full, sampled = {0};
        int failed = run_session_simulate(&request, config, &full, &error) < 0;
        request.mode = "sampled";
        failed = failed || run_session_simulate(&request, config, &sampled, &error) < 0;
        if (failed) {
            printf("%-14s error: %s\n", suite[i]->name, error.message);
            status = 1;
        } else {
            print_row(suite[i]->name, &full, &sampled, &counts);
            status |= !(full.check.passed && sampled.check.passed);
        }
        run_result_release(&full);
        run_result_release(&sampled);
        fflush(stdout);
        sc_progress_step(&progress, 1);
    }
    printf("within 2 %% at <= 1/20 in detail: %d of %d sampleable workloads\n", counts.met, counts.sampleable);
    sc_config_free(config);
    return status;
}
