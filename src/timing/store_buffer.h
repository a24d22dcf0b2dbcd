/* store_buffer.h — a compute unit's write-combining store buffer (GSI, QuickRelease): stores
 * are buffered per line with a byte mask, later stores to a buffered line merge into its
 * entry, and the controller drains entries (oldest first) when the buffer is full, on a
 * release and at kernel end. Entries keep their allocation order. */
#ifndef SYNCSCOPE_TIMING_STORE_BUFFER_H
#define SYNCSCOPE_TIMING_STORE_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/byte_mask.h"

typedef struct store_buffer_entry {
    uint64_t line_address;
    byte_mask mask;
    uint8_t *data;           /* line_bytes bytes; only masked bytes are meaningful */
    uint64_t sequence;       /* allocation order */
} store_buffer_entry;

typedef struct store_buffer store_buffer;

/* `entries` may be 0: the buffer then never accepts a write. */
store_buffer *store_buffer_create(unsigned entries, unsigned line_bytes);
void store_buffer_destroy(store_buffer *buffer);

/* Merges `count` bytes at `offset` of line `line_address` into its entry, allocating one if
 * the line has none. Returns the entry, or NULL when a new entry is needed and none is free. */
store_buffer_entry *store_buffer_write(store_buffer *buffer, uint64_t line_address, unsigned offset,
                                       const uint8_t *bytes, unsigned count);

/* Merges the bytes of a line that `mask` marks into its entry, allocating one if the line has none
 * (the lower write caches take whole masked blocks). Returns the entry, or NULL when a new entry is
 * needed and none is free. */
store_buffer_entry *store_buffer_merge(store_buffer *buffer, uint64_t line_address, const uint8_t *data,
                                       const byte_mask *mask);

store_buffer_entry *store_buffer_find(store_buffer *buffer, uint64_t line_address);

/* The oldest entry, or NULL when empty. */
store_buffer_entry *store_buffer_oldest(store_buffer *buffer);

void store_buffer_remove(store_buffer *buffer, store_buffer_entry *entry);

unsigned store_buffer_count(const store_buffer *buffer);
bool store_buffer_full(const store_buffer *buffer);

#endif
