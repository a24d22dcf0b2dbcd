/* run_print.c — a run's result as `syncscope run` prints it, as text or JSON (see run_print.h).
 * A model run's band is +-2 sigma around the predicted cycles. */
#include "cli/run_print.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cycles, IPC and the stall breakdown as a share of CU cycles (mean over CUs). */
static void print_timing(const run_timing *timing, uint64_t warp_instructions)
{
    printf("cycles             %llu (IPC %.3f warp instructions/cycle)\n", (unsigned long long)timing->cycles,
           timing->cycles ? (double)warp_instructions / (double)timing->cycles : 0.0);
    printf("stalls (GSI)      ");
    if (!timing->gsi) {
        printf(" off (sim.gsi false: no breakdown)\n");
        return;
    }
    double cu_cycles = (double)timing->cycles * timing->cu_count;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        if (timing->total.category[c])
            printf(" %s %.1f%%", gsi_category_name((gsi_category)c),
                   cu_cycles > 0 ? 100.0 * (double)timing->total.category[c] / cu_cycles : 0.0);
    printf("\n");
}

/* A sampled run's interval (or, without one, that its estimate is unreliable) and how much of it
 * ran in detail. */
static void print_sample(const run_sample *sample)
{
    double below = sample->cycles > 0 ? 100.0 * (sample->cycles - sample->ci_low) / sample->cycles : 0.0;
    double above = sample->cycles > 0 ? 100.0 * (sample->ci_high - sample->cycles) / sample->cycles : 0.0;
    /* reaching to (or as far as) the windows' whole rate */
    if (sample->has_ci && (sample->dram_bound_kernel[0] || sample->first_turnover_kernel[0]))
        printf("95%% CI             [%.0f, %.0f] cycles (-%.2f%% +%.2f%%)\n", sample->ci_low, sample->ci_high, below,
               above);
    else if (sample->has_ci)
        printf("95%% CI             [%.0f, %.0f] cycles (+-%.2f%%)\n", sample->ci_low, sample->ci_high, above);
    else
        printf("95%% CI             NONE: UNRELIABLE ESTIMATE, %s (%s)\n", sample->no_ci_reason,
               RUN_SAMPLE_MORE_WINDOWS);
    if (sample->dram_bound_kernel[0])
        printf("DRAM bound         kernel %s: the windows' steady parts ran faster than the DRAM allows, so its "
               "rate is the DRAM's bound and the interval reaches up to the windows' whole rate (longer "
               "windows: a larger --sample-warmup-waves)\n", sample->dram_bound_kernel);
    if (sample->first_turnover_kernel[0])
        printf("first L2 turnover  kernel %s: the windows' steady parts ended before the window had replaced "
               "the L2's lines, so the interval reaches as far to each side as the windows' whole rate lies from "
               "the estimate (longer windows: a larger --sample-window-waves)\n", sample->first_turnover_kernel);
    printf("sampled            %.2f%% of warp instructions in detail, %llu measured windows/launches "
           "(period %u, windows of %g waves with %g warm-up, %u warm-up launches)\n", 100.0 * sample->detailed_fraction,
           (unsigned long long)sample->units, sample->options.period, sample->options.window_waves,
           sample->options.warmup_waves, sample->options.warmup_launches);
}

/* A whole-run metric's value, or -1 when the run has none of that name. */
static double run_metric(const run_result *result, const char *name)
{
    for (int i = 0; i < result->timing.metric_count; i++)
        if (result->timing.metrics[i].kernel_index < 0 && !strcmp(result->timing.metrics[i].name, name))
            return result->timing.metrics[i].value;
    return -1;
}

static void print_gpu(const run_result *result)
{
    printf("gpu                %s, %.0f multiprocessors at %.0f MHz; %.3f ms in kernels (CUDA events)\n",
           result->gpu_name, run_metric(result, "gpu_multiprocessors"), run_metric(result, "gpu_clock_khz") / 1000,
           1000 * run_metric(result, "gpu_kernel_seconds"));
}

static void print_text(const run_request *request, const run_result *result)
{
    printf("workload           %s (%s)\n", result->workload_name,
           request->workload_file ? "manifest" : sc_workload_size_name(request->size));
    printf("system             %s   mechanism %s   mode %s\n", request->system, request->mechanism, request->mode);
    printf("check              %s (%s)\n", result->check.passed ? "passed" : "FAILED", result->check.detail);
    printf("kernel launches    %llu\n", (unsigned long long)result->stats.launches);
    printf("warp instructions  %llu\n", (unsigned long long)result->stats.warp_instructions);
    printf("thread instrs      %llu\n", (unsigned long long)result->stats.thread_instructions);
    if (result->timing.present)
        print_timing(&result->timing, result->stats.warp_instructions);
    if (result->sample.present)
        print_sample(&result->sample);
    if (result->gpu_name[0])
        print_gpu(result);
    printf("wall time          %.3f s, of which %.3f s in kernels (%.2f M warp-instructions/s)\n",
           result->wall_seconds, result->stats.engine_seconds,
           result->stats.engine_seconds > 0 ? (double)result->stats.warp_instructions / result->stats.engine_seconds / 1e6
                                            : 0.0);
    if (result->run_id)
        printf("stored as run      %lld\n", (long long)result->run_id);
}

static void print_json(const run_request *request, const run_result *result)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "run_id", (double)result->run_id);
    cJSON_AddStringToObject(root, "mode", request->mode);
    cJSON_AddStringToObject(root, "system", request->system);
    cJSON_AddStringToObject(root, "mechanism", request->mechanism);
    cJSON_AddStringToObject(root, "workload", result->workload_name);
    cJSON_AddStringToObject(root, "config_hash", result->config_hash);
    cJSON_AddStringToObject(root, "check", result->check.passed ? "passed" : "failed");
    cJSON_AddStringToObject(root, "check_detail", result->check.detail);
    cJSON_AddNumberToObject(root, "launches", (double)result->stats.launches);
    cJSON_AddNumberToObject(root, "warp_instructions", (double)result->stats.warp_instructions);
    cJSON_AddNumberToObject(root, "thread_instructions", (double)result->stats.thread_instructions);
    /* The functional mode has no timing: cycles and stalls exist only in detailed and sampled runs. */
    if (result->timing.present) {
        cJSON_AddNumberToObject(root, "cycles", (double)result->timing.cycles);
        cJSON *stalls = result->timing.gsi ? cJSON_AddObjectToObject(root, "stalls") : cJSON_AddNullToObject(root, "stalls");
        for (int c = 0; result->timing.gsi && c < GSI_CATEGORY_COUNT; c++)
            cJSON_AddNumberToObject(stalls, gsi_category_name((gsi_category)c),
                                    (double)result->timing.total.category[c] / result->timing.cu_count);
    } else {
        cJSON_AddNullToObject(root, "cycles");
        cJSON_AddNullToObject(root, "stalls");
    }
    if (result->sample.present) {
        const run_sample *sample = &result->sample;
        cJSON *object = cJSON_AddObjectToObject(root, "sample");
        cJSON_AddNumberToObject(object, "estimated_cycles", sample->cycles);
        cJSON_AddBoolToObject(object, "reliable", sample->has_ci);
        if (sample->has_ci) {
            cJSON_AddNumberToObject(object, "ci_low", sample->ci_low);
            cJSON_AddNumberToObject(object, "ci_high", sample->ci_high);
        } else {
            cJSON_AddNullToObject(object, "ci_low");
            cJSON_AddNullToObject(object, "ci_high");
            cJSON_AddStringToObject(object, "no_ci_reason", sample->no_ci_reason);
        }
        cJSON_AddNumberToObject(object, "detailed_fraction", sample->detailed_fraction);
        cJSON_AddNumberToObject(object, "windows", (double)sample->units);
        if (sample->dram_bound_kernel[0])
            cJSON_AddStringToObject(object, "dram_bound_kernel", sample->dram_bound_kernel);
        else
            cJSON_AddNullToObject(object, "dram_bound_kernel");
        if (sample->first_turnover_kernel[0])
            cJSON_AddStringToObject(object, "first_turnover_kernel", sample->first_turnover_kernel);
        else
            cJSON_AddNullToObject(object, "first_turnover_kernel");
    }
    if (result->gpu_name[0]) {
        cJSON *gpu = cJSON_AddObjectToObject(root, "gpu");
        cJSON_AddStringToObject(gpu, "name", result->gpu_name);
        cJSON_AddNumberToObject(gpu, "multiprocessors", run_metric(result, "gpu_multiprocessors"));
        cJSON_AddNumberToObject(gpu, "clock_khz", run_metric(result, "gpu_clock_khz"));
        cJSON_AddNumberToObject(gpu, "kernel_seconds", run_metric(result, "gpu_kernel_seconds"));
    }
    cJSON_AddNumberToObject(root, "wall_seconds", result->wall_seconds);
    char *text = cJSON_PrintUnformatted(root);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(root);
}

static void print_model_text(const run_request *request, const run_model_result *result)
{
    const model_prediction *p = &result->prediction;
    double sigma = result->sigma;
    printf("workload           %s (%s)\n", result->workload_name,
           request->workload_file ? "manifest" : sc_workload_size_name(request->size));
    printf("system             %s   mechanism %s   mode model (calibration %lld) %s\n", request->system,
           request->mechanism, (long long)result->calibration_id,
           result->calibration_own_workload ? "fitted to this workload's sample windows" : "suite-wide");
    printf("cycles             %.0f  (95%% band %.0f .. %.0f, sigma %.1f%%)\n", p->cycles, p->cycles * exp(-2 * sigma),
           p->cycles * exp(2 * sigma), 100 * sigma);
    printf("stalls (GSI)      ");
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        if (p->stalls[c] > 0.0005 * p->cycles)
            printf(" %s %.1f%%", gsi_category_name((gsi_category)c), 100 * p->stalls[c] / p->cycles);
    printf("\nL1 hits/misses     %.0f / %.0f   L2 hits/misses %.0f / %.0f\n", p->l1_hits, p->l1_misses, p->l2_hits,
           p->l2_misses);
    printf("traffic            NoC to CUs %.0f B, from CUs %.0f B; DRAM read %.0f B, write %.0f B\n",
           p->noc_bytes_to_cus, p->noc_bytes_from_cus, p->dram_read_bytes, p->dram_write_bytes);
    printf("stored as run      %lld\n", (long long)result->run_id);
}

static void print_model_json(const run_request *request, const run_model_result *result)
{
    const model_prediction *p = &result->prediction;
    double sigma = result->sigma;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "run_id", (double)result->run_id);
    cJSON_AddStringToObject(root, "mode", "model");
    cJSON_AddStringToObject(root, "system", request->system);
    cJSON_AddStringToObject(root, "mechanism", request->mechanism);
    cJSON_AddStringToObject(root, "workload", result->workload_name);
    cJSON_AddNumberToObject(root, "calibration_id", (double)result->calibration_id);
    cJSON_AddStringToObject(root, "calibration", result->calibration_own_workload ? "workload" : "suite");
    cJSON_AddNumberToObject(root, "cycles", p->cycles);
    cJSON_AddNumberToObject(root, "cycles_low", p->cycles * exp(-2 * sigma));
    cJSON_AddNumberToObject(root, "cycles_high", p->cycles * exp(2 * sigma));
    cJSON *stalls = cJSON_AddObjectToObject(root, "stalls");
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        cJSON_AddNumberToObject(stalls, gsi_category_name((gsi_category)c), p->stalls[c]);
    cJSON_AddNumberToObject(root, "l1_hits", p->l1_hits);
    cJSON_AddNumberToObject(root, "l1_misses", p->l1_misses);
    cJSON_AddNumberToObject(root, "l2_hits", p->l2_hits);
    cJSON_AddNumberToObject(root, "l2_misses", p->l2_misses);
    cJSON_AddNumberToObject(root, "noc_bytes_to_cus", p->noc_bytes_to_cus);
    cJSON_AddNumberToObject(root, "noc_bytes_from_cus", p->noc_bytes_from_cus);
    cJSON_AddNumberToObject(root, "dram_read_bytes", p->dram_read_bytes);
    cJSON_AddNumberToObject(root, "dram_write_bytes", p->dram_write_bytes);
    char *text = cJSON_PrintUnformatted(root);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(root);
}

void run_print(const run_request *request, const run_result *result)
{
    if (request->json)
        print_json(request, result);
    else
        print_text(request, result);
}

void run_print_model(const run_request *request, const run_model_result *result)
{
    if (request->json)
        print_model_json(request, result);
    else
        print_model_text(request, result);
}
