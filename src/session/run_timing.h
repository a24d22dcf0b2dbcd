/* run_timing.h — what a detailed run adds to a run session: building a device on the timing
 * engine, and turning the engine's report into stall rows and metrics for the store and output. */
#ifndef SYNCSCOPE_SESSION_RUN_TIMING_H
#define SYNCSCOPE_SESSION_RUN_TIMING_H

#include "config/config.h"
#include "host/host_api.h"
#include "stalls/gsi.h"
#include "store/store.h"

typedef struct run_timing {
    bool present;                 /* a detailed run filled this */
    uint64_t cycles;
    unsigned cu_count;
    bool gsi;                     /* sim.gsi: false, no stall breakdown (counters zero, no stall rows) */
    gsi_counters *per_cu;         /* cu_count entries (malloc'd) */
    gsi_counters total;           /* summed over CUs */
    sc_metric_row *metrics;       /* whole run (kernel_index -1), then per launch; malloc'd */
    int metric_count, metric_capacity;
    char **names;                 /* metric names made up at run time (per link), owned */
    int name_count;
} run_timing;

/* The timing model for `mechanism` under `config`, not yet on a device. */
void *run_timing_engine(const sc_config *config, const char *mechanism, uint64_t jitter, sc_error *error);

/* A device whose engine is the timing model for `mechanism`; *engine receives the engine (owned
 * by the device) so its report can be read before the device is destroyed. */
sc_device *run_timing_device(const sc_config *config, const char *mechanism, uint64_t jitter, void **engine,
                             sc_error *error);

void run_timing_collect(void *engine, run_timing *timing);
/* Appends a metric (kernel -1: the whole run); `name` and `unit` must outlive `timing`. */
void run_timing_add_metric(run_timing *timing, int kernel, const char *name, double value, const char *unit);
void run_timing_release(run_timing *timing);

/* Leaf stall rows (one per category without sub-categories, one per non-zero sub-category):
 * per CU, and the mean over CUs (cu -1). Each CU's rows and the mean rows sum to the cycles.
 * Returns the row count; *rows is malloc'd. */
int run_timing_stall_rows(const run_timing *timing, sc_stall_row **rows);

#endif
