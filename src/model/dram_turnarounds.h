/* dram_turnarounds.h — the DRAM stream's read/write turnarounds as the channels' schedulers make
 * them, replayed over the profiler's order of the lines reaching DRAM.
 *
 * The detailed FR-FCFS channel (timing/dram_channel.c) gives each bank one target, its oldest
 * queued request hitting the open row or else its oldest, and stays with the kind (read or write)
 * it serves while some bank's target is of that kind: a turnaround comes only when every bank's
 * target is of the other kind. Where reads and writes interleave at random within the stream that
 * is every banks / w lines (dram_rows.h); where each row holds one kind (a streaming kernel's
 * arrays, a sort's phases) a bank's target changes kind only when the bank changes row, and the
 * runs are far longer.
 *
 * The channel plans the command legal first: a target missing its row waits for a precharge and
 * an activation (tRP + tRCD), longer than a turnaround, so where no target of the kind it serves
 * hits its row, a row hit of the other kind goes first. The replay gives each channel the queue the
 * configuration gives it (dram.request_queue) and keeps it full, as a channel that binds has it:
 * each line arriving at a full queue first lets the channel serve one request, the oldest
 * row-hitting target of the kind it served last, else the oldest row-hitting target of the other
 * kind (a turnaround), else the oldest missing target of its kind, else of the other. A launch's
 * end drains the queues. The lines are the cold reads and every store or
 * atomic line request, in the profiler's order: the DRAM stream of an L2 that writes through. An
 * L2 that writes back sends its dirty victims, the same lines' rows later; the replay's count is
 * taken relative to the random interleaving's count of the same stream (profile.h:
 * dram_replayed_turnarounds, dram_interleaved_turnarounds), and that share of the random count
 * applies to the stream the model's demand sends (dram_rows.h: dram_channel_line_cycles).
 */
#ifndef SYNCSCOPE_MODEL_DRAM_TURNAROUNDS_H
#define SYNCSCOPE_MODEL_DRAM_TURNAROUNDS_H

#include <stdbool.h>

#include "timing/dram.h"

typedef struct dram_turnaround_queue dram_turnaround_queue;

/* Every channel's queue, with the launch's counts so far. */
typedef struct dram_turnaround_replay {
    dram_config mapping;                /* channels, banks, rows and queue entries per channel */
    dram_turnaround_queue *channels;    /* NULL: nothing replayed */
    double switches;                    /* the launch's changes of kind, every channel */
} dram_turnaround_replay;

/* Every queue empty on the DRAM mapping and queues of `mapping` (dram_row_buffers' mapping). */
int dram_turnaround_replay_init(dram_turnaround_replay *replay, const dram_config *mapping);
void dram_turnaround_replay_free(dram_turnaround_replay *replay);

/* A line reaching DRAM, a write or a read. */
void dram_turnaround_replay_add(dram_turnaround_replay *replay, uint64_t line, bool is_write);

/* The launch's end: drains every queue and adds the launch's turnaround pairs to `replayed` and
 * the random interleaving's pairs for the same lines to `interleaved` (each channel's lines n of
 * which a share w are writes: n w (1 - w) / banks). */
void dram_turnaround_replay_end_launch(dram_turnaround_replay *replay, double *replayed, double *interleaved);

#endif
