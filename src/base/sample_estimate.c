/* sample_estimate.c — ratio and window estimators of a sampled run and their confidence interval
 * (see sample_estimate.h). */
#include "base/sample_estimate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

typedef struct sums {
    double cycles, instructions, steady_cycles, steady_instructions, dram_busy_cycles;
} sums;

static sums add_units(const sample_stratum *stratum)
{
    sums s = {0};
    for (size_t i = 0; i < stratum->unit_count; i++) {
        const sample_unit *u = &stratum->units[i];
        s.cycles += (double)u->cycles;
        s.instructions += (double)u->warp_instructions;
        s.steady_cycles += (double)u->steady_cycles;
        s.steady_instructions += (double)u->steady_warp_instructions;
        s.dram_busy_cycles += (double)u->dram_busy_cycles;
    }
    return s;
}

/* Units with a steady part (a window may have none: timing_engine_measure_steady). */
static size_t steady_units(const sample_stratum *stratum)
{
    size_t count = 0;
    for (size_t i = 0; i < stratum->unit_count; i++)
        count += stratum->units[i].steady_warp_instructions > 0;
    return count;
}

/* Whether a unit's steady part lay in its window's first L2 turnover. */
static bool any_steady_before_turnover(const sample_stratum *stratum)
{
    for (size_t i = 0; i < stratum->unit_count; i++)
        if (stratum->units[i].steady_warp_instructions > 0 && stratum->units[i].steady_before_turnover)
            return true;
    return false;
}

/* Sample variance of y_i - rate * x_i over the units: y cycles and x warp instructions, of the
 * steady parts of the units that have one when `steady`. (The ratio estimator's residuals
 * already have mean 0.) */
static double residual_variance(const sample_stratum *stratum, double rate, bool steady)
{
    size_t m = steady ? steady_units(stratum) : stratum->unit_count;
    double mean = 0.0, sum = 0.0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < stratum->unit_count; i++) {
            const sample_unit *u = &stratum->units[i];
            if (steady && u->steady_warp_instructions == 0)
                continue;
            double y = (double)(steady ? u->steady_cycles : u->cycles);
            double x = (double)(steady ? u->steady_warp_instructions : u->warp_instructions);
            double residual = y - rate * x;
            if (pass == 0)
                mean += residual / (double)m;
            else
                sum += (residual - mean) * (residual - mean);
        }
    return sum / (double)(m - 1);
}

/* Least-squares line cycles = a + b * instructions through the detailed launches; false when
 * it is not usable (fewer than 5 launches, equal sizes, or a negative coefficient). */
static bool fit_line(const sample_stratum *stratum, sums s, double *a, double *b, double *sxx)
{
    size_t m = stratum->unit_count;
    if (m < 5)
        return false;
    double mean_x = s.instructions / (double)m, mean_y = s.cycles / (double)m, sxy = 0.0;
    *sxx = 0.0;
    for (size_t i = 0; i < m; i++) {
        double dx = (double)stratum->units[i].warp_instructions - mean_x;
        *sxx += dx * dx;
        sxy += dx * ((double)stratum->units[i].cycles - mean_y);
    }
    if (*sxx <= 0)
        return false;
    *b = sxy / *sxx;
    *a = mean_y - *b * mean_x;
    return *a >= 0 && *b >= 0;
}

static void estimate_launches(const sample_stratum *stratum, sums s, sample_stratum_estimate *e)
{
    size_t m = stratum->unit_count;
    double unsampled = (double)stratum->fast_forwarded_warp_instructions;
    double skipped = (double)(stratum->launches - m);
    e->rate = s.instructions > 0 ? s.cycles / s.instructions : 0.0;
    if (unsampled == 0 && skipped == 0) {   /* every launch detailed: exact */
        e->cycles = s.cycles;
        e->variance_known = true;
        return;
    }
    double a, b, sxx;
    double mean_instructions = s.instructions / (double)m;
    if (fit_line(stratum, s, &a, &b, &sxx)) {
        /* Regression estimator: each skipped launch costs a + b * its instructions. */
        e->launch_overhead = a;
        e->rate = b;
        e->cycles = s.cycles + skipped * a + b * unsampled;
        double residuals = 0.0;
        for (size_t i = 0; i < m; i++) {
            double r = (double)stratum->units[i].cycles - a - b * (double)stratum->units[i].warp_instructions;
            residuals += r * r;
        }
        double spread = unsampled / skipped - mean_instructions;
        double variance_mean = residuals / (double)(m - 2) * (1.0 / (double)m + spread * spread / sxx);
        e->variance = (1.0 - stratum->sampled_fraction) * skipped * skipped * variance_mean;
        e->degrees_of_freedom = (double)(m - 2);
        e->variance_known = true;
        return;
    }
    e->cycles = s.cycles + e->rate * unsampled;
    if (m < 2)
        return;
    double variance_rate = (1.0 - stratum->sampled_fraction) * residual_variance(stratum, e->rate, false) /
                           ((double)m * mean_instructions * mean_instructions);
    e->variance = unsampled * unsampled * variance_rate;
    e->degrees_of_freedom = (double)(m - 1);
    e->variance_known = true;
}

static void estimate_windows(const sample_stratum *stratum, sums s, sample_stratum_estimate *e)
{
    size_t m = stratum->unit_count;
    double launches = (double)stratum->launches;
    double mean_cycles = s.cycles / (double)m, mean_instructions = s.instructions / (double)m;
    /* The rate of the windows' steady parts (the windows that have one), at least the DRAM
     * bound; windows too short for a steady part fall back to their whole cycles per
     * instruction. */
    bool steady = s.steady_instructions > 0;
    size_t rate_units = steady ? steady_units(stratum) : m;
    double beyond_windows = (double)stratum->warp_instructions - launches * mean_instructions;
    e->rate = steady ? s.steady_cycles / s.steady_instructions : s.cycles / s.instructions;
    double dram_bound = s.dram_busy_cycles / s.instructions;
    if (steady && dram_bound > e->rate) {
        e->rate = dram_bound;
        e->dram_bound = true;
    }
    e->steady_before_turnover = steady && any_steady_before_turnover(stratum);
    if (e->dram_bound || e->steady_before_turnover)
        e->whole_rate_cycles = launches * mean_cycles + s.cycles / s.instructions * beyond_windows;
    e->launch_overhead = mean_cycles - e->rate * mean_instructions;
    e->cycles = launches * mean_cycles + e->rate * beyond_windows;
    if (rate_units < 2)
        return;
    double correction = 1.0 - stratum->sampled_fraction;
    double mean_steady = (steady ? s.steady_instructions : s.instructions) / (double)rate_units;
    double variance_mean = residual_variance(stratum, 0.0, false) / (double)m;
    double variance_rate =
        residual_variance(stratum, e->rate, steady) / ((double)rate_units * mean_steady * mean_steady);
    e->variance = correction * (launches * launches * variance_mean + beyond_windows * beyond_windows * variance_rate);
    e->degrees_of_freedom = (double)(rate_units - 1);
    e->variance_known = true;
}

void sample_estimate_stratum(const sample_stratum *stratum, sample_stratum_estimate *estimate)
{
    *estimate = (sample_stratum_estimate){0};
    if (stratum->unit_count == 0)
        return;
    sums s = add_units(stratum);
    if (stratum->kind == SAMPLE_LAUNCHES)
        estimate_launches(stratum, s, estimate);
    else
        estimate_windows(stratum, s, estimate);
}

void sample_estimate_total(const sample_stratum_estimate *strata, size_t count, double confidence,
                           sample_total *total)
{
    *total = (sample_total){.has_ci = true};
    double variance = 0.0, welch_denominator = 0.0, above = 0.0, below = 0.0;
    for (size_t i = 0; i < count; i++) {
        const sample_stratum_estimate *s = &strata[i];
        total->cycles += s->cycles;
        double reach = s->whole_rate_cycles - s->cycles;
        if (s->steady_before_turnover) {   /* biased either way: as far on each side */
            above += fabs(reach);
            below += fabs(reach);
        } else if (s->dram_bound && reach > 0) {   /* the bound is a lower one */
            above += reach;
        }
        total->has_ci &= s->variance_known;
        variance += s->variance;
        if (s->variance > 0)
            welch_denominator += s->variance * s->variance / s->degrees_of_freedom;
    }
    if (!total->has_ci)
        return;
    double half_width = 0.0;
    if (variance > 0) {
        total->degrees_of_freedom = variance * variance / welch_denominator;
        half_width = gsl_cdf_tdist_Pinv(0.5 + confidence / 2.0, total->degrees_of_freedom) * sqrt(variance);
    }
    total->ci_low = total->cycles - (half_width > below ? half_width : below);
    total->ci_high = total->cycles + (half_width > above ? half_width : above);
}
