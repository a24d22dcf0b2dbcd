/* bank_spread.h — how the line requests the CUs have in flight together spread over the L2 banks.
 *
 * CUs started together on the same code present their misses in step: each CU's r-th window of
 * l1.mshrs line requests beyond its L1 (the lines its MSHRs hold at once) is in flight GPU-wide
 * with every other CU's r-th window (its round r), as the rounds of barrier bursts are
 * (burst_rounds.h). Where those lines map (line index mod B, timing/memory_system.c) decides how
 * many banks share the round: vecadd's CTAs of 16 lines each start 16 banks apart on 64 banks,
 * and every CU's warps ask for the same line offsets at the same time, so a round of its loads
 * falls on 16 of the 64 banks. For one bank count B, this adds over the rounds of every launch
 * the pairs of distinct lines of a round and those pairs on the same bank: their ratio is the
 * chance that two lines in flight together share a bank, 1 / B for lines spread at random, and
 * its reciprocal the banks a round's lines use (the profile's round_pairs, round_pairs_same_bank). */
#ifndef SYNCSCOPE_MODEL_BANK_SPREAD_H
#define SYNCSCOPE_MODEL_BANK_SPREAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct bank_spread {
    unsigned cu_count, window_lines, banks;
    uint64_t *taken;        /* per CU: line requests in the launch so far */
    uint32_t *on_bank;      /* per round, per bank: the round's lines there */
    size_t round_count;
} bank_spread;

void bank_spread_init(bank_spread *spread, unsigned cu_count, unsigned window_lines, unsigned banks);
/* CU `cu` sends the line request for line index `line` beyond its L1. */
void bank_spread_add(bank_spread *spread, unsigned cu, uint64_t line);
/* The launch ends: adds its rounds' pairs and same-bank pairs, and starts the next launch afresh. */
void bank_spread_end_launch(bank_spread *spread, double *pairs, double *pairs_same_bank);
void bank_spread_free(bank_spread *spread);

#endif
