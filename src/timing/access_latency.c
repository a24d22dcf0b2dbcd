/* access_latency.c — per-kind latencies of a run's global accesses (see access_latency.h); the
 * quantiles are GSL's (gsl_stats_quantile_from_sorted_data: linear interpolation between the
 * order statistics). */
#include "timing/access_latency.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>

void access_latencies_add(access_latencies *latencies, access_latency_kind kind, uint64_t cycles)
{
    if (latencies->count[kind] == latencies->capacity[kind]) {
        latencies->capacity[kind] = latencies->capacity[kind] ? 2 * latencies->capacity[kind] : 1024;
        latencies->cycles[kind] = realloc(latencies->cycles[kind],
                                          latencies->capacity[kind] * sizeof *latencies->cycles[kind]);
    }
    latencies->cycles[kind][latencies->count[kind]++] = (double)cycles;
}

access_latency_summary access_latencies_summary(access_latencies *latencies, access_latency_kind kind)
{
    size_t n = latencies->count[kind];
    if (n == 0)
        return (access_latency_summary){0};
    double *sorted = latencies->cycles[kind];
    gsl_sort(sorted, 1, n);
    return (access_latency_summary){
        .count = n,
        .mean = gsl_stats_mean(sorted, 1, n),
        .p10 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.10),
        .p50 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.50),
        .p90 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.90),
        .p99 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.99),
        .max = sorted[n - 1],
    };
}

const char *access_latency_kind_name(access_latency_kind kind)
{
    static const char *const names[ACCESS_LATENCY_KINDS] = {"load", "store", "atomic"};
    return names[kind];
}

void access_latencies_free(access_latencies *latencies)
{
    for (int k = 0; k < ACCESS_LATENCY_KINDS; k++)
        free(latencies->cycles[k]);
    free(latencies);
}
