/* dram_rows.c — the DRAM stream's row locality and read/write mix: the profiler's replay of the
 * cold lines through the banks' row buffers, and a channel's time per line from the replay's
 * row-hit share, the stream's written share and the point's DRAM timing (dram_rows.h). */
#include "model/dram_rows.h"

#include <stdlib.h>

#include "timing/timing_config.h"

int dram_row_buffers_init(dram_row_buffers *buffers, const sc_config *config, sc_error *error)
{
    timing_config timing;
    if (timing_config_load(config, 0, &timing, error) < 0)
        return -1;
    buffers->mapping = timing.memory.dram;
    buffers->open_row_plus_one =
        calloc((size_t)buffers->mapping.channels * buffers->mapping.banks_per_channel, sizeof *buffers->open_row_plus_one);
    return buffers->open_row_plus_one ? 0 : sc_fail(error, "out of memory");
}

void dram_row_buffers_free(dram_row_buffers *buffers)
{
    free(buffers->open_row_plus_one);
    buffers->open_row_plus_one = NULL;
}

bool dram_row_buffers_access(dram_row_buffers *buffers, uint64_t line)
{
    dram_location at = dram_location_of(&buffers->mapping, line * buffers->mapping.line_bytes);
    uint64_t *open = &buffers->open_row_plus_one[(size_t)at.channel * buffers->mapping.banks_per_channel + at.bank];
    bool hit = *open == at.row + 1;
    *open = at.row + 1;
    return hit;
}

static double max2(double a, double b) { return a > b ? a : b; }

void dram_rows_point_terms(const dram_config *timing, double gpu_per_dram_cycle, model_point *point)
{
    double dram_cycles = (double)timing->t_rrd;
    dram_cycles = max2(dram_cycles, timing->t_faw / 4.0);
    dram_cycles = max2(dram_cycles, (double)timing->t_rc / timing->banks_per_channel);
    point->dram_activate_cycles = dram_cycles * gpu_per_dram_cycle;
    point->dram_refresh_share = timing->t_rfc > 0 ? (double)timing->t_rfc / timing->t_refi : 0.0;
    double burst = (double)((timing->line_bytes + timing->bus_bytes - 1) / timing->bus_bytes);
    double write_to_read = (double)timing->t_cdlr + timing->t_cl;
    double read_to_write = max2((double)timing->t_rtw + timing->t_wl - timing->t_cl - burst, 0.0);
    point->dram_turnaround_cycles = (write_to_read + read_to_write) * gpu_per_dram_cycle;
    point->dram_banks = timing->banks_per_channel;
}

/* `part` / `whole` of the group's, or of the whole profile's where the group has no `whole`, or
 * `otherwise` where neither has. */
static double group_share(double part, double whole, double profile_part, double profile_whole, double otherwise)
{
    return whole > 0 ? part / whole : profile_whole > 0 ? profile_part / profile_whole : otherwise;
}

void dram_rows_prepare(model_profile *profile)
{
    double lines = 0.0, row_hits = 0.0, replayed = 0.0, interleaved = 0.0;
    for (int k = 0; k < profile->kernel_count; k++) {
        lines += profile->kernels[k].dram_stream_lines;
        row_hits += profile->kernels[k].dram_stream_row_hits;
        replayed += profile->kernels[k].dram_replayed_turnarounds;
        interleaved += profile->kernels[k].dram_interleaved_turnarounds;
    }
    for (int k = 0; k < profile->kernel_count; k++) {
        model_kernel_profile *group = &profile->kernels[k];
        group->terms.dram_row_hit_share =
            group_share(group->dram_stream_row_hits, group->dram_stream_lines, row_hits, lines, 1.0);
        group->terms.dram_turnaround_share = group_share(
            group->dram_replayed_turnarounds, group->dram_interleaved_turnarounds, replayed, interleaved, 1.0);
    }
}

double dram_channel_line_cycles(const model_point *point, double row_hit_share, double write_share,
                                double turnaround_share)
{
    double turnarounds = turnaround_share * write_share * (1.0 - write_share) / point->dram_banks *
                         point->dram_turnaround_cycles;
    double per_line = max2(point->dram_line_cycles + turnarounds, (1.0 - row_hit_share) * point->dram_activate_cycles);
    return per_line / (1.0 - point->dram_refresh_share);
}
