/* set_lru.h — the tags of one set-associative LRU cache, as the detailed L1 places and replaces
 * lines (timing/cache_array.c: set = line number mod sets, least recently used way out), for the
 * profiler to tell which of a CU's loads its configured L1 hits.
 *
 * A fully associative LRU stack misses every reuse of a cyclic working set a little larger than
 * the cache, where a set-associative cache with modulo placement keeps every set whose share of
 * it fits its ways: kmeans's two CTAs a CU at an 8 KiB, 4-way L1 (rcc-gpu) reuse 64 point lines
 * and a centroid line in turn, so the stack distance misses 28,640 loads and the detailed L1
 * 2,937 (docs/rcc-reproduction.md). Each way remembers the epoch of its fill, so an acquire's
 * flash invalidation (a new epoch) empties the cache as the stack's epochs do. */
#ifndef SYNCSCOPE_MODEL_SET_LRU_H
#define SYNCSCOPE_MODEL_SET_LRU_H

#include <stdbool.h>
#include <stdint.h>

typedef struct set_lru_way {
    uint64_t line_plus_one;   /* 0: empty */
    uint64_t last_use;
    uint32_t epoch;
} set_lru_way;

typedef struct set_lru {
    set_lru_way *ways;        /* sets x associativity */
    uint64_t sets;            /* 0: no cache, every access misses */
    unsigned associativity;
    uint64_t use_clock;
} set_lru;

/* A cache of `lines` lines in sets of `associativity` ways (lines / associativity sets; none when
 * either is 0). Returns -1 if out of memory. */
int set_lru_init(set_lru *cache, uint64_t lines, unsigned associativity);
void set_lru_free(set_lru *cache);

/* Looks `line` up in `epoch`: returns whether it hit (held, filled in this epoch), and a hit makes
 * it the set's most recently used. */
bool set_lru_lookup(set_lru *cache, uint64_t line, uint32_t epoch);

/* Installs `line` for `epoch` in its set's first empty or stale way, else its least recently used
 * (cache_array_victim's choice). */
void set_lru_fill(set_lru *cache, uint64_t line, uint32_t epoch);

/* Drops `line` if held (an atomic invalidating the L1 copy). */
void set_lru_invalidate(set_lru *cache, uint64_t line);

#endif
