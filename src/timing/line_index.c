/* line_index.c — the open-addressing line address map of line_index.h. */
#include "timing/line_index.h"

#include <stdlib.h>

/* The most keys an index holds: twice as many slots must still fit in 32 bits. */
#define LINE_INDEX_MAX_ENTRIES (1u << 30)

/* Line addresses share their low (offset) bits and are often consecutive, so the multiply
 * carries every address bit upward and the shift folds the well-mixed high half back down. */
static uint32_t home_slot(const line_index *index, uint64_t line_address)
{
    uint64_t hash = line_address * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(hash ^ (hash >> 32)) & index->slot_mask;
}

static uint32_t next_slot(const line_index *index, uint32_t slot)
{
    return (slot + 1) & index->slot_mask;
}

bool line_index_init(line_index *index, unsigned max_entries)
{
    if (max_entries > LINE_INDEX_MAX_ENTRIES)
        return false;
    uint32_t slot_count = 1;
    while (slot_count < 2 * max_entries)
        slot_count *= 2;
    index->slots = malloc(slot_count * sizeof *index->slots);
    if (!index->slots)
        return false;
    for (uint32_t slot = 0; slot < slot_count; slot++)
        index->slots[slot].entry = LINE_INDEX_NONE;
    index->slot_mask = slot_count - 1;
    return true;
}

void line_index_free(line_index *index)
{
    free(index->slots);
    index->slots = NULL;
}

/* The slot holding `line_address`, or the empty slot ending its probe sequence. */
static uint32_t probe(const line_index *index, uint64_t line_address)
{
    uint32_t slot = home_slot(index, line_address);
    while (index->slots[slot].entry != LINE_INDEX_NONE && index->slots[slot].line_address != line_address)
        slot = next_slot(index, slot);
    return slot;
}

uint32_t line_index_find(const line_index *index, uint64_t line_address)
{
    return index->slots[probe(index, line_address)].entry;
}

void line_index_insert(line_index *index, uint64_t line_address, uint32_t entry)
{
    index->slots[probe(index, line_address)] = (line_index_slot){.line_address = line_address, .entry = entry};
}

/* Backward-shift deletion: a later key of the cluster moves into the hole when the hole lies
 * between its home slot and its current slot, so every key stays reachable from its home. */
void line_index_remove(line_index *index, uint64_t line_address)
{
    uint32_t hole = probe(index, line_address);
    for (uint32_t slot = next_slot(index, hole); index->slots[slot].entry != LINE_INDEX_NONE;
         slot = next_slot(index, slot)) {
        uint32_t displacement = (slot - home_slot(index, index->slots[slot].line_address)) & index->slot_mask;
        uint32_t distance_to_hole = (slot - hole) & index->slot_mask;
        if (displacement >= distance_to_hole) {
            index->slots[hole] = index->slots[slot];
            hole = slot;
        }
    }
    index->slots[hole].entry = LINE_INDEX_NONE;
}
