/* cache_array.h — the tag and data arrays of a set-associative cache with LRU replacement.
 *
 * Lines hold their data (value-accurate caches: a stale copy returns stale data). The array
 * knows nothing of coherence: `state` is the protocol's state number (0 is always Invalid) and
 * `dirty` is the protocol's byte mask. A zero-byte array has no lines: lookups miss and
 * cache_array_victim returns NULL. Flash invalidation (a GPU L1 self-invalidating on acquire)
 * is O(1): it bumps an epoch that every line compares against.
 */
#ifndef SYNCSCOPE_TIMING_CACHE_ARRAY_H
#define SYNCSCOPE_TIMING_CACHE_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/byte_mask.h"

typedef struct cache_line {
    uint64_t address;       /* line address (line-aligned); meaningful while valid */
    uint8_t state;          /* protocol state, 0 = invalid */
    uint32_t epoch;         /* the array's epoch when installed (flash invalidation) */
    uint64_t last_use;      /* LRU stamp */
    byte_mask dirty;        /* protocol-defined */
    uint64_t protocol_word; /* protocol-defined extension (a lease, a timestamp, per-word bits);
                               0 when installed */
    uint8_t *data;          /* line_bytes bytes (NULL in a tags-only array) */
    uint8_t *extension;     /* the protocol's own bytes (cache_array_extend), zeroed when installed;
                               NULL in an array without them */
} cache_line;

typedef struct cache_array cache_array;

/* `size_bytes` must be a multiple of associativity * line_bytes (0 allowed); line_bytes is a
 * power of two <= TIMING_MAX_LINE_BYTES. Returns NULL if the geometry is impossible. */
cache_array *cache_array_create(uint64_t size_bytes, unsigned associativity, unsigned line_bytes);
/* The same for a cache that holds tags and states only (its lines' `data` is NULL): a model of a
 * cache whose values the caller keeps elsewhere. */
cache_array *cache_array_create_tags(uint64_t size_bytes, unsigned associativity, unsigned line_bytes);
void cache_array_destroy(cache_array *cache);
/* Gives every line `bytes` bytes of protocol state beyond its protocol word (per-word states,
 * owners...), reached through line->extension and zeroed at every install. 0 bytes: none. Returns
 * false when out of memory. */
bool cache_array_extend(cache_array *cache, unsigned bytes);

unsigned cache_array_line_bytes(const cache_array *cache);
uint64_t cache_array_line_address(const cache_array *cache, uint64_t address);

/* The valid line holding `line_address`, or NULL. Does not change LRU order. */
cache_line *cache_array_lookup(cache_array *cache, uint64_t line_address);

/* Marks the line most recently used. */
void cache_array_touch(cache_array *cache, cache_line *line);

/* The line `line_address` would replace: an invalid way of its set if any, else the least
 * recently used. The caller evicts it (if valid) and then installs. NULL for a zero-size array. */
cache_line *cache_array_victim(cache_array *cache, uint64_t line_address);

/* Makes `line` hold `line_address` in `state` (dirty mask, protocol word and extension cleared,
 * most recently used). The caller fills line->data. */
void cache_array_install(cache_array *cache, cache_line *line, uint64_t line_address, uint8_t state);

void cache_array_invalidate(cache_array *cache, cache_line *line);

/* Invalidates every line at once. */
void cache_array_flash_invalidate(cache_array *cache);

/* Calls `visit` for every valid line (order unspecified); `visit` may invalidate the line. */
void cache_array_for_each(cache_array *cache, void (*visit)(void *context, cache_line *line), void *context);

#endif
