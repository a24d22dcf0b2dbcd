/* scratchpad.c — bank-conflict degree of a warp's scratchpad access (see scratchpad.h). */
#include "timing/scratchpad.h"

#include <stdbool.h>

/* Words a lane can touch: a vector of four 8-byte elements over 4-byte banks. */
#define LANE_WORDS_MAX 8

unsigned scratchpad_access_cycles(const exec_memory_request *request, unsigned banks, unsigned bank_bytes)
{
    /* Every word touched, once each (an atomic's lanes each count: they never share a word). */
    uint64_t words[EXEC_MAX_WARP_WIDTH * LANE_WORDS_MAX];
    unsigned word_count = 0;
    bool atomic = request->kind == EXEC_ACCESS_ATOMIC || request->kind == EXEC_ACCESS_REDUCE;
    unsigned bytes = (unsigned)request->element_bytes * request->vector;
    for (uint64_t m = request->shared_lanes; m; m &= m - 1) {
        uint64_t offset = request->address[__builtin_ctzll(m)];
        uint64_t first = offset / bank_bytes, last = (offset + bytes - 1) / bank_bytes;
        for (uint64_t w = first; w <= last && w - first < LANE_WORDS_MAX; w++) {
            bool seen = false;
            for (unsigned i = 0; i < word_count && !atomic && !seen; i++)
                seen = words[i] == w;
            if (!seen)
                words[word_count++] = w;
        }
    }
    unsigned per_bank[256] = {0}, worst = 1;
    for (unsigned i = 0; i < word_count; i++) {
        unsigned bank = (unsigned)(words[i] % banks);
        if (++per_bank[bank] > worst)
            worst = per_bank[bank];
    }
    return worst;
}
