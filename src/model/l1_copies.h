/* l1_copies.h — the profiler's write-allocate L1s under a full-map MESI directory: per CU, a tag
 * array of the configured L1's sets and ways (l1.size, l1.associativity, l1.line_size), LRU within
 * a set, filled by every line request as an ownership protocol's L1 (rfo's, mesi's write-back) is,
 * each copy S, E or M. A read that misses is granted E when no other CU holds the line, else S,
 * and a read of a line another CU holds in E or M is forwarded to that owner, which keeps a shared
 * copy (MESI; under MOESI an M owner would keep the line as O). A write by a CU that does not own
 * the line (E or M) is a GetM: it takes the line out of every other CU's array (the
 * invalidations); either way the writer then holds it in M. A host write takes the line out of
 * all of them. The detailed cache maps line n to set n mod sets (timing/cache_array.c). */
#ifndef SYNCSCOPE_MODEL_L1_COPIES_H
#define SYNCSCOPE_MODEL_L1_COPIES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct l1_copies {
    unsigned cu_count;
    uint64_t sets, ways;
    uint64_t *tags;     /* [cu][set][way]: line + 1, 0 empty */
    uint64_t *used;     /* the same shape: the access clock of the way's latest use */
    uint8_t *state;     /* the same shape: L1_COPY_SHARED, _EXCLUSIVE or _MODIFIED */
    uint64_t clock;
} l1_copies;

enum { L1_COPY_SHARED, L1_COPY_EXCLUSIVE, L1_COPY_MODIFIED };

/* How a read line request was answered. */
typedef enum l1_copy_read {
    L1_COPY_HIT,              /* the CU's L1 held the line */
    L1_COPY_FROM_HOME,        /* no other L1 owned it */
    L1_COPY_FORWARDED_CLEAN,  /* another L1 held it in E */
    L1_COPY_FORWARDED_DIRTY   /* another L1 held it in M (MESI writes its data home) */
} l1_copy_read;

/* What a write line request needed. */
typedef struct l1_copy_write {
    bool ownership;      /* the CU did not own the line: a GetM */
    bool found_copies;   /* another CU's L1 held a copy, which the GetM invalidated */
} l1_copy_write;

void l1_copies_init(l1_copies *l1, unsigned cu_count, uint64_t lines, uint64_t ways);
void l1_copies_release(l1_copies *l1);
l1_copy_read l1_copies_read(l1_copies *l1, unsigned cu, uint64_t line);
l1_copy_write l1_copies_write(l1_copies *l1, unsigned cu, uint64_t line);
/* A host write of the line: no CU holds it any more. */
void l1_copies_drop(l1_copies *l1, uint64_t line);

#endif
