/* deadlock.h — the deadlock detector both engines share (functional_engine.c, and the timing
 * engine in timing/).
 *
 * Forward progress is a register write that changes a value (an ALU or move result, the value a
 * load or atomic returns: exec_cta.value_changes) or a warp exiting. A warp spins when every
 * instruction it issues leaves every register as it was: a loop re-loading a flag whose value
 * does not change, or retrying a compare-and-swap that keeps failing, with no counter of its
 * own. (A loop that counts its iterations changes a register each time, so it is never taken
 * for a spin: the detector can miss a livelock, never stop a run that advances.) When no warp of
 * the GPU has made progress for a whole window — EXEC_DEADLOCK_WINDOW_CYCLES cycles of the
 * detailed model, EXEC_DEADLOCK_WINDOW_INSTRUCTIONS warp instructions of the functional engine —
 * the run stops with an error naming the instructions the warps spin on (sampled at every check
 * of the window's second half, so the whole loop is named, not one phase of it). The windows are far
 * above any wait a correct run sees between two changes (a DRAM access, a lease, a drain of the
 * write buffers take thousands of cycles, not millions) and far below the watchdogs
 * (sim.max_cycles, the functional instruction budget), so a deadlocked kernel stops within
 * seconds. */
#ifndef SYNCSCOPE_EXEC_DEADLOCK_H
#define SYNCSCOPE_EXEC_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/warp.h"

#define EXEC_DEADLOCK_WINDOW_CYCLES (UINT64_C(1) << 22)
#define EXEC_DEADLOCK_WINDOW_INSTRUCTIONS (UINT64_C(1) << 24)

/* The distinct instructions live warps were about to issue while nothing progressed (the spin
 * loop's), up to eight, in line order. */
typedef struct exec_spin_lines {
    int lines[8];
    uint16_t opcodes[8];
    int count;
} exec_spin_lines;

/* The progress seen so far: a signature (value changes plus warps exited, summed over the GPU),
 * when (cycle or instruction count) it last changed, and the spin loop's instructions seen
 * since. */
typedef struct exec_progress_watch {
    uint64_t signature;
    uint64_t since;
    exec_spin_lines lines;
} exec_progress_watch;

typedef enum exec_progress {
    EXEC_PROGRESSING,    /* changed, or unchanged for less than half the window */
    EXEC_SPIN_SUSPECTED, /* unchanged for half the window: add the warps' next instructions */
    EXEC_DEADLOCKED,     /* unchanged for the whole window: add them, then fail */
} exec_progress;

/* Records the signature observed at `now` against `window`. */
exec_progress exec_progress_observe(exec_progress_watch *watch, uint64_t signature, uint64_t now, uint64_t window);

/* Adds the instruction a live warp is about to issue to the watch's spin lines. */
void exec_progress_add_warp(exec_progress_watch *watch, const exec_warp *warp);

/* "kernel K: deadlock: no warp ... in WINDOW; the warps spin at PATH lines L (opcode), ..." into
 * `error`; returns -1. */
int exec_deadlock_fail(const exec_progress_watch *watch, const exec_warp *any_warp, const char *window_text,
                       sc_error *error);

#endif
