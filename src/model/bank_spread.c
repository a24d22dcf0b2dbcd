/* bank_spread.c — the rounds of the CUs' in-flight line requests over the L2 banks (see
 * bank_spread.h). */
#include "model/bank_spread.h"

#include <stdlib.h>
#include <string.h>

void bank_spread_init(bank_spread *spread, unsigned cu_count, unsigned window_lines, unsigned banks)
{
    memset(spread, 0, sizeof *spread);
    spread->cu_count = cu_count;
    spread->window_lines = window_lines ? window_lines : 1;
    spread->banks = banks ? banks : 1;
    spread->taken = calloc(cu_count, sizeof *spread->taken);
}

void bank_spread_add(bank_spread *spread, unsigned cu, uint64_t line)
{
    size_t round = (size_t)(spread->taken[cu]++ / spread->window_lines);
    if (round >= spread->round_count) {
        size_t count = round + 1 > 2 * spread->round_count ? round + 1 : 2 * spread->round_count;
        uint32_t *grown = realloc(spread->on_bank, count * spread->banks * sizeof *grown);
        if (!grown)
            return;   /* out of memory: the line is not counted */
        memset(grown + spread->round_count * spread->banks, 0,
               (count - spread->round_count) * spread->banks * sizeof *grown);
        spread->on_bank = grown;
        spread->round_count = count;
    }
    spread->on_bank[round * spread->banks + line % spread->banks]++;
}

void bank_spread_end_launch(bank_spread *spread, double *pairs, double *pairs_same_bank)
{
    for (size_t r = 0; r < spread->round_count; r++) {
        const uint32_t *on_bank = spread->on_bank + r * spread->banks;
        double lines = 0;
        for (unsigned b = 0; b < spread->banks; b++) {
            lines += on_bank[b];
            *pairs_same_bank += (double)on_bank[b] * (on_bank[b] - 1.0);
        }
        *pairs += lines * (lines - 1.0);
    }
    free(spread->on_bank);
    spread->on_bank = NULL;
    spread->round_count = 0;
    memset(spread->taken, 0, spread->cu_count * sizeof *spread->taken);
}

void bank_spread_free(bank_spread *spread)
{
    free(spread->on_bank);
    free(spread->taken);
    memset(spread, 0, sizeof *spread);
}
