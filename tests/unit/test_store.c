/* test_store.c — the results database: create/insert/read, atomic runs, refusing foreign,
 * truncated, locked and newer files without touching them, concurrent writers, merging (checked
 * inputs first, idempotent), readers refusing changes, checking, and the embedded schema
 * matching db/migrations/. Runs are SYNTHETIC test data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/files.h"
#include "protocols/mechanism.h"
#include "store/read_only_file.h"
#include "store/schema_sql.h"
#include "store/store.h"
#include "store/synthetic.h"
#include "store_test_support.h"

static void test_embedded_schema_matches_files(void **state)
{
    (void)state;
    for (int i = 0; i < sc_migration_count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/db/migrations/%s", sc_data_dir(), sc_migrations[i].file_name);
        size_t size;
        char *text = file_bytes(path, &size);
        if (strcmp(text, sc_migrations[i].sql))
            fail_msg("%s differs from src/store/schema_sql.c: run db/embed_migrations.sh", path);
        assert_int_equal(sc_migrations[i].version, i + 1);
        free(text);
    }
    assert_int_equal(sc_store_schema_version(), sc_migration_count);
}

static void test_create_insert_read(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "nested/dir/basic.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    if (!store)
        fail_msg("%s", error.message);
    int64_t first = insert_synthetic(store, 0), second = insert_synthetic(store, 1);
    assert_true(first > 0 && second == first + 1);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 2);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics"), 2 * SC_SYNTHETIC_METRICS);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM stalls WHERE cu = -1"), 2 * SC_SYNTHETIC_STALLS);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM kernels"), 2);
    assert_int_equal(count_rows(store, "SELECT cu_count FROM runs_flat WHERE id = 1"), 15); /* gsi, first in name order */
    assert_int_equal(count_rows(store, "SELECT count(*) FROM run_config WHERE run_id = 1 AND key = 'l1.size'"), 1);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs WHERE check_detail LIKE 'synthetic test data%'"), 2);
    sc_store_close(store);

    store = sc_store_open(path, &error); /* reopening keeps everything */
    assert_non_null(store);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 2);
    assert_int_equal(count_rows(store, "PRAGMA user_version"), sc_store_schema_version());
    assert_int_equal(sc_store_check(store, stderr, &error), 0);
    sc_store_close(store);
}

static void test_failed_insert_leaves_nothing(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "rollback.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_non_null(store);
    sc_synthetic_run run;
    sc_synthetic_run_fill(&synthetic, 5, &run);
    run.stalls[SC_SYNTHETIC_STALLS - 1].category = NULL; /* fails after the run, kernel and metrics rows */
    assert_int_equal(sc_store_insert_run(store, &run.record, &error), -1);
    assert_non_null(strstr(error.message, "stalls.category"));
    assert_null(strchr(error.message, '\n'));
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics"), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM kernels"), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM configs"), 0);

    sc_synthetic_run batch[3];
    sc_run_record records[3];
    for (int i = 0; i < 3; i++) {
        sc_synthetic_run_fill(&synthetic, i, &batch[i]);
        records[i] = batch[i].record;
    }
    records[2].mode = "guessed"; /* violates the CHECK on runs.mode: the whole batch goes */
    assert_int_equal(sc_store_insert_runs(store, records, 3, NULL, &error), -1);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 0);
    records[2].mode = "detailed";
    assert_int_equal(sc_store_insert_runs(store, records, 3, NULL, &error), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 3);
    sc_store_close(store);
}

/* A batch's metric and stall rows go in many per statement, across runs: runs with 0, 1, 63, 64
 * and 70 metrics (around the 64-row statements) and as many stall rows each come back intact,
 * in a batch and one by one. */
static void test_rows_across_statements(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "rows.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_non_null(store);
    enum { RUNS = 5, MOST_ROWS = 70 };
    static const int row_counts[RUNS] = {0, 1, 63, 64, 70};
    static char names[MOST_ROWS][16];
    sc_synthetic_run runs[RUNS];
    sc_run_record records[RUNS];
    sc_metric_row metrics[RUNS][MOST_ROWS];
    sc_stall_row stalls[RUNS][MOST_ROWS];
    for (int i = 0; i < MOST_ROWS; i++)
        snprintf(names[i], sizeof names[i], "m%02d", i);
    for (int r = 0; r < RUNS; r++) {
        sc_synthetic_run_fill(&synthetic, r, &runs[r]);
        for (int i = 0; i < row_counts[r]; i++) {
            metrics[r][i] = (sc_metric_row){-1, names[i], 1000.0 * r + i, i % 2 ? "bytes" : NULL};
            stalls[r][i] = (sc_stall_row){i, "MEM_DATA", NULL, 10.0 * r + i};
        }
        records[r] = runs[r].record;
        records[r].metrics = metrics[r];
        records[r].metric_count = row_counts[r];
        records[r].stalls = stalls[r];
        records[r].stall_count = row_counts[r];
    }
    int64_t ids[RUNS];
    assert_int_equal(sc_store_insert_runs(store, records, RUNS, ids, &error), 0);
    for (int r = 0; r < RUNS; r++)
        assert_int_equal(sc_store_insert_run(store, &records[r], &error), ids[RUNS - 1] + 1 + r);
    for (int copy = 0; copy < 2; copy++) {
        for (int r = 0; r < RUNS; r++) {
            int64_t id = ids[0] + copy * RUNS + r;
            char sql[256];
            snprintf(sql, sizeof sql, "SELECT count(*) FROM metrics WHERE run_id = %lld AND kernel_index = -1 AND "
                     "name = printf('m%%02d', value - %d) AND unit = CASE WHEN value %% 2 THEN 'bytes' ELSE '' END",
                     (long long)id, 1000 * r);
            assert_int_equal(count_rows(store, sql), row_counts[r]);
            snprintf(sql, sizeof sql, "SELECT count(*) FROM stalls WHERE run_id = %lld AND cycles = %d + cu AND "
                     "category = 'MEM_DATA' AND subcategory = ''", (long long)id, 10 * r);
            assert_int_equal(count_rows(store, sql), row_counts[r]);
        }
    }
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics"), 2 * (0 + 1 + 63 + 64 + 70));
    assert_int_equal(count_rows(store, "SELECT count(*) FROM kernels"), 2 * RUNS);
    sc_store_close(store);
}

/* A batch stores each configuration its runs use once, whether runs sharing it are adjacent
 * or not, and every run refers to a stored configuration. */
static void test_batch_configurations(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "configs.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_non_null(store);
    static const long indices[] = {0, 1, 32, 2, 64, 33, 3};   /* configurations 0, 0, 1, 0, 2, 1, 0 */
    enum { COUNT = sizeof indices / sizeof indices[0] };
    sc_synthetic_run runs[COUNT];
    sc_run_record records[COUNT];
    for (int i = 0; i < COUNT; i++) {
        sc_synthetic_run_fill(&synthetic, indices[i], &runs[i]);
        records[i] = runs[i].record;
    }
    assert_int_equal(sc_store_insert_runs(store, records, COUNT, NULL, &error), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM configs"), 3);
    assert_int_equal(count_rows(store, "SELECT count(DISTINCT config_hash) FROM runs"), 3);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs WHERE config_hash NOT IN (SELECT hash FROM configs)"),
                     0);
    assert_int_equal(sc_store_check(store, stderr, &error), 0);
    sc_store_close(store);
}

/* SQLite does not check a batch's references itself (store_insert.c checks the one a caller
 * gives, the sweep point): a run naming a sweep point that does not exist fails, alone or in a
 * batch, with nothing written, and foreign keys are enforced again afterwards. */
static void test_missing_sweep_point_refused(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "points.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_non_null(store);
    assert_int_equal(sc_synthetic_add_sweep(&synthetic, store, &error), 0);
    sc_synthetic_run runs[3];
    sc_run_record records[3];
    for (int i = 0; i < 3; i++) {
        sc_synthetic_run_fill(&synthetic, i, &runs[i]);
        records[i] = runs[i].record;
    }
    records[2].sweep_point_id = 999;
    assert_int_equal(sc_store_insert_runs(store, records, 3, NULL, &error), -1);
    assert_non_null(strstr(error.message, "sweep point 999 does not exist"));
    assert_int_equal(sc_store_insert_run(store, &records[2], &error), -1);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics"), 0);
    assert_int_equal(count_rows(store, "PRAGMA foreign_keys"), 1);
    records[2].sweep_point_id = records[1].sweep_point_id;
    assert_int_equal(sc_store_insert_runs(store, records, 3, NULL, &error), 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs WHERE sweep_point_id IS NOT NULL"), 3);
    assert_int_equal(count_rows(store, "PRAGMA foreign_keys"), 1);
    assert_int_equal(sc_store_check(store, stderr, &error), 0);
    memset(synthetic.sweep_point_id, 0, (size_t)synthetic.config_count * sizeof *synthetic.sweep_point_id);
    sc_store_close(store);
}

static void test_random_bytes_refused_untouched(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "random.sqlite");
    FILE *file = fopen(path, "wb");
    for (int i = 0; i < 8192; i++)
        fputc((i * 7919 + 13) & 0xff, file);
    fclose(file);
    size_t size;
    char *before = file_bytes(path, &size);
    sc_error error;
    assert_null(sc_store_open(path, &error));
    char expected[600];
    snprintf(expected, sizeof expected, "%s: not a syncscope database (file is not a database)", path);
    assert_string_equal(error.message, expected);
    assert_file_unchanged(path, before, size);
    free(before);
}

static void test_truncated_refused_untouched(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "truncated.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    for (long i = 0; i < 200; i++)
        insert_synthetic(store, i);
    sc_store_close(store); /* the last close checkpoints the WAL into the file */
    struct stat status;
    stat(path, &status);
    assert_int_equal(truncate(path, status.st_size / 2), 0);
    size_t size;
    char *before = file_bytes(path, &size);
    assert_null(sc_store_open(path, &error));
    assert_non_null(strstr(error.message, "not a syncscope database (file is truncated"));
    assert_file_unchanged(path, before, size);
    free(before);
}

static void test_foreign_sqlite_refused(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "foreign.sqlite");
    sqlite3 *db;
    sqlite3_open(path, &db);
    sqlite3_exec(db, "CREATE TABLE notes (text TEXT)", NULL, NULL, NULL);
    sqlite3_close(db);
    sc_error error;
    assert_null(sc_store_open(path, &error));
    assert_non_null(strstr(error.message, "not a syncscope database (it holds other tables)"));
}

static void test_newer_version_refused_untouched(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "newer.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    insert_synthetic(store, 0);
    sc_store_close(store);
    sqlite3 *db;
    sqlite3_open(path, &db);
    sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(db);
    size_t size;
    char *before = file_bytes(path, &size);
    assert_null(sc_store_open(path, &error));
    assert_non_null(strstr(error.message, "schema version 99 is newer than this syncscope understands"));
    assert_file_unchanged(path, before, size);
    free(before);
}

static void test_locked_database(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "locked.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    insert_synthetic(store, 0);
    sqlite3 *other;
    sqlite3_open(path, &other);
    assert_int_equal(sqlite3_exec(other, "BEGIN EXCLUSIVE; DELETE FROM sweeps;", NULL, NULL, NULL), SQLITE_OK);
    sc_store_set_busy_timeout(store, 200);
    sc_synthetic_run run;
    sc_synthetic_run_fill(&synthetic, 1, &run);
    assert_int_equal(sc_store_insert_run(store, &run.record, &error), -1);
    assert_non_null(strstr(error.message, "locked by another writer"));
    assert_null(strchr(error.message, '\n'));
    sqlite3_exec(other, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(other);
    assert_true(sc_store_insert_run(store, &run.record, &error) > 0);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 2);
    sc_store_close(store);
}

/* Several processes creating one new database at once: every open must succeed (switching a new
 * file to WAL used to fail at once for the losers of the race, bypassing the busy timeout). */
static void test_concurrent_first_open(void **state)
{
    (void)state;
    enum { ROUNDS = 40, OPENERS = 4 };
    for (int round = 0; round < ROUNDS; round++) {
        char name[64], path[512];
        snprintf(name, sizeof name, "first_open_%d.sqlite", round);
        path_in_directory(path, sizeof path, name);
        pid_t children[OPENERS];
        for (int i = 0; i < OPENERS; i++) {
            children[i] = fork();
            assert_true(children[i] >= 0);
            if (children[i] == 0) {
                sc_error error;
                sc_store *store = sc_store_open(path, &error);
                if (!store)
                    fprintf(stderr, "round %d opener %d: %s\n", round, i, error.message);
                sc_store_close(store);
                _exit(store ? 0 : 1);
            }
        }
        for (int i = 0; i < OPENERS; i++) {
            int status;
            waitpid(children[i], &status, 0);
            assert_true(WIFEXITED(status));
            assert_int_equal(WEXITSTATUS(status), 0);
        }
    }
}

static void test_concurrent_writers(void **state)
{
    (void)state;
    enum { WRITERS = 4, RUNS_EACH = 50 };
    char path[512];
    path_in_directory(path, sizeof path, "concurrent.sqlite");
    pid_t children[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        children[w] = fork();
        assert_true(children[w] >= 0);
        if (children[w] == 0) {
            sc_error error;
            sc_store *store = sc_store_open(path, &error);
            int failures = !store;
            for (int i = 0; store && i < RUNS_EACH; i++) {
                sc_synthetic_run run;
                sc_synthetic_run_fill(&synthetic, w * RUNS_EACH + i, &run);
                if (sc_store_insert_run(store, &run.record, &error) < 0) {
                    fprintf(stderr, "writer %d: %s\n", w, error.message);
                    failures++;
                }
            }
            if (!store)
                fprintf(stderr, "writer %d: %s\n", w, error.message);
            sc_store_close(store);
            _exit(failures ? 1 : 0);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int status;
        waitpid(children[w], &status, 0);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), WRITERS * RUNS_EACH);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics"), WRITERS * RUNS_EACH * SC_SYNTHETIC_METRICS);
    sc_store_close(store);
}

static void test_merge_shards(void **state)
{
    (void)state;
    char shard_paths[2][512], out[512];
    path_in_directory(shard_paths[0], sizeof shard_paths[0], "shard0.sqlite");
    path_in_directory(shard_paths[1], sizeof shard_paths[1], "shard1.sqlite");
    path_in_directory(out, sizeof out, "merged.sqlite");
    sc_error error;
    for (int s = 0; s < 2; s++) {
        sc_store *shard = sc_store_open(shard_paths[s], &error);
        assert_non_null(shard);
        assert_int_equal(sc_synthetic_add_sweep(&synthetic, shard, &error), 0);
        for (long i = 0; i < 40 + 10 * s; i++)
            insert_synthetic(shard, s * 1000 + i);
        if (s == 1)
            assert_int_equal(sc_synthetic_add_validations(shard, &error), 0);
        sc_store_close(shard);
    }
    memset(synthetic.sweep_point_id, 0, (size_t)synthetic.config_count * sizeof *synthetic.sweep_point_id);
    const char *inputs[] = {shard_paths[0], shard_paths[1]};
    sc_merge_counts counts;
    if (sc_store_merge(out, inputs, 2, &counts, &error))
        fail_msg("%s", error.message);
    assert_int_equal(counts.runs_added, 90);
    assert_int_equal(counts.runs_present, 0);
    sc_store *merged = sc_store_open(out, &error);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM runs"), 90);
    assert_int_equal(count_rows(merged, "SELECT count(DISTINCT id) FROM runs"), 90);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM metrics"), 90 * SC_SYNTHETIC_METRICS);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM stalls"), 90 * SC_SYNTHETIC_STALLS);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM kernels"), 90);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM sweeps"), 1);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM sweep_points"), synthetic.config_count);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM runs WHERE sweep_point_id IS NULL"), 0);
    /* every run's sweep point still describes the run's configuration */
    assert_int_equal(count_rows(merged,
                                "SELECT count(*) FROM runs_flat r JOIN sweep_points p ON p.id = r.sweep_point_id"
                                " WHERE json_extract(p.params, '$.\"l1.size\"') != r.l1_size"),
                     0);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM validations"), 160);
    assert_int_equal(sc_store_check(merged, stderr, &error), 0);
    sc_store_close(merged);

    /* merging both shards again adds nothing: every run, its rows, the calibrations and the
     * validations are already there */
    assert_int_equal(sc_store_merge(out, inputs, 2, &counts, &error), 0);
    assert_int_equal(counts.runs_added, 0);
    assert_int_equal(counts.runs_present, 90);
    merged = sc_store_open(out, &error);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM runs"), 90);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM metrics"), 90 * SC_SYNTHETIC_METRICS);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM stalls"), 90 * SC_SYNTHETIC_STALLS);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM kernels"), 90);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM calibrations"), 16);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM validations"), 160);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM sweeps"), 1);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM sweep_points"), synthetic.config_count);
    assert_int_equal(sc_store_check(merged, stderr, &error), 0);
    sc_store_close(merged);

    /* one input given twice is merged once */
    char twice[512];
    path_in_directory(twice, sizeof twice, "merged_twice.sqlite");
    const char *same_twice[] = {shard_paths[1], shard_paths[1]};
    assert_int_equal(sc_store_merge(twice, same_twice, 2, &counts, &error), 0);
    assert_int_equal(counts.runs_added, 50);
    assert_int_equal(counts.runs_present, 50);
    merged = sc_store_open(twice, &error);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM runs"), 50);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM metrics"), 50 * SC_SYNTHETIC_METRICS);
    assert_int_equal(count_rows(merged, "SELECT count(*) FROM validations"), 160);
    sc_store_close(merged);
}

/* A merge maps the ids a calibration's residuals name (the detailed runs, a refit's prior) to the
 * output's ids of the same runs and calibration; a calibration copied into a shard names none
 * there, and the merge keeps one calibration for the copy and its original. */
static void test_merge_maps_residual_ids(void **state)
{
    (void)state;
    char fitted_path[512], shard_path[512], out_path[512];
    path_in_directory(fitted_path, sizeof fitted_path, "residuals_fitted.sqlite");
    path_in_directory(shard_path, sizeof shard_path, "residuals_shard.sqlite");
    path_in_directory(out_path, sizeof out_path, "residuals_out.sqlite");
    sc_error error;
    sc_store *fitted = sc_store_open(fitted_path, &error);
    assert_non_null(fitted);
    for (long i = 0; i < 5; i++)
        assert_int_equal(insert_synthetic(fitted, 200 + i), i + 1);
    /* calibration 1 measured by runs 2 and 4; its refit by run 5, carrying run 2 from calibration 1 */
    if (sc_store_query(fitted,
                      "INSERT INTO calibrations (mechanism, system, params, covariance, residuals, r2, sample_count)"
                      " VALUES ('wt', 'gtx480', '{}', '[]', json_array("
                      "json_object('workload', 'w', 'detailed_run_id', 2, 'detailed_cycles', (SELECT cycles FROM runs WHERE id = 2)),"
                      "json_object('workload', 'w', 'detailed_run_id', 4, 'detailed_cycles', (SELECT cycles FROM runs WHERE id = 4))),"
                      " 0.9, 2),"
                      " ('wt', 'gtx480', '{}', '[]', json_array("
                      "json_object('workload', 'w', 'detailed_run_id', 5, 'detailed_cycles', (SELECT cycles FROM runs WHERE id = 5)),"
                      "json_object('workload', 'w', 'detailed_run_id', 2, 'detailed_cycles', (SELECT cycles FROM runs WHERE id = 2),"
                      " 'from_calibration', 1)), 0.95, 3)",
                      NULL, 0, NULL, NULL, &error))
        fail_msg("%s", error.message);
    /* a shard's copy of the refit names no run and no calibration */
    sc_calibration_row latest;
    assert_int_equal(sc_store_latest_calibration(fitted, "wt", "gtx480", NULL, NULL, NULL, &latest, &error), 0);
    sc_store *shard = sc_store_open(shard_path, &error);
    assert_non_null(shard);
    insert_synthetic(shard, 400);
    assert_true(sc_store_copy_calibration(shard, &latest, &error) > 0);
    sc_calibration_row_release(&latest);
    assert_int_equal(count_rows(shard, "SELECT count(*) FROM calibrations, json_each(residuals) e"
                                       " WHERE json_type(e.value, '$.detailed_run_id') = 'null'"
                                       " AND json_extract(e.value, '$.detailed_cycles') > 0"),
                     2);
    assert_int_equal(count_rows(shard, "SELECT count(*) FROM calibrations, json_each(residuals) e"
                                       " WHERE json_type(e.value, '$.from_calibration') = 'null'"),
                     1);
    sc_store_close(shard);
    sc_store_close(fitted);
    /* the output already holds other runs and a calibration, so every id moves */
    sc_store *out = sc_store_open(out_path, &error);
    for (long i = 0; i < 3; i++)
        insert_synthetic(out, 300 + i);
    assert_int_equal(sc_store_query(out,
                                   "INSERT INTO calibrations (mechanism, system, params, covariance, residuals, r2,"
                                   " sample_count) VALUES ('qr', 'gsi', '{}', '[]', '[]', 0.5, 7)",
                                   NULL, 0, NULL, NULL, &error),
                     0);
    sc_store_close(out);
    const char *inputs[] = {fitted_path, shard_path};
    sc_merge_counts counts;
    if (sc_store_merge(out_path, inputs, 2, &counts, &error))
        fail_msg("%s", error.message);
    out = sc_store_open(out_path, &error);
    assert_int_equal(count_rows(out, "SELECT count(*) FROM calibrations"), 3);
    /* every residual names the run it was measured by: the output's run of the same cycles */
    assert_int_equal(count_rows(out, "SELECT count(*) FROM calibrations c, json_each(c.residuals) e"
                                     " JOIN runs r ON r.id = json_extract(e.value, '$.detailed_run_id')"
                                     " WHERE r.cycles = json_extract(e.value, '$.detailed_cycles')"),
                     4);
    /* the refit's carried entry names its prior by the prior's id in the output */
    assert_int_equal(count_rows(out, "SELECT count(*) FROM calibrations y, json_each(y.residuals) e"
                                     " JOIN calibrations x ON x.id = json_extract(e.value, '$.from_calibration')"
                                     " WHERE y.sample_count = 3 AND x.sample_count = 2"),
                     1);
    assert_int_equal(sc_store_check(out, stderr, &error), 0);
    sc_store_close(out);
}

/* A merge checks every input before it writes: a bad input, or the output among the inputs,
 * fails the merge with the output byte for byte as it was (or not created at all). */
static void test_merge_checks_inputs_first(void **state)
{
    (void)state;
    char good[512], bad[512], out[512], fresh[512];
    path_in_directory(good, sizeof good, "merge_good.sqlite");
    path_in_directory(bad, sizeof bad, "merge_bad.sqlite");
    path_in_directory(out, sizeof out, "merge_out.sqlite");
    path_in_directory(fresh, sizeof fresh, "merge_fresh.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(good, &error);
    for (long i = 0; i < 5; i++)
        insert_synthetic(store, i);
    sc_store_close(store);
    store = sc_store_open(out, &error);
    insert_synthetic(store, 100);
    sc_store_close(store);
    FILE *garbage = fopen(bad, "wb");
    fputs("not a database at all, just text long enough to have a header's worth of bytes......................", garbage);
    fclose(garbage);
    size_t size;
    char *before = file_bytes(out, &size);
    sc_merge_counts counts;
    const char *with_bad[] = {good, bad};
    assert_int_equal(sc_store_merge(out, with_bad, 2, &counts, &error), -1);
    assert_non_null(strstr(error.message, "not a syncscope database"));
    assert_file_unchanged(out, before, size);
    const char *with_output[] = {good, out};
    assert_int_equal(sc_store_merge(out, with_output, 2, &counts, &error), -1);
    assert_non_null(strstr(error.message, "cannot merge a database into itself"));
    assert_file_unchanged(out, before, size);
    free(before);
    assert_int_equal(sc_store_merge(fresh, with_bad, 2, &counts, &error), -1);
    struct stat status;
    assert_int_not_equal(stat(fresh, &status), 0);
    /* the retry with the bad input left out adds the good one once */
    const char *retry[] = {good};
    assert_int_equal(sc_store_merge(out, retry, 1, &counts, &error), 0);
    assert_int_equal(counts.runs_added, 5);
    store = sc_store_open(out, &error);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 6);
    sc_store_close(store);
}

/* A reader refuses every statement that would change the database, naming it, and its
 * connection is read-only underneath (a write that got past the guard would still fail). */
static void test_reader_refuses_changes(void **state)
{
    (void)state;
    char path[512], copy[512];
    path_in_directory(path, sizeof path, "reader.sqlite");
    path_in_directory(copy, sizeof copy, "reader_copy.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    for (long i = 0; i < 3; i++)
        insert_synthetic(store, i);
    sc_store_close(store);
    store = sc_store_open_reader(path, &error);
    if (!store)
        fail_msg("%s", error.message);
    char vacuum_into[600], attach[600];
    snprintf(vacuum_into, sizeof vacuum_into, "VACUUM INTO '%s'", copy);
    snprintf(attach, sizeof attach, "ATTACH '%s' AS other", copy);
    const char *const changes[][2] = {
        {"DELETE FROM runs", "it deletes from runs"},
        {"UPDATE runs SET cycles = 0", "it updates runs"},
        {"INSERT INTO sweeps (name, spec) VALUES ('x', '{}')", "it inserts into sweeps"},
        {"DROP TABLE stalls", "it changes the schema"},
        {"CREATE TEMP TABLE scratch (a)", "it changes the schema"},
        {"PRAGMA user_version = 99", "it sets PRAGMA user_version"},
        {"PRAGMA journal_mode = DELETE", "it sets PRAGMA journal_mode"},
        {"PRAGMA wal_checkpoint", "it runs PRAGMA wal_checkpoint"},
        {attach, "it attaches a database"},
        {"BEGIN", "it opens or ends a transaction"},
        {vacuum_into, "it would write"},
        {"VACUUM", "it would write"},
    };
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
        int64_t ignored;
        if (sc_store_query(store, changes[i][0], NULL, 0, sc_store_row_int64, &ignored, &error) != -1)
            fail_msg("'%s' was not refused", changes[i][0]);
        if (!strstr(error.message, "refused") || !strstr(error.message, changes[i][1]))
            fail_msg("'%s': %s", changes[i][0], error.message);
    }
    struct stat status;
    assert_int_not_equal(stat(copy, &status), 0);
    /* reading, including the PRAGMAs that only report, works */
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 3);
    assert_int_equal(count_rows(store, "SELECT user_version FROM pragma_user_version"), sc_store_schema_version());
    assert_int_equal(count_rows(store, "PRAGMA user_version"), sc_store_schema_version());
    assert_int_equal(sc_store_check(store, stderr, &error), 0);
    sc_store_close(store);

    sqlite3 *db = sc_read_only_file_open(path, NULL, 0, &error);
    assert_non_null(db);
    assert_int_equal(sqlite3_db_readonly(db, "main"), 1);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM runs", NULL, NULL, NULL) & 0xff, SQLITE_READONLY);
    sqlite3_close(db);
    store = sc_store_open(path, &error);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 3);
    assert_int_equal(count_rows(store, "PRAGMA user_version"), sc_store_schema_version());
    sc_store_close(store);
}

static void test_check_finds_bad_stall_sums(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "check.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    insert_synthetic(store, 0);
    sc_synthetic_run run;
    sc_synthetic_run_fill(&synthetic, 1, &run);
    run.stalls[0].cycles += 1000;
    assert_true(sc_store_insert_run(store, &run.record, &error) > 0);
    FILE *report = tmpfile();
    assert_int_equal(sc_store_check(store, report, &error), 1);
    rewind(report);
    char line[512];
    assert_non_null(fgets(line, sizeof line, report));
    assert_non_null(strstr(line, "run 2"));
    fclose(report);
    sc_store_close(store);
}

/* Keeps the first row's values, joined by '|'. */
static int join_first_row(void *context, int column_count, const char *const *names, const char *const *values,
                          const sc_value_kind *kinds)
{
    (void)names;
    (void)kinds;
    char *joined = context;
    if (!values || *joined)
        return 0;
    for (int c = 0; c < column_count; c++)
        snprintf(joined + strlen(joined), 256 - strlen(joined), "%s%s", c ? "|" : "", values[c] ? values[c] : "NULL");
    return 0;
}

static void test_query_parameters(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "params.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    for (long i = 0; i < 8; i++)
        insert_synthetic(store, i);
    int64_t count = -1;
    const sc_query_param params[] = {{"mechanism", "qr"}, {"limit", "5"}};
    assert_int_equal(sc_store_query(store, "SELECT count(*) FROM (SELECT 1 FROM runs WHERE mechanism = :mechanism LIMIT :limit)",
                                    params, 2, sc_store_row_int64, &count, &error), 0);
    assert_int_equal(count, 2);
    assert_int_equal(sc_store_query(store, "SELECT :missing", NULL, 0, sc_store_row_int64, &count, &error), -1);
    assert_non_null(strstr(error.message, "parameter :missing is not set"));
    assert_int_equal(sc_store_query(store, "SELECT 1", params, 1, sc_store_row_int64, &count, &error), -1);
    assert_non_null(strstr(error.message, "'mechanism' is not used"));
    assert_int_equal(sc_store_query(store, "SELECT 1; SELECT 2", NULL, 0, sc_store_row_int64, &count, &error), -1);
    /* numbers bind as numbers; text that only reads as one (a revision, a hash) stays text */
    const sc_query_param values[] = {{"a", "5"}, {"b", "-0.25"}, {"c", "2938e5205206"}, {"d", "0123"}, {"e", "+7"}};
    char types[256] = "";
    assert_int_equal(sc_store_query(store, "SELECT typeof(:a), typeof(:b), typeof(:c), typeof(:d), typeof(:e), :c, :d",
                                    values, 5, join_first_row, types, &error), 0);
    assert_string_equal(types, "integer|real|text|text|text|2938e5205206|0123");
    sc_store_close(store);
}

/* Reals reach a row callback in their shortest round-trip text, whole ones with ".0"; a BLOB
 * fails the query naming its column. */
static void test_query_value_text(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "values.sqlite");
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    char joined[256] = "";
    assert_int_equal(sc_store_query(store, "SELECT 0.1 + 0.2, 2.0, 1e300 * 1e300, 7, NULL, 'text'", NULL, 0,
                                    join_first_row, joined, &error), 0);
    assert_string_equal(joined, "0.30000000000000004|2.0|inf|7|NULL|text");
    assert_int_equal(sc_store_query(store, "SELECT x'00ff' AS bytes", NULL, 0, join_first_row, joined, &error), -1);
    assert_non_null(strstr(error.message, "column 'bytes' holds a BLOB"));
    sc_store_close(store);
}

/* A version-1 database (metrics and stalls with NULL for the whole run and the CU mean) is
 * migrated on open: its rows survive, clustered, with -1 in place of NULL. */
static void test_migrates_version_1_rows(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "version1.sqlite");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sc_migrations[0].sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA user_version = 1;"
                                  "INSERT INTO configs (hash, system, json) VALUES ('0123456789abcdef', 'gsi', '{}');"
                                  "INSERT INTO runs (id, tool_version, git_revision, system, config_hash, mechanism,"
                                  " workload, mode, status, cycles) VALUES (7, 'v', 'r', 'gsi', '0123456789abcdef',"
                                  " 'wt', 'uts', 'detailed', 'ok', 100);"
                                  "INSERT INTO metrics VALUES (7, NULL, 'l1_hits', 5, ''), (7, 0, 'l1_hits', 5, '');"
                                  "INSERT INTO stalls VALUES (7, NULL, 'NO_STALL', '', 100), (7, 0, 'NO_STALL', '', 100);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_non_null(store);
    assert_int_equal(count_rows(store, "SELECT user_version FROM pragma_user_version"), sc_migration_count);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics WHERE run_id = 7 AND kernel_index = -1"), 1);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics WHERE run_id = 7"), 2);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM stalls WHERE run_id = 7 AND cu = -1"), 1);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM stalls WHERE run_id = 7"), 2);
    assert_int_equal(sc_store_check(store, stderr, &error), 0);
    sc_store_close(store);
}

/* A version-2 database is migrated on open to the streaming indexes of 0003: its rows survive,
 * runs_by_point orders each design point's runs by id, and runs_failed holds the failed run. */
static void test_migrates_version_2_rows(void **state)
{
    (void)state;
    char path[512];
    path_in_directory(path, sizeof path, "version2.sqlite");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sc_migrations[0].sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sc_migrations[1].sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA user_version = 2;"
                                  "INSERT INTO configs (hash, system, json) VALUES ('0123456789abcdef', 'gsi', '{}');"
                                  "INSERT INTO runs (id, tool_version, git_revision, system, config_hash, mechanism,"
                                  " workload, mode, status, cycles) VALUES"
                                  " (7, 'v', 'r', 'gsi', '0123456789abcdef', 'wt', 'uts', 'detailed', 'ok', 100),"
                                  " (8, 'v', 'r', 'gsi', '0123456789abcdef', 'wt', 'uts', 'detailed', 'error', NULL);"
                                  "INSERT INTO metrics VALUES (7, -1, 'l1_hits', 5, ''), (7, 0, 'l1_hits', 5, '');"
                                  "INSERT INTO stalls VALUES (7, -1, 'NO_STALL', '', 100), (7, 0, 'NO_STALL', '', 100);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    if (!store)
        fail_msg("%s", error.message);
    assert_int_equal(count_rows(store, "SELECT user_version FROM pragma_user_version"), sc_migration_count);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM runs"), 2);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM metrics WHERE run_id = 7"), 2);
    assert_int_equal(count_rows(store, "SELECT count(*) FROM stalls WHERE run_id = 7"), 2);
    assert_int_equal(count_rows(store, "SELECT seqno FROM pragma_index_info('runs_by_point') WHERE name = 'id'"), 6);
    assert_int_equal(count_rows(store, "SELECT seqno FROM pragma_index_info('runs_by_sweep_point') WHERE name = 'id'"), 1);
    assert_int_equal(count_rows(store, "SELECT id FROM runs INDEXED BY runs_failed WHERE status != 'ok'"), 8);
    assert_int_equal(sc_store_check(store, stderr, &error), 0);
    sc_store_close(store);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_schema_matches_files),
        cmocka_unit_test(test_create_insert_read),
        cmocka_unit_test(test_migrates_version_1_rows),
        cmocka_unit_test(test_migrates_version_2_rows),
        cmocka_unit_test(test_failed_insert_leaves_nothing),
        cmocka_unit_test(test_rows_across_statements),
        cmocka_unit_test(test_batch_configurations),
        cmocka_unit_test(test_missing_sweep_point_refused),
        cmocka_unit_test(test_random_bytes_refused_untouched),
        cmocka_unit_test(test_truncated_refused_untouched),
        cmocka_unit_test(test_foreign_sqlite_refused),
        cmocka_unit_test(test_newer_version_refused_untouched),
        cmocka_unit_test(test_locked_database),
        cmocka_unit_test(test_concurrent_first_open),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_merge_shards),
        cmocka_unit_test(test_merge_maps_residual_ids),
        cmocka_unit_test(test_merge_checks_inputs_first),
        cmocka_unit_test(test_reader_refuses_changes),
        cmocka_unit_test(test_check_finds_bad_stall_sums),
        cmocka_unit_test(test_query_parameters),
        cmocka_unit_test(test_query_value_text),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
