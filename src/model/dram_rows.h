/* dram_rows.h — the DRAM stream's row locality and read/write mix, and what they cost a channel.
 *
 * The profiler replays the lines that reach DRAM cold (the L2 requests its GPU-wide stack finds
 * cold: first touches and accesses after a host write) through one open row per bank, mapped as
 * the detailed channels map addresses (timing/dram.h: dram_location_of), in the order it presents
 * them, and counts those that find their row open (profile.h: dram_stream_row_hits of
 * dram_stream_lines). The detailed FR-FCFS scheduler reorders within its queues, which can only
 * add hits; the replay does not.
 *
 * A channel's time per line. A row hit holds the data bus for its burst (model_point:
 * dram_line_cycles). A row miss needs an activate: a bank activates once per tRC, the channel
 * once per tRRD and four times per tFAW, and the other banks' bursts go on meanwhile (measured:
 * docs/calibration.md, session 27), so a channel serving a stream with row-hit share h takes
 *     max(burst, (1 - h) x max(tRRD, tFAW / 4, tRC / banks)) / (1 - tRFC / tREFI)
 * a line, the last factor the all-bank refreshes' share of its time.
 *
 * Read/write turnarounds. A read's column command waits tCDLR after the last write's data, and its
 * data comes tCL later, so the bus idles tCDLR + tCL after a write before a read; a write's
 * command waits tRTW after the last read's command, its data tWL later, so the bus idles
 * max(0, tRTW + tWL - tCL - burst) after a read before a write (timing/dram_channel.c: read_ready,
 * write_ready). The scheduler chooses among one target per bank, and the turnaround makes the
 * other kind's commands later, so it stays with the kind it serves while a bank's target is of
 * that kind: a run of reads ends when every bank's target is a write. In a stream whose lines are
 * writes with probability w, a run of reads drains the banks' targets, one in w of the lines that
 * replace them a write, so it lasts banks / w lines, a run of writes banks / (1 - w): a pair of
 * turnarounds every banks / (w (1 - w)) lines. Where the stream's rows each hold one kind a bank's
 * target keeps its kind while the bank stays on its row, and the runs are longer; where a bank's
 * target misses its row the other kind's row hits go first, and they are shorter: the profiler
 * replays the schedulers over its order of the lines (dram_turnarounds.h), and the replay's pairs
 * over the random interleaving's for the same lines, s, scale the count. The bus
 * time a line holds is its burst plus
 *     s w (1 - w) / banks x (tCDLR + tCL + max(0, tRTW + tWL - tCL - burst)).
 */
#ifndef SYNCSCOPE_MODEL_DRAM_ROWS_H
#define SYNCSCOPE_MODEL_DRAM_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "timing/dram.h"

/* One open row per bank of every channel, as the replay finds them. */
typedef struct dram_row_buffers {
    dram_config mapping;
    uint64_t *open_row_plus_one;        /* per (channel, bank); 0: closed */
} dram_row_buffers;

/* The configuration's DRAM mapping (dram.channels, dram.banks_per_channel, dram.row_size,
 * l1.line_size); every row closed. */
int dram_row_buffers_init(dram_row_buffers *buffers, const sc_config *config, sc_error *error);
void dram_row_buffers_free(dram_row_buffers *buffers);

/* A cold line request reaching DRAM: whether its row was open; its row is open after it. */
bool dram_row_buffers_access(dram_row_buffers *buffers, uint64_t line);

/* The point's activate interval, refresh share and turnaround pair (model_point:
 * dram_activate_cycles, dram_refresh_share, dram_turnaround_cycles) from its DRAM timing;
 * `gpu_per_dram_cycle`: GPU cycles per DRAM cycle. */
void dram_rows_point_terms(const dram_config *timing, double gpu_per_dram_cycle, model_point *point);

/* Each group's row-hit share of its DRAM stream (model_group_terms: dram_row_hit_share): its own
 * replayed lines', or the whole profile's for a group with none (its DRAM lines are capacity
 * misses of lines an earlier group brought in); and likewise its share of the random
 * interleaving's turnarounds that the replayed schedulers make (dram_turnaround_share). */
void dram_rows_prepare(model_profile *profile);

/* GPU cycles a channel takes per line of a stream with row-hit share `row_hit_share` whose lines
 * are writes with probability `write_share`, making `turnaround_share` of the random
 * interleaving's turnarounds. */
double dram_channel_line_cycles(const model_point *point, double row_hit_share, double write_share,
                                double turnaround_share);

#endif
