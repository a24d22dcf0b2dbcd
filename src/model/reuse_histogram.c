/* reuse_histogram.c — log-linear stack-distance buckets and the hit counts they imply (see
 * reuse_histogram.h for the cache model). */
#include "model/reuse_histogram.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

int reuse_bucket_of(uint64_t distance)
{
    if (distance < REUSE_EXACT)
        return (int)distance;
    int octave = 63 - __builtin_clzll(distance);           /* >= 3 */
    int sub = (int)((distance >> (octave - 3)) & (REUSE_PER_OCTAVE - 1));
    int bucket = REUSE_EXACT + (octave - 3) * REUSE_PER_OCTAVE + sub;
    return bucket < REUSE_BUCKETS ? bucket : REUSE_BUCKETS - 1;
}

uint64_t reuse_bucket_lower(int bucket)
{
    if (bucket < REUSE_EXACT)
        return (uint64_t)bucket;
    int octave = 3 + (bucket - REUSE_EXACT) / REUSE_PER_OCTAVE;
    uint64_t sub = (uint64_t)((bucket - REUSE_EXACT) % REUSE_PER_OCTAVE);
    return (REUSE_PER_OCTAVE + sub) << (octave - 3);
}

uint64_t reuse_bucket_upper(int bucket)
{
    return bucket == REUSE_BUCKETS - 1 ? UINT64_MAX : reuse_bucket_lower(bucket + 1);
}

void reuse_add(reuse_histogram *histogram, uint64_t distance, double count)
{
    histogram->count[reuse_bucket_of(distance)] += count;
}

void reuse_merge(reuse_histogram *into, const reuse_histogram *from)
{
    for (int b = 0; b < REUSE_BUCKETS; b++)
        into->count[b] += from->count[b];
    into->cold += from->cold;
}

double reuse_total(const reuse_histogram *histogram)
{
    double total = histogram->cold;
    for (int b = 0; b < REUSE_BUCKETS; b++)
        total += histogram->count[b];
    return total;
}

void reuse_summarize(const reuse_histogram *histogram, reuse_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->total = reuse_total(histogram);
    /* The counts before each bucket, summed in increasing distance. */
    double below[REUSE_BUCKETS + 1] = {0};
    for (int b = 0; b < REUSE_BUCKETS; b++) {
        below[b + 1] = below[b];
        if (histogram->count[b] > 0) {
            summary->size++;
            below[b + 1] += histogram->count[b];
        }
    }
    /* Each bucket's first non-empty bucket at or after it, filled from the end down. */
    reuse_entry next = {.lower = UINT64_MAX, .upper = UINT64_MAX, .below = below[REUSE_BUCKETS]};
    summary->from_bucket[REUSE_BUCKETS] = next;
    for (int b = REUSE_BUCKETS - 1; b >= 0; b--) {
        if (histogram->count[b] > 0)
            next = (reuse_entry){.lower = reuse_bucket_lower(b), .upper = reuse_bucket_upper(b),
                                 .count = histogram->count[b], .below = below[b]};
        summary->from_bucket[b] = next;
    }
    /* The shortfall's sums with every bucket before falling short whole: an exact bucket's count
     * at its distance, a wider one's at its middle (reuse_shortfall's share of 1). */
    double count = 0.0, distances = 0.0;
    int span = 0;
    for (int b = 0; b < REUSE_BUCKETS; b++)
        if (histogram->count[b] > 0) {
            double lower = (double)reuse_bucket_lower(b), upper = (double)reuse_bucket_upper(b), entry = histogram->count[b];
            bool exact = upper - lower <= 1.0;
            double whole_from = exact ? nextafter(lower, INFINITY) : upper;
            summary->spans[span++] = (reuse_span){lower, upper, entry, whole_from, count, distances};
            count += entry;
            distances += exact ? entry * lower : entry * 0.5 * (lower + upper);
        }
    summary->spans[span] = (reuse_span){.lower = NAN, .upper = NAN, .whole_from = NAN, .count_before = count,
                                        .distances_before = distances};
}

/* The accesses with distance < lines: every bucket ending at or below `lines` in full, and the
 * share (lines - lower) / (upper - lower) of the one holding `lines` (uniform inside a bucket). */
double reuse_expected_hits(const reuse_summary *summary, uint64_t lines)
{
    /* The first non-empty bucket not wholly below `lines` (upper > lines): the one holding the
     * distance `lines` or a later one (past the last, every finite count). */
    const reuse_entry *first = &summary->from_bucket[reuse_bucket_of(lines)];
    double hits = first->below;
    if (lines > first->lower)
        hits += first->count * ((double)(lines - first->lower) / (double)(first->upper - first->lower));
    return hits;
}

double reuse_expected_misses(const reuse_summary *summary, uint64_t lines)
{
    return summary->total - reuse_expected_hits(summary, lines);
}

double reuse_shortfall(const reuse_summary *summary, double budget, double per_distance, double *short_count,
                       double *short_distances)
{
    double reach = budget / per_distance;   /* distances below reach fall short */
    /* The non-empty buckets in increasing distance: those that fall short whole (an exact bucket
     * below reach, a wider one ending at or below it) are the span's sums before the first that
     * does not; that one adds its share below reach when it starts below it. */
    const reuse_span *span = summary->spans;
    while (span->whole_from <= reach)
        span++;
    double count = span->count_before, distances = span->distances_before;
    if (span->lower < reach) {
        double lower = span->lower, upper = span->upper, share = (reach - lower) / (upper - lower);
        count += span->count * share;
        distances += span->count * share * 0.5 * (lower + reach);
    }
    *short_count = count;
    *short_distances = distances;
    return count * budget - distances * per_distance;
}

double reuse_lapsed_share(const reuse_summary *gaps, double lifetime, double per_distance)
{
    if (lifetime <= 0 || per_distance <= 0 || gaps->total <= 0)
        return 0.0;
    double short_count, short_gaps;
    double kept = reuse_shortfall(gaps, lifetime, per_distance, &short_count, &short_gaps) / lifetime;
    return 1.0 - kept / gaps->total;
}

/* The integral of floor(t) over [0, y], y >= 0: k (k - 1) / 2 + k (y - k) with k = floor(y). */
static double floor_integral(double y)
{
    double k = floor(y);
    return 0.5 * k * (k - 1.0) + k * (y - k);
}

double reuse_floor_sum(const reuse_summary *summary, double period)
{
    if (period <= 0)
        return 0.0;
    double sum = 0.0;
    for (int i = 0; i < summary->size; i++) {
        const reuse_span *span = &summary->spans[i];
        if (span->upper - span->lower <= 1.0)
            sum += span->count * floor(span->lower / period);
        else
            sum += span->count * period * (floor_integral(span->upper / period) - floor_integral(span->lower / period)) /
                   (span->upper - span->lower);
    }
    return sum;
}

double reuse_lru_fall_accesses(const reuse_summary *summary, double lines)
{
    double accesses = 0.0, depth = 0.0;
    for (const reuse_span *span = summary->spans; depth < lines; span++) {
        double misses = summary->total - span->count_before;
        double span_from = span < summary->spans + summary->size ? fmin(span->lower, lines) : lines;
        if (misses <= 0)
            return INFINITY;
        accesses += (span_from - depth) * summary->total / misses;   /* no distance in between */
        depth = span_from;
        if (depth >= lines)
            break;
        double end = fmin(span->upper, lines);
        double at_end = misses - span->count * (end - span->lower) / (span->upper - span->lower);
        if (span->upper - span->lower <= 1.0)
            accesses += summary->total / misses;
        else if (at_end <= 0)
            return INFINITY;
        else
            accesses += summary->total * (end - depth) * log(misses / at_end) / (misses - at_end);
        depth = end;
    }
    return accesses;
}
