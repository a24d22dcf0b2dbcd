/* reproduction.h — running a seed paper's experiment (study.h) on the detailed model: every run
 * of the study's run lists stored tied to its sweep "reproduce-STUDY", one point per size class.
 * A run that fails removes what this reproduction stored; a failed output check is stored and
 * counted. */
#ifndef SYNCSCOPE_STUDIES_REPRODUCTION_H
#define SYNCSCOPE_STUDIES_REPRODUCTION_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "studies/study.h"

typedef struct reproduction {
    const reproduction_study *study;
    study_runs runs;                /* the caller fills the store and the run lists */
    int64_t last_run_before;        /* the store's last run id before this reproduction */
    int runs_done, failed_checks;
} reproduction;

/* Finds or creates the study's sweep in runs.store (runs.sweep_id), noting the last run id. */
int reproduction_open(reproduction *r, sc_error *error);

/* Runs the workloads at the main size, then the scaling workloads at each scaling size (a
 * scaling workload runs once at a size that is both), each under every mechanism, storing each
 * run and writing one line per run to `out`. On failure removes the runs stored since
 * reproduction_open. */
int reproduction_run(reproduction *r, FILE *out, sc_error *error);

#endif
