/* test_run_reuse.c — reusing detailed runs of an earlier database (store.h, store_reuse.c,
 * store_merge.c): a run is found only when every field of its key is equal (the detailed identity,
 * the configuration's hash and canonical JSON, system, mechanism, workload and parameters, mode,
 * seed, a sampled run's settings), never when it is jittered, failed or stored without an identity,
 * and never twice for one study; a copy holds the whole run and says where it came from; an
 * earlier database that is missing, foreign, of an older schema or locked is refused in one line
 * and left unchanged. Runs are SYNTHETIC test data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/files.h"
#include "protocols/mechanism.h"
#include "store/store.h"
#include "store/synthetic.h"
#include "store_test_support.h"

static const char identity[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/* Synthetic run 0 (a detailed wt run), stored with the test's identity and the settings given. */
static void fill_run(sc_synthetic_run *run, const sc_metric_row *settings, int setting_count)
{
    sc_synthetic_run_fill(&synthetic, 0, run);
    run->record.detailed_identity = identity;
    for (int s = 0; s < setting_count; s++)
        run->metrics[s] = settings[s];
}

/* Stores `records` in a new database `name` of the scratch directory (their ids in ids[] when not
 * NULL) and opens it as a source of runs to reuse. */
static sc_store *source_holding(const char *name, const sc_run_record *records, int count, int64_t *ids)
{
    char path[512];
    path_in_directory(path, sizeof path, name);
    sc_error error;
    sc_store *store = sc_store_open(path, &error);
    assert_non_null(store);
    for (int r = 0; r < count; r++) {
        int64_t id = sc_store_insert_run(store, &records[r], &error);
        if (id < 0)
            fail_msg("%s", error.message);
        if (ids)
            ids[r] = id;
    }
    sc_store_close(store);
    sc_store *source = sc_store_open_run_source(path, &error);
    if (!source)
        fail_msg("%s", error.message);
    return source;
}

/* The key of a stored record: what a study would look for to reuse it. */
static sc_run_key key_of(const sc_run_record *record)
{
    return (sc_run_key){.system = record->system, .config_json = record->config_json,
                        .config_hash = record->config_hash, .mechanism = record->mechanism,
                        .workload = record->workload, .workload_params = record->workload_params,
                        .mode = record->mode, .seed = record->seed, .detailed_identity = identity};
}

static int64_t find(sc_store *source, const sc_run_key *key)
{
    sc_error error;
    int64_t id = sc_store_find_same_run(source, key, NULL, 0, &error);
    if (id < 0)
        fail_msg("%s", error.message);
    return id;
}

static void test_every_key_field_must_match(void **state)
{
    (void)state;
    sc_synthetic_run run;
    fill_run(&run, NULL, 0);
    int64_t id;
    sc_store *source = source_holding("fields.sqlite", &run.record, 1, &id);
    sc_run_key key = key_of(&run.record);
    assert_int_equal(find(source, &key), id);
    char other_json[65536];
    snprintf(other_json, sizeof other_json, "%s", run.record.config_json);
    char *brace = strrchr(other_json, '}');
    snprintf(brace, sizeof other_json - (size_t)(brace - other_json), ",\"extra\":1}");
    enum { CHANGES = 10 };
    sc_run_key changed[CHANGES];
    for (int c = 0; c < CHANGES; c++)
        changed[c] = key;
    changed[0].detailed_identity = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";
    changed[1].config_json = other_json;   /* the same hash, one more key: the JSON is compared too */
    changed[2].config_hash = synthetic.config_hash[1];
    changed[3].system = "gtx480-other";
    changed[4].mechanism = "nol1";
    changed[5].workload = "synthetic-1";
    changed[6].workload_params = "{\"synthetic\":false}";
    changed[7].mode = "sampled";
    changed[8].seed = key.seed + 1;
    changed[9].detailed_identity = NULL;
    for (int c = 0; c < CHANGES; c++)
        if (find(source, &changed[c]) != 0)
            fail_msg("key change %d still found the run", c);
    sc_store_close(source);
}

static void test_runs_never_reused(void **state)
{
    (void)state;
    sc_synthetic_run run;
    fill_run(&run, NULL, 0);
    sc_run_record records[] = {run.record, run.record, run.record, run.record};
    records[0].jittered = true;
    records[0].jitter = 7;
    records[1].status = "check_failed";
    records[2].detailed_identity = NULL;   /* stored before schema 6, or a mode the identity does not cover */
    records[3].cycles = -1;                /* did not finish */
    sc_store *source = source_holding("never.sqlite", records, 4, NULL);
    sc_run_key key = key_of(&run.record);
    assert_int_equal(find(source, &key), 0);
    sc_store_close(source);
}

static void test_sampled_settings_must_match(void **state)
{
    (void)state;
    const sc_metric_row settings[] = {{-1, "sample.period", 20, NULL}, {-1, "sample.window_waves", 8, "waves"}};
    sc_synthetic_run run;
    fill_run(&run, settings, 2);
    int64_t id;
    sc_store *source = source_holding("settings.sqlite", &run.record, 1, &id);
    sc_run_key key = key_of(&run.record);
    key.settings = settings;
    key.setting_count = 2;
    assert_int_equal(find(source, &key), id);
    const sc_metric_row other_period[] = {{-1, "sample.period", 10, NULL}, settings[1]};
    const sc_metric_row other_waves[] = {settings[0], {-1, "sample.window_waves", 8.000000001, "waves"}};
    const sc_metric_row not_stored[] = {settings[0], {-1, "sample.warmup_launches", 1, NULL}};
    const sc_metric_row *different[] = {other_period, other_waves, not_stored};
    for (size_t d = 0; d < sizeof different / sizeof different[0]; d++) {
        key.settings = different[d];
        assert_int_equal(find(source, &key), 0);
    }
    sc_store_close(source);
}

static void test_taken_runs_skipped(void **state)
{
    (void)state;
    sc_synthetic_run run;
    fill_run(&run, NULL, 0);
    sc_run_record records[] = {run.record, run.record};
    int64_t ids[2];
    sc_store *source = source_holding("taken.sqlite", records, 2, ids);
    sc_run_key key = key_of(&run.record);
    sc_error error;
    assert_int_equal(sc_store_find_same_run(source, &key, ids, 1, &error), ids[1]);
    assert_int_equal(sc_store_find_same_run(source, &key, ids, 2, &error), 0);
    sc_store_close(source);
}

static void test_copy_is_whole_and_marked(void **state)
{
    (void)state;
    sc_synthetic_run first, run;
    sc_synthetic_run_fill(&synthetic, 5, &first);
    fill_run(&run, NULL, 0);
    sc_run_record records[] = {first.record, run.record};
    int64_t ids[2];
    sc_store *source = source_holding("old.sqlite", records, 2, ids);

    char new_path[512];
    path_in_directory(new_path, sizeof new_path, "new.sqlite");
    sc_error error;
    sc_store *to = sc_store_open(new_path, &error);
    int64_t before = insert_synthetic(to, 32);   /* another configuration */
    int64_t copy = sc_store_copy_run(to, source, ids[1], &error);
    if (copy < 0)
        fail_msg("%s", error.message);
    assert_int_equal(copy, before + 1);   /* numbered after the output's runs */
    assert_int_equal(sc_store_copy_run(to, source, ids[1], &error), copy);   /* copied once */
    assert_int_equal(count_rows(to, "SELECT count(*) FROM runs"), 2);
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM runs WHERE id = %lld AND reused_from = '%s' AND reused_run_id = %lld"
             " AND detailed_identity = '%s' AND cycles = %.17g AND workload = 'synthetic-0' AND mode = 'detailed'",
             (long long)copy, sc_store_path(source), (long long)ids[1], identity, run.record.cycles);
    assert_int_equal(count_rows(to, sql), 1);
    const struct {
        const char *table;
        int rows;
    } children[] = {{"metrics", SC_SYNTHETIC_METRICS}, {"stalls", SC_SYNTHETIC_STALLS}, {"kernels", 1}};
    for (size_t c = 0; c < sizeof children / sizeof children[0]; c++) {
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE run_id = %lld", children[c].table, (long long)copy);
        assert_int_equal(count_rows(to, sql), children[c].rows);
    }
    assert_int_equal(count_rows(to, "SELECT count(*) FROM configs"), 2);
    assert_int_equal(sc_store_check(to, stderr, &error), 0);
    sc_store_close(source);
    sc_store_close(to);
}

static void expect_refused(const char *path, const char *text)
{
    sc_error error = {{0}};
    assert_null(sc_store_open_run_source(path, &error));
    if (!strstr(error.message, path) || !strstr(error.message, text) || strchr(error.message, '\n'))
        fail_msg("expected one line naming %s with '%s', got: %s", path, text, error.message);
}

static void test_bad_sources_refused(void **state)
{
    (void)state;
    char missing[512], foreign[512], older[512], locked[512];
    path_in_directory(missing, sizeof missing, "missing.sqlite");
    path_in_directory(foreign, sizeof foreign, "foreign.sqlite");
    path_in_directory(older, sizeof older, "older.sqlite");
    path_in_directory(locked, sizeof locked, "locked.sqlite");
    expect_refused(missing, "no such database");
    assert_int_equal(access(missing, F_OK), -1);

    sqlite3 *db;
    sqlite3_open(foreign, &db);
    sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL);
    sqlite3_close(db);
    expect_refused(foreign, "not a syncscope database");

    sc_error error;
    sc_store *store = sc_store_open(older, &error);
    insert_synthetic(store, 0);
    sc_store_close(store);
    sqlite3_open(older, &db);
    sqlite3_exec(db, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 5", NULL, NULL, NULL);
    sqlite3_close(db);
    size_t size;
    char *before = file_bytes(older, &size);
    expect_refused(older, "schema version 5 predates the detailed identity");
    assert_file_unchanged(older, before, size);   /* not migrated */
    free(before);

    store = sc_store_open(locked, &error);
    insert_synthetic(store, 0);
    sc_store_close(store);
    sqlite3_open(locked, &db);
    assert_int_equal(sqlite3_exec(db, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; DELETE FROM sweeps;", NULL,
                                  NULL, NULL), SQLITE_OK);
    expect_refused(locked, "locked");
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
}

int main(void)
{
    sc_mechanism_add_config_keys();   /* the presets name the mechanisms' keys */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_field_must_match),
        cmocka_unit_test(test_runs_never_reused),
        cmocka_unit_test(test_sampled_settings_must_match),
        cmocka_unit_test(test_taken_runs_skipped),
        cmocka_unit_test(test_copy_is_whole_and_marked),
        cmocka_unit_test(test_bad_sources_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
