/* l1_copies.h — the profiler's write-allocate L1s under a full-map directory: per CU, a tag array
 * of the configured L1's sets and ways (l1.size, l1.associativity, l1.line_size), LRU within a
 * set, filled by every line request as an ownership protocol's L1 (rfo's, mesi's write-back) is;
 * a CU's write takes the line out of every other CU's array (the GetM's invalidations) and a host
 * write out of all of them (the host write drops the GPU's copies). The detailed cache maps line n
 * to set n mod sets (timing/cache_array.c). It tells whether a write finds a copy in another CU's
 * L1: the copies a GetM waits for (ownership_model.c). */
#ifndef SYNCSCOPE_MODEL_L1_COPIES_H
#define SYNCSCOPE_MODEL_L1_COPIES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct l1_copies {
    unsigned cu_count;
    uint64_t sets, ways;
    uint64_t *tags;     /* [cu][set][way]: line + 1, 0 empty */
    uint64_t *used;     /* the same shape: the access clock of the way's latest use */
    uint64_t clock;
} l1_copies;

void l1_copies_init(l1_copies *l1, unsigned cu_count, uint64_t lines, uint64_t ways);
void l1_copies_release(l1_copies *l1);
/* A read line request of CU `cu`: the line becomes its set's most recently used (on a miss it
 * replaces the set's least recently used way). */
void l1_copies_read(l1_copies *l1, unsigned cu, uint64_t line);
/* A write line request of CU `cu`: as a read, and the other CUs' copies are invalidated; true when
 * another CU held one. */
bool l1_copies_write(l1_copies *l1, unsigned cu, uint64_t line);
/* A host write of the line: no CU holds it any more. */
void l1_copies_drop(l1_copies *l1, uint64_t line);

#endif
