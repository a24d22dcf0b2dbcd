/* reuse_histogram.h — LRU stack-distance histograms at cache-line granularity, and the hit
 * counts they imply for a cache of any capacity and associativity.
 *
 * The stack distance of an access is the number of distinct other lines touched since the
 * previous access to the same line (0: the line was the last one touched); a first access, or
 * one whose line was invalidated since, is cold (infinite distance). Distances are kept in
 * log-linear buckets: exact below 8, then 8 buckets per octave, so bucket boundaries are every
 * m * 2^k with m in 8..15 (e.g. 384 = 12 * 32 lines is one).
 *
 * Hits for a fully-associative LRU cache of C lines are the accesses with distance < C: exact
 * when C is a bucket boundary (any C with at most four significant bits), interpolated inside
 * the bucket otherwise. For S sets of A ways, an access with distance d hits when fewer than A
 * of the d lines in between map to its set; with lines spread uniformly over the sets that count
 * is Binomial(d, 1/S) ~ Poisson(d/S) (the classic random-placement model), so
 * P(hit | d) = P(Poisson(d/S) < A), exactly 1 when d < A and taken as 1 when d/S <= A/8 (the
 * tail above A is then below 1e-5), which spares most buckets the series.
 */
#ifndef SYNCSCOPE_MODEL_REUSE_HISTOGRAM_H
#define SYNCSCOPE_MODEL_REUSE_HISTOGRAM_H

#include <stdint.h>

#define REUSE_EXACT 8           /* distances below this have a bucket each */
#define REUSE_PER_OCTAVE 8
#define REUSE_BUCKETS 176       /* up to 2^23 lines */

typedef struct reuse_histogram {
    double count[REUSE_BUCKETS];
    double cold;                /* first touches and accesses after an invalidation */
} reuse_histogram;

/* The bucket of a finite distance, and the distances [lower, upper) a bucket holds. */
int reuse_bucket_of(uint64_t distance);
uint64_t reuse_bucket_lower(int bucket);
uint64_t reuse_bucket_upper(int bucket);

void reuse_add(reuse_histogram *histogram, uint64_t distance, double count);
void reuse_merge(reuse_histogram *into, const reuse_histogram *from);
double reuse_total(const reuse_histogram *histogram);   /* finite and cold */

/* A histogram's non-empty buckets as (representative distance, count) pairs: what the model
 * evaluates, so its cost is O(non-empty buckets). */
#define REUSE_SUMMARY_MAX REUSE_BUCKETS
typedef struct reuse_summary {
    int size;
    float distance[REUSE_SUMMARY_MAX];   /* midpoint of the bucket's distances */
    uint8_t bucket[REUSE_SUMMARY_MAX];
    double count[REUSE_SUMMARY_MAX];
    double total;                         /* cold included */
} reuse_summary;

void reuse_summarize(const reuse_histogram *histogram, reuse_summary *summary);

/* Expected hits of the summarized accesses in an LRU cache of `lines` lines with
 * `associativity` ways (associativity >= lines: fully associative). */
double reuse_expected_hits(const reuse_summary *summary, uint64_t lines, uint64_t associativity);

#endif
