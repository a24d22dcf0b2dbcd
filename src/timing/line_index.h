/* line_index.h — a fixed-capacity hash map from line addresses to entry numbers: how the MSHR
 * table and the store buffer find their entry for a line in constant expected time.
 *
 * Open addressing with linear probing in a power-of-two table at most half full. Removal
 * shifts the following keys back instead of leaving tombstones, so lookups never degrade
 * however long the index lives. Nothing is allocated after line_index_init. */
#ifndef SYNCSCOPE_TIMING_LINE_INDEX_H
#define SYNCSCOPE_TIMING_LINE_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#define LINE_INDEX_NONE UINT32_MAX

typedef struct line_index_slot {
    uint64_t line_address;
    uint32_t entry;          /* LINE_INDEX_NONE when the slot is empty */
} line_index_slot;

typedef struct line_index {
    line_index_slot *slots;
    uint32_t slot_mask;      /* slot count - 1 */
} line_index;

/* Room for `max_entries` keys. Returns false when out of memory or `max_entries` is absurd. */
bool line_index_init(line_index *index, unsigned max_entries);
void line_index_free(line_index *index);

/* The entry number stored for `line_address`, or LINE_INDEX_NONE. */
uint32_t line_index_find(const line_index *index, uint64_t line_address);

/* `line_address` must be absent and fewer than max_entries keys present. */
void line_index_insert(line_index *index, uint64_t line_address, uint32_t entry);

/* `line_address` must be present. */
void line_index_remove(line_index *index, uint64_t line_address);

#endif
