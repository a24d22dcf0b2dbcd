/* sampled_engine.h — the engine of `run --mode sampled`: runs a few short windows of each
 * launch (or a few launches of each kernel) on the timing model and everything else on the
 * functional executor, on one device, and estimates the whole run's cycles from the windows
 * (base/sample_estimate.h) with a confidence interval.
 *
 * Values stay exact: the functional executor computes every CTA the timing model does not, on
 * the same memory image. Before a functional part the timing model's dirty cache lines are
 * written back to the image (the host-read action of memory_host_access). During it every line
 * a functional access touches is installed in the L2 as most recently used (SMARTS-style
 * functional warming), and after it every L2 line is refreshed from the image and every L1
 * copy dropped (memory_warm_finish), so no detailed part ever reads a stale line and the L2
 * holds what the skipped work left in it. The L1s refill during each window's warm-up waves,
 * before its steady part is measured. What warming cannot give a window is the full run's
 * requests in flight: its first CTAs' reads run ahead of their writes, so the lines the window
 * installs first are cleaner than a steady state's, and their evictions, one L2 turnover later,
 * cost less DRAM traffic; the steady part is kept out of that second turnover
 * (timing_engine_measure_steady). Nor does it give write-back L1s their dirty lines: they start
 * each window empty and write nothing back until they have turned over, so with them the
 * turnover counts their lines too and the steady part waits for it. */
#ifndef SYNCSCOPE_TIMING_SAMPLED_ENGINE_H
#define SYNCSCOPE_TIMING_SAMPLED_ENGINE_H

#include "exec/functional_engine.h"
#include "timing/timing_engine.h"

typedef struct sampling_options {
    unsigned period;         /* detail one unit in `period` (windows: CTAs between them fast-forwarded) */
    double window_waves;     /* CTAs in a window, in waves of the CTAs the GPU holds at once */
    double warmup_waves;     /* leading waves of a window not in its steady part */
    unsigned warmup_launches;  /* kernel-level: launches run in detail, unmeasured, before a measured one */
} sampling_options;

/* period 20, windows of 8 waves of which 4 warm up, 1 warm-up launch. */
sampling_options sampling_defaults(void);

/* The engine owns the timing engine and creates its functional engine from `functional`. */
void *sampled_engine_create(const sampling_options *options, void *timing_engine,
                            const functional_engine_options *functional);
extern const sc_engine_ops sampled_engine_ops;

/* The timing engine inside (its report covers the detailed parts only). */
void *sampled_engine_timing(void *engine);

typedef struct sampled_report {
    double cycles, ci_low, ci_high;       /* the estimate and its 95% interval (when has_ci) */
    bool has_ci;
    uint64_t warp_instructions;           /* every launch, exact */
    uint64_t detailed_warp_instructions;  /* issued on the timing model */
    uint64_t detailed_cycles;             /* cycles the timing model simulated */
    uint64_t units;                       /* detailed windows and launches */
    const double *launch_cycles;          /* estimate per launch, in order */
    size_t launch_count;
    /* Without an interval: the first kernel whose stratum has a single measured unit, and its launches. */
    const char *unsampled_kernel;
    uint64_t unsampled_kernel_launches;
    /* The first kernel whose windows' steady parts ran faster than the DRAM allows, so that its
     * rate is the DRAM bound (base/sample_estimate.h); NULL for none. */
    const char *dram_bound_kernel;
    /* The first kernel with a window whose steady part lay in its L2's first turnover, so that
     * the interval reaches as far to each side as its windows' whole rate lies from the estimate
     * (base/sample_estimate.h); NULL for none. */
    const char *first_turnover_kernel;
} sampled_report;

/* Estimates the run so far; the arrays stay valid until the next launch or destroy. */
void sampled_engine_report(void *engine, sampled_report *report);

#endif
