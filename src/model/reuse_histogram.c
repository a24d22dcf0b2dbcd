/* reuse_histogram.c — log-linear stack-distance buckets and the hit counts they imply (see
 * reuse_histogram.h for the cache model). */
#include "model/reuse_histogram.h"

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
    for (int b = 0; b < REUSE_BUCKETS; b++) {
        if (histogram->count[b] <= 0)
            continue;
        uint64_t lower = reuse_bucket_lower(b), upper = reuse_bucket_upper(b);
        summary->bucket[summary->size] = (uint8_t)b;
        summary->distance[summary->size] =
            upper == UINT64_MAX ? (float)lower : (float)(0.5 * (double)(lower + upper - 1));
        summary->count[summary->size++] = histogram->count[b];
    }
}

/* Share of a bucket's accesses with distance < lines (uniform inside the bucket). */
static double share_below(int bucket, uint64_t lines)
{
    uint64_t lower = reuse_bucket_lower(bucket), upper = reuse_bucket_upper(bucket);
    if (lines >= upper)
        return 1.0;
    if (lines <= lower)
        return 0.0;
    return (double)(lines - lower) / (double)(upper - lower);
}

double reuse_expected_hits(const reuse_summary *summary, uint64_t lines)
{
    double hits = 0.0;
    for (int i = 0; i < summary->size; i++)
        hits += summary->count[i] * share_below(summary->bucket[i], lines);
    return hits;
}
