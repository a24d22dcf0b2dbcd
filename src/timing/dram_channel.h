/* dram_channel.h — internal to the DRAM model: one channel's request queue, banks, command
 * scheduler and data transfers in flight, all timed in DRAM cycles. dram.c maps addresses to
 * channels, converts cycles to picoseconds and orders the channels' events in time.
 */
#ifndef SYNCSCOPE_TIMING_DRAM_CHANNEL_H
#define SYNCSCOPE_TIMING_DRAM_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/dram.h"

#define DRAM_NEVER_CYCLE UINT64_MAX
#define DRAM_NO_SLOT UINT32_MAX

/* The configuration's timing in DRAM cycles, plus what the statistics need. */
typedef struct dram_timing {
    uint64_t cl, rcd, rp, ras, rc, rrd, wl, wr, cdlr, faw, rtw;
    uint64_t rfc, refi;         /* refi 0: no refresh */
    uint64_t burst;             /* cycles a line occupies the data bus */
    unsigned bank_count;        /* banks per channel */
    uint64_t line_bytes;
    sc_time period;
    bool frfcfs;
} dram_timing;

typedef enum dram_command { DRAM_ACTIVATE, DRAM_PRECHARGE, DRAM_READ, DRAM_WRITE, DRAM_REFRESH } dram_command;

/* How a request found its bank: the worst of the commands issued for it so far. */
typedef enum dram_row_outcome { DRAM_ROW_HIT, DRAM_ROW_MISS, DRAM_ROW_CONFLICT } dram_row_outcome;

typedef struct dram_entry {
    dram_request request;
    uint64_t arrival;           /* first DRAM cycle at which the request may be scheduled */
    uint64_t age;               /* arrival order within the channel */
    uint64_t row;
    unsigned bank;
    unsigned next, previous;    /* the bank's requests, oldest first; `next` also chains free slots */
    dram_row_outcome outcome;
} dram_entry;

/* A bank's row buffer, its queued requests, and the earliest cycles of its next commands. */
typedef struct dram_bank {
    uint64_t open_row;
    bool is_open;
    unsigned oldest, youngest;  /* slots of its requests: the ends of the list */
    unsigned target;            /* slot of the request the bank serves, DRAM_NO_SLOT when idle */
    unsigned candidate;         /* index of its entry in the channel's candidates while it has requests */
    uint64_t activate_ready, precharge_ready, column_ready;
} dram_bank;

/* The next command of a bank with requests: the command its target needs, the earliest cycle
 * the bank and the request allow for it (the channel's own constraints come on top), and the
 * target's age. */
typedef struct dram_candidate {
    uint64_t bank_ready;
    uint64_t age;
    unsigned bank, slot;
    dram_command command;
} dram_candidate;

typedef struct dram_transfer {
    dram_request request;
    uint64_t data_end;          /* DRAM cycle at which the line's last beat leaves the bus */
} dram_transfer;

typedef struct dram_channel {
    dram_entry *slots;          /* queue_entries request slots */
    unsigned free_slot;         /* first free slot, chained through `next` */
    unsigned queued, capacity;
    uint64_t next_age;
    dram_bank *banks;
    dram_candidate *candidates; /* one per bank with queued requests, in no particular order */
    unsigned candidate_count;
    uint64_t command_ready;     /* one command per cycle on the command bus */
    uint64_t activate_ready;    /* tRRD since the last activate of any bank */
    uint64_t recent_activates[4];   /* cycles of the channel's last four ACTs, a ring (tFAW) */
    unsigned activate_count;    /* ACTs issued, mod 4 the ring's oldest */
    uint64_t write_ready;       /* tRTW since the last read command */
    uint64_t next_refresh;      /* cycle the next all-bank refresh is due */
    uint64_t bus_free;          /* end of the last data transfer */
    uint64_t read_ready;        /* tCDLR since the end of the last write's data */
    dram_transfer *transfers;   /* ring buffer, data_end ascending */
    unsigned transfer_head, transfer_count, transfer_capacity;
    uint64_t planned_cycle;     /* the next command: DRAM_NEVER_CYCLE when the queue is empty */
    unsigned planned_slot;
    dram_command planned_command;
} dram_channel;

void dram_channel_init(dram_channel *channel, const dram_timing *timing, unsigned queue_entries, unsigned banks);
void dram_channel_release(dram_channel *channel);

/* Queues a request (the queue has room) and plans the next command again. Only `request`,
 * `arrival`, `row` and `bank` of the entry are read. */
void dram_channel_add(dram_channel *channel, const dram_timing *timing, const dram_entry *entry, dram_stats *stats);

/* Issues the planned command at its cycle, counts a completed access in `stats`, and plans the
 * next command. */
void dram_channel_issue(dram_channel *channel, const dram_timing *timing, dram_stats *stats);

/* The transfer that ends first, or NULL when none is in flight. */
const dram_transfer *dram_channel_first_transfer(const dram_channel *channel);
dram_transfer dram_channel_take_first_transfer(dram_channel *channel);

#endif
