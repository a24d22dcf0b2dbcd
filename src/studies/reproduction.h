/* reproduction.h — running a seed paper's experiment (study.h) on the detailed model: every run
 * of the study's run lists stored tied to its sweep "reproduce-STUDY", one point per size class.
 * A run that fails removes what this reproduction stored; a failed output check is stored and
 * counted. A reproduction run again (after it was interrupted) keeps the ok runs this build
 * stored with the same configuration and runs only the others; `restart` removes every stored
 * run of the sweep first. */
#ifndef SYNCSCOPE_STUDIES_REPRODUCTION_H
#define SYNCSCOPE_STUDIES_REPRODUCTION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "studies/study.h"

typedef struct reproduction {
    const reproduction_study *study;
    study_runs runs;                /* the caller fills the store and the run lists */
    bool restart;                   /* remove the sweep's stored runs before running */
    int64_t last_run_before;        /* the store's last run id before this reproduction */
    int runs_done, runs_kept, failed_checks;
} reproduction;

/* Finds or creates the study's sweep in runs.store (runs.sweep_id), noting the last run id;
 * with `restart`, removes the sweep's stored runs. */
int reproduction_open(reproduction *r, sc_error *error);

/* Runs the workloads at the main size, then the scaling workloads at each scaling size (a
 * scaling workload runs once at a size that is both), each under every mechanism, then each of
 * the study's variants on its workloads at the main size, storing each run and writing one line
 * per run to `out`; a run this build already stored is kept. On failure removes the runs stored
 * since reproduction_open. */
int reproduction_run(reproduction *r, FILE *out, sc_error *error);

/* Fails, saying how many and which first, when an ok run of the run lists is not stored. */
int reproduction_check_complete(reproduction *r, sc_error *error);

#endif
