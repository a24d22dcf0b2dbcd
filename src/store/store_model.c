/* store_model.c — the fast layer's rows: workload profiles (found by workload, parameters,
 * system and profile key) and model calibrations (the latest per mechanism and system, per
 * manifest workload by content digest, and per workload fitted to that workload alone), copied between databases by content. Each write is one
 * statement, so it is all or nothing. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

static sqlite3_stmt *prepare(sc_store *store, const char *sql, sc_error *error)
{
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(store->db, sql, -1, &statement, NULL) != SQLITE_OK) {
        sc_store_fail(store, "preparing a statement", error);
        return NULL;
    }
    return statement;
}

static int64_t finish_insert(sc_store *store, sqlite3_stmt *statement, const char *what, sc_error *error)
{
    int rc = sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        return sc_store_fail(store, what, error);
    return sqlite3_last_insert_rowid(store->db);
}

int64_t sc_store_insert_profile(sc_store *store, const char *workload, const char *params, const char *system,
                                const char *key, const char *profile_json, sc_error *error)
{
    sqlite3_stmt *s = prepare(store, "INSERT INTO profiles (workload, workload_params, system, profile) "
                                     "VALUES (?1, ?2, ?3, json_set(?4, '$.key', ?5))", error);
    if (!s)
        return -1;
    sqlite3_bind_text(s, 1, workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, params, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, profile_json, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 5, key, -1, SQLITE_STATIC);
    return finish_insert(store, s, "storing the profile", error);
}

char *sc_store_find_profile(sc_store *store, const char *workload, const char *params, const char *system,
                            const char *key, sc_error *error)
{
    sqlite3_stmt *s = prepare(store, "SELECT profile FROM profiles WHERE workload = ?1 AND workload_params = ?2 "
                                     "AND system = ?3 AND json_extract(profile, '$.key') = ?4 ORDER BY id DESC LIMIT 1",
                              error);
    if (!s)
        return NULL;
    sqlite3_bind_text(s, 1, workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, params, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, key, -1, SQLITE_STATIC);
    char *json = NULL;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        json = strdup((const char *)sqlite3_column_text(s, 0));
    else if (rc != SQLITE_DONE)
        sc_store_fail(store, "reading profiles", error);
    sqlite3_finalize(s);
    return json;
}

/* Binds a calibration's columns, in the order of the calibrations table, to ?1..?10. */
static void bind_calibration(sqlite3_stmt *s, const sc_calibration_row *row)
{
    sqlite3_bind_text(s, 1, row->mechanism, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, row->system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, row->params, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, row->covariance, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 5, row->residuals, -1, SQLITE_STATIC);
    sqlite3_bind_double(s, 6, row->r2);
    sqlite3_bind_int64(s, 7, row->sample_count);
    sqlite3_bind_text(s, 8, row->manifests, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 9, row->workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 10, row->workload_params, -1, SQLITE_STATIC);
}

int64_t sc_store_insert_calibration(sc_store *store, const sc_calibration_row *row, sc_error *error)
{
    sqlite3_stmt *s = prepare(store, "INSERT INTO calibrations (mechanism, system, params, covariance, residuals, r2, "
                                     "sample_count, manifests, workload, workload_params) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                              error);
    if (!s)
        return -1;
    bind_calibration(s, row);
    return finish_insert(store, s, "storing the calibration", error);
}

static char *column_copy(sqlite3_stmt *s, int column)
{
    const unsigned char *text = sqlite3_column_text(s, column);
    return text ? strdup((const char *)text) : NULL;
}

/* Reads the calibration `s` stepped onto (columns: id, params, covariance, residuals, r2,
 * sample_count, manifests, created_at, workload, workload_params): 1 found, 0 none, -1 failed. */
static int read_calibration(sc_store *store, sqlite3_stmt *s, const char *mechanism, const char *system,
                            sc_calibration_row *row, sc_error *error)
{
    int rc = sqlite3_step(s), status = 0;
    if (rc == SQLITE_ROW) {
        *row = (sc_calibration_row){
            .id = sqlite3_column_int64(s, 0),
            .mechanism = strdup(mechanism),
            .system = strdup(system),
            .params = column_copy(s, 1),
            .covariance = column_copy(s, 2),
            .residuals = column_copy(s, 3),
            .r2 = sqlite3_column_double(s, 4),
            .sample_count = sqlite3_column_int64(s, 5),
            .manifests = column_copy(s, 6),
            .created_at = column_copy(s, 7),
            .workload = column_copy(s, 8),
            .workload_params = column_copy(s, 9),
        };
        status = 1;
    } else if (rc != SQLITE_DONE) {
        status = sc_store_fail(store, "reading calibrations", error);
    }
    sqlite3_finalize(s);
    return status;
}

#define CALIBRATION_COLUMNS \
    "SELECT id, params, covariance, residuals, r2, sample_count, manifests, created_at, workload, workload_params "

/* The latest suite-wide calibration (no workload of its own) of mechanism+system whose manifests
 * hold every digest of `manifests` (a JSON array; NULL: any), fitted on built-in workloads only
 * when `builtin_only`: 1 found, 0 none, -1 failed. */
static int latest_matching(sc_store *store, const char *mechanism, const char *system, const char *manifests,
                           bool builtin_only, sc_calibration_row *row, sc_error *error)
{
    sqlite3_stmt *s = prepare(store, CALIBRATION_COLUMNS
                                     "FROM calibrations WHERE mechanism = ?1 AND system = ?2 AND workload IS NULL AND "
                                     "(?3 IS NULL OR (manifests IS NOT NULL AND NOT EXISTS (SELECT value FROM "
                                     "json_each(?3) EXCEPT SELECT value FROM json_each(manifests)))) AND (?4 = 0 OR "
                                     "manifests IS NULL) ORDER BY id DESC LIMIT 1", error);
    if (!s)
        return -1;
    sqlite3_bind_text(s, 1, mechanism, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, manifests, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 4, builtin_only);
    return read_calibration(store, s, mechanism, system, row, error);
}

/* The latest calibration of mechanism+system fitted to the one workload `workload` with exactly
 * the parameters `workload_params`: 1 found, 0 none, -1 failed. */
static int latest_of_workload(sc_store *store, const char *mechanism, const char *system, const char *workload,
                              const char *workload_params, sc_calibration_row *row, sc_error *error)
{
    sqlite3_stmt *s = prepare(store, CALIBRATION_COLUMNS
                                     "FROM calibrations WHERE mechanism = ?1 AND system = ?2 AND workload = ?3 AND "
                                     "workload_params = ?4 ORDER BY id DESC LIMIT 1", error);
    if (!s)
        return -1;
    sqlite3_bind_text(s, 1, mechanism, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, workload_params, -1, SQLITE_STATIC);
    return read_calibration(store, s, mechanism, system, row, error);
}

int sc_store_latest_calibration(sc_store *store, const char *mechanism, const char *system, const char *manifests,
                                const char *workload, const char *workload_params, sc_calibration_row *row,
                                sc_error *error)
{
    int found = workload ? latest_of_workload(store, mechanism, system, workload, workload_params, row, error) : 0;
    if (found == 0)
        found = latest_matching(store, mechanism, system, manifests, false, row, error);
    if (found == 0 && manifests)
        found = latest_matching(store, mechanism, system, NULL, true, row, error);
    if (found == 0 && manifests)
        return sc_fail(error, "%s: no calibration of mechanism %s on system %s fitted on this content of the manifest "
                       "workload(s), nor on built-in workloads only (run syncscope calibrate --mechanism %s --system %s "
                       "--workloads with the manifest first)", store->path, mechanism, system, mechanism, system);
    if (found == 0)
        return sc_fail(error, "%s: no calibration of mechanism %s on system %s (run syncscope calibrate --mechanism "
                       "%s --system %s first)", store->path, mechanism, system, mechanism, system);
    return found < 0 ? -1 : 0;
}

/* Stores `row` in `to` unless a calibration of the same content is there; its id if free. */
static int64_t copy_calibration_row(sc_store *to, const sc_calibration_row *row, sc_error *error)
{
    sqlite3_stmt *s = prepare(to, "SELECT id FROM calibrations WHERE mechanism = ?1 AND system = ?2 AND params = ?3 "
                                  "AND covariance = ?4 AND residuals = ?5 AND r2 IS ?6 AND sample_count = ?7 "
                                  "AND manifests IS ?8 AND workload IS ?9 AND workload_params IS ?10 ORDER BY id LIMIT 1", error);
    if (!s)
        return -1;
    bind_calibration(s, row);
    int rc = sqlite3_step(s);
    int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sc_store_fail(to, "reading calibrations", error);
    if (id > 0)
        return id;
    s = prepare(to, "INSERT INTO calibrations (id, created_at, mechanism, system, params, covariance, residuals, r2, "
                    "sample_count, manifests, workload, workload_params) VALUES ((SELECT CASE WHEN EXISTS (SELECT 1 FROM "
                    "calibrations WHERE id = ?1) THEN NULL ELSE ?1 END), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                    error);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, row->id);
    sqlite3_bind_text(s, 2, row->created_at, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, row->mechanism, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, row->system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 5, row->params, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, row->covariance, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 7, row->residuals, -1, SQLITE_STATIC);
    sqlite3_bind_double(s, 8, row->r2);
    sqlite3_bind_int64(s, 9, row->sample_count);
    sqlite3_bind_text(s, 10, row->manifests, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 11, row->workload, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 12, row->workload_params, -1, SQLITE_STATIC);
    return finish_insert(to, s, "copying the calibration", error);
}

int64_t sc_store_copy_calibration(sc_store *to, const sc_calibration_row *row, sc_error *error)
{
    /* its residuals' runs and prior calibrations stay in the database it was fitted in */
    sc_calibration_row copy = *row;
    char *unlinked = sc_residuals_map_ids(row->residuals, NULL, NULL, NULL);
    if (!unlinked)
        return sc_fail(error, "%s: copying calibration %lld: its residuals are not a JSON array", to->path,
                       (long long)row->id);
    copy.residuals = unlinked;
    int64_t id = copy_calibration_row(to, &copy, error);
    free(unlinked);
    return id;
}

/* Adds each row's log(model / detailed cycles) squared to *sum and counts it (`s` bound). */
static int add_log_errors(sc_store *store, sqlite3_stmt *s, double *sum, int64_t *count, sc_error *error)
{
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        double model = sqlite3_column_double(s, 0), detailed = sqlite3_column_double(s, 1);
        if (model > 0 && detailed > 0) {
            *sum += log(model / detailed) * log(model / detailed);
            (*count)++;
        }
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sc_store_fail(store, "reading validations", error);
}

int sc_store_validation_spread(sc_store *store, int64_t calibration_id, const char *mechanism, const char *system,
                               double *rms_log_error, int64_t *count, bool *own, sc_error *error)
{
    double sum = 0;
    *count = 0;
    sqlite3_stmt *s = prepare(store, "SELECT model_cycles, detailed_cycles FROM validations WHERE calibration_id = ?1",
                              error);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, calibration_id);
    if (add_log_errors(store, s, &sum, count, error) < 0)
        return -1;
    *own = *count > 0;
    if (*count == 0) {
        s = prepare(store, "SELECT v.model_cycles, v.detailed_cycles FROM validations v JOIN calibrations c "
                           "ON c.id = v.calibration_id WHERE c.mechanism = ?1 AND c.system = ?2", error);
        if (!s)
            return -1;
        sqlite3_bind_text(s, 1, mechanism, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, system, -1, SQLITE_STATIC);
        if (add_log_errors(store, s, &sum, count, error) < 0)
            return -1;
    }
    *rms_log_error = *count ? sqrt(sum / (double)*count) : 0.0;
    return 0;
}

void sc_calibration_row_release(sc_calibration_row *row)
{
    free((char *)row->mechanism);
    free((char *)row->system);
    free((char *)row->params);
    free((char *)row->covariance);
    free((char *)row->residuals);
    free((char *)row->manifests);
    free((char *)row->created_at);
    free((char *)row->workload);
    free((char *)row->workload_params);
    *row = (sc_calibration_row){0};
}
