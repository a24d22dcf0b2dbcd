/* inflight_banks.h — how the line requests the CUs have in flight together spread over the banks
 * of a banked level below the L1 (the L2 banks, the memory side's L3 banks).
 *
 * CUs started together on the same code ask for the same offsets of their lines at the same time,
 * and a CU holds at most l1.mshrs line requests beyond its L1 at once. As the level's queues
 * return those one by one, each returned line frees an MSHR for the CU's next request, so the
 * lines a CU has in flight are a window of l1.mshrs consecutive requests of its own sequence,
 * sliding along it, and every CU's window is at the same position of its sequence (the CUs in
 * step). Where those lines map (line index mod B: timing/memory_system.c's L2 banks,
 * timing/memory_side.c's L3 banks) decides how many banks carry them: vecadd's CTAs of 16 lines
 * start 16 lines apart and each warp asks for 4 of them, so the GPU's windows fall on 16 of 64
 * L2 banks and 4 of 16 L3 banks, and sliding half into the next warp's banks on average. A bank
 * works while it holds a line in flight, however many: each answer frees an MSHR for the CU's
 * next request, so the lines on a bank holding more wait there while the others' banks go on
 * (gtx480's vecadd: 480 lines in flight on 6 L2 banks, unevenly, yet all 6 bank ports busy 87%
 * of the run, 5.92 on average while any is, docs/calibration.md session 30). For every window
 * position of a launch this adds, for each bank count asked, the banks that hold at least one
 * line in flight: over the positions, the banks that carry them (the profile's
 * inflight_positions and inflight_*_banks_held). */
#ifndef SYNCSCOPE_MODEL_INFLIGHT_BANKS_H
#define SYNCSCOPE_MODEL_INFLIGHT_BANKS_H

#include <stddef.h>
#include <stdint.h>

enum { INFLIGHT_BANK_LEVELS = 2 };

typedef struct line_sequence {
    uint64_t *lines;
    size_t count, capacity;
} line_sequence;

typedef struct inflight_banks {
    unsigned cu_count, window;
    unsigned banks[INFLIGHT_BANK_LEVELS];   /* the bank count of each level */
    line_sequence *of_cu;                   /* per CU: the launch's line requests beyond its L1 */
    uint32_t *on_bank[INFLIGHT_BANK_LEVELS];   /* per level, per bank: lines in flight there (the sweep's) */
    unsigned held[INFLIGHT_BANK_LEVELS];       /* per level: banks holding a line in flight (the sweep's) */
} inflight_banks;

/* `window`: l1.mshrs; `banks`: each level's bank count (0 taken as 1). 0, or -1 out of memory. */
int inflight_banks_init(inflight_banks *spread, unsigned cu_count, unsigned window,
                        const unsigned banks[INFLIGHT_BANK_LEVELS]);
/* CU `cu` sends the line request for line index `line` beyond its L1. */
void inflight_banks_add(inflight_banks *spread, unsigned cu, uint64_t line);
/* The launch ends: adds its window positions to *positions and over them the banks of each level
 * that hold at least one line in flight to banks_held[level], and starts the next launch afresh. */
void inflight_banks_end_launch(inflight_banks *spread, double *positions, double banks_held[INFLIGHT_BANK_LEVELS]);
void inflight_banks_free(inflight_banks *spread);

#endif
