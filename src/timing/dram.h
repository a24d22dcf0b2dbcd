/* dram.h — DRAM channels with banks and row buffers, timed in the DRAM command clock.
 *
 * The model holds no data: the device's flat global image is the DRAM contents, and the L2
 * reads or writes it when a request completes. What this file decides is *when*: each channel
 * has a bounded request queue, a scheduler (FCFS, or FR-FCFS: row hits first, then oldest),
 * per-bank row buffers with tRCD/tRP/tRAS/tRC/tRRD and the four-activate window (tFAW), CAS
 * (tCL) and write (tWL/tWR) latencies, write-to-read (tCDLR) and read-to-write (tRTW)
 * turnaround, all-bank refresh (tRFC every tREFI), and a data bus moving `bus_bytes` per DRAM
 * cycle, so a line occupies the bus for line_bytes / bus_bytes cycles. A fixed `pipeline_latency` (ps)
 * covers the controller and PHY and is added to every request, so an unloaded read's latency
 * is pipeline_latency + tRCD + tCL + burst on an idle bank.
 *
 * Address mapping: consecutive `interleave_bytes` chunks go to consecutive channels; within a
 * channel, consecutive rows of `row_bytes` go to consecutive banks.
 */
#ifndef SYNCSCOPE_TIMING_DRAM_H
#define SYNCSCOPE_TIMING_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/clock.h"

typedef struct dram_config {
    unsigned channels, banks_per_channel;
    uint64_t row_bytes, line_bytes, interleave_bytes;
    unsigned bus_bytes;         /* per DRAM cycle */
    unsigned queue_entries;     /* per channel */
    bool frfcfs;                /* else FCFS */
    sc_clock clock;
    sc_time pipeline_latency;
    unsigned t_cl, t_rcd, t_rp, t_ras, t_rc, t_rrd, t_wl, t_wr, t_cdlr;  /* DRAM cycles */
    unsigned t_faw;             /* four-activate window; 0: not modelled */
    unsigned t_rtw;             /* read command to write command */
    unsigned t_rfc, t_refi;     /* refresh cycle time every refresh interval; t_rfc 0: no refresh */
} dram_config;

typedef struct dram_request {
    uint64_t address;           /* line address */
    bool is_write;
    uint64_t tag;               /* caller's identifier, handed back on completion */
} dram_request;

typedef struct dram_stats {
    uint64_t reads, writes;
    uint64_t row_hits, row_misses, row_conflicts;  /* conflict: another row was open */
    uint64_t bytes;
    uint64_t refreshes;         /* all-bank refreshes, summed over channels */
    uint64_t queue_samples, queue_occupancy_sum, queue_peak;  /* sampled at every enqueue */
    sc_time bus_busy;           /* ps any channel's data bus was transferring, summed over channels */
} dram_stats;

typedef struct dram dram;

dram *dram_create(const dram_config *config);
void dram_destroy(dram *memory);

/* Channel of a line address. */
unsigned dram_channel_of(const dram *memory, uint64_t address);

/* Where an address lives: its channel (the mapping above), the bank within the channel and the
 * row within the bank. */
typedef struct dram_location {
    unsigned channel, bank;
    uint64_t row;
} dram_location;
dram_location dram_location_of(const dram_config *config, uint64_t address);

/* Whether the channel of `address` has a free queue entry. */
bool dram_can_accept(const dram *memory, uint64_t address);

/* Queues a request arriving at `now` (the caller checked dram_can_accept). */
void dram_enqueue(dram *memory, const dram_request *request, sc_time now);

/* The earliest time at which dram_advance has something to do (a command to issue or a
 * request to complete); SC_TIME_NEVER when idle. */
sc_time dram_next_event(const dram *memory);

/* Issues every command and completes every request due at or before `now`, in time order,
 * calling `done` for each completed request with its completion time. */
typedef void (*dram_done_fn)(void *context, const dram_request *request, sc_time when);
void dram_advance(dram *memory, sc_time now, dram_done_fn done, void *context);

const dram_stats *dram_statistics(const dram *memory);

#endif
