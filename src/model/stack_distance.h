/* stack_distance.h — exact LRU stack distances of one stream of line accesses (Bennett-Kruskal:
 * a Fenwick tree over access times marks each line's latest access, so the distance of a
 * re-access is the number of marks after the line's previous one; O(log n) per access). When
 * the times run out and at most half of them hold marks, the marks are renumbered in order, so the
 * tree stays within about twice the footprint however long the stream.
 *
 * Each line also remembers the epoch of its latest access and whether it was invalidated
 * since, so the caller can tell reuses that cross a synchronization event (an acquire that
 * flash-invalidates an L1) or an invalidation of that one line (an atomic dropping the L1 copy)
 * from reuses that do not. A line also carries a little caller bookkeeping (the profiler keeps
 * which CUs touched it and who wrote it last in the GPU-wide stack, so it needs no second map). */
#ifndef SYNCSCOPE_MODEL_STACK_DISTANCE_H
#define SYNCSCOPE_MODEL_STACK_DISTANCE_H

#include <stdbool.h>
#include <stdint.h>

#define STACK_DISTANCE_COLD UINT64_MAX

/* The caller's per-line bookkeeping, zero on a line's first access. */
typedef struct stack_line_data {
    uint64_t cu_mask;         /* CUs (mod 64) that touched the line in the current launch */
    uint32_t launch;          /* launch the other fields belong to */
    int32_t last_writer;      /* CU that wrote it last, -1 none */
    uint64_t readers_since_write;   /* CUs (mod 64) that read it since its latest write */
    uint32_t atomics;         /* atomic line requests in the current launch */
    uint32_t loads;           /* load line requests in the current launch */
    bool written;             /* written in the current launch */
    /* Times on the profiler's own clock (its memory-side bookkeeping): the line's latest access
     * in this stack; its latest host write (host stack); its latest GPU read, store, write of
     * any kind, and read while the CPU did not own it (a fetch into the L3) (GPU stack). */
    uint64_t seen_at, host_written_at, read_at, stored_at, gpu_written_at, fetched_at;
    uint64_t cu_issued_at;    /* per-CU L1 stacks: the CU's warp instructions so far at its latest load */
    uint64_t kept_filled_issued;   /* per-CU L1 stacks: the same at the load that last missed the kept tags */
    uint64_t loaded_at_plus_one;   /* GPU stack: 1 + the GPU's time (profiler.c's gpu_time) at its latest load, 0 none */
    /* GPU stack: 0 while the L2 holds the line clean, else 1 + the largest distance of its
     * accesses since its latest write, and its depth at the launch ends since (its dirty span). */
    uint64_t dirty_span_plus_one;
    /* GPU stack: the largest distance of the stores to the line since its latest read (0: none;
     * STACK_DISTANCE_COLD: one was a first touch): a write-through L2 writes a store it misses
     * around itself (timing/l2_bank.c), so it holds the line at the next read only if every one
     * of those stores found it there (profile.h: l2_reads_around). */
    uint64_t around_span;
} stack_line_data;

typedef struct stack_line {
    uint64_t line_plus_one;   /* the line + 1 */
    uint64_t last_time;       /* 1-based position of the latest access */
    uint32_t epoch;
    bool invalidated;
    stack_line_data data;
} stack_line;

/* Where a line's entry is: open addressing over small slots (the line and its entry's index), so
 * a probe and a rehash touch 16 bytes a line rather than the whole entry. */
typedef struct stack_index_slot {
    uint64_t line_plus_one;   /* 0: empty slot */
    uint64_t entry;           /* index in lines */
} stack_index_slot;

typedef struct stack_distance {
    stack_line *lines;        /* the entries, in the order of the lines' first accesses */
    uint64_t line_count, entry_capacity;
    stack_index_slot *index;  /* power-of-two capacity, at most half full */
    uint64_t index_capacity;
    int32_t *tree;            /* Fenwick tree over times 1..time_capacity (lines' latest accesses) */
    uint64_t time_capacity, now;
} stack_distance;

/* What one access found. */
typedef struct stack_reuse {
    uint64_t distance;        /* STACK_DISTANCE_COLD on a first touch */
    bool crossed;             /* the previous access was in an older epoch, or the line was invalidated */
} stack_reuse;

void stack_distance_init(stack_distance *stack);
void stack_distance_release(stack_distance *stack);
/* Records an access; *slot (if not NULL) receives the line's entry, valid until the next access. */
stack_reuse stack_distance_access(stack_distance *stack, uint64_t line, uint32_t epoch, stack_line **slot);
/* The distance an access to `line` would have now, without recording it (COLD if never
 * accessed); *slot (if not NULL) receives the line's entry or NULL. */
uint64_t stack_distance_peek(stack_distance *stack, uint64_t line, stack_line **slot);
/* Marks `line` invalidated (if it was ever accessed): its next reuse reports crossed. */
void stack_distance_invalidate(stack_distance *stack, uint64_t line);
/* Distinct lines accessed so far. */
uint64_t stack_distance_footprint(const stack_distance *stack);

#endif
