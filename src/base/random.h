/* random.h — splitmix64, the one small deterministic random stream of syncscope: it seeds the
 * workloads' generators and drives --jitter's timing perturbations. */
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

#endif
