/* cache_array.c — the set-associative tag and data arrays of cache_array.h.
 *
 * Lines are stored set by set (the ways of set s are lines[s * ways ...]) and all their data
 * lives in one block allocated at create. A line is valid iff its state is nonzero and its
 * epoch is the array's: flash invalidation just advances the epoch. LRU is a use stamp taken
 * from a 64-bit counter that never wraps in practice. */
#include "timing/cache_array.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cache_array {
    cache_line *lines;          /* sets * ways, set-major */
    uint8_t *data;              /* line_bytes per line, one block */
    uint8_t *extensions;        /* extension_bytes per line, one block (NULL without) */
    unsigned extension_bytes;
    uint64_t sets;
    bool sets_power_of_two;     /* set index by mask rather than division */
    unsigned ways;
    unsigned line_bytes;
    unsigned line_shift;        /* log2(line_bytes) */
    uint32_t epoch;
    uint64_t use_clock;
};

static bool power_of_two(uint64_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

static bool geometry_possible(uint64_t size_bytes, unsigned associativity, unsigned line_bytes)
{
    if (!power_of_two(line_bytes) || line_bytes > TIMING_MAX_LINE_BYTES || associativity == 0)
        return false;
    uint64_t set_bytes = (uint64_t)associativity * line_bytes;
    return size_bytes % set_bytes == 0;
}

/* Allocates the line array and, unless the cache holds tags only, the data array, pointing every
 * line at its data. */
static bool allocate_lines(cache_array *cache, uint64_t size_bytes, bool with_data)
{
    size_t line_count = (size_t)(size_bytes / cache->line_bytes);
    if (line_count == 0)
        return true;
    cache->lines = calloc(line_count, sizeof *cache->lines);
    if (!cache->lines)
        return false;
    if (!with_data)
        return true;
    cache->data = calloc(line_count, cache->line_bytes);
    if (!cache->data)
        return false;
    for (size_t i = 0; i < line_count; i++)
        cache->lines[i].data = cache->data + i * cache->line_bytes;
    return true;
}

static cache_array *create(uint64_t size_bytes, unsigned associativity, unsigned line_bytes, bool with_data)
{
    if (!geometry_possible(size_bytes, associativity, line_bytes))
        return NULL;
    cache_array *cache = calloc(1, sizeof *cache);
    if (!cache)
        return NULL;
    cache->sets = size_bytes / ((uint64_t)associativity * line_bytes);
    cache->sets_power_of_two = power_of_two(cache->sets);
    cache->ways = associativity;
    cache->line_bytes = line_bytes;
    cache->line_shift = (unsigned)__builtin_ctz(line_bytes);
    if (!allocate_lines(cache, size_bytes, with_data)) {
        cache_array_destroy(cache);
        return NULL;
    }
    return cache;
}

cache_array *cache_array_create(uint64_t size_bytes, unsigned associativity, unsigned line_bytes)
{
    return create(size_bytes, associativity, line_bytes, true);
}

cache_array *cache_array_create_tags(uint64_t size_bytes, unsigned associativity, unsigned line_bytes)
{
    return create(size_bytes, associativity, line_bytes, false);
}

void cache_array_destroy(cache_array *cache)
{
    if (!cache)
        return;
    free(cache->lines);
    free(cache->data);
    free(cache->extensions);
    free(cache);
}

bool cache_array_extend(cache_array *cache, unsigned bytes)
{
    size_t line_count = (size_t)(cache->sets * cache->ways);
    if (bytes == 0 || line_count == 0)
        return true;
    cache->extensions = calloc(line_count, bytes);
    if (!cache->extensions)
        return false;
    cache->extension_bytes = bytes;
    for (size_t i = 0; i < line_count; i++)
        cache->lines[i].extension = cache->extensions + i * bytes;
    return true;
}

unsigned cache_array_line_bytes(const cache_array *cache)
{
    return cache->line_bytes;
}

uint64_t cache_array_line_address(const cache_array *cache, uint64_t address)
{
    return address & ~(uint64_t)(cache->line_bytes - 1);
}

/* The first way of the set `line_address` maps to (the array must have sets). */
static cache_line *set_of(const cache_array *cache, uint64_t line_address)
{
    uint64_t line_number = line_address >> cache->line_shift;
    uint64_t set = cache->sets_power_of_two ? line_number & (cache->sets - 1) : line_number % cache->sets;
    return &cache->lines[set * cache->ways];
}

static bool line_valid(const cache_array *cache, const cache_line *line)
{
    return line->state != 0 && line->epoch == cache->epoch;
}

cache_line *cache_array_lookup(cache_array *cache, uint64_t line_address)
{
    if (cache->sets == 0)
        return NULL;
    cache_line *set = set_of(cache, line_address);
    for (unsigned way = 0; way < cache->ways; way++)
        if (set[way].address == line_address && line_valid(cache, &set[way]))
            return &set[way];
    return NULL;
}

void cache_array_touch(cache_array *cache, cache_line *line)
{
    line->last_use = ++cache->use_clock;
}

/* A line left over from before a flash invalidation gets state 0 before the caller sees it,
 * so that `state != 0` tells the caller whether the victim needs evicting. */
cache_line *cache_array_victim(cache_array *cache, uint64_t line_address)
{
    if (cache->sets == 0)
        return NULL;
    cache_line *set = set_of(cache, line_address);
    cache_line *least_recent = &set[0];
    for (unsigned way = 0; way < cache->ways; way++) {
        if (!line_valid(cache, &set[way])) {
            set[way].state = 0;
            return &set[way];
        }
        if (set[way].last_use < least_recent->last_use)
            least_recent = &set[way];
    }
    return least_recent;
}

void cache_array_install(cache_array *cache, cache_line *line, uint64_t line_address, uint8_t state)
{
    line->address = line_address;
    line->state = state;
    line->epoch = cache->epoch;
    line->dirty = (byte_mask){{0, 0}};
    line->protocol_word = 0;
    if (cache->extension_bytes)
        memset(line->extension, 0, cache->extension_bytes);
    cache_array_touch(cache, line);
}

void cache_array_invalidate(cache_array *cache, cache_line *line)
{
    line->state = 0;
}

/* When the epoch wraps, lines installed 2^32 flashes ago would look valid again: clear them. */
void cache_array_flash_invalidate(cache_array *cache)
{
    if (++cache->epoch != 0)
        return;
    uint64_t line_count = cache->sets * cache->ways;
    for (uint64_t i = 0; i < line_count; i++)
        cache->lines[i].state = 0;
}

void cache_array_for_each(cache_array *cache, void (*visit)(void *context, cache_line *line), void *context)
{
    uint64_t line_count = cache->sets * cache->ways;
    for (uint64_t i = 0; i < line_count; i++)
        if (line_valid(cache, &cache->lines[i]))
            visit(context, &cache->lines[i]);
}
