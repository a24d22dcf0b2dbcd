/* run_sampled.h — what a sampled run adds to a run session: a device on the sampled engine, and
 * the estimate turned into the run's cycles, scaled stall breakdown and sample.* metrics. */
#ifndef SYNCSCOPE_SESSION_RUN_SAMPLED_H
#define SYNCSCOPE_SESSION_RUN_SAMPLED_H

#include "config/config.h"
#include "session/run_timing.h"
#include "store/store.h"
#include "timing/sampled_engine.h"

/* The estimate of a sampled run, as printed. */
typedef struct run_sample {
    bool present;              /* a sampled run filled this */
    double cycles, ci_low, ci_high;
    bool has_ci;               /* false when a stratum had a single detailed unit */
    double detailed_fraction;  /* warp instructions issued on the timing model / all */
    uint64_t units;            /* measured windows and launches */
    char no_ci_reason[160];    /* why has_ci is false */
    char dram_bound_kernel[64];  /* the first kernel held at the DRAM bound ("" for none) */
    char first_turnover_kernel[64];  /* the first kernel whose windows measured in their L2's first
                                        turnover ("" for none) */
    sampling_options options;
} run_sample;

/* What gives an estimate without an interval more measured units, as the run's warning says: a
 * launch of C CTAs, R of them resident at once, gets C / (period x window waves x R) windows,
 * and 1 in period of a kernel's smaller launches is measured (timing/sampled_engine.c). */
#define RUN_SAMPLE_MORE_WINDOWS "more windows: a smaller --sample-period or --sample-window-waves, or a larger input"

/* The sampling settings a sampled run stores as run-wide metrics (sample.period,
 * sample.window_waves, sample.warmup_waves, sample.warmup_launches): with its configuration, what
 * decides which parts of it run in detail. */
enum { RUN_SAMPLED_SETTING_COUNT = 4 };
void run_sampled_settings(const sampling_options *sampling, sc_metric_row settings[RUN_SAMPLED_SETTING_COUNT]);

/* A device on the sampled engine (timing model for `mechanism` plus the functional executor);
 * *engine receives the engine, owned by the device. */
sc_device *run_sampled_device(const sc_config *config, const char *mechanism, uint64_t jitter,
                              const sampling_options *sampling, void **engine, sc_error *error);

/* Fills `timing` (estimated cycles, the detailed parts' stalls scaled to them, sample.* metrics,
 * among them sample.has_interval: 1 when the estimate has its 95% interval, 0 when it has none),
 * `sample`, and the launches' cycles from the engine's estimate. */
void run_sampled_collect(void *engine, const sampling_options *sampling, run_timing *timing, run_sample *sample,
                         sc_kernel_row *kernels, int kernel_count);

#endif
