/* sweep.h — evaluating a parsed sweep specification into an open store without the command
 * line or the report: what `syncscope sweep SPEC.json` does first, used by `compare` for its
 * small model sweep. */
#ifndef SYNCSCOPE_CLI_SWEEP_H
#define SYNCSCOPE_CLI_SWEEP_H

#include "model/sweep_spec.h"
#include "store/store.h"

typedef struct sweep_totals {
    int64_t sweep_id;
    int64_t points, runs;           /* design points evaluated; runs stored */
    int64_t failed_checks;          /* detailed runs whose output check failed */
    int mechanism_count, workload_count;
    double seconds;                 /* evaluating and storing */
} sweep_totals;

/* Checks every point of `spec`, then evaluates and stores all of them (unsharded), tied to the
 * sweep's row; a sweep that fails part-way removes the runs it stored. */
int sweep_evaluate(const sweep_spec *spec, sc_store *store, sweep_totals *totals, sc_error *error);

#endif
