/* dram_turnarounds.c — the replay of each DRAM channel's per-bank-target scheduler over the lines
 * reaching DRAM, counting its read/write turnarounds (dram_turnarounds.h). */
#include "model/dram_turnarounds.h"

#include <stdlib.h>

typedef struct queued_line {
    unsigned bank;
    uint64_t row;
    bool is_write;
} queued_line;

enum { KIND_NONE, KIND_READ, KIND_WRITE };

struct dram_turnaround_queue {
    queued_line *lines;            /* oldest first */
    unsigned count;
    uint64_t *open_row_plus_one;   /* per bank; 0: closed */
    int *target;                   /* per bank, while choosing: its target's index in lines, -1: none */
    int last_kind;                 /* the kind the channel served last */
    double launch_lines, launch_writes;
};

int dram_turnaround_replay_init(dram_turnaround_replay *replay, const dram_config *mapping)
{
    *replay = (dram_turnaround_replay){.mapping = *mapping};
    if (mapping->queue_entries == 0)
        return -1;
    replay->channels = calloc(mapping->channels, sizeof *replay->channels);
    if (!replay->channels)
        return -1;
    for (unsigned c = 0; c < mapping->channels; c++) {
        dram_turnaround_queue *queue = &replay->channels[c];
        queue->lines = calloc(mapping->queue_entries, sizeof *queue->lines);
        queue->open_row_plus_one = calloc(mapping->banks_per_channel, sizeof *queue->open_row_plus_one);
        queue->target = calloc(mapping->banks_per_channel, sizeof *queue->target);
        if (!queue->lines || !queue->open_row_plus_one || !queue->target) {
            dram_turnaround_replay_free(replay);
            return -1;
        }
    }
    return 0;
}

void dram_turnaround_replay_free(dram_turnaround_replay *replay)
{
    for (unsigned c = 0; replay->channels && c < replay->mapping.channels; c++) {
        free(replay->channels[c].lines);
        free(replay->channels[c].open_row_plus_one);
        free(replay->channels[c].target);
    }
    free(replay->channels);
    replay->channels = NULL;
}

static bool hits_open_row(const dram_turnaround_queue *queue, const queued_line *line)
{
    return queue->open_row_plus_one[line->bank] == line->row + 1;
}

/* The oldest of the targets of one kind (`is_write`) that hit (`hits`) their open row; -1: none. */
static int oldest_target(const dram_turnaround_queue *queue, unsigned banks, bool is_write, bool hits)
{
    int oldest = -1;
    for (unsigned b = 0; b < banks; b++) {
        int target = queue->target[b];
        if (target >= 0 && queue->lines[target].is_write == is_write &&
            hits_open_row(queue, &queue->lines[target]) == hits && (oldest < 0 || target < oldest))
            oldest = target;
    }
    return oldest;
}

/* Serves one request. Each bank's target is its oldest line hitting its open row, else its oldest.
 * The channel takes a row-hitting target of the kind it served last; else a row-hitting one of
 * the other kind (its column command is legal a turnaround later, before a missing target's
 * precharge and activation let that one's); else, no target hitting, a missing one of its kind,
 * else of the other: the oldest of them. */
static void serve_one(dram_turnaround_replay *replay, dram_turnaround_queue *queue)
{
    unsigned banks = replay->mapping.banks_per_channel;
    for (unsigned b = 0; b < banks; b++)
        queue->target[b] = -1;
    for (unsigned i = 0; i < queue->count; i++) {
        int *target = &queue->target[queue->lines[i].bank];
        if (*target < 0 || (hits_open_row(queue, &queue->lines[i]) && !hits_open_row(queue, &queue->lines[*target])))
            *target = (int)i;
    }
    bool writing = queue->last_kind == KIND_WRITE;
    int served = oldest_target(queue, banks, writing, true);
    if (served < 0)
        served = oldest_target(queue, banks, !writing, true);
    if (served < 0)
        served = oldest_target(queue, banks, writing, false);
    if (served < 0)
        served = oldest_target(queue, banks, !writing, false);
    queued_line line = queue->lines[served];
    int kind = line.is_write ? KIND_WRITE : KIND_READ;
    if (queue->last_kind != KIND_NONE && kind != queue->last_kind)
        replay->switches += 1.0;
    queue->last_kind = kind;
    queue->open_row_plus_one[line.bank] = line.row + 1;
    for (unsigned i = (unsigned)served; i + 1 < queue->count; i++)
        queue->lines[i] = queue->lines[i + 1];
    queue->count--;
}

void dram_turnaround_replay_add(dram_turnaround_replay *replay, uint64_t line, bool is_write)
{
    dram_location at = dram_location_of(&replay->mapping, line * replay->mapping.line_bytes);
    dram_turnaround_queue *queue = &replay->channels[at.channel];
    if (queue->count == replay->mapping.queue_entries)
        serve_one(replay, queue);
    queue->lines[queue->count++] = (queued_line){at.bank, at.row, is_write};
    queue->launch_lines += 1.0;
    queue->launch_writes += is_write;
}

void dram_turnaround_replay_end_launch(dram_turnaround_replay *replay, double *replayed, double *interleaved)
{
    for (unsigned c = 0; c < replay->mapping.channels; c++) {
        dram_turnaround_queue *queue = &replay->channels[c];
        while (queue->count > 0)
            serve_one(replay, queue);
        if (queue->launch_lines > 0) {
            double write_share = queue->launch_writes / queue->launch_lines;
            *interleaved += queue->launch_lines * write_share * (1.0 - write_share) / replay->mapping.banks_per_channel;
        }
        queue->launch_lines = queue->launch_writes = 0.0;
    }
    *replayed += replay->switches / 2.0;
    replay->switches = 0.0;
}
