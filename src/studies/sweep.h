/* sweep.h — evaluating a parsed sweep specification into an open store: every point (or one
 * shard of them), for each mechanism and workload, evaluated and stored with the point it
 * belongs to. Every point's configuration is checked before anything runs, and a sweep that
 * fails part-way removes the runs it stored, so the database never holds half a shard. What
 * `syncscope sweep SPEC.json` does before its report (sweep_report.h); `compare` runs its small
 * model sweep through sweep_evaluate. */
#ifndef SYNCSCOPE_STUDIES_SWEEP_H
#define SYNCSCOPE_STUDIES_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "model/sweep_design.h"
#include "model/sweep_spec.h"
#include "store/store.h"
#include "studies/sweep_model.h"
#include "workloads/workload.h"

/* A sweep being evaluated (or reported on): its names, design, base configuration and shard,
 * and what the evaluation did. */
typedef struct sweep_session {
    const sweep_spec *spec;
    sweep_design design;
    const char *mechanisms[SWEEP_MAX_NAMES];
    int mechanism_count;
    const char *workloads[SWEEP_MAX_NAMES];
    int workload_count;
    sc_workload_size size;
    sc_config *base;
    int64_t remainder, shards;
    sweep_model *model;           /* mode model: the calibrated models */
    int64_t runs, failed_checks, spot_checks;
    double detailed_seconds;      /* wall time of the spot checks' detailed runs */
} sweep_session;

/* Names, design, base configuration and (when `check`, i.e. unless only reporting) every point
 * of the shard checked: each key's value, and the system the timing model derives from the
 * whole configuration. Set spec, remainder and shards first (shards 1: unsharded). */
int sweep_session_prepare(sweep_session *session, bool check, sc_error *error);

/* Evaluates the session's shard into `store` under the sweep's row (*sweep_id) and times it. */
int sweep_session_evaluate(sweep_session *session, sc_store *store, int64_t *sweep_id, double *seconds,
                           sc_error *error);

void sweep_session_release(sweep_session *session);

/* The stored sweep with this name and specification (for a report that writes nothing). */
int sweep_find_stored(sc_store *store, const sweep_spec *spec, int64_t *sweep_id, sc_error *error);

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
