/* burst_rounds.h — where a launch's barrier-synchronised bursts land among the L2 banks.
 *
 * CTAs started together on the same code burst together: the k-th burst every CTA closes (its
 * round k) is in flight GPU-wide at about the same time, so its lines queue at the L2 banks they
 * map to (line index mod B, timing/memory_system.c). A round's lines on its most loaded bank
 * are what its drain waits for: matmul's 96-float rows are 3 lines apart, so a tile's 16 rows
 * fall on 2 of 6 banks. For every bank count B = 1..BURST_BANK_COUNTS this adds, over the
 * rounds of each launch, the lines of the round's most loaded bank (the profile's
 * burst_bank_peak_lines). */
#ifndef SYNCSCOPE_MODEL_BURST_ROUNDS_H
#define SYNCSCOPE_MODEL_BURST_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#define BURST_BANK_COUNTS 32

typedef struct line_list {
    uint64_t *lines;
    size_t count, capacity;
} line_list;

typedef struct burst_rounds {
    line_list *open;        /* per CTA: the read lines of its burst in progress */
    unsigned *closed;       /* per CTA: bursts closed so far (the next one's round) */
    line_list *rounds;      /* per round: the read lines of every CTA's burst of that round */
    size_t round_count, cta_count;
} burst_rounds;

void burst_rounds_begin(burst_rounds *rounds, size_t cta_count);
void burst_rounds_add(burst_rounds *rounds, size_t cta, uint64_t line_index);
/* The CTA's burst in progress closes (a barrier): with read lines it joins its round. Returns
 * its read lines (0: no burst). */
size_t burst_rounds_close(burst_rounds *rounds, size_t cta);
/* Adds each round's most loaded bank's lines to peak_lines[B - 1] for B = 1..BURST_BANK_COUNTS and
 * frees the launch's lines (bursts still open never closed: they are no burst). */
void burst_rounds_end(burst_rounds *rounds, double peak_lines[BURST_BANK_COUNTS]);

#endif
