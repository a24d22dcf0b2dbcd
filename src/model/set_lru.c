/* set_lru.c — the tags of one set-associative LRU cache (set_lru.h). */
#include "model/set_lru.h"

#include <stdlib.h>

int set_lru_init(set_lru *cache, uint64_t lines, unsigned associativity)
{
    cache->associativity = associativity;
    cache->sets = associativity > 0 ? lines / associativity : 0;
    cache->use_clock = 0;
    cache->ways = NULL;
    if (cache->sets == 0)
        return 0;
    cache->ways = calloc(cache->sets * associativity, sizeof *cache->ways);
    return cache->ways ? 0 : -1;
}

void set_lru_free(set_lru *cache)
{
    free(cache->ways);
    cache->ways = NULL;
    cache->sets = 0;
}

static set_lru_way *set_of(const set_lru *cache, uint64_t line)
{
    return &cache->ways[(line % cache->sets) * cache->associativity];
}

static bool way_valid(const set_lru_way *way, uint32_t epoch)
{
    return way->line_plus_one != 0 && way->epoch == epoch;
}

bool set_lru_lookup(set_lru *cache, uint64_t line, uint32_t epoch)
{
    if (cache->sets == 0)
        return false;
    set_lru_way *set = set_of(cache, line);
    for (unsigned w = 0; w < cache->associativity; w++)
        if (way_valid(&set[w], epoch) && set[w].line_plus_one == line + 1) {
            set[w].last_use = ++cache->use_clock;
            return true;
        }
    return false;
}

void set_lru_fill(set_lru *cache, uint64_t line, uint32_t epoch)
{
    if (cache->sets == 0)
        return;
    set_lru_way *set = set_of(cache, line), *victim = &set[0];
    for (unsigned w = 0; w < cache->associativity; w++) {
        if (!way_valid(&set[w], epoch)) {
            victim = &set[w];
            break;
        }
        if (set[w].last_use < victim->last_use)
            victim = &set[w];
    }
    *victim = (set_lru_way){.line_plus_one = line + 1, .last_use = ++cache->use_clock, .epoch = epoch};
}

void set_lru_invalidate(set_lru *cache, uint64_t line)
{
    if (cache->sets == 0)
        return;
    set_lru_way *set = set_of(cache, line);
    for (unsigned w = 0; w < cache->associativity; w++)
        if (set[w].line_plus_one == line + 1)
            set[w].line_plus_one = 0;
}
