/* coalescer.c — the warp access coalescer of coalescer.h.
 *
 * One pass over the active lanes. Consecutive lanes usually hit the same line, so each lane is
 * first compared with the previous lane's line; otherwise a small open-addressing table on the
 * stack, built per call, finds the line among those already seen. */
#include "timing/coalescer.h"

#include <stddef.h>

/* 128 slots for at most 64 lines: short probes and always an empty slot to end them. */
#define LINE_TABLE_SLOTS 128
#define LINE_TABLE_HASH_SHIFT 57            /* 64 - log2(LINE_TABLE_SLOTS) */

/* Slot values are an index into the output plus one; 0 is empty. */
typedef struct line_table {
    uint8_t slots[LINE_TABLE_SLOTS];
} line_table;

/* Fibonacci hashing: the top bits of the product depend on every address bit. */
static unsigned home_slot(uint64_t line_address)
{
    return (unsigned)((line_address * 0x9e3779b97f4a7c15ull) >> LINE_TABLE_HASH_SHIFT);
}

/* The output line for `line_address`, appended (no bytes, no lanes) if not yet seen. */
static coalesced_line *find_or_add_line(line_table *table, coalesced_line *out, unsigned *count,
                                        uint64_t line_address)
{
    unsigned slot = home_slot(line_address);
    for (; table->slots[slot] != 0; slot = (slot + 1) % LINE_TABLE_SLOTS) {
        coalesced_line *line = &out[table->slots[slot] - 1];
        if (line->line_address == line_address)
            return line;
    }
    coalesced_line *line = &out[*count];
    *line = (coalesced_line){.line_address = line_address};
    table->slots[slot] = (uint8_t)++*count;
    return line;
}

unsigned coalesce_lines(const uint64_t *addresses, uint64_t lane_mask, unsigned access_bytes,
                        unsigned line_bytes, coalesced_line *out)
{
    line_table table = {{0}};
    unsigned count = 0;
    uint64_t offset_mask = line_bytes - 1;
    coalesced_line *line = NULL;
    for (uint64_t remaining = lane_mask; remaining; remaining &= remaining - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(remaining);
        uint64_t address = addresses[lane];
        uint64_t line_address = address & ~offset_mask;
        if (!line || line->line_address != line_address)
            line = find_or_add_line(&table, out, &count, line_address);
        byte_mask_set_range(&line->bytes, (unsigned)(address & offset_mask), access_bytes);
        line->lanes |= 1ull << lane;
    }
    return count;
}
