/* store.h — the SQLite results database: opening (create, migrate, refuse what is not ours),
 * writing runs atomically, generic and canned queries, checking, merging shards, benchmarking.
 *
 * A database is opened in WAL mode with a 10 s busy timeout, so several processes can write to
 * one file at once; every run is written in one BEGIN IMMEDIATE transaction, so a failed or
 * interrupted insert leaves no partial rows. Storing finished work (runs, sweep points) waits up
 * to an hour for another writer's lock, saying so on stderr after the first 10 s, rather than
 * throwing the work away. A file that is not a syncscope database, is
 * truncated, was written by a newer syncscope, or stays locked past the timeout is reported in
 * one line and left untouched. Schema: db/migrations/ (embedded via schema_sql.c).
 */
#ifndef SYNCSCOPE_STORE_STORE_H
#define SYNCSCOPE_STORE_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

typedef struct sc_store sc_store;

/* The schema version (PRAGMA user_version) this binary creates and understands. */
int sc_store_schema_version(void);

/* $SYNCSCOPE_DB if set, else "db/syncscope.sqlite" (relative to the current directory). */
const char *sc_store_default_path(void);

/* Opens `path`, creating it and its parent directory on first use and migrating an older
 * schema. NULL and a one-line error for anything else. */
sc_store *sc_store_open(const char *path, sc_error *error);
void sc_store_close(sc_store *store);

/* Like sc_store_open, but a missing file is an error instead of being created. */
sc_store *sc_store_open_existing(const char *path, sc_error *error);

/* Opens an existing database for reading only: the file and its directory may be read-only (see
 * read_only_file.h), nothing is written to either, and every statement run through the store
 * that would change the database (write, create, drop, ATTACH, DETACH, VACUUM, a PRAGMA that
 * sets or changes something, a transaction) is refused in one line naming it. An older schema is
 * first brought up to date through sc_store_open (which needs write access). */
sc_store *sc_store_open_reader(const char *path, sc_error *error);
const char *sc_store_path(const sc_store *store);

/* How long a writer waits for another writer's lock before failing (default 10000 ms; storing
 * finished work: an hour); sets both. */
void sc_store_set_busy_timeout(sc_store *store, int milliseconds);

/* ---- writing runs ---- */

typedef struct sc_kernel_row {
    int index;                      /* launch order */
    const char *name;
    unsigned grid[3], block[3];
    int64_t warp_instructions;
    double cycles;
} sc_kernel_row;

typedef struct sc_metric_row {
    int kernel_index;               /* -1: the whole run */
    const char *name;
    double value;
    const char *unit;               /* NULL: unitless */
} sc_metric_row;

typedef struct sc_stall_row {
    int cu;                         /* -1: the mean over CUs */
    const char *category;
    const char *subcategory;        /* NULL: none */
    double cycles;
} sc_stall_row;

typedef struct sc_run_record {
    const char *system;             /* preset name */
    const char *config_json;        /* canonical JSON (sc_config_canonical_json) */
    const char *config_hash;        /* NULL: computed from config_json */
    const char *mechanism;
    const char *workload;
    const char *workload_params;    /* JSON object; NULL: {} */
    const char *mode;               /* functional | detailed | sampled | model */
    int64_t seed;
    bool jittered;
    int64_t jitter;                 /* perturbation seed, when jittered */
    const char *status;             /* ok | check_failed | error */
    const char *check_detail;       /* NULL: "" */
    double cycles;                  /* total GPU cycles; negative: unknown (stored as NULL) */
    double wall_seconds;
    int64_t sweep_point_id;         /* 0: not part of a sweep */
    const char *detailed_identity;  /* a detailed or sampled run: the binary's (base/detailed_identity.h); NULL: none */
    const sc_kernel_row *kernels;
    int kernel_count;
    const sc_metric_row *metrics;
    int metric_count;
    const sc_stall_row *stalls;
    int stall_count;
} sc_run_record;

/* Inserts one run and all its rows in one transaction; returns the new run id, or -1 with
 * nothing written. */
int64_t sc_store_insert_run(sc_store *store, const sc_run_record *record, sc_error *error);

/* Inserts `count` runs in one transaction (all or none); fills ids[] if not NULL. */
int sc_store_insert_runs(sc_store *store, const sc_run_record *records, int count, int64_t *ids,
                         sc_error *error);

/* Finds or creates the sweep (name, spec JSON) and returns its id. */
int64_t sc_store_ensure_sweep(sc_store *store, const char *name, const char *spec_json, sc_error *error);

/* A sweep point to store with its runs: its index in the design, its varied keys as a JSON
 * object, and how many of the records that follow it are its runs. */
typedef struct sc_sweep_point_row {
    int64_t point_index;
    const char *params_json;
    int run_count;
} sc_sweep_point_row;

/* Stores new points of sweep `sweep_id` with their runs in one transaction (all or none), so a
 * stored point always holds all its runs: records[] are the points' runs in point order, and
 * each gets its point's new id as sweep_point_id. A point already stored is an error. */
int sc_store_insert_sweep_points(sc_store *store, int64_t sweep_id, const sc_sweep_point_row *points,
                                 int point_count, sc_run_record *records, int count, sc_error *error);

/* Stores model runs of existing sweep points (each record's sweep_point_id) in place of the
 * model runs of the same point, mechanism and workload (after a refit), in one transaction. */
int sc_store_replace_model_runs(sc_store *store, const sc_run_record *records, int count, sc_error *error);

/* Removes sweep points (by row id) with all their runs, in one transaction. */
int sc_store_remove_sweep_points(sc_store *store, const int64_t *point_ids, int64_t count, sc_error *error);

/* Finds or creates point `point_index` of a sweep, with its varied keys as a JSON object
 * (a reproduction's points, whose runs are stored one by one). */
int64_t sc_store_ensure_sweep_point(sc_store *store, int64_t sweep_id, int64_t point_index,
                                    const char *params_json, sc_error *error);

/* The largest run id stored so far (0 when none), or -1. */
int64_t sc_store_last_run_id(sc_store *store, sc_error *error);

/* Deletes the runs of sweep `sweep_id` stored after run `last_before`: what an invocation that
 * failed part-way had stored (best effort; a failure leaves them). */
void sc_store_remove_sweep_runs_after(sc_store *store, int64_t sweep_id, int64_t last_before);

/* ---- reading ---- */

/* A named parameter of a query (":name" in the SQL), given as text: text that reads as an
 * integer or a real is bound as a number. */
typedef struct sc_query_param {
    const char *name;
    const char *value;
} sc_query_param;

typedef enum sc_value_kind { SC_VALUE_NULL, SC_VALUE_INTEGER, SC_VALUE_REAL, SC_VALUE_TEXT } sc_value_kind;

/* Called first with values and kinds NULL (the header: column names only), then once per
 * result row with the values as text (NULL for SQL NULL) and their kinds; returning non-zero
 * stops the query. A real arrives in its shortest round-trip text (base/real_text.h), so that
 * strtod gives back the stored double; a BLOB fails the query naming its column. */
typedef int (*sc_row_callback)(void *context, int column_count, const char *const *names,
                               const char *const *values, const sc_value_kind *kinds);

/* Runs one SQL statement with parameters. Every parameter of the statement must be given and
 * every given parameter must be used. */
int sc_store_query(sc_store *store, const char *sql, const sc_query_param *params, int param_count,
                   sc_row_callback callback, void *context, sc_error *error);

/* A row callback for sc_store_query keeping the first column of the last row as an integer in the
 * int64_t `context` points at (SQL NULL leaves it as it was). */
int sc_store_row_int64(void *context, int column_count, const char *const *names, const char *const *values,
                       const sc_value_kind *kinds);


/* ---- the fast layer: profiles, calibrations, validations (store_model.c) ---- */

/* Stores a workload profile's JSON with its profile key (model/profile.h) set in it. */
int64_t sc_store_insert_profile(sc_store *store, const char *workload, const char *params, const char *system,
                                const char *key, const char *profile_json, sc_error *error);
/* The latest matching profile's JSON (malloc'd), or NULL: none (error untouched) or a failure. */
char *sc_store_find_profile(sc_store *store, const char *workload, const char *params, const char *system,
                            const char *key, sc_error *error);

typedef struct sc_calibration_row {
    int64_t id;
    const char *mechanism, *system;
    const char *params, *covariance, *residuals;   /* JSON texts */
    double r2;
    int64_t sample_count;
    const char *manifests;          /* JSON array of the manifest workloads' content digests; NULL: none */
    const char *workload;           /* a per-workload fit's workload (runs' workload name); NULL: suite-wide */
    const char *workload_params;    /* its parameters text as runs store it (size and seed, or digest) */
    const char *created_at;         /* read rows only (an insert stores the current time) */
} sc_calibration_row;

int64_t sc_store_insert_calibration(sc_store *store, const sc_calibration_row *row, sc_error *error);

/* The calibration a workload set is modelled with (texts malloc'd: sc_calibration_row_release):
 * with `workload` (one workload's name and `workload_params`, as its runs store them), the latest
 * fitted to that workload alone with exactly those parameters if there is one; otherwise the
 * latest suite-wide fit (never one fitted to a single workload): with `manifests` NULL (built-in workloads only), the latest calibration of mechanism+system;
 * with `manifests` (a JSON array of manifest content digests), the latest fitted on every one of
 * them, else the latest fitted on built-in workloads only (a manifest whose kernel or inputs
 * changed is never served a fit of the old content). Fails with a message naming mechanism and
 * system when there is none. */
int sc_store_latest_calibration(sc_store *store, const char *mechanism, const char *system, const char *manifests,
                                const char *workload, const char *workload_params, sc_calibration_row *row,
                                sc_error *error);

/* Stores a calibration read from another database (`row` as sc_store_latest_calibration fills
 * it) unless `to` holds one of the same content (every column but the id and the creation time),
 * keeping its id and creation time when that id is free in `to`. The copy's residuals name no
 * detailed run and no prior calibration (JSON null): those stay in the database the calibration
 * was fitted in. Returns its id in `to`. */
int64_t sc_store_copy_calibration(sc_store *to, const sc_calibration_row *row, sc_error *error);

void sc_calibration_row_release(sc_calibration_row *row);

/* The held-out error of a calibration: the RMS of log(model / detailed cycles) over the stored
 * validations of calibration `calibration_id` (*own true), or, when it has none, over those of
 * every calibration of mechanism+system (*own false); *count 0 when there are none. */
int sc_store_validation_spread(sc_store *store, int64_t calibration_id, const char *mechanism, const char *system,
                               double *rms_log_error, int64_t *count, bool *own, sc_error *error);

/* One held-out comparison: the model run and the validations row that links it to the (already
 * stored) detailed run, in one transaction. Returns the validation id or -1 with nothing written. */
typedef struct sc_validation_row {
    int64_t calibration_id, detailed_run_id;
    const char *workload, *point_config;   /* point_config: JSON of the keys that differ from the preset */
    double detailed_cycles, model_cycles, stall_fraction_error;
} sc_validation_row;

int64_t sc_store_insert_validation(sc_store *store, const sc_run_record *model, const sc_validation_row *row,
                                   sc_error *error);

/* ---- detailed runs reused from an earlier database (store_reuse.c, store_merge.c) ---- */

/* Opens an earlier database whose detailed runs may be reused, for reading only: fails in one line
 * naming the file when it is missing, not a syncscope database, newer than this binary, of an older
 * schema (its runs record no detailed identity: migration 0006; nothing of it can be reused, and it
 * is left unchanged), or locked past the busy timeout. */
sc_store *sc_store_open_run_source(const char *path, sc_error *error);

/* What makes two detailed or sampled runs the same computation: every field equal, and the run
 * stored with status ok, its cycles, no jitter. */
typedef struct sc_run_key {
    const char *system, *config_json, *config_hash, *mechanism, *workload, *workload_params, *mode;
    int64_t seed;
    const char *detailed_identity;  /* the binary's; a run stored without one never matches */
    const sc_metric_row *settings;  /* run-wide metrics that must hold exactly these values (a sampled
                                       run's sampling settings) */
    int setting_count;
} sc_run_key;

/* The lowest id of a run of `source` (sc_store_open_run_source) that is the same computation as
 * `key`, skipping the `taken_count` ids in `taken` (runs already reused for other samples); 0 when
 * there is none, -1 on failure. */
int64_t sc_store_find_same_run(sc_store *source, const sc_run_key *key, const int64_t *taken, int taken_count,
                               sc_error *error);

/* Copies run `run_id` of `source` into `to` whole (its configuration, kernels, metrics and stall
 * rows; no sweep point) in one transaction, through the merge's code (store_merge.c), marked
 * reused_from the source's path and reused_run_id `run_id`. Returns its id in `to` (that of an
 * earlier copy of the same run, if `to` holds one), or -1 with nothing written. */
int64_t sc_store_copy_run(sc_store *to, sc_store *source, int64_t run_id, sc_error *error);

/* ---- maintenance ---- */

/* Integrity check, foreign keys, schema version, and per-run stall sums equal to the run's
 * cycles. Prints one line per problem to `report`; returns the number of problems, or -1 if
 * the checks could not run. */
int sc_store_check(sc_store *store, FILE *report, sc_error *error);

typedef struct sc_merge_counts {
    int64_t runs_added;     /* runs copied into the output */
    int64_t runs_present;   /* runs of the inputs the output already held, not added again */
} sc_merge_counts;

/* Merges existing databases into `out_path` (created if needed), all inputs in one transaction
 * after every input has been checked, so that a failure writes nothing: runs get new ids, sweeps
 * and their points are matched by (name, spec) and point index, configurations by hash, and a run
 * (or profile, calibration, validation) whose content the output already holds is not added again
 * (store_merge.c), so merging the same input twice changes nothing. */
int sc_store_merge(const char *out_path, const char *const *in_paths, int in_count, sc_merge_counts *counts,
                   sc_error *error);

/* Inserts `runs` synthetic runs (8 metrics and 8 stall rows each) into a fresh database at
 * `path`, then times every canned query; prints the figures to `out`. */
int sc_store_bench(const char *path, long runs, FILE *out);

#endif
