/* l1_sets.c — the profiler's per-CU set-associative LRU tag arrays (l1_sets.h). */
#include "model/l1_sets.h"

#include <stdlib.h>

void l1_sets_init(l1_sets *l1, unsigned cu_count, uint64_t lines, uint64_t ways)
{
    l1->ways = ways > 0 && ways <= lines ? ways : lines;
    l1->sets = l1->ways > 0 ? lines / l1->ways : 0;
    size_t slots = (size_t)(cu_count * l1->sets * l1->ways);
    l1->tags = calloc(slots ? slots : 1, sizeof *l1->tags);
    l1->used = calloc(slots ? slots : 1, sizeof *l1->used);
    l1->clock = 0;
}

void l1_sets_release(l1_sets *l1)
{
    free(l1->tags);
    free(l1->used);
    l1->tags = l1->used = NULL;
}

/* The first of the ways of `line`'s set in CU `cu`'s array. */
static size_t set_of(const l1_sets *l1, unsigned cu, uint64_t line)
{
    return (size_t)((cu * l1->sets + line % l1->sets) * l1->ways);
}

bool l1_sets_load(l1_sets *l1, unsigned cu, uint64_t line)
{
    if (l1->sets == 0)
        return false;
    size_t first = set_of(l1, cu, line);
    uint64_t *tags = l1->tags + first, *used = l1->used + first;
    size_t victim = 0;
    l1->clock++;
    for (size_t w = 0; w < l1->ways; w++) {
        if (tags[w] == line + 1) {
            used[w] = l1->clock;
            return true;
        }
        if (used[w] < used[victim])
            victim = w;
    }
    tags[victim] = line + 1;
    used[victim] = l1->clock;
    return false;
}

void l1_sets_drop(l1_sets *l1, unsigned cu, uint64_t line)
{
    if (l1->sets == 0)
        return;
    size_t first = set_of(l1, cu, line);
    for (size_t w = 0; w < l1->ways; w++)
        if (l1->tags[first + w] == line + 1) {
            l1->tags[first + w] = 0;
            l1->used[first + w] = 0;
        }
}
