/* random.h — splitmix64, the one small deterministic random stream of syncscope: it seeds the
 * workloads' generators, drives --jitter's timing perturbations and draws the design points of
 * calibrations and sweeps (a uniform double, a random permutation). */
#ifndef SYNCSCOPE_BASE_RANDOM_H
#define SYNCSCOPE_BASE_RANDOM_H

#include <stdint.h>

/* Advances `state` and returns the next 64-bit value of its stream. */
static inline uint64_t sc_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from the stream. */
static inline double sc_random_unit(uint64_t *state)
{
    return (double)(sc_splitmix64(state) >> 11) * 0x1.0p-53;
}

/* order[0..n) becomes a random permutation of 0..n-1 (Fisher-Yates from the top, drawing from
 * the stream). */
static inline void sc_random_permutation(int32_t *order, int64_t n, uint64_t *state)
{
    for (int64_t i = 0; i < n; i++)
        order[i] = (int32_t)i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(sc_splitmix64(state) % (uint64_t)(i + 1));
        int32_t kept = order[i];
        order[i] = order[j];
        order[j] = kept;
    }
}

#endif
