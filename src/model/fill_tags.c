/* fill_tags.c — one CU's L1 tags filled when each miss's data returns (fill_tags.h). */
#include "model/fill_tags.h"

#include <stdlib.h>
#include <string.h>

int fill_tags_init(fill_tags *cache, uint64_t lines, unsigned associativity, unsigned mshrs)
{
    cache->pending_count = 0;
    cache->pending_capacity = mshrs > 0 ? mshrs : 1;
    cache->pending = calloc(cache->pending_capacity, sizeof *cache->pending);
    if (set_lru_init(&cache->tags, lines, associativity) < 0 || !cache->pending) {
        fill_tags_free(cache);
        return -1;
    }
    return 0;
}

void fill_tags_free(fill_tags *cache)
{
    set_lru_free(&cache->tags);
    free(cache->pending);
    cache->pending = NULL;
    cache->pending_count = cache->pending_capacity = 0;
}

/* The `count` earliest fills return: each installs its line unless an atomic dropped it or an
 * acquire came after its miss (`epoch` is the CU's now). */
static void install_earliest(fill_tags *cache, unsigned count, uint32_t epoch)
{
    if (count == 0)
        return;
    for (unsigned f = 0; f < count; f++) {
        const pending_fill *fill = &cache->pending[f];
        if (!fill->dropped && fill->epoch == epoch)
            set_lru_fill(&cache->tags, fill->line, fill->epoch);
    }
    cache->pending_count -= count;
    memmove(cache->pending, cache->pending + count, cache->pending_count * sizeof *cache->pending);
}

fill_tags_outcome fill_tags_load(fill_tags *cache, uint64_t line, uint32_t epoch, uint64_t now, uint64_t *fill_at)
{
    unsigned due = 0;
    while (due < cache->pending_count && cache->pending[due].fill_at <= now)
        due++;
    install_earliest(cache, due, epoch);
    if (set_lru_lookup(&cache->tags, line, epoch))
        return FILL_TAGS_HIT;
    for (unsigned f = 0; f < cache->pending_count; f++) {
        const pending_fill *fill = &cache->pending[f];
        if (fill->line == line && fill->epoch == epoch && !fill->dropped) {
            *fill_at = fill->fill_at;
            return FILL_TAGS_MERGE;
        }
    }
    return FILL_TAGS_MISS;
}

void fill_tags_miss(fill_tags *cache, uint64_t line, uint32_t epoch, uint64_t fill_at)
{
    if (!cache->pending)
        return;   /* out of memory at init: no tags, every load misses */
    /* Every MSHR holds a miss: the one this miss took has freed, so the earliest fill returned. */
    if (cache->pending_count == cache->pending_capacity)
        install_earliest(cache, 1, epoch);
    unsigned at = cache->pending_count;
    while (at > 0 && cache->pending[at - 1].fill_at > fill_at)
        at--;
    memmove(cache->pending + at + 1, cache->pending + at, (cache->pending_count - at) * sizeof *cache->pending);
    cache->pending[at] = (pending_fill){.line = line, .fill_at = fill_at, .epoch = epoch};
    cache->pending_count++;
}

void fill_tags_invalidate(fill_tags *cache, uint64_t line)
{
    set_lru_invalidate(&cache->tags, line);
    for (unsigned f = 0; f < cache->pending_count; f++)
        if (cache->pending[f].line == line)
            cache->pending[f].dropped = true;
}

void fill_tags_settle(fill_tags *cache, uint32_t epoch)
{
    install_earliest(cache, cache->pending_count, epoch);
}

void fill_tags_new_launch(fill_tags *cache)
{
    cache->pending_count = 0;
}
