/* directory_queue.c — the wait for the directory's transactions at an L2 bank (see
 * directory_queue.h): the spread of the requests in flight over the banks, Poisson. */
#include "model/directory_queue.h"

#include <math.h>

/* Terms of a Poisson sum below this share of the sum are dropped. */
#define TERM_TOLERANCE 1e-17

/* The busy transactions E[min(K, s)] of a bank whose count K is Poisson with mean `mean`, and
 * P(K < s), its derivative in the mean. Each sum runs away from s over terms that only fall:
 * the tail above s where mean <= s, the terms below s otherwise. */
static double busy_transactions(double mean, double servers, double *below_servers)
{
    double at_servers = exp(servers * log(mean) - mean - lgamma(servers + 1.0));   /* P(K = s) */
    if (mean <= servers) {
        double tail = 0, excess = 0, term = at_servers;
        for (double k = servers; term > TERM_TOLERANCE * tail; k++) {
            tail += term;
            excess += (k - servers) * term;
            term *= mean / (k + 1.0);
        }
        *below_servers = 1.0 - tail;
        return mean - excess;
    }
    double below = 0, below_mean = 0, term = at_servers * servers / mean;
    for (double k = servers - 1.0; k >= 0 && term > TERM_TOLERANCE * below; k--) {
        below += term;
        below_mean += k * term;
        term *= k / mean;
    }
    *below_servers = below;
    return below_mean + servers * (1.0 - below);
}

double directory_queue_wait(double throughput, double rate_per_throughput, double hold, double hold_slope,
                            double servers, double *slope)
{
    *slope = 0;
    double busy = throughput * rate_per_throughput * hold;
    if (!(busy > 0))
        return 0.0;
    if (busy >= servers)
        return INFINITY;
    /* Chernoff's bound on P(K >= s) at mean busy: below e^-40 no request waits. */
    if (-busy + servers * (1.0 + log(busy / servers)) < -40.0)
        return 0.0;
    /* E[min(K, s)] is concave and rises in the mean, so Newton's steps from mean = busy (where
     * it is at most busy) rise to the root without passing it. */
    double mean = busy, below_servers = 1.0;
    for (int step = 0; step < 100; step++) {
        double shortfall = busy - busy_transactions(mean, servers, &below_servers);
        if (shortfall <= 1e-12 * busy || !(below_servers > 0))
            break;
        mean += shortfall / below_servers;
    }
    double waits_per_hold = (mean - busy) / busy;
    /* d waits_per_hold / d busy, with d mean / d busy = 1 / P(K < s). */
    double per_busy = below_servers > 0 ? (busy / below_servers - mean) / (busy * busy) : INFINITY;
    double busy_slope = rate_per_throughput * (hold + throughput * hold_slope);
    *slope = hold_slope * waits_per_hold + hold * per_busy * busy_slope;
    return hold * waits_per_hold;
}
