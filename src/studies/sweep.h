/* sweep.h — evaluating a parsed sweep specification into an open store: every point (or one
 * shard of them), for each mechanism and workload, evaluated and stored with the point it
 * belongs to. A model sweep's calibrations are looked up, then every point's configuration is
 * checked, before anything runs. Each point is stored in the transaction that stores all its runs,
 * so the database holds whole points only, and an evaluation skips the points already stored: a
 * sweep interrupted (killed, failed, out of locks) continues where it stopped when run again.
 * What `syncscope sweep SPEC.json` does before its report (sweep_report.h); `compare` runs its
 * small model sweep through sweep_evaluate. sweep_check.h checks stored sweeps. */
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
#include "workloads/workload_ref.h"

/* What a model sweep's spot checks where they matter did (studies/sweep_spot.h). */
typedef struct sweep_spot_summary {
    int64_t extrapolated;         /* shard points outside some pair's calibrated region */
    int64_t points;               /* points chosen and measured by this evaluation */
    int64_t points_measured_before; /* chosen points already measured (an earlier, interrupted evaluation) */
    int64_t runs;                 /* measured runs */
    int64_t runs_measured_before; /* runs of those points compared again (their pair not refitted on them yet) */
    int64_t outside_band;         /* measured runs outside their prediction's 95% band */
    int refits;                   /* mechanism x workload pairs refitted */
    int64_t refitted_runs;        /* model runs re-evaluated with a refit and stored in place */
    double error_before;          /* mean |model - measured| / measured over the spot runs, with the sweep's calibrations */
    double error_after;           /* the same after the refits (pairs not refitted: unchanged) */
    double seconds;               /* wall time of the spot checks: ranking, measuring, refitting */
} sweep_spot_summary;

/* A sweep being evaluated (or reported on): its names, design, base configuration and shard,
 * and what the evaluation did. */
typedef struct sweep_session {
    const sweep_spec *spec;
    sweep_design design;
    const char *mechanisms[SWEEP_MAX_NAMES];
    int mechanism_count;
    const char *workloads[SWEEP_MAX_NAMES];   /* the names runs store (into workload_refs) */
    sc_workload_ref *workload_refs;           /* [workload_count]: built-in workloads and manifests */
    int workload_count;
    sc_workload_size size;
    sc_config *base;
    bool names_only;              /* set before preparing (db check: counts only): a manifest is not
                                     read, its entry counts as a workload named as written, and
                                     there is no stored_spec */
    sc_store *calibration_store;  /* mode model: where calibrations are looked up (NULL: the sweep's own
                                     database); those used are copied into the sweep's database */
    char *stored_spec;            /* the specification as the sweeps table stores it: spec->text, with
                                     "manifest_digests" {workload as written: content digest} when it
                                     names manifests, so a changed kernel or input is another sweep */
    int64_t remainder, shards;
    sweep_model *model;           /* mode model: the calibrated models */
    int64_t runs, failed_checks, spot_checks;
    int64_t unreliable_estimates; /* sampled runs whose estimate has no interval (sample.has_interval 0) */
    int64_t points_stored;        /* points this evaluation stored */
    int64_t points_resumed;       /* points of the shard found already stored, skipped */
    int64_t points_removed;       /* points removed first (restart) */
    double detailed_seconds;      /* wall time of the spot checks' detailed runs */
    sweep_spot_summary spot;      /* spot checks where they matter (spec->spot_targeted) */
} sweep_session;

/* Names, design and base configuration. Set spec, remainder and shards first (shards 1:
 * unsharded). */
int sweep_session_prepare(sweep_session *session, sc_error *error);

/* Before evaluating: a model sweep's calibrations (in session->calibration_store, else `store`;
 * needed for mode model; before any point is looked at), then every point of the shard: each key's value, and the system the timing model derives from
 * the whole configuration. */
int sweep_session_check(sweep_session *session, sc_store *store, sc_error *error);

/* Evaluates the shard's points not yet stored into `store` under the sweep's row (*sweep_id) and
 * times it; `restart` first removes every stored point of the sweep with its runs. */
int sweep_session_evaluate(sweep_session *session, sc_store *store, bool restart, int64_t *sweep_id, double *seconds,
                           sc_error *error);

/* The configuration of point `index` (base plus its varied keys; values[] receives them, NAN
 * for the preset's), or NULL with the key named. */
sc_config *sweep_point_config(const sweep_session *session, int64_t index, double *values, sc_error *error);

/* Whether a model sweep's point `index` is also run in detail (the fraction form of its spot
 * checks). */
bool sweep_point_spot_checked(const sweep_session *session, int64_t index);

/* Removes every stored point of sweep `sweep_id` with its runs (*removed: how many points). */
int sweep_remove_stored_points(sc_store *store, int64_t sweep_id, int64_t *removed, sc_error *error);

void sweep_session_release(sweep_session *session);

/* The stored sweep with the session's name and stored specification (for a report that writes
 * nothing). */
int sweep_find_stored(sc_store *store, const sweep_session *session, int64_t *sweep_id, sc_error *error);

typedef struct sweep_totals {
    int64_t sweep_id;
    int64_t points, runs;           /* design points; runs stored */
    int64_t points_resumed;         /* points found already stored and skipped */
    int64_t failed_checks;          /* detailed runs whose output check failed */
    int mechanism_count, workload_count;
    double seconds;                 /* evaluating and storing */
} sweep_totals;

/* Checks every point of `spec`, then evaluates and stores those not yet stored (unsharded), tied
 * to the sweep's row. */
int sweep_evaluate(const sweep_spec *spec, sc_store *store, sweep_totals *totals, sc_error *error);

#endif
