/* l1_copies.c — the profiler's write-allocate L1s under a full-map MESI directory (l1_copies.h). */
#include "model/l1_copies.h"

#include <stdlib.h>

#define NO_WAY SIZE_MAX

void l1_copies_init(l1_copies *l1, unsigned cu_count, uint64_t lines, uint64_t ways)
{
    l1->cu_count = cu_count;
    l1->ways = ways > 0 && ways <= lines ? ways : lines;
    l1->sets = l1->ways > 0 ? lines / l1->ways : 0;
    size_t slots = (size_t)(cu_count * l1->sets * l1->ways);
    l1->tags = calloc(slots ? slots : 1, sizeof *l1->tags);
    l1->used = calloc(slots ? slots : 1, sizeof *l1->used);
    l1->state = calloc(slots ? slots : 1, sizeof *l1->state);
    l1->clock = 0;
}

void l1_copies_release(l1_copies *l1)
{
    free(l1->tags);
    free(l1->used);
    free(l1->state);
    l1->tags = l1->used = NULL;
    l1->state = NULL;
}

/* The first way of the line's set in CU `cu`'s array. */
static size_t set_of(const l1_copies *l1, unsigned cu, uint64_t line)
{
    return (size_t)((cu * l1->sets + line % l1->sets) * l1->ways);
}

/* The slot holding the line in CU `cu`'s array, or NO_WAY. */
static size_t find(const l1_copies *l1, unsigned cu, uint64_t line)
{
    size_t first = set_of(l1, cu, line);
    for (size_t w = 0; w < l1->ways; w++)
        if (l1->tags[first + w] == line + 1)
            return first + w;
    return NO_WAY;
}

/* Makes `slot` (or, at NO_WAY, the set's least recently used way, an empty one first) CU `cu`'s
 * most recently used copy of the line, in `state`. */
static void fill(l1_copies *l1, unsigned cu, uint64_t line, size_t slot, uint8_t state)
{
    if (slot == NO_WAY) {
        size_t first = set_of(l1, cu, line);
        slot = first;
        for (size_t w = 1; w < l1->ways; w++)
            if (l1->used[first + w] < l1->used[slot])
                slot = first + w;
    }
    l1->tags[slot] = line + 1;
    l1->used[slot] = ++l1->clock;
    l1->state[slot] = state;
}

l1_copy_read l1_copies_read(l1_copies *l1, unsigned cu, uint64_t line)
{
    if (l1->sets == 0)
        return L1_COPY_FROM_HOME;
    size_t own = find(l1, cu, line);
    if (own != NO_WAY) {
        fill(l1, cu, line, own, l1->state[own]);
        return L1_COPY_HIT;
    }
    l1_copy_read answer = L1_COPY_FROM_HOME;
    bool shared = false;
    for (unsigned other = 0; other < l1->cu_count; other++) {
        size_t slot = other == cu ? NO_WAY : find(l1, other, line);
        if (slot == NO_WAY)
            continue;
        shared = true;
        if (l1->state[slot] != L1_COPY_SHARED)
            answer = l1->state[slot] == L1_COPY_MODIFIED ? L1_COPY_FORWARDED_DIRTY : L1_COPY_FORWARDED_CLEAN;
        l1->state[slot] = L1_COPY_SHARED;
    }
    fill(l1, cu, line, NO_WAY, shared ? L1_COPY_SHARED : L1_COPY_EXCLUSIVE);
    return answer;
}

l1_copy_write l1_copies_write(l1_copies *l1, unsigned cu, uint64_t line)
{
    l1_copy_write out = {.ownership = true, .found_copies = false};
    if (l1->sets == 0)
        return out;
    size_t own = find(l1, cu, line);
    out.ownership = own == NO_WAY || l1->state[own] == L1_COPY_SHARED;
    for (unsigned other = 0; out.ownership && other < l1->cu_count; other++) {
        size_t slot = other == cu ? NO_WAY : find(l1, other, line);
        if (slot != NO_WAY) {
            l1->tags[slot] = l1->used[slot] = 0;
            out.found_copies = true;
        }
    }
    fill(l1, cu, line, own, L1_COPY_MODIFIED);
    return out;
}

void l1_copies_drop(l1_copies *l1, uint64_t line)
{
    if (l1->sets == 0)
        return;
    for (unsigned cu = 0; cu < l1->cu_count; cu++) {
        size_t slot = find(l1, cu, line);
        if (slot != NO_WAY)
            l1->tags[slot] = l1->used[slot] = 0;
    }
}
