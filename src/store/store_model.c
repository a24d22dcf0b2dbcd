/* store_model.c — the fast layer's rows: workload profiles (found by workload, parameters,
 * system and profile key) and model calibrations (the latest per mechanism and system). Each
 * write is one statement, so it is all or nothing. */
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

int64_t sc_store_insert_calibration(sc_store *store, const sc_calibration_row *row, sc_error *error)
{
    sqlite3_stmt *s = prepare(store, "INSERT INTO calibrations (mechanism, system, params, covariance, residuals, r2, "
                                     "sample_count) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", error);
    if (!s)
        return -1;
    sqlite3_bind_text(s, 1, row->mechanism, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, row->system, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, row->params, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, row->covariance, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 5, row->residuals, -1, SQLITE_STATIC);
    sqlite3_bind_double(s, 6, row->r2);
    sqlite3_bind_int64(s, 7, row->sample_count);
    return finish_insert(store, s, "storing the calibration", error);
}

int sc_store_latest_calibration(sc_store *store, const char *mechanism, const char *system, sc_calibration_row *row,
                                sc_error *error)
{
    sqlite3_stmt *s = prepare(store, "SELECT id, params, covariance, residuals, r2, sample_count FROM calibrations "
                                     "WHERE mechanism = ?1 AND system = ?2 ORDER BY id DESC LIMIT 1", error);
    if (!s)
        return -1;
    sqlite3_bind_text(s, 1, mechanism, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, system, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s), status = 0;
    if (rc == SQLITE_ROW) {
        *row = (sc_calibration_row){
            .id = sqlite3_column_int64(s, 0),
            .params = strdup((const char *)sqlite3_column_text(s, 1)),
            .covariance = strdup((const char *)sqlite3_column_text(s, 2)),
            .residuals = strdup((const char *)sqlite3_column_text(s, 3)),
            .r2 = sqlite3_column_double(s, 4),
            .sample_count = sqlite3_column_int64(s, 5),
        };
    } else if (rc == SQLITE_DONE) {
        status = sc_fail(error, "%s: no calibration of mechanism %s on system %s (run syncscope calibrate --mechanism "
                         "%s --system %s first)", store->path, mechanism, system, mechanism, system);
    } else {
        status = sc_store_fail(store, "reading calibrations", error);
    }
    sqlite3_finalize(s);
    return status;
}

void sc_calibration_row_release(sc_calibration_row *row)
{
    free((char *)row->params);
    free((char *)row->covariance);
    free((char *)row->residuals);
    row->params = row->covariance = row->residuals = NULL;
}
