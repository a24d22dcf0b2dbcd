/* test_queries.c — every canned query in queries/ is well formed, documents its question and
 * parameters, returns rows on a database of SYNTHETIC runs inserted through the API, and reads
 * the indexes that keep it under a second at 10^6 runs (checked on its query plan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocols/mechanism.h"
#include "store/canned_query.h"
#include "export/table.h"
#include "store/synthetic.h"

static char path[] = "/tmp/syncscope_queries_XXXXXX.sqlite";
static sc_store *store;

static int setup(void **state)
{
    (void)state;
    sc_error error;
    close(mkstemps(path, 7));
    unlink(path);
    sc_synthetic_set set;
    store = sc_store_open(path, &error);
    if (!store || sc_synthetic_init(&set, 8, &error) || sc_synthetic_add_sweep(&set, store, &error) ||
        sc_synthetic_add_validations(store, &error)) {
        fprintf(stderr, "%s\n", error.message);
        return -1;
    }
    for (long i = 0; i < 2000; i++) {
        sc_synthetic_run run;
        sc_synthetic_run_fill(&set, i, &run);
        if (sc_store_insert_run(store, &run.record, &error) < 0) {
            fprintf(stderr, "%s\n", error.message);
            return -1;
        }
    }
    sc_synthetic_free(&set);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sc_store_close(store);
    char sidecar[64];
    snprintf(sidecar, sizeof sidecar, "%s-wal", path);
    unlink(sidecar);
    snprintf(sidecar, sizeof sidecar, "%s-shm", path);
    unlink(sidecar);
    return unlink(path);
}

static void test_at_least_eight_queries(void **state)
{
    (void)state;
    char **names;
    size_t count;
    sc_error error;
    assert_int_equal(sc_canned_query_names(&names, &count, &error), 0);
    assert_true(count >= 8);
    sc_canned_names_free(names, count);
}

static void test_every_query_returns_rows(void **state)
{
    (void)state;
    char **names;
    size_t count;
    sc_error error;
    assert_int_equal(sc_canned_query_names(&names, &count, &error), 0);
    for (size_t i = 0; i < count; i++) {
        sc_canned_query query;
        assert_int_equal(sc_canned_query_load(names[i], &query, &error), 0);
        if (strlen(query.question) < 10 || !strchr(query.question, '?'))
            fail_msg("%s: the header must state the question it answers", names[i]);
        for (int p = 0; p < query.param_count; p++) {
            if (!*query.params[p].description)
                fail_msg("%s: parameter :%s is not described", names[i], query.params[p].name);
            for (int q = 0; q < p; q++)   /* a header line of prose that begins with ":name" */
                if (!strcmp(query.params[p].name, query.params[q].name))
                    fail_msg("%s: parameter :%s is declared twice in the header", names[i], query.params[p].name);
        }
        sc_query_param params[8];
        int param_count = sc_synthetic_query_params(&query, params);
        sc_table *table = NULL;
        if (sc_canned_query_run(store, &query, params, param_count, sc_table_collect, &table, &error))
            fail_msg("%s", error.message);
        if (table->row_count == 0)
            fail_msg("query %s returned no rows", names[i]);
        sc_table_free(table);
        sc_canned_query_free(&query);
    }
    sc_canned_names_free(names, count);
}

static void test_speedup_values(void **state)
{
    (void)state;
    sc_canned_query query;
    sc_error error;
    assert_int_equal(sc_canned_query_load("geomean_speedup", &query, &error), 0);
    const sc_query_param params[] = {{"baseline", "wt"}};
    sc_table *table = NULL;
    assert_int_equal(sc_canned_query_run(store, &query, params, 1, sc_table_collect, &table, &error), 0);
    int found = 0;
    for (size_t r = 0; r < table->row_count; r++) {
        const char *mechanism = sc_table_cell(table, r, 1)->as.text;
        double speedup = sc_cell_number(sc_table_cell(table, r, table->column_count - 1));
        if (!strcmp(mechanism, "wt"))
            assert_true(speedup == 1.0);
        if (!strcmp(mechanism, "qr")) {
            assert_true(speedup > 1.15 && speedup < 1.35); /* synthetic qr is 1.25x faster, +-2 % noise */
            found = 1;
        }
    }
    assert_true(found);
    sc_table_free(table);
    sc_canned_query_free(&query);
}

/* The EXPLAIN QUERY PLAN rows (id, parent, notused, detail) of canned query `name` with the
 * synthetic parameters. */
static sc_table *query_plan(const char *name)
{
    sc_canned_query query;
    sc_error error;
    assert_int_equal(sc_canned_query_load(name, &query, &error), 0);
    char *sql = query.sql;
    query.sql = malloc(strlen(sql) + sizeof "EXPLAIN QUERY PLAN ");
    strcat(strcpy(query.sql, "EXPLAIN QUERY PLAN "), sql);
    free(sql);
    sc_query_param params[8];
    int param_count = sc_synthetic_query_params(&query, params);
    sc_table *plan = NULL;
    if (sc_canned_query_run(store, &query, params, param_count, sc_table_collect, &plan, &error))
        fail_msg("%s", error.message);
    sc_canned_query_free(&query);
    return plan;
}

/* The plan step's detail text (column 3) and its parent step's id (column 1). */
static const char *plan_detail(const sc_table *plan, size_t row)
{
    return sc_table_cell(plan, row, 3)->as.text;
}

static long long plan_parent(const sc_table *plan, size_t row)
{
    return sc_table_cell(plan, row, 1)->as.integer;
}

/* Fails unless canned query `name` reads `index`, and its step that does (and the steps beside
 * it) needs no temporary b-tree for GROUP BY: the runs stream through in index order, unsorted. */
static void assert_streams_through(const char *name, const char *index)
{
    sc_table *plan = query_plan(name);
    long long parent = -1;
    for (size_t r = 0; r < plan->row_count && parent < 0; r++)
        if (strstr(plan_detail(plan, r), index))
            parent = plan_parent(plan, r);
    if (parent < 0)
        fail_msg("query %s does not read index %s", name, index);
    for (size_t r = 0; r < plan->row_count; r++)
        if (plan_parent(plan, r) == parent && strstr(plan_detail(plan, r), "TEMP B-TREE FOR GROUP BY"))
            fail_msg("query %s sorts the rows it reads from %s before grouping them", name, index);
    sc_table_free(plan);
}

/* Fails if canned query `name` scans a whole table (a plan step "SCAN runs" or "SCAN r"). */
static void assert_no_full_scan_of_runs(const char *name)
{
    sc_table *plan = query_plan(name);
    for (size_t r = 0; r < plan->row_count; r++)
        if (!strcmp(plan_detail(plan, r), "SCAN runs") || !strcmp(plan_detail(plan, r), "SCAN r"))
            fail_msg("query %s scans the whole runs table", name);
    sc_table_free(plan);
}

static void test_plans_use_the_indexes(void **state)
{
    (void)state;
    assert_streams_through("run_summary", "COVERING INDEX runs_by_point");
    assert_streams_through("speedup", "COVERING INDEX runs_by_point");
    assert_streams_through("geomean_speedup", "COVERING INDEX runs_by_point");
    assert_streams_through("best_configs", "COVERING INDEX runs_by_point (workload>? AND workload<?)");
    assert_streams_through("sensitivity", "COVERING INDEX runs_by_sweep_point");
    assert_no_full_scan_of_runs("runs_matching");
    assert_no_full_scan_of_runs("run_outcomes");
}

static void test_missing_and_unknown(void **state)
{
    (void)state;
    sc_canned_query query;
    sc_error error;
    assert_int_equal(sc_canned_query_load("speedupp", &query, &error), -1);
    assert_non_null(strstr(error.message, "unknown query 'speedupp'"));
    assert_non_null(strstr(error.message, "speedup"));
    /* Every canned query has defaults for all its parameters; one without is refused by name. */
    char required[] = "/tmp/syncscope_required_XXXXXX.sql";
    FILE *file = fdopen(mkstemps(required, 4), "w");
    fputs("-- required: which runs ran :workload?\n-- :workload  workload name\n"
          "SELECT id FROM runs WHERE workload = :workload;\n", file);
    fclose(file);
    assert_int_equal(sc_canned_query_load(required, &query, &error), 0);
    assert_int_equal(sc_canned_query_run(store, &query, NULL, 0, NULL, NULL, &error), -1);
    assert_non_null(strstr(error.message, "parameter :workload is not set"));
    unlink(required);
    sc_canned_query_free(&query);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_at_least_eight_queries),
        cmocka_unit_test(test_every_query_returns_rows),
        cmocka_unit_test(test_speedup_values),
        cmocka_unit_test(test_plans_use_the_indexes),
        cmocka_unit_test(test_missing_and_unknown),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
