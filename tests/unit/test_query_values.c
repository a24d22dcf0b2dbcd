/* test_query_values.c — every canned query in queries/ returns the values an independent C
 * computation gives over a small database whose every value the test chose: runs of two systems,
 * two configurations, two workloads (one with two parameter sets), two modes and three mechanisms,
 * a point without a baseline run, failed runs (some with no cycles), an ok run with 0 cycles,
 * metrics of the whole run and of one kernel, per-CU and mean stall rows, three sweeps (two with
 * one name), and calibrations with different numbers of validations (one with none).
 *
 * For each query (with its defaults and with other parameters) the expected rows are computed in
 * C from the arrays below, by loops over the runs, not by SQL, and compared with the query's rows:
 * the same number of rows, and every expected row matched by one distinct returned row whose text
 * columns are equal and whose numbers agree to the query's rounding. A query that normalises to
 * the wrong baseline, joins the wrong rows, drops a filter or aggregates differently fails here:
 * scripts/mutation_check.sh breaks every query file in such ways and expects this test to fail.
 * Row order is not compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocols/mechanism.h"
#include "store/canned_query.h"
#include "export/formats.h"
#include "export/table.h"

/* ---- the known database ---- */

enum { METRICS = 17, STALLS = 4, MAX_RUNS = 256 };

static const char *const metric_names[METRICS] = {
    "instructions", "dram_reads", "dram_writes", "noc_bytes", "noc_bytes_in.cu0", "l1_data_bytes_in",
    "memory_write_bytes", "traffic.l1_l2.bytes", "l1_hits", "l1_misses", "l1_mshr_merges", "l2_misses",
    "dramatic",   /* not traffic: 'dram[._]*' must not take it */
    "noc_bytes.rcl", "noc_flits.ld", "noc_energy_router_static", "noc_messages",   /* the last: not traffic */
};
enum { DRAM_READS = 1, DRAM_WRITES = 2, L1_HITS = 8, L1_MISSES = 9, L1_MSHR_MERGES = 10, L2_MISSES = 11 };
static const char *const stall_names[STALLS][2] = {
    {"NO_STALL", ""}, {"MEM_DATA", "L2"}, {"MEM_DATA", "MAIN_MEMORY"}, {"SYNC", ""},
};

typedef struct known_config {
    const char *hash, *json, *l1_text, *cus_text;
    double cu_count, l1, l2, l3;
} known_config;

static const known_config configs[] = {
    {"00000000000000a1", "{\"gpu\":{\"cu_count\":2},\"l1\":{\"size\":16384},\"l2\":{\"size\":131072},\"l3\":{\"size\":0}}",
     "16384", "2", 2, 16384, 131072, 0},
    {"00000000000000b2",
     "{\"gpu\":{\"cu_count\":4},\"l1\":{\"size\":32768},\"l2\":{\"size\":262144},\"l3\":{\"size\":1048576}}", "32768",
     "4", 4, 32768, 262144, 1048576},
};
static const char *const systems[] = {"s1", "s2"};
static const char *const workloads[] = {"wa", "wb"};
static const char *const param_sets[] = {"{}", "{\"n\":2}"};
static const char *const modes[] = {"detailed", "model"};
static const char *const mechanisms[] = {"wt", "qr", "rfo"};

/* Sweep points: (sweep, index, params); a run names its point by position here. */
typedef struct known_sweep { const char *name, *spec; } known_sweep;
static const known_sweep sweeps[] = {
    {"sw1", "{\"vary\":[\"l1.size\",\"x.knob\"]}"}, {"sw1", "{\"vary\":[\"l1.size\"]}"}, {"sw2", "{\"vary\":[\"y\"]}"},
};
typedef struct known_point {
    int sweep, index;
    const char *params;
    const char *keys[2], *values[2];   /* the params as (key, value text) pairs; NULL key: none */
} known_point;
static const known_point points[] = {
    {0, 0, "{\"l1.size\":16384,\"x.knob\":1}", {"l1.size", "x.knob"}, {"16384", "1"}},
    {0, 1, "{\"l1.size\":16384,\"x.knob\":2}", {"l1.size", "x.knob"}, {"16384", "2"}},
    {0, 2, "{\"l1.size\":32768,\"x.knob\":1}", {"l1.size", "x.knob"}, {"32768", "1"}},
    {0, 3, "{\"l1.size\":32768,\"x.knob\":2}", {"l1.size", "x.knob"}, {"32768", "2"}},
    {1, 0, "{\"l1.size\":16384}", {"l1.size", NULL}, {"16384", NULL}},
    {1, 1, "{\"l1.size\":32768}", {"l1.size", NULL}, {"32768", NULL}},
    {2, 0, "{\"y\":\"a\",\"x.knob\":1}", {"y", "x.knob"}, {"a", "1"}},
    {2, 1, "{\"y\":\"b\",\"x.knob\":1}", {"y", "x.knob"}, {"b", "1"}},
};
enum { POINTS = sizeof points / sizeof points[0], SWEEPS = sizeof sweeps / sizeof sweeps[0] };

typedef struct known_run {
    int64_t id;
    const char *system, *mechanism, *workload, *params, *mode, *status;
    char message[48];
    int config, point;                 /* point: index into points[], -1 for none */
    double cycles;                     /* < 0: NULL */
    double metric[METRICS];            /* < 0: not stored */
    double kernel_dram_reads;          /* kernel 0's dram_reads row: never a whole-run value */
    double stall[STALLS];              /* mean over CUs (cu = -1); < 0: not stored */
} known_run;

static known_run runs[MAX_RUNS];
static int run_count;

typedef struct known_calibration {
    const char *mechanism, *system;
    double r2;
    const char *workload;   /* NULL: a suite-wide fit */
} known_calibration;
static const known_calibration calibrations[] = {
    {"wt", "s1", 0.9, NULL}, {"wt", "s1", 0.5, NULL}, {"qr", "s2", 0.8, NULL},
    {"rfo", "s1", 0.7, NULL},   /* rfo: no validations */
    {"wt", "s1", 0.6, "wb"},    /* fitted to wb alone */
};
enum { CALIBRATIONS = sizeof calibrations / sizeof calibrations[0] };

typedef struct known_validation {
    int calibration, detailed, model;  /* indexes into calibrations[] and runs[] */
    double stall_fraction_error;
} known_validation;
static known_validation validations[8];
static int validation_count;

static void make_runs(void)
{
    int key = 0;
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 2; c++)
            for (int w = 0; w < 2; w++)
                for (int p = 0; p < (w == 0 ? 2 : 1); p++)
                    for (int mode = 0; mode < 2; mode++)
                        for (int m = 0; m < 3; m++, key++) {
                            if (s == 1 && c == 1 && w == 1 && mode == 1 && m == 0)
                                continue; /* a design point with no baseline run */
                            for (int rep = 0; rep < 1 + key % 3; rep++) {
                                int i = run_count++;
                                known_run *run = &runs[i];
                                memset(run, 0, sizeof *run);
                                run->system = systems[s];
                                run->mechanism = mechanisms[m];
                                run->workload = workloads[w];
                                run->params = param_sets[p];
                                run->mode = modes[mode];
                                run->config = c;
                                run->cycles = 1000 + (key * 7919 + rep * 104729) % 9000;
                                run->status = "ok";
                                if (i % 11 == 5)
                                    run->status = "check_failed";
                                else if (i % 13 == 7)
                                    run->status = "error";
                                if (i % 13 == 7 && i % 2)
                                    run->cycles = -1;
                                if (i == 22)
                                    run->cycles = 0; /* finished, but no cycles: left out of ratios */
                                snprintf(run->message, sizeof run->message, i % 11 == 5 || i % 13 == 7 ?
                                         "known failure %d" : "", i);
                                run->point = -1;
                                if (s == 0 && mode == 0)
                                    run->point = c * 2 + w;
                                else if (s == 1 && mode == 0 && p == 0)
                                    run->point = 4 + c;
                                else if (s == 1 && mode == 1)
                                    run->point = 6 + w;
                                for (int k = 0; k < METRICS; k++)
                                    run->metric[k] = 1 + (i * 37 + k * 101) % 997 + k;
                                if (mode == 1)
                                    run->metric[DRAM_WRITES] = -1;
                                else if (s == 1 && m == 0)
                                    run->metric[DRAM_WRITES] = 0; /* the baseline moved nothing */
                                run->kernel_dram_reads = 5000 + i;
                                for (int k = 0; k < STALLS; k++)
                                    run->stall[k] = -1;
                                if (run->cycles >= 0) {
                                    run->stall[0] = run->cycles * 0.5;
                                    run->stall[1] = run->cycles * (0.1 + 0.01 * (i % 7));
                                    run->stall[2] = run->cycles * 0.15;
                                    if (m != 2)
                                        run->stall[3] = run->cycles - run->stall[0] - run->stall[1] - run->stall[2];
                                }
                            }
                        }
}

/* The first run with cycles > 0 of (system, config, workload wa with {}, mechanism, mode). */
static int find_run(const char *system, int config, const char *workload, const char *mechanism, const char *mode)
{
    for (int i = 0; i < run_count; i++)
        if (!strcmp(runs[i].system, system) && runs[i].config == config && !strcmp(runs[i].workload, workload) &&
            !strcmp(runs[i].params, "{}") && !strcmp(runs[i].mechanism, mechanism) &&
            !strcmp(runs[i].mode, mode) && runs[i].cycles > 0)
            return i;
    fail_msg("no run of %s %d %s %s %s", system, config, workload, mechanism, mode);
    return -1;
}

static void add_validation(int calibration, int config, const char *workload)
{
    const known_calibration *c = &calibrations[calibration];
    validations[validation_count++] = (known_validation){
        calibration, find_run(c->system, config, workload, c->mechanism, "detailed"),
        find_run(c->system, config, workload, c->mechanism, "model"), 0.01 * (validation_count % 4 + 1)};
}

/* ---- storing it ---- */

static char path[] = "/tmp/syncscope_query_values_XXXXXX.sqlite";
static sc_store *store;

static int fail_setup(const sc_error *error)
{
    fprintf(stderr, "%s\n", error->message);
    return -1;
}

static int setup(void **state)
{
    (void)state;
    sc_error error;
    close(mkstemps(path, 7));
    unlink(path);
    store = sc_store_open(path, &error);
    if (!store)
        return fail_setup(&error);
    make_runs();
    int64_t point_ids[POINTS];
    for (int p = 0; p < POINTS; p++) {
        int64_t sweep = sc_store_ensure_sweep(store, sweeps[points[p].sweep].name, sweeps[points[p].sweep].spec, &error);
        if (sweep < 0 || (point_ids[p] = sc_store_ensure_sweep_point(store, sweep, points[p].index, points[p].params,
                                                                     &error)) < 0)
            return fail_setup(&error);
    }
    for (int i = 0; i < run_count; i++) {
        known_run *run = &runs[i];
        sc_metric_row metrics[METRICS + 1];
        int metric_count = 0;
        for (int k = 0; k < METRICS; k++)
            if (run->metric[k] >= 0)
                metrics[metric_count++] = (sc_metric_row){-1, metric_names[k], run->metric[k], NULL};
        metrics[metric_count++] = (sc_metric_row){0, "dram_reads", run->kernel_dram_reads, NULL};
        sc_stall_row stalls[STALLS + 1];
        int stall_count = 0;
        for (int k = 0; k < STALLS; k++)
            if (run->stall[k] >= 0)
                stalls[stall_count++] = (sc_stall_row){-1, stall_names[k][0], stall_names[k][1], run->stall[k]};
        if (run->cycles >= 0) /* one CU's row: never read by the queries, which take the mean rows */
            stalls[stall_count++] = (sc_stall_row){0, "NO_STALL", NULL, run->cycles * 3};
        sc_kernel_row kernel = {0, "known_kernel", {1, 1, 1}, {32, 1, 1}, 100, run->cycles >= 0 ? run->cycles : 0};
        sc_run_record record = {
            .system = run->system, .config_json = configs[run->config].json,
            .config_hash = configs[run->config].hash, .mechanism = run->mechanism, .workload = run->workload,
            .workload_params = run->params, .mode = run->mode, .status = run->status,
            .check_detail = run->message, .cycles = run->cycles, .wall_seconds = 1,
            .sweep_point_id = run->point >= 0 ? point_ids[run->point] : 0,
            .kernels = &kernel, .kernel_count = 1, .metrics = metrics, .metric_count = metric_count,
            .stalls = stalls, .stall_count = stall_count,
        };
        if ((run->id = sc_store_insert_run(store, &record, &error)) < 0)
            return fail_setup(&error);
    }
    int64_t calibration_ids[CALIBRATIONS];
    for (int c = 0; c < CALIBRATIONS; c++) {
        sc_calibration_row row = {.mechanism = calibrations[c].mechanism, .system = calibrations[c].system,
                                  .params = "{\"a\":1}", .covariance = "[[0.01]]", .residuals = "[]",
                                  .r2 = calibrations[c].r2, .sample_count = 4, .workload = calibrations[c].workload,
                                  .workload_params = calibrations[c].workload ? "{}" : NULL};
        if ((calibration_ids[c] = sc_store_insert_calibration(store, &row, &error)) < 0)
            return fail_setup(&error);
    }
    add_validation(0, 0, "wa");
    add_validation(0, 0, "wb");
    add_validation(0, 1, "wb");
    add_validation(1, 1, "wa");
    add_validation(2, 0, "wa");
    add_validation(2, 1, "wa");
    add_validation(4, 0, "wb");
    add_validation(4, 1, "wb");
    for (int v = 0; v < validation_count; v++) {
        const known_validation *known = &validations[v];
        char values[6][32];
        snprintf(values[0], sizeof values[0], "%lld", (long long)calibration_ids[known->calibration]);
        snprintf(values[1], sizeof values[1], "%lld", (long long)runs[known->detailed].id);
        snprintf(values[2], sizeof values[2], "%lld", (long long)runs[known->model].id);
        snprintf(values[3], sizeof values[3], "%.17g", runs[known->detailed].cycles);
        snprintf(values[4], sizeof values[4], "%.17g", runs[known->model].cycles);
        snprintf(values[5], sizeof values[5], "%.17g", known->stall_fraction_error);
        const sc_query_param params[] = {{"calibration", values[0]}, {"workload", runs[known->detailed].workload},
                                         {"detailed", values[1]}, {"model", values[2]}, {"detailed_cycles", values[3]},
                                         {"model_cycles", values[4]}, {"error", values[5]}};
        if (sc_store_query(store,
                           "INSERT INTO validations (calibration_id, workload, point_config, detailed_run_id, "
                           "model_run_id, detailed_cycles, model_cycles, stall_fraction_error) VALUES (:calibration, "
                           ":workload, '{}', :detailed, :model, :detailed_cycles, :model_cycles, :error)",
                           params, 7, NULL, NULL, &error))
            return fail_setup(&error);
    }
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

/* ---- expected rows and their comparison ---- */

enum cell_kind { CELL_TEXT, CELL_NUMBER, CELL_NULL, CELL_ANY };
typedef struct cell {
    enum cell_kind kind;
    char text[64];
    double number;
    int decimals;        /* the query rounds the number to this many decimals */
} cell;
enum { MAX_COLUMNS = 16 };
typedef struct expected {
    int column_count;
    size_t row_count, capacity;
    cell (*rows)[MAX_COLUMNS];
    int column;          /* the next cell of the row being added */
} expected;

static void row(expected *e)
{
    if (e->row_count == e->capacity) {
        e->capacity = e->capacity ? 2 * e->capacity : 64;
        e->rows = realloc(e->rows, e->capacity * sizeof *e->rows);
    }
    e->row_count++;
    e->column = 0;
}
static cell *next_cell(expected *e)
{
    assert_true(e->column < MAX_COLUMNS);
    cell *c = &e->rows[e->row_count - 1][e->column++];
    memset(c, 0, sizeof *c);
    return c;
}
static void text(expected *e, const char *value)
{
    cell *c = next_cell(e);
    c->kind = CELL_TEXT;
    snprintf(c->text, sizeof c->text, "%s", value);
}
static void number(expected *e, double value, int decimals)
{
    cell *c = next_cell(e);
    c->kind = CELL_NUMBER;
    c->number = value;
    c->decimals = decimals;
}
static void null(expected *e) { next_cell(e)->kind = CELL_NULL; }
static void any(expected *e) { next_cell(e)->kind = CELL_ANY; }

static bool cell_matches(const cell *c, const sc_cell *actual)
{
    switch (c->kind) {
    case CELL_ANY:
        return true;
    case CELL_NULL:
        return actual->type == SC_CELL_NULL;
    case CELL_TEXT:
        return actual->type == SC_CELL_TEXT && !strcmp(actual->as.text, c->text);
    case CELL_NUMBER:
        if (actual->type != SC_CELL_INTEGER && actual->type != SC_CELL_REAL)
            return false;
        double value = sc_cell_number(actual);
        return fabs(value - c->number) <= 0.5001 * pow(10, -c->decimals) + 1e-9 * fabs(c->number);
    }
    return false;
}

/* Prints the returned rows on stderr, for a failure's diagnosis. */
static void print_returned(const char *name, const sc_table *table)
{
    char *text = sc_export_aligned(table);
    fprintf(stderr, "%s returned:\n%s", name, text);
    free(text);
}

static void format_cell(const cell *c, char *out, size_t size)
{
    if (c->kind == CELL_TEXT)
        snprintf(out, size, "%s", c->text);
    else if (c->kind == CELL_NUMBER)
        snprintf(out, size, "%.*f", c->decimals + 2, c->number);
    else
        snprintf(out, size, c->kind == CELL_NULL ? "NULL" : "*");
}

/* Runs canned query `name` with `params` and fails unless its rows are exactly `e`'s (in any
 * order). Frees `e`. */
static void check_query(const char *name, const sc_query_param *params, int param_count, expected *e)
{
    sc_canned_query query;
    sc_error error;
    assert_int_equal(sc_canned_query_load(name, &query, &error), 0);
    sc_table *table = NULL;
    if (sc_canned_query_run(store, &query, params, param_count, sc_table_collect, &table, &error))
        fail_msg("%s: %s", name, error.message);
    if ((int)table->column_count != e->column_count)
        fail_msg("%s: %d columns, expected %d", name, (int)table->column_count, e->column_count);
    if (e->row_count == 0)
        fail_msg("%s: the known database gives no rows to compare (a test of nothing)", name);
    bool *taken = calloc(table->row_count + 1, sizeof *taken);
    for (size_t r = 0; r < e->row_count; r++) {
        size_t found = table->row_count;
        for (size_t a = 0; a < table->row_count && found == table->row_count; a++) {
            bool all = !taken[a];
            for (int c = 0; c < e->column_count && all; c++)
                all = cell_matches(&e->rows[r][c], sc_table_cell(table, a, (size_t)c));
            if (all)
                found = a;
        }
        if (found == table->row_count) {
            char line[1024] = "", part[96];
            for (int c = 0; c < e->column_count; c++) {
                format_cell(&e->rows[r][c], part, sizeof part);
                snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s=%s", c ? " " : "", table->column_names[c], part);
            }
            print_returned(name, table);
            fail_msg("%s: no returned row matches the expected row %s", name, line);
        }
        taken[found] = true;
    }
    if (table->row_count != e->row_count) {
        print_returned(name, table);
        fail_msg("%s: %zu rows, expected %zu", name, table->row_count, e->row_count);
    }
    free(taken);
    free(e->rows);
    sc_table_free(table);
    sc_canned_query_free(&query);
}

/* ---- the independent computation ---- */

static bool ok(const known_run *r) { return !strcmp(r->status, "ok"); }
/* Counts in speedups, geometric means and stall breakdowns: ok, with cycles > 0. */
static bool timed(const known_run *r) { return ok(r) && r->cycles > 0; }
static bool same_point(const known_run *a, const known_run *b)
{
    return !strcmp(a->system, b->system) && !strcmp(a->workload, b->workload) && !strcmp(a->params, b->params) &&
           a->config == b->config && !strcmp(a->mode, b->mode);
}
static bool same_point_mechanism(const known_run *a, const known_run *b)
{
    return same_point(a, b) && !strcmp(a->mechanism, b->mechanism);
}

/* Mean cycles of the timed runs of `mechanism` on `like`'s design point; false when none. */
static bool point_cycles(const known_run *like, const char *mechanism, double *mean, int *count)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < run_count; i++)
        if (timed(&runs[i]) && same_point(&runs[i], like) && !strcmp(runs[i].mechanism, mechanism)) {
            sum += runs[i].cycles;
            n++;
        }
    if (count)
        *count = n;
    *mean = n ? sum / n : 0;
    return n > 0;
}

/* Whether runs[i] is the first run that `eligible` accepts among those `same` calls equal to it. */
static bool first_of(int i, bool (*eligible)(const known_run *), bool (*same)(const known_run *, const known_run *))
{
    if (eligible && !eligible(&runs[i]))
        return false;
    for (int j = 0; j < i; j++)
        if ((!eligible || eligible(&runs[j])) && same(&runs[j], &runs[i]))
            return false;
    return true;
}

static bool same_summary(const known_run *a, const known_run *b)
{
    return !strcmp(a->system, b->system) && !strcmp(a->mechanism, b->mechanism) && !strcmp(a->mode, b->mode);
}

static void test_run_summary(void **state)
{
    (void)state;
    expected e = {.column_count = 8};
    for (int i = 0; i < run_count; i++) {
        if (!first_of(i, NULL, same_summary))
            continue;
        int total = 0, good = 0, failed = 0, errors = 0, workload_seen[2] = {0, 0};
        for (int j = 0; j < run_count; j++)
            if (same_summary(&runs[i], &runs[j])) {
                total++;
                good += ok(&runs[j]);
                failed += !strcmp(runs[j].status, "check_failed");
                errors += !strcmp(runs[j].status, "error");
                workload_seen[strcmp(runs[j].workload, "wa") != 0] = 1;
            }
        row(&e);
        text(&e, runs[i].system), text(&e, runs[i].mechanism), text(&e, runs[i].mode);
        number(&e, total, 0), number(&e, good, 0), number(&e, failed, 0), number(&e, errors, 0);
        number(&e, workload_seen[0] + workload_seen[1], 0);
    }
    check_query("run_summary", NULL, 0, &e);
}

/* The speedups over `baseline` of the design points of the timed runs that `in_group` calls equal
 * to runs[i]: one ratio (baseline mean / mechanism mean) per point that has a baseline run. */
static int point_speedups(int i, const char *baseline, bool (*in_group)(const known_run *, const known_run *),
                          double *ratios, int *workload_count)
{
    int n = 0;
    bool seen[2] = {false, false};
    for (int j = 0; j < run_count; j++) {
        if (!timed(&runs[j]) || !in_group(&runs[i], &runs[j]) || !first_of(j, timed, same_point_mechanism))
            continue;
        double mine, base;
        point_cycles(&runs[j], runs[j].mechanism, &mine, NULL);
        if (point_cycles(&runs[j], baseline, &base, NULL)) {
            ratios[n++] = base / mine;
            seen[strcmp(runs[j].workload, "wa") != 0] = true;
        }
    }
    if (workload_count)
        *workload_count = seen[0] + seen[1];
    return n;
}

static bool same_speedup_group(const known_run *a, const known_run *b)
{
    return same_summary(a, b) && !strcmp(a->workload, b->workload);
}

static void expect_speedup(const char *baseline, expected *e)
{
    e->column_count = 8;
    for (int i = 0; i < run_count; i++) {
        if (!first_of(i, timed, same_speedup_group))
            continue;
        double ratios[MAX_RUNS], sum = 0, low = INFINITY, high = -INFINITY;
        int n = point_speedups(i, baseline, same_speedup_group, ratios, NULL);
        if (!n)
            continue;
        for (int k = 0; k < n; k++) {
            sum += ratios[k];
            low = fmin(low, ratios[k]);
            high = fmax(high, ratios[k]);
        }
        row(e);
        text(e, runs[i].system), text(e, runs[i].workload), text(e, runs[i].mechanism), text(e, runs[i].mode);
        number(e, n, 0), number(e, sum / n, 4), number(e, low, 4), number(e, high, 4);
    }
}

static void test_speedup(void **state)
{
    (void)state;
    expected e = {0};
    expect_speedup("wt", &e);
    check_query("speedup", NULL, 0, &e);
    expected qr = {0};
    expect_speedup("qr", &qr);
    check_query("speedup", (const sc_query_param[]){{"baseline", "qr"}}, 1, &qr);
}

static void expect_geomean(const char *baseline, expected *e)
{
    e->column_count = 6;
    for (int i = 0; i < run_count; i++) {
        if (!first_of(i, timed, same_summary))
            continue;
        double ratios[MAX_RUNS], log_sum = 0;
        int workload_count, n = point_speedups(i, baseline, same_summary, ratios, &workload_count);
        if (!n)
            continue;
        for (int k = 0; k < n; k++)
            log_sum += log(ratios[k]);
        row(e);
        text(e, runs[i].system), text(e, runs[i].mechanism), text(e, runs[i].mode);
        number(e, workload_count, 0), number(e, n, 0), number(e, exp(log_sum / n), 4);
    }
}

static void test_geomean_speedup(void **state)
{
    (void)state;
    expected e = {0};
    expect_geomean("wt", &e);
    check_query("geomean_speedup", NULL, 0, &e);
    expected rfo = {0};
    expect_geomean("rfo", &rfo);
    check_query("geomean_speedup", (const sc_query_param[]){{"baseline", "rfo"}}, 1, &rfo);
}

/* ---- best_configs ---- */

typedef struct ranked_config {
    const known_run *first;
    int runs;
    double value, cache_bytes;
} ranked_config;

static bool same_config_group(const known_run *a, const known_run *b)
{
    return same_summary(a, b) && !strcmp(a->workload, b->workload) && a->config == b->config;
}

static int metric_index(const char *name)
{
    for (int k = 0; k < METRICS; k++)
        if (!strcmp(metric_names[k], name))
            return k;
    return -1;
}

/* The value best_configs ranks a run by: its whole-run metric, or its cycles for "cycles". */
static bool ranked_value(const known_run *r, const char *metric, double *value)
{
    int k = metric_index(metric);
    if (k >= 0 && r->metric[k] >= 0)
        *value = r->metric[k];
    else if (!strcmp(metric, "cycles") && r->cycles >= 0)
        *value = r->cycles;
    else
        return false;
    return true;
}

static int compare_ranked(const void *a, const void *b)
{
    const ranked_config *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    int order = strcmp(x->first->system, y->first->system);
    if (!order)
        order = strcmp(x->first->mechanism, y->first->mechanism);
    if (!order)
        order = strcmp(configs[x->first->config].hash, configs[y->first->config].hash);
    if (!order)
        order = strcmp(x->first->mode, y->first->mode);
    return order;
}

static void expect_best_configs(const char *pattern, const char *metric, double budget, int limit, expected *e)
{
    e->column_count = 13;
    for (int w = 0; w < 2; w++) {
        if (fnmatch(pattern, workloads[w], 0))
            continue;
        ranked_config ranked[MAX_RUNS];
        int n = 0;
        for (int i = 0; i < run_count; i++) {
            double value;
            if (strcmp(runs[i].workload, workloads[w]) || !ok(&runs[i]) || !ranked_value(&runs[i], metric, &value))
                continue;
            bool first = true;
            for (int j = 0; j < i && first; j++)
                first = !(ok(&runs[j]) && ranked_value(&runs[j], metric, &value) &&
                          same_config_group(&runs[i], &runs[j]));
            if (!first)
                continue;
            ranked_config r = {&runs[i], 0, 0, 0};
            for (int j = 0; j < run_count; j++)
                if (ok(&runs[j]) && same_config_group(&runs[i], &runs[j]) && ranked_value(&runs[j], metric, &value)) {
                    r.value += value;
                    r.runs++;
                }
            r.value /= r.runs;
            const known_config *c = &configs[runs[i].config];
            r.cache_bytes = c->cu_count * c->l1 + c->l2 + c->l3;
            if (budget <= 0 || r.cache_bytes <= budget)
                ranked[n++] = r;
        }
        qsort(ranked, (size_t)n, sizeof *ranked, compare_ranked);
        for (int k = 0; k < n && k < limit; k++) {
            const known_config *c = &configs[ranked[k].first->config];
            row(e);
            text(e, workloads[w]), number(e, k + 1, 0), text(e, ranked[k].first->system);
            text(e, ranked[k].first->mechanism), text(e, ranked[k].first->mode), text(e, c->hash);
            number(e, c->cu_count, 0), number(e, c->l1, 0), number(e, c->l2, 0), number(e, c->l3, 0);
            number(e, ranked[k].cache_bytes, 0), number(e, ranked[k].runs, 0), number(e, ranked[k].value, 2);
        }
    }
}

static void test_best_configs(void **state)
{
    (void)state;
    expected e = {0};
    expect_best_configs("*", "cycles", 0, 10, &e);
    check_query("best_configs", NULL, 0, &e);
    expected small = {0};
    expect_best_configs("w[b]", "dram_reads", 200000, 3, &small);
    check_query("best_configs",
                (const sc_query_param[]){{"workload", "w[b]"}, {"metric", "dram_reads"}, {"cache_budget", "200000"},
                                         {"limit", "3"}},
                4, &small);
}

/* ---- model_error and model_hits ---- */

static double relative_error(const known_validation *v)
{
    return (runs[v->model].cycles - runs[v->detailed].cycles) / runs[v->detailed].cycles;
}

static const char *fit_of(const known_calibration *c)
{
    return c->workload ? "workload" : "suite";
}

/* Validation v's row of model_error: mechanism, system, fit and (per workload) its workload. */
static bool same_error_row(int u, int v, bool per_workload)
{
    const known_calibration *a = &calibrations[validations[u].calibration], *b = &calibrations[validations[v].calibration];
    return !strcmp(a->mechanism, b->mechanism) && !strcmp(a->system, b->system) && !strcmp(fit_of(a), fit_of(b)) &&
           (!per_workload || !strcmp(runs[validations[u].detailed].workload, runs[validations[v].detailed].workload));
}

/* The rows of model_error over the validations of workload `only` (NULL: every workload). */
static void expect_model_error(bool per_workload, const char *only, expected *e)
{
    e->column_count = 11;
    for (int v = 0; v < validation_count; v++) {
        if (only && strcmp(runs[validations[v].detailed].workload, only))
            continue;
        bool first = true;
        for (int u = 0; u < v; u++)
            first &= !same_error_row(u, v, per_workload) || (only && strcmp(runs[validations[u].detailed].workload, only));
        if (!first)
            continue;
        int count = 0, with_validations = 0;
        bool counted[CALIBRATIONS] = {false};
        double error_sum = 0, error_max = 0, stall_sum = 0, stall_max = 0, r2_sum = 0;
        for (int u = 0; u < validation_count; u++) {
            if (!same_error_row(u, v, per_workload) || (only && strcmp(runs[validations[u].detailed].workload, only)))
                continue;
            count++;
            error_sum += fabs(relative_error(&validations[u]));
            error_max = fmax(error_max, fabs(relative_error(&validations[u])));
            stall_sum += validations[u].stall_fraction_error;
            stall_max = fmax(stall_max, validations[u].stall_fraction_error);
            if (!counted[validations[u].calibration]) {   /* each calibration once, however many validations */
                counted[validations[u].calibration] = true;
                with_validations++;
                r2_sum += calibrations[validations[u].calibration].r2;
            }
        }
        const known_calibration *c = &calibrations[validations[v].calibration];
        row(e);
        text(e, c->mechanism), text(e, c->system), text(e, fit_of(c));
        text(e, per_workload ? runs[validations[v].detailed].workload : "*");
        number(e, with_validations, 0), number(e, count, 0), number(e, 100 * error_sum / count, 2);
        number(e, 100 * error_max, 2), number(e, stall_sum / count, 4), number(e, stall_max, 4);
        number(e, r2_sum / with_validations, 4);
    }
}

static void test_model_error(void **state)
{
    (void)state;
    expected e = {0};
    expect_model_error(false, NULL, &e);
    check_query("model_error", NULL, 0, &e);
    expected per_workload = {0};
    expect_model_error(true, NULL, &per_workload);
    check_query("model_error", (const sc_query_param[]){{"per", "workload"}}, 1, &per_workload);
    expected one = {0};
    expect_model_error(false, "wb", &one);
    check_query("model_error", (const sc_query_param[]){{"workload", "wb"}}, 1, &one);
}

/* Mean of values[0..n) (and of their absolute values), NULL when n is 0; `scale` multiplies. */
static void mean_cell(expected *e, const double *values, int n, bool absolute, double scale, int decimals)
{
    if (!n) {
        null(e);
        return;
    }
    double sum = 0;
    for (int k = 0; k < n; k++)
        sum += absolute ? fabs(values[k]) : values[k];
    number(e, scale * sum / n, decimals);
}

static void max_abs_cell(expected *e, const double *values, int n)
{
    if (!n) {
        null(e);
        return;
    }
    double high = 0;
    for (int k = 0; k < n; k++)
        high = fmax(high, fabs(values[k]));
    number(e, 100 * high, 2);
}

static void expect_model_hits(const char *mechanism, const char *system, expected *e)
{
    e->column_count = 13;
    for (int v = 0; v < validation_count; v++) {
        const known_calibration *c = &calibrations[validations[v].calibration];
        if (fnmatch(mechanism, c->mechanism, 0) || fnmatch(system, c->system, 0))
            continue;
        const char *workload = runs[validations[v].detailed].workload;
        bool first = true;
        for (int u = 0; u < v; u++) {
            const known_calibration *d = &calibrations[validations[u].calibration];
            first &= strcmp(d->mechanism, c->mechanism) || strcmp(d->system, c->system) ||
                     strcmp(runs[validations[u].detailed].workload, workload);
        }
        if (!first)
            continue;
        double cycle[8], hit_ratio[8], l1_miss[8], l2_miss[8];
        int n = 0;
        for (int u = 0; u < validation_count; u++) {
            const known_calibration *d = &calibrations[validations[u].calibration];
            if (strcmp(d->mechanism, c->mechanism) || strcmp(d->system, c->system) ||
                strcmp(runs[validations[u].detailed].workload, workload))
                continue;
            const double *model = runs[validations[u].model].metric, *detailed = runs[validations[u].detailed].metric;
            double detailed_hits = detailed[L1_HITS] + detailed[L1_MSHR_MERGES];
            cycle[n] = relative_error(&validations[u]);
            hit_ratio[n] = (model[L1_HITS] - detailed_hits) / (detailed_hits + detailed[L1_MISSES]);
            l1_miss[n] = (model[L1_MISSES] - detailed[L1_MISSES]) / detailed[L1_MISSES];
            l2_miss[n] = (model[L2_MISSES] - detailed[L2_MISSES]) / detailed[L2_MISSES];
            n++;
        }
        row(e);
        text(e, c->mechanism), text(e, c->system), text(e, workload), number(e, n, 0);
        mean_cell(e, cycle, n, true, 100, 2);
        mean_cell(e, hit_ratio, n, false, 100, 2), mean_cell(e, hit_ratio, n, true, 100, 2);
        mean_cell(e, l1_miss, n, false, 100, 2), mean_cell(e, l1_miss, n, true, 100, 2), max_abs_cell(e, l1_miss, n);
        mean_cell(e, l2_miss, n, false, 100, 2), mean_cell(e, l2_miss, n, true, 100, 2), max_abs_cell(e, l2_miss, n);
    }
}

static void test_model_hits(void **state)
{
    (void)state;
    expected e = {0};
    expect_model_hits("*", "*", &e);
    check_query("model_hits", NULL, 0, &e);
    expected qr = {0};
    expect_model_hits("q*", "s2", &qr);
    check_query("model_hits", (const sc_query_param[]){{"mechanism", "q*"}, {"system", "s2"}}, 2, &qr);
}

/* ---- run_outcomes and runs_matching ---- */

static int compare_ids_descending(const void *a, const void *b)
{
    int64_t x = runs[*(const int *)a].id, y = runs[*(const int *)b].id;
    return (x < y) - (x > y);
}

static void expect_run_outcomes(int limit, expected *e)
{
    e->column_count = 8;
    int failing[MAX_RUNS], failures = 0;
    for (int i = 0; i < run_count; i++)
        if (!ok(&runs[i]))
            failing[failures++] = i;
    qsort(failing, (size_t)failures, sizeof *failing, compare_ids_descending);
    if (failures > limit)
        failures = limit;
    static const char *const statuses[] = {"ok", "check_failed", "error"};
    for (int s = 0; s < 3; s++)
        for (int m = 0; m < 2; m++) {
            int count = 0, listed = 0;
            for (int i = 0; i < run_count; i++)
                count += !strcmp(runs[i].status, statuses[s]) && !strcmp(runs[i].mode, modes[m]);
            if (!count)
                continue;
            for (int f = 0; f < failures; f++) {
                const known_run *r = &runs[failing[f]];
                if (strcmp(r->status, statuses[s]) || strcmp(r->mode, modes[m]))
                    continue;
                row(e);
                text(e, statuses[s]), text(e, modes[m]), number(e, count, 0), number(e, (double)r->id, 0);
                text(e, r->system), text(e, r->mechanism), text(e, r->workload), text(e, r->message);
                listed++;
            }
            if (!listed) {
                row(e);
                text(e, statuses[s]), text(e, modes[m]), number(e, count, 0);
                null(e), null(e), null(e), null(e), null(e);
            }
        }
}

static void test_run_outcomes(void **state)
{
    (void)state;
    expected e = {0};
    expect_run_outcomes(50, &e);
    check_query("run_outcomes", NULL, 0, &e);
    expected few = {0};
    expect_run_outcomes(3, &few);
    check_query("run_outcomes", (const sc_query_param[]){{"limit", "3"}}, 1, &few);
}

static void expect_runs_matching(const char *key, const char *pattern, int limit, expected *e)
{
    e->column_count = 10;
    int chosen[MAX_RUNS], n = 0;
    for (int i = 0; i < run_count; i++) {
        const known_config *c = &configs[runs[i].config];
        if (!fnmatch(pattern, !strcmp(key, "l1.size") ? c->l1_text : c->cus_text, 0))
            chosen[n++] = i;
    }
    qsort(chosen, (size_t)n, sizeof *chosen, compare_ids_descending);
    for (int k = 0; k < n && k < limit; k++) {
        const known_run *r = &runs[chosen[k]];
        const known_config *c = &configs[r->config];
        row(e);
        number(e, (double)r->id, 0), any(e), text(e, r->system), text(e, r->mechanism), text(e, r->workload);
        text(e, r->mode), text(e, r->status);
        if (r->cycles >= 0)
            number(e, r->cycles, 0);
        else
            null(e);
        text(e, c->hash), number(e, !strcmp(key, "l1.size") ? c->l1 : c->cu_count, 0);
    }
}

static void test_runs_matching(void **state)
{
    (void)state;
    expected e = {0};
    expect_runs_matching("l1.size", "*", 50, &e);
    check_query("runs_matching", NULL, 0, &e);
    expected big = {0};
    expect_runs_matching("l1.size", "32768", 7, &big);
    check_query("runs_matching", (const sc_query_param[]){{"value", "32768"}, {"limit", "7"}}, 2, &big);
    expected cus = {0};
    expect_runs_matching("gpu.cu_count", "[2]", 400, &cus);
    check_query("runs_matching",
                (const sc_query_param[]){{"key", "gpu.cu_count"}, {"value", "[2]"}, {"limit", "400"}}, 3, &cus);
}

/* ---- sensitivity ---- */

static void expect_sensitivity(const char *pattern, expected *e)
{
    e->column_count = 7;
    for (int s = 0; s < SWEEPS; s++) {
        if (fnmatch(pattern, sweeps[s].name, 0))
            continue;
        /* each (parameter, value) of the sweep's points: sum and count of the timed runs */
        const char *keys[4] = {0};
        int key_count = 0;
        for (int p = 0; p < POINTS; p++)
            for (int k = 0; k < 2; k++) {
                if (points[p].sweep != s || !points[p].keys[k])
                    continue;
                bool known = false;
                for (int q = 0; q < key_count; q++)
                    known |= !strcmp(keys[q], points[p].keys[k]);
                if (!known)
                    keys[key_count++] = points[p].keys[k];
            }
        for (int q = 0; q < key_count; q++) {
            const char *values[POINTS];
            double sums[POINTS];
            int counts[POINTS], value_count = 0;
            for (int p = 0; p < POINTS; p++)
                for (int k = 0; k < 2; k++) {
                    if (points[p].sweep != s || !points[p].keys[k] || strcmp(points[p].keys[k], keys[q]))
                        continue;
                    double sum = 0;
                    int count = 0;
                    for (int i = 0; i < run_count; i++)
                        if (runs[i].point == p && timed(&runs[i])) {
                            sum += runs[i].cycles;
                            count++;
                        }
                    if (!count)
                        continue;
                    int v = 0;
                    while (v < value_count && strcmp(values[v], points[p].values[k]))
                        v++;
                    if (v == value_count) {
                        values[value_count] = points[p].values[k];
                        sums[value_count] = counts[value_count] = 0;
                        value_count++;
                    }
                    sums[v] += sum;
                    counts[v] += count;
                }
            if (!value_count)
                continue;
            double low = INFINITY, high = -INFINITY, mean_sum = 0;
            int total = 0;
            for (int v = 0; v < value_count; v++) {
                double mean = sums[v] / counts[v];
                low = fmin(low, mean);
                high = fmax(high, mean);
                mean_sum += mean;
                total += counts[v];
            }
            row(e);
            text(e, sweeps[s].name), text(e, keys[q]), number(e, value_count, 0), number(e, total, 0);
            number(e, low, 1), number(e, high, 1), number(e, (high - low) / (mean_sum / value_count), 4);
        }
    }
}

static void test_sensitivity(void **state)
{
    (void)state;
    expected e = {0};
    expect_sensitivity("*", &e);
    check_query("sensitivity", NULL, 0, &e);
    expected one = {0};
    expect_sensitivity("sw2", &one);
    check_query("sensitivity", (const sc_query_param[]){{"sweep", "sw2"}}, 1, &one);
}

/* ---- stall_breakdown and traffic ---- */

static void expect_stall_breakdown(const char *system, const char *workload, const char *baseline, expected *e)
{
    e->column_count = 8;
    for (int i = 0; i < run_count; i++) {
        if (!first_of(i, timed, same_point_mechanism) || fnmatch(system, runs[i].system, 0) ||
            fnmatch(workload, runs[i].workload, 0))
            continue;
        double mine, base;
        int count;
        point_cycles(&runs[i], runs[i].mechanism, &mine, &count);
        if (!point_cycles(&runs[i], baseline, &base, NULL))
            continue;
        for (int k = 0; k < STALLS; k++) {
            double sum = 0;
            bool any_row = false;
            for (int j = 0; j < run_count; j++)
                if (timed(&runs[j]) && same_point_mechanism(&runs[i], &runs[j]) && runs[j].stall[k] >= 0) {
                    sum += runs[j].stall[k];
                    any_row = true;
                }
            if (!any_row)
                continue;
            row(e);
            text(e, runs[i].system), text(e, runs[i].workload), text(e, configs[runs[i].config].hash);
            text(e, runs[i].mode), text(e, runs[i].mechanism), text(e, stall_names[k][0]), text(e, stall_names[k][1]);
            number(e, sum / count / base, 4);
        }
    }
}

static void test_stall_breakdown(void **state)
{
    (void)state;
    expected e = {0};
    expect_stall_breakdown("*", "*", "wt", &e);
    check_query("stall_breakdown", NULL, 0, &e);
    expected narrow = {0};
    expect_stall_breakdown("s2", "wa", "qr", &narrow);
    check_query("stall_breakdown",
                (const sc_query_param[]){{"system", "s2"}, {"workload", "wa"}, {"baseline", "qr"}}, 3, &narrow);
}

/* Whether traffic.sql reports metric `name`: DRAM, NoC (per endpoint, per traffic class, and its
 * energy), bytes into a cache, memory writes. */
static bool is_traffic(const char *name)
{
    size_t length = strlen(name);
    return (!strncmp(name, "dram", 4) && (name[4] == '.' || name[4] == '_')) || !strncmp(name, "traffic.", 8) ||
           !strncmp(name, "noc_bytes_in.", 13) || (length >= 9 && !strcmp(name + length - 9, "_bytes_in")) ||
           !strcmp(name, "memory_write_bytes") || !strcmp(name, "noc_bytes") || !strncmp(name, "noc_bytes.", 10) ||
           !strncmp(name, "noc_flits.", 10) || !strncmp(name, "noc_energy", 10);
}

/* Mean of metric k over the ok runs of `mechanism` on `like`'s point that stored it. */
static bool point_metric(const known_run *like, const char *mechanism, int k, double *mean)
{
    double sum = 0;
    int n = 0;
    for (int j = 0; j < run_count; j++)
        if (ok(&runs[j]) && same_point(&runs[j], like) && !strcmp(runs[j].mechanism, mechanism) &&
            runs[j].metric[k] >= 0) {
            sum += runs[j].metric[k];
            n++;
        }
    *mean = n ? sum / n : 0;
    return n > 0;
}

static void expect_traffic(const char *system, const char *workload, const char *baseline, expected *e)
{
    e->column_count = 8;
    for (int i = 0; i < run_count; i++) {
        if (!first_of(i, ok, same_point_mechanism) || fnmatch(system, runs[i].system, 0) ||
            fnmatch(workload, runs[i].workload, 0))
            continue;
        for (int k = 0; k < METRICS; k++) {
            double mine, base;
            if (!is_traffic(metric_names[k]) || !point_metric(&runs[i], runs[i].mechanism, k, &mine))
                continue;
            row(e);
            text(e, runs[i].system), text(e, runs[i].workload), text(e, configs[runs[i].config].hash);
            text(e, runs[i].mode), text(e, metric_names[k]), text(e, runs[i].mechanism), number(e, mine, 1);
            if (point_metric(&runs[i], baseline, k, &base) && base != 0)
                number(e, mine / base, 4);
            else
                null(e);
        }
    }
}

static void test_traffic(void **state)
{
    (void)state;
    expected e = {0};
    expect_traffic("*", "*", "wt", &e);
    check_query("traffic", NULL, 0, &e);
    expected narrow = {0};
    expect_traffic("s1", "w?", "rfo", &narrow);
    check_query("traffic", (const sc_query_param[]){{"system", "s1"}, {"workload", "w?"}, {"baseline", "rfo"}}, 3,
                &narrow);
}

/* Every query in queries/ has a test above: a new query must get one. */
static void test_every_query_is_checked(void **state)
{
    (void)state;
    static const char *const checked[] = {
        "best_configs", "geomean_speedup", "model_error", "model_hits", "run_outcomes", "run_summary",
        "runs_matching", "sensitivity", "speedup", "stall_breakdown", "traffic",
    };
    char **names;
    size_t count;
    sc_error error;
    assert_int_equal(sc_canned_query_names(&names, &count, &error), 0);
    for (size_t i = 0; i < count; i++) {
        bool found = false;
        for (size_t k = 0; k < sizeof checked / sizeof checked[0]; k++)
            found |= !strcmp(names[i], checked[k]);
        if (!found)
            fail_msg("canned query %s has no value check in test_query_values.c", names[i]);
    }
    sc_canned_names_free(names, count);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_summary),      cmocka_unit_test(test_speedup),
        cmocka_unit_test(test_geomean_speedup),  cmocka_unit_test(test_best_configs),
        cmocka_unit_test(test_model_error),      cmocka_unit_test(test_model_hits),
        cmocka_unit_test(test_run_outcomes),     cmocka_unit_test(test_runs_matching),
        cmocka_unit_test(test_sensitivity),      cmocka_unit_test(test_stall_breakdown),
        cmocka_unit_test(test_traffic),          cmocka_unit_test(test_every_query_is_checked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
