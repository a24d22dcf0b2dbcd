/* reuse_histogram.h — LRU stack-distance histograms at cache-line granularity, and the hit
 * counts they imply for an LRU cache of any capacity.
 *
 * The stack distance of an access is the number of distinct other lines touched since the
 * previous access to the same line (0: the line was the last one touched); a first access, or
 * one whose line was invalidated since, is cold (infinite distance). Distances are kept in
 * log-linear buckets: exact below 8, then 8 buckets per octave, so bucket boundaries are every
 * m * 2^k with m in 8..15 (e.g. 384 = 12 * 32 lines is one).
 *
 * Hits for an LRU cache of C lines are the accesses with distance < C: exact when C is a bucket
 * boundary (any C with at most four significant bits), interpolated inside the bucket otherwise.
 * Set associativity is not a term: for S sets of A ways an access hits when fewer than A of the
 * d lines in between map to its set, and the detailed caches index sets by line number modulo S,
 * which spreads the mostly contiguous footprints of GPU kernels evenly (d/S lines per set: a hit
 * iff d < S A = C). The random-placement model (Poisson(d/S) lines per set) was measured worse:
 * with it kmeans' L1 hits fell by 8-16 % at 12 KiB where the detailed L1's did not move, and the
 * wt model's cycle error on kmeans was 28 % against 10 % (gtx480, 30 held-out points).
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

/* A histogram's non-empty buckets, in increasing distance, as the models evaluate them: for
 * every bucket, the first non-empty one at or after it, held whole (its distances [lower, upper),
 * its count and the counts of the buckets before it), so a capacity's hits are one lookup that
 * reads one entry (the capacity's bucket, reuse_bucket_of, then that table): a sweep looks a
 * profile's summaries up at every point, and an entry in one place keeps each lookup to one cache
 * line rather than one in each of four arrays. */
typedef struct reuse_entry {
    uint64_t lower, upper;
    double count;
    double below;                         /* the counts of the buckets before it, summed in increasing distance */
} reuse_entry;

/* A non-empty bucket as reuse_shortfall walks them: its distances [lower, upper) and count; the
 * least reach at which it falls short whole (an exact bucket's: the double after its distance, a
 * wider one's: its upper end); and the shortfall's count and summed distances over the non-empty
 * buckets before it when every one of those falls short whole, each added in increasing distance
 * as the walk adds them. */
typedef struct reuse_span {
    double lower, upper, count, whole_from;
    double count_before, distances_before;
} reuse_span;

typedef struct reuse_summary {
    int size;                             /* non-empty buckets */
    double total;                         /* cold included */
    /* [bucket]: the first non-empty bucket at or after it; [REUSE_BUCKETS] and every bucket past
     * the last non-empty one: the end, which holds every finite count below and no range (lower
     * and upper UINT64_MAX, count 0). */
    reuse_entry from_bucket[REUSE_BUCKETS + 1];
    /* [i < size]: the i-th non-empty bucket in increasing distance; [size]: the sums over all, with
     * no distances (lower and whole_from NaN: no reach is past them). */
    reuse_span spans[REUSE_BUCKETS + 1];
} reuse_summary;

void reuse_summarize(const reuse_histogram *histogram, reuse_summary *summary);

/* Expected hits of the summarized accesses in an LRU cache of `lines` lines. */
double reuse_expected_hits(const reuse_summary *summary, uint64_t lines);
/* The rest of the summarized accesses (cold ones included): its expected misses. */
double reuse_expected_misses(const reuse_summary *summary, uint64_t lines);

/* The same histograms also count distances that are not stack distances (profile.h's ordering
 * gaps: warp instructions between two accesses of a warp). For those, the summed shortfall of
 * `budget` beyond `per_distance` times each distance: sum over finite distances d of
 * max(0, budget - per_distance d), distances of an exact bucket at their value and those of a
 * wider bucket spread evenly over [lower, upper); cold entries count nothing. Also gives the
 * count of the distances that fall short (d per_distance < budget: the shortfall's slope in
 * budget) and their summed distances (minus its slope in per_distance). per_distance > 0. */
double reuse_shortfall(const reuse_summary *summary, double budget, double per_distance, double *short_count,
                       double *short_distances);

/* Of the summarized gaps, the share whose copy has lapsed when the copy lives `lifetime` and its
 * life began at a uniformly random time no later than the gap's start: min(1, per_distance d /
 * lifetime) averaged over the gaps, 1 - shortfall(lifetime, per_distance) / lifetime / total
 * (reuse_shortfall; cold entries count as lapsed). 0 where nothing is summarized or lifetime or
 * per_distance is not positive. */
double reuse_lapsed_share(const reuse_summary *gaps, double lifetime, double per_distance);

/* The summed floor(d / period) over the summarized finite distances d: the multiples of `period`
 * each distance reaches, an exact bucket's distances at their value and a wider bucket's spread
 * evenly over [lower, upper) (cold entries count nothing). 0 where period is not positive. */
double reuse_floor_sum(const reuse_summary *summary, double period);

/* The accesses an LRU cache of `lines` lines takes to push out a line nobody touches again, from
 * the top of its stack: at depth k an access moves it down when its own distance is k or more
 * (misses(k) of the summary's total accesses), so the line waits total / misses(k) accesses at
 * depth k, summed over k < lines (inside a wider bucket misses(k) falls linearly and the sum is
 * its integral). Infinite when too few accesses reach as deep. */
double reuse_lru_fall_accesses(const reuse_summary *summary, double lines);

#endif
