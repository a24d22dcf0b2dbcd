/* fill_tags.h — one CU's L1 tags as the detailed L1 fills them: a load that misses reserves no
 * way when it issues; its line is installed, in the set's least recently used way at that
 * moment, when its fill returns (l1_controller.c's install_fill), and a load of the line in
 * between merges with the miss. The profiler (profiler.c) asks it which loads its configured L1
 * hits.
 *
 * Installing at issue evicts a victim as many cycles early as the miss is in flight, so where a
 * CU's lines crowd a few sets (stencil: a column of CTAs' rows, 4-8 of 32 sets) the victim's
 * reuses in that window miss that the detailed L1 hits (docs/calibration.md, session 25). The
 * fills return in the order of their times; one issued before the CU's latest acquire or
 * dropped by its atomic is not installed (the detailed L1's stale or closed MSHR). */
#ifndef SYNCSCOPE_MODEL_FILL_TAGS_H
#define SYNCSCOPE_MODEL_FILL_TAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/set_lru.h"

typedef struct pending_fill {
    uint64_t line, fill_at;
    uint32_t epoch;
    bool dropped;             /* an atomic of the CU closed the miss */
} pending_fill;

typedef struct fill_tags {
    set_lru tags;
    pending_fill *pending;    /* the misses in flight, in the order of their fill times */
    unsigned pending_count, pending_capacity;
} fill_tags;

typedef enum fill_tags_outcome { FILL_TAGS_MISS, FILL_TAGS_HIT, FILL_TAGS_MERGE } fill_tags_outcome;

/* Tags of `lines` lines in sets of `associativity` ways with at most `mshrs` misses in flight.
 * Returns -1 if out of memory. */
int fill_tags_init(fill_tags *cache, uint64_t lines, unsigned associativity, unsigned mshrs);
void fill_tags_free(fill_tags *cache);

/* A load of `line` in `epoch` presented at `now`, once the fills due by then are installed: a hit
 * on the tags, a merge with a miss of the line in flight in this epoch (*fill_at: when it fills),
 * or a miss. */
fill_tags_outcome fill_tags_load(fill_tags *cache, uint64_t line, uint32_t epoch, uint64_t now, uint64_t *fill_at);

/* A miss of `line` in `epoch` whose fill returns at `fill_at`. */
void fill_tags_miss(fill_tags *cache, uint64_t line, uint32_t epoch, uint64_t fill_at);

/* An atomic of the CU on `line`: drops the L1's copy and the fill of a miss in flight. */
void fill_tags_invalidate(fill_tags *cache, uint64_t line);

/* The misses in flight of `epoch` all return (each installed unless an atomic or a store dropped
 * it): a launch ends, for tags that keep their lines across launches. */
void fill_tags_settle(fill_tags *cache, uint32_t epoch);

/* Forgets the misses in flight: a launch begins, whose acquire empties the L1 (a new epoch) and
 * whose CU clocks start again at 0. */
void fill_tags_new_launch(fill_tags *cache);

#endif
