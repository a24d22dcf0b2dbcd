/* store_insert.c — writing runs (with their configuration, and their kernels, metrics and stall
 * rows through store_rows.c) and sweep membership. Each call is one BEGIN IMMEDIATE
 * transaction: all rows or none. */
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "config/config.h"
#include "store/store_internal.h"

static int prepare_inserts(sc_store *store, sc_error *error)
{
    return sc_store_prepare_once(store, &store->find_config, "SELECT 1 FROM configs WHERE hash = ?", error) ||
           sc_store_prepare_once(store, &store->insert_config,
                                 "INSERT OR IGNORE INTO configs (hash, system, json) VALUES (?, ?, ?)", error) ||
           sc_store_prepare_once(store, &store->insert_run,
                                 "INSERT INTO runs (tool_version, git_revision, system, config_hash, mechanism,"
                                 " workload, workload_params, mode, seed, jitter, status, check_detail, cycles,"
                                 " wall_seconds, sweep_point_id, detailed_identity)"
                                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 error) ||
           sc_store_prepare_once(store, &store->find_sweep_point, "SELECT 1 FROM sweep_points WHERE id = ?", error);
}

/* The parent rows a batch has found or written so far: consecutive runs mostly share them (the
 * 32 runs of a sweep point share the point and its configuration). */
typedef struct known_parents {
    int64_t sweep_point_id;
    char config_hash[17];
} known_parents;

/* Checks that the run's sweep point exists (the reference SQLite does not check while a batch is
 * written; see sc_store_insert_runs). */
static int check_sweep_point(sc_store *store, int64_t sweep_point_id, known_parents *known, sc_error *error)
{
    if (sweep_point_id <= 0 || sweep_point_id == known->sweep_point_id)
        return 0;
    sqlite3_bind_int64(store->find_sweep_point, 1, sweep_point_id);
    int rc = sqlite3_step(store->find_sweep_point);
    sqlite3_reset(store->find_sweep_point);
    if (rc == SQLITE_DONE)
        return sc_fail(error, "%s: storing the run: its sweep point %lld does not exist", store->path,
                       (long long)sweep_point_id);
    if (rc != SQLITE_ROW)
        return sc_store_fail(store, "looking up the run's sweep point", error);
    known->sweep_point_id = sweep_point_id;
    return 0;
}

/* Stores the run's configuration unless it is already there. Looking it up first spares
 * re-validating and re-extracting its JSON. */
static int ensure_config(sc_store *store, const sc_run_record *record, const char *hash, known_parents *known,
                         sc_error *error)
{
    if (!strcmp(hash, known->config_hash))
        return 0;
    sqlite3_bind_text(store->find_config, 1, hash, -1, SQLITE_STATIC);
    int found = sqlite3_step(store->find_config) == SQLITE_ROW;
    sqlite3_reset(store->find_config);
    if (!found) {
        sqlite3_stmt *config = store->insert_config;
        sqlite3_bind_text(config, 1, hash, -1, SQLITE_STATIC);
        sc_store_bind_text_or_null(config, 2, record->system);
        sqlite3_bind_text(config, 3, record->config_json, -1, SQLITE_STATIC);
        if (sc_store_step_insert(store, config, "storing the configuration", error))
            return -1;
    }
    snprintf(known->config_hash, sizeof known->config_hash, "%s", hash);
    return 0;
}

/* Inserts one run's rows inside the caller's transaction. */
static int64_t insert_one(sc_store *store, const sc_run_record *record, known_parents *known, sc_row_queue *queue,
                          sc_error *error)
{
    char computed_hash[17];
    const char *hash = record->config_hash;
    if (!record->config_json)
        return sc_fail(error, "%s: run not stored: it has no configuration", store->path);
    if (!hash) {
        sc_hash_text(record->config_json, strlen(record->config_json), computed_hash);
        hash = computed_hash;
    }
    if (check_sweep_point(store, record->sweep_point_id, known, error) ||
        ensure_config(store, record, hash, known, error))
        return -1;

    sqlite3_stmt *run = store->insert_run;
    sqlite3_bind_text(run, 1, SYNCSCOPE_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_text(run, 2, SYNCSCOPE_GIT_REVISION, -1, SQLITE_STATIC);
    sc_store_bind_text_or_null(run, 3, record->system);
    sqlite3_bind_text(run, 4, hash, -1, SQLITE_STATIC);
    sc_store_bind_text_or_null(run, 5, record->mechanism);
    sc_store_bind_text_or_null(run, 6, record->workload);
    sqlite3_bind_text(run, 7, record->workload_params ? record->workload_params : "{}", -1, SQLITE_STATIC);
    sc_store_bind_text_or_null(run, 8, record->mode);
    sqlite3_bind_int64(run, 9, record->seed);
    if (record->jittered)
        sqlite3_bind_int64(run, 10, record->jitter);
    sc_store_bind_text_or_null(run, 11, record->status);
    sqlite3_bind_text(run, 12, record->check_detail ? record->check_detail : "", -1, SQLITE_STATIC);
    if (record->cycles >= 0)
        sqlite3_bind_double(run, 13, record->cycles);
    sqlite3_bind_double(run, 14, record->wall_seconds);
    if (record->sweep_point_id > 0)
        sqlite3_bind_int64(run, 15, record->sweep_point_id);
    sc_store_bind_text_or_null(run, 16, record->detailed_identity);
    if (sc_store_step_insert(store, run, "storing the run", error))
        return -1;
    int64_t run_id = sqlite3_last_insert_rowid(store->db);
    return sc_store_queue_child_rows(store, queue, run_id, record, error) ? -1 : run_id;
}

/* Switches SQLite's foreign-key enforcement; only takes effect outside a transaction. Changing
 * it expires the prepared statements, which SQLite re-prepares on their next step. */
static void enforce_foreign_keys(sc_store *store, bool enforce)
{
    sqlite3_exec(store->db, enforce ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
}

/* SQLite's foreign-key enforcement looks up the parent of every row written: 22 lookups for a
 * model run with its metrics and stall rows, a fifth of a model sweep's storing time (perf: 19.7 s
 * of CPU with it, 15.6 s without). A batch is therefore written with it off, and every reference
 * it would check holds by construction or is checked here: a kernel, metric or stall row carries
 * the id of the run inserted just before it, the run's configuration is found or inserted before
 * the run (ensure_config), and its sweep point is looked up (check_sweep_point). Switching
 * enforcement off and on again costs about 45 us (the statements are re-prepared), as much as
 * the lookups of two or three runs, so smaller batches keep it on. */
enum { UNENFORCED_BATCH_MIN = 3 };

/* The busy handler while finished work waits for the write lock: waits up to store_wait_ms,
 * saying once on stderr, after the usual busy timeout, that it is waiting. */
typedef struct lock_wait {
    sc_store *store;
    double start;
    bool said;
} lock_wait;

static int wait_for_lock(void *context, int attempts)
{
    (void)attempts;
    lock_wait *wait = context;
    double waited_ms = 1000.0 * (sc_monotonic_seconds() - wait->start);
    if (waited_ms >= wait->store->store_wait_ms)
        return 0;
    if (!wait->said && waited_ms >= wait->store->busy_timeout_ms) {
        fprintf(stderr, "syncscope: %s: another writer holds the database lock; waiting up to %d s more to store "
                "the finished work\n", wait->store->path, (int)((wait->store->store_wait_ms - waited_ms) / 1000));
        wait->said = true;
    }
    sqlite3_sleep(10);
    return 1;
}

/* BEGIN IMMEDIATE for storing finished work (a simulation, a batch of model runs): it waits for
 * another writer's lock up to store_wait_ms (an hour by default, sc_store_set_busy_timeout
 * sets both), not the 10 s an open waits, so that finished work is not thrown away. */
static int begin_storing(sc_store *store, sc_error *error)
{
    lock_wait wait = {store, sc_monotonic_seconds(), false};
    sqlite3_busy_handler(store->db, wait_for_lock, &wait);
    int rc = sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    sqlite3_busy_timeout(store->db, store->busy_timeout_ms);
    if (rc == SQLITE_OK)
        return 0;
    int code = sqlite3_extended_errcode(store->db) & 0xff;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        return sc_fail(error, "%s: storing: database is locked by another writer (gave up after %d ms); this step "
                       "wrote nothing", store->path, store->store_wait_ms);
    return sc_store_fail(store, "starting the run's transaction", error);
}

/* Inserts a new sweep point inside the caller's transaction and returns its id; a point already
 * stored is an error naming it (another process evaluating the same sweep into this database). */
static int64_t insert_point(sc_store *store, int64_t sweep_id, const sc_sweep_point_row *point, sc_error *error)
{
    if (sc_store_prepare_once(store, &store->insert_new_sweep_point,
                              "INSERT INTO sweep_points (sweep_id, point_index, params) VALUES (?, ?, ?)", error))
        return -1;
    sqlite3_stmt *statement = store->insert_new_sweep_point;
    sqlite3_bind_int64(statement, 1, sweep_id);
    sqlite3_bind_int64(statement, 2, point->point_index);
    sqlite3_bind_text(statement, 3, point->params_json, -1, SQLITE_STATIC);
    int rc = sqlite3_step(statement);
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return sc_fail(error, "%s: sweep %lld already holds point %lld (is another process evaluating this sweep?)",
                       store->path, (long long)sweep_id, (long long)point->point_index);
    if (rc != SQLITE_DONE)
        return sc_store_fail(store, "storing the sweep point", error);
    return sqlite3_last_insert_rowid(store->db);
}

/* The points (none when point_count is 0) and runs of one batch, in one transaction: all or none.
 * With points, the records are the points' runs in point order (points[i].run_count each) and
 * get their point's new id as sweep_point_id. With `replaced` (a DELETE taking a record's
 * sweep_point_id, mechanism and workload as ?1..?3), it runs for each record before the record
 * is stored, with foreign keys enforced so that the deleted runs' rows go with them. */
static int insert_batch(sc_store *store, int64_t sweep_id, const sc_sweep_point_row *points, int point_count,
                        sc_run_record *point_records, const sc_run_record *records, int count, int64_t *ids,
                        sqlite3_stmt *replaced, sc_error *error)
{
    if (prepare_inserts(store, error))
        return -1;
    bool unenforced = count >= UNENFORCED_BATCH_MIN && !replaced;
    if (unenforced)
        enforce_foreign_keys(store, false);
    int status = begin_storing(store, error);
    for (int p = 0, first = 0; status == 0 && p < point_count; first += points[p++].run_count) {
        int64_t point_id = insert_point(store, sweep_id, &points[p], error);
        if (point_id < 0)
            status = -1;
        for (int r = first; status == 0 && r < first + points[p].run_count; r++)
            point_records[r].sweep_point_id = point_id;
    }
    known_parents known = {0};
    sc_row_queue queue = {0};
    for (int i = 0; status == 0 && replaced && i < count; i++) {
        sqlite3_bind_int64(replaced, 1, records[i].sweep_point_id);
        sc_store_bind_text_or_null(replaced, 2, records[i].mechanism);
        sc_store_bind_text_or_null(replaced, 3, records[i].workload);
        if (sqlite3_step(replaced) != SQLITE_DONE)
            status = sc_store_fail(store, "removing the runs being replaced", error);
        sqlite3_reset(replaced);
    }
    for (int i = 0; status == 0 && i < count; i++) {
        int64_t run_id = insert_one(store, &records[i], &known, &queue, error);
        if (run_id < 0)
            status = -1;
        else if (ids)
            ids[i] = run_id;
    }
    if (status == 0)
        status = sc_store_flush_child_rows(store, &queue, error);
    if (status == 0 && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        status = sc_store_fail(store, "committing the run", error);
    sc_store_rollback(store);
    if (unenforced)
        enforce_foreign_keys(store, true);
    return status;
}

int sc_store_insert_runs(sc_store *store, const sc_run_record *records, int count, int64_t *ids,
                         sc_error *error)
{
    return insert_batch(store, 0, NULL, 0, NULL, records, count, ids, NULL, error);
}

int sc_store_insert_sweep_points(sc_store *store, int64_t sweep_id, const sc_sweep_point_row *points,
                                 int point_count, sc_run_record *records, int count, sc_error *error)
{
    int runs = 0;
    for (int p = 0; p < point_count; p++)
        runs += points[p].run_count;
    if (runs != count)
        return sc_fail(error, "%s: storing sweep points: %d runs given for points holding %d", store->path, count, runs);
    return insert_batch(store, sweep_id, points, point_count, records, records, count, NULL, NULL, error);
}

int sc_store_replace_model_runs(sc_store *store, const sc_run_record *records, int count, sc_error *error)
{
    sqlite3_stmt *replaced = NULL;
    if (sqlite3_prepare_v2(store->db, "DELETE FROM runs WHERE sweep_point_id = ?1 AND mechanism = ?2 AND workload = ?3 "
                           "AND mode = 'model'", -1, &replaced, NULL) != SQLITE_OK)
        return sc_store_fail(store, "preparing to replace model runs", error);
    int status = insert_batch(store, 0, NULL, 0, NULL, records, count, NULL, replaced, error);
    sqlite3_finalize(replaced);
    return status;
}

int sc_store_remove_sweep_points(sc_store *store, const int64_t *point_ids, int64_t count, sc_error *error)
{
    sqlite3_stmt *runs = NULL, *point = NULL;
    if (sqlite3_prepare_v2(store->db, "DELETE FROM runs WHERE sweep_point_id = ?", -1, &runs, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db, "DELETE FROM sweep_points WHERE id = ?", -1, &point, NULL) != SQLITE_OK) {
        sqlite3_finalize(runs);
        return sc_store_fail(store, "preparing to remove sweep points", error);
    }
    int status = sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK
                     ? 0
                     : sc_store_fail(store, "starting to remove sweep points", error);
    for (int64_t i = 0; status == 0 && i < count; i++) {
        sqlite3_stmt *statements[] = {runs, point};
        for (int s = 0; status == 0 && s < 2; s++) {
            sqlite3_bind_int64(statements[s], 1, point_ids[i]);
            if (sqlite3_step(statements[s]) != SQLITE_DONE)
                status = sc_store_fail(store, "removing a sweep point and its runs", error);
            sqlite3_reset(statements[s]);
        }
    }
    if (status == 0 && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        status = sc_store_fail(store, "committing the removal of sweep points", error);
    sc_store_rollback(store);
    sqlite3_finalize(runs);
    sqlite3_finalize(point);
    return status;
}

int64_t sc_store_insert_validation(sc_store *store, const sc_run_record *model, const sc_validation_row *row,
                                   sc_error *error)
{
    if (prepare_inserts(store, error))
        return -1;
    if (begin_storing(store, error))
        return -1;
    known_parents known = {0};
    sc_row_queue queue = {0};
    int64_t model_id = insert_one(store, model, &known, &queue, error), id = -1;
    if (model_id >= 0 && sc_store_flush_child_rows(store, &queue, error))
        model_id = -1;
    sqlite3_stmt *s = NULL;
    if (model_id >= 0 &&
        sqlite3_prepare_v2(store->db, "INSERT INTO validations (calibration_id, workload, point_config, "
                           "detailed_run_id, model_run_id, detailed_cycles, model_cycles, stall_fraction_error) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(s, 1, row->calibration_id);
        sqlite3_bind_text(s, 2, row->workload, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, row->point_config, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 4, row->detailed_run_id);
        sqlite3_bind_int64(s, 5, model_id);
        sqlite3_bind_double(s, 6, row->detailed_cycles);
        sqlite3_bind_double(s, 7, row->model_cycles);
        sqlite3_bind_double(s, 8, row->stall_fraction_error);
        if (sc_store_step_insert(store, s, "storing the validation", error) == 0)
            id = sqlite3_last_insert_rowid(store->db);
    } else if (model_id >= 0) {
        sc_store_fail(store, "preparing the validation", error);
    }
    sqlite3_finalize(s);
    if (id >= 0 && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sc_store_fail(store, "committing the validation", error);
        id = -1;
    }
    if (id < 0)
        sc_store_rollback(store);
    return id;
}

int64_t sc_store_insert_run(sc_store *store, const sc_run_record *record, sc_error *error)
{
    int64_t id = -1;
    return sc_store_insert_runs(store, record, 1, &id, error) ? -1 : id;
}

/* Runs "INSERT OR IGNORE" then "SELECT id" for a row identified by its unique columns; both
 * statements are prepared once per connection (a sweep ensures each of its points). */
static int64_t ensure_row(sc_store *store, sqlite3_stmt **insert, const char *insert_sql, sqlite3_stmt **select,
                          const char *select_sql, const char *const *texts, const int64_t *numbers, const char *what,
                          sc_error *error)
{
    if (sc_store_prepare_once(store, insert, insert_sql, error) ||
        sc_store_prepare_once(store, select, select_sql, error))
        return -1;
    sqlite3_stmt *statements[2] = {*insert, *select};
    int64_t id = -1;
    for (int s = 0; s < 2; s++) {
        sqlite3_stmt *statement = statements[s];
        for (int p = 1; p <= sqlite3_bind_parameter_count(statement); p++) {
            if (texts[p - 1])
                sqlite3_bind_text(statement, p, texts[p - 1], -1, SQLITE_STATIC);
            else
                sqlite3_bind_int64(statement, p, numbers[p - 1]);
        }
        int rc = sqlite3_step(statement);
        if (rc == SQLITE_ROW)
            id = sqlite3_column_int64(statement, 0);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            sc_store_fail(store, what, error);
        sqlite3_reset(statement);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return -1;
    }
    return id;
}

int64_t sc_store_ensure_sweep(sc_store *store, const char *name, const char *spec_json, sc_error *error)
{
    const char *texts[] = {name, spec_json};
    return ensure_row(store, &store->insert_sweep, "INSERT OR IGNORE INTO sweeps (name, spec) VALUES (?, ?)",
                      &store->select_sweep, "SELECT id FROM sweeps WHERE name = ? AND spec = ?", texts,
                      (int64_t[]){0, 0}, "storing the sweep", error);
}

int64_t sc_store_last_run_id(sc_store *store, sc_error *error)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(store->db, "SELECT coalesce(max(id), 0) FROM runs", -1, &statement, NULL) != SQLITE_OK)
        return sc_store_fail(store, "reading the last run id", error);
    int64_t id = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1;
    sqlite3_finalize(statement);
    return id < 0 ? sc_store_fail(store, "reading the last run id", error) : id;
}

void sc_store_remove_sweep_runs_after(sc_store *store, int64_t sweep_id, int64_t last_before)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(store->db,
                           "DELETE FROM runs WHERE id > ?1 AND sweep_point_id IN "
                           "(SELECT id FROM sweep_points WHERE sweep_id = ?2)",
                           -1, &statement, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(statement, 1, last_before);
    sqlite3_bind_int64(statement, 2, sweep_id);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
}

int64_t sc_store_ensure_sweep_point(sc_store *store, int64_t sweep_id, int64_t point_index,
                                    const char *params_json, sc_error *error)
{
    const char *texts[] = {NULL, NULL, params_json};
    const int64_t numbers[] = {sweep_id, point_index, 0};
    return ensure_row(store, &store->insert_sweep_point,
                      "INSERT OR IGNORE INTO sweep_points (sweep_id, point_index, params) VALUES (?, ?, ?)",
                      &store->select_sweep_point, "SELECT id FROM sweep_points WHERE sweep_id = ? AND point_index = ?",
                      texts, numbers, "storing the sweep point", error);
}
