/* reuse_histogram.c — log-linear stack-distance buckets and the hit counts they imply (see
 * reuse_histogram.h for the cache model). */
#include "model/reuse_histogram.h"

#include <string.h>

_Static_assert(REUSE_BUCKETS <= UINT8_MAX, "reuse_summary.first_from holds entry indices in bytes");

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
    double below = 0.0;
    for (int b = 0; b < REUSE_BUCKETS; b++) {
        summary->first_from[b] = (uint8_t)summary->size;
        if (histogram->count[b] <= 0)
            continue;
        int i = summary->size++;
        summary->lower[i] = reuse_bucket_lower(b);
        summary->upper[i] = reuse_bucket_upper(b);
        summary->count[i] = histogram->count[b];
        summary->below[i] = below;
        below += histogram->count[b];
    }
}

/* The accesses with distance < lines: every bucket ending at or below `lines` in full, and the
 * share (lines - lower) / (upper - lower) of the one holding `lines` (uniform inside a bucket). */
double reuse_expected_hits(const reuse_summary *summary, uint64_t lines)
{
    /* The first non-empty bucket not wholly below `lines` (upper > lines): the one holding the
     * distance `lines` or a later one. */
    int first = summary->first_from[reuse_bucket_of(lines)];
    if (first == summary->size)
        return summary->size > 0 ? summary->below[first - 1] + summary->count[first - 1] : 0.0;
    double hits = summary->below[first];
    if (lines > summary->lower[first])
        hits += summary->count[first] * ((double)(lines - summary->lower[first]) /
                                         (double)(summary->upper[first] - summary->lower[first]));
    return hits;
}

double reuse_expected_misses(const reuse_summary *summary, uint64_t lines)
{
    return summary->total - reuse_expected_hits(summary, lines);
}

double reuse_shortfall(const reuse_summary *summary, double budget, double per_distance, double *short_count,
                       double *short_distances)
{
    double reach = budget / per_distance, count = 0.0, distances = 0.0;   /* distances below reach fall short */
    for (int i = 0; i < summary->size && (double)summary->lower[i] < reach; i++) {
        double lower = (double)summary->lower[i], upper = (double)summary->upper[i];
        if (upper - lower <= 1.0) {
            count += summary->count[i];
            distances += summary->count[i] * lower;
            continue;
        }
        double end = reach < upper ? reach : upper, share = (end - lower) / (upper - lower);
        count += summary->count[i] * share;
        distances += summary->count[i] * share * 0.5 * (lower + end);
    }
    *short_count = count;
    *short_distances = distances;
    return count * budget - distances * per_distance;
}
