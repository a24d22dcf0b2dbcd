/* burst_rounds.c — the rounds of a launch's barrier bursts and their peak bank loads (see
 * burst_rounds.h). */
#include "model/burst_rounds.h"

#include <stdlib.h>
#include <string.h>

static void append(line_list *list, uint64_t line)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 32;
        list->lines = realloc(list->lines, list->capacity * sizeof *list->lines);
    }
    list->lines[list->count++] = line;
}

void burst_rounds_begin(burst_rounds *rounds, size_t cta_count)
{
    memset(rounds, 0, sizeof *rounds);
    rounds->cta_count = cta_count;
    rounds->open = calloc(cta_count, sizeof *rounds->open);
    rounds->closed = calloc(cta_count, sizeof *rounds->closed);
}

void burst_rounds_add(burst_rounds *rounds, size_t cta, uint64_t line_index)
{
    append(&rounds->open[cta], line_index);
}

size_t burst_rounds_close(burst_rounds *rounds, size_t cta)
{
    line_list *open = &rounds->open[cta];
    size_t lines = open->count;
    if (lines == 0)
        return 0;
    size_t round = rounds->closed[cta]++;
    if (round >= rounds->round_count) {
        rounds->rounds = realloc(rounds->rounds, (round + 1) * sizeof *rounds->rounds);
        memset(rounds->rounds + rounds->round_count, 0, (round + 1 - rounds->round_count) * sizeof *rounds->rounds);
        rounds->round_count = round + 1;
    }
    for (size_t i = 0; i < lines; i++)
        append(&rounds->rounds[round], open->lines[i]);
    open->count = 0;
    return lines;
}

void burst_rounds_end(burst_rounds *rounds, double peak_lines[BURST_BANK_COUNTS])
{
    for (size_t r = 0; r < rounds->round_count; r++) {
        const line_list *round = &rounds->rounds[r];
        for (unsigned banks = 1; banks <= BURST_BANK_COUNTS; banks++) {
            unsigned on_bank[BURST_BANK_COUNTS] = {0}, peak = 0;
            for (size_t i = 0; i < round->count; i++) {
                unsigned *count = &on_bank[round->lines[i] % banks];
                if (++*count > peak)
                    peak = *count;
            }
            peak_lines[banks - 1] += peak;
        }
        free(round->lines);
    }
    for (size_t c = 0; c < rounds->cta_count; c++)
        free(rounds->open[c].lines);
    free(rounds->open);
    free(rounds->closed);
    free(rounds->rounds);
    memset(rounds, 0, sizeof *rounds);
}
