/* l1_sets.h — the profiler's set-associative L1s: per CU, a tag array of the configured L1's
 * sets and ways (l1.size, l1.associativity, l1.line_size), LRU within a set, filled by the CU's
 * weak loads as a write-through L1 fills it (stores update a copy in place and allocate nothing;
 * an atomic of the CU drops the line). The detailed cache maps line n to set n mod sets
 * (timing/cache_array.c), so lines a CU's CTAs touch at a stride of the set count crowd into the
 * same sets (stencil's grid rows on qr-apu: 512 bytes apart, 8 lines, so a column of CTAs falls
 * into 4 of the 32 sets): the stack distances (a fully associative LRU) keep such a line, this
 * array tells when its set evicted it. */
#ifndef SYNCSCOPE_MODEL_L1_SETS_H
#define SYNCSCOPE_MODEL_L1_SETS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct l1_sets {
    uint64_t sets, ways;
    uint64_t *tags;     /* [cu][set][way]: line + 1, 0 empty */
    uint64_t *used;     /* the same shape: the access clock of the way's latest use */
    uint64_t clock;
} l1_sets;

void l1_sets_init(l1_sets *l1, unsigned cu_count, uint64_t lines, uint64_t ways);
void l1_sets_release(l1_sets *l1);
/* A weak load of CU `cu`: true when its set still held the line; the line is then the set's
 * most recently used (on a miss it replaces the set's least recently used way). */
bool l1_sets_load(l1_sets *l1, unsigned cu, uint64_t line);
/* CU `cu` no longer holds `line` (its atomic on the line). */
void l1_sets_drop(l1_sets *l1, unsigned cu, uint64_t line);

#endif
