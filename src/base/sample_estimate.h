/* sample_estimate.h — whole-run cycle estimates from detailed samples, with confidence intervals
 * (the statistics of `run --mode sampled`; timing/sampled_engine.c gathers the samples).
 *
 * A run's launches fall into strata: one per kernel and sampling kind.
 *  - Launch strata (kernel-level sampling): one launch in `period` of the kernel runs in detail,
 *    the others functionally. Total = detailed cycles + the skipped launches' cycles predicted
 *    from their warp instructions: with 5 or more detailed launches by the regression
 *    estimator a + b * instructions (least squares; a is the launch's fixed cost, which
 *    dominates short launches), else by the ratio estimator sum(cycles) / sum(instructions)
 *    (Cochran, Sampling Techniques, 6.2 and 7.1); their variances give the interval.
 *  - Window strata (CTA-wave sampling inside big launches): windows of consecutive CTAs run in
 *    detail as sub-launches, the CTAs in between functionally. Each window starts and drains
 *    like a kernel, so a launch is estimated as one window's mean cycles (its start-up and
 *    drain included) plus the launch's remaining warp instructions at the steady-state rate
 *    beta, measured after each window's warm-up waves while the GPU is full:
 *    total = K * mean(c) + beta * (N - K * mean(n)) over the stratum's K launches.
 *    beta is at least the windows' DRAM bound, sum(DRAM data-bus cycles per channel) /
 *    sum(n): no steady state runs faster than its DRAM moves the data its instructions need,
 *    and a steady part that ends before its writes reach DRAM (a few waves of a bandwidth-bound
 *    kernel after a window's start) measures a rate below it. Such a stratum's interval reaches
 *    up to its estimate at the windows' whole cycles per instruction (sample_estimate_total).
 *    A stratum with a window whose steady part lay in the window's first L2 turnover, while the
 *    L2 still held lines from before the window, may be biased either way (dct's ran 4.4 %
 *    faster than the full run on the same CTAs at --size huge, 2.4 % slower at --size large:
 *    docs/sampled-runs.md), which their spread does not show: its interval reaches as far on
 *    each side of its estimate as its estimate at the windows' whole rate lies from it.
 * Strata are independent; their variances add and the interval uses Student's t with
 * Welch-Satterthwaite degrees of freedom. A stratum with one detailed unit and fast-forwarded
 * work has no variance estimate, and then the run has no interval. */
#ifndef SYNCSCOPE_BASE_SAMPLE_ESTIMATE_H
#define SYNCSCOPE_BASE_SAMPLE_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One unit simulated in detail: a whole launch, or one window of a launch. */
typedef struct sample_unit {
    uint64_t cycles, warp_instructions;
    uint64_t steady_cycles, steady_warp_instructions;  /* windows: the steady part, 0 for none */
    uint64_t dram_busy_cycles;        /* cycles the DRAM data buses carried the unit's data, per channel */
    bool steady_before_turnover;      /* windows: the steady part ended before the window had installed
                                         as many lines in the L2 as it holds */
} sample_unit;

typedef enum sample_kind {
    SAMPLE_LAUNCHES = 0,   /* kernel-level: whole launches detailed or fast-forwarded */
    SAMPLE_WINDOWS,        /* CTA-wave windows inside launches */
} sample_kind;

typedef struct sample_stratum {
    sample_kind kind;
    const sample_unit *units;         /* the detailed units */
    size_t unit_count;
    uint64_t launches;                /* launches in the stratum */
    uint64_t warp_instructions;       /* all of them, detailed or not */
    uint64_t fast_forwarded_warp_instructions;  /* launch strata: of the launches not detailed */
    double sampled_fraction;          /* share of the population detailed (finite-population correction) */
} sample_stratum;

typedef struct sample_stratum_estimate {
    double cycles;
    double variance;                  /* of `cycles`; meaningful when variance_known */
    double degrees_of_freedom;
    bool variance_known;
    double rate;                      /* cycles per warp instruction: R, b, or beta */
    double launch_overhead;           /* added once per launch: a (regression), or windows'
                                         mean(c) - beta * mean(n); 0 for the ratio estimator */
    bool dram_bound;                  /* windows: beta is the DRAM's bound, above the steady parts' rate */
    bool steady_before_turnover;      /* windows: a unit's steady part lay in its first L2 turnover */
    double whole_rate_cycles;         /* when dram_bound or steady_before_turnover: the estimate at the
                                         windows' whole cycles per instruction (start-up and drain
                                         included), the scale of what the steady parts may miss */
} sample_stratum_estimate;

void sample_estimate_stratum(const sample_stratum *stratum, sample_stratum_estimate *estimate);

typedef struct sample_total {
    double cycles, ci_low, ci_high;   /* interval valid when has_ci */
    bool has_ci;
    double degrees_of_freedom;
} sample_total;

/* Sums the strata and builds the two-sided `confidence` (e.g. 0.95) interval. Where strata are
 * held at the DRAM bound, their steady parts are known to be biased low and the bound is only a
 * lower one: the interval reaches up to at least the estimate with those strata at their
 * whole_rate_cycles. Where a stratum's steady parts lay in their windows' first L2 turnover,
 * they may be biased either way by what the L2 held before the window: the interval reaches
 * |whole_rate_cycles - cycles| of each such stratum to both sides. */
void sample_estimate_total(const sample_stratum_estimate *strata, size_t count, double confidence,
                           sample_total *total);

#endif
