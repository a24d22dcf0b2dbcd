/* l1_copies.c — the profiler's write-allocate L1s under a full-map directory (l1_copies.h). */
#include "model/l1_copies.h"

#include <stdlib.h>

void l1_copies_init(l1_copies *l1, unsigned cu_count, uint64_t lines, uint64_t ways)
{
    l1->cu_count = cu_count;
    l1->ways = ways > 0 && ways <= lines ? ways : lines;
    l1->sets = l1->ways > 0 ? lines / l1->ways : 0;
    size_t slots = (size_t)(cu_count * l1->sets * l1->ways);
    l1->tags = calloc(slots ? slots : 1, sizeof *l1->tags);
    l1->used = calloc(slots ? slots : 1, sizeof *l1->used);
    l1->clock = 0;
}

void l1_copies_release(l1_copies *l1)
{
    free(l1->tags);
    free(l1->used);
    l1->tags = l1->used = NULL;
}

/* The first way of the line's set in CU `cu`'s array. */
static size_t set_of(const l1_copies *l1, unsigned cu, uint64_t line)
{
    return (size_t)((cu * l1->sets + line % l1->sets) * l1->ways);
}

void l1_copies_read(l1_copies *l1, unsigned cu, uint64_t line)
{
    if (l1->sets == 0)
        return;
    size_t first = set_of(l1, cu, line);
    uint64_t *tags = l1->tags + first, *used = l1->used + first;
    size_t way = 0;
    while (way < l1->ways && tags[way] != line + 1)
        way++;
    if (way == l1->ways) {   /* a miss: the set's least recently used way (an empty one first) */
        way = 0;
        for (size_t w = 1; w < l1->ways; w++)
            if (used[w] < used[way])
                way = w;
    }
    tags[way] = line + 1;
    used[way] = ++l1->clock;
}

/* Takes the line out of CU `cu`'s array; true when it was there. */
static bool invalidate(l1_copies *l1, unsigned cu, uint64_t line)
{
    size_t first = set_of(l1, cu, line);
    for (size_t w = 0; w < l1->ways; w++)
        if (l1->tags[first + w] == line + 1) {
            l1->tags[first + w] = 0;
            l1->used[first + w] = 0;
            return true;
        }
    return false;
}

bool l1_copies_write(l1_copies *l1, unsigned cu, uint64_t line)
{
    if (l1->sets == 0)
        return false;
    bool found = false;
    for (unsigned other = 0; other < l1->cu_count; other++)
        if (other != cu)
            found |= invalidate(l1, other, line);
    l1_copies_read(l1, cu, line);
    return found;
}

void l1_copies_drop(l1_copies *l1, uint64_t line)
{
    if (l1->sets == 0)
        return;
    for (unsigned cu = 0; cu < l1->cu_count; cu++)
        invalidate(l1, cu, line);
}
