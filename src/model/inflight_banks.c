/* inflight_banks.c — the CUs' sliding windows of in-flight line requests over the banks of the
 * levels below the L1 (see inflight_banks.h). */
#include "model/inflight_banks.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int inflight_banks_init(inflight_banks *spread, unsigned cu_count, unsigned window,
                        const unsigned banks[INFLIGHT_BANK_LEVELS])
{
    memset(spread, 0, sizeof *spread);
    spread->cu_count = cu_count;
    spread->window = window ? window : 1;
    spread->of_cu = calloc(cu_count, sizeof *spread->of_cu);
    bool ok = spread->of_cu != NULL;
    for (int level = 0; level < INFLIGHT_BANK_LEVELS; level++) {
        spread->banks[level] = banks[level] ? banks[level] : 1;
        spread->on_bank[level] = calloc(spread->banks[level], sizeof *spread->on_bank[level]);
        ok = ok && spread->on_bank[level] != NULL;
    }
    if (ok)
        return 0;
    inflight_banks_free(spread);
    return -1;
}

void inflight_banks_add(inflight_banks *spread, unsigned cu, uint64_t line)
{
    if (!spread->of_cu)
        return;   /* out of memory at init: nothing is counted */
    line_sequence *sequence = &spread->of_cu[cu];
    if (sequence->count == sequence->capacity) {
        size_t capacity = sequence->capacity ? 2 * sequence->capacity : 64;
        uint64_t *grown = realloc(sequence->lines, capacity * sizeof *grown);
        if (!grown)
            return;   /* out of memory: the line is not counted */
        sequence->lines = grown;
        sequence->capacity = capacity;
    }
    sequence->lines[sequence->count++] = line;
}

/* A line enters (step +1) or leaves (-1) the lines in flight: each level's bank holds one more or
 * one fewer, and is held while it holds any. */
static void move_line(inflight_banks *spread, uint64_t line, int step)
{
    for (int level = 0; level < INFLIGHT_BANK_LEVELS; level++) {
        uint32_t *on_bank = &spread->on_bank[level][line % spread->banks[level]];
        if (step > 0 && (*on_bank)++ == 0)
            spread->held[level]++;
        if (step < 0 && --*on_bank == 0)
            spread->held[level]--;
    }
}

void inflight_banks_end_launch(inflight_banks *spread, double *positions, double banks_held[INFLIGHT_BANK_LEVELS])
{
    if (!spread->of_cu)
        return;
    size_t longest = 0;
    for (unsigned cu = 0; cu < spread->cu_count; cu++)
        longest = spread->of_cu[cu].count > longest ? spread->of_cu[cu].count : longest;
    for (unsigned cu = 0; cu < spread->cu_count; cu++)
        for (size_t i = 0; i < spread->of_cu[cu].count && i < spread->window; i++)
            move_line(spread, spread->of_cu[cu].lines[i], +1);
    /* Window positions 0 .. longest - window (one position when no CU fills a window). */
    size_t last = longest > spread->window ? longest - spread->window : 0;
    for (size_t position = 0; position <= last && longest > 0; position++) {
        *positions += 1;
        for (int level = 0; level < INFLIGHT_BANK_LEVELS; level++)
            banks_held[level] += spread->held[level];
        for (unsigned cu = 0; cu < spread->cu_count; cu++) {
            const line_sequence *sequence = &spread->of_cu[cu];
            if (position < sequence->count)
                move_line(spread, sequence->lines[position], -1);
            if (position + spread->window < sequence->count)
                move_line(spread, sequence->lines[position + spread->window], +1);
        }
    }
    for (unsigned cu = 0; cu < spread->cu_count; cu++)
        spread->of_cu[cu].count = 0;
    for (int level = 0; level < INFLIGHT_BANK_LEVELS; level++) {
        memset(spread->on_bank[level], 0, spread->banks[level] * sizeof *spread->on_bank[level]);
        spread->held[level] = 0;
    }
}

void inflight_banks_free(inflight_banks *spread)
{
    if (spread->of_cu)
        for (unsigned cu = 0; cu < spread->cu_count; cu++)
            free(spread->of_cu[cu].lines);
    free(spread->of_cu);
    for (int level = 0; level < INFLIGHT_BANK_LEVELS; level++)
        free(spread->on_bank[level]);
    memset(spread, 0, sizeof *spread);
}
