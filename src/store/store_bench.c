/* store_bench.c — `syncscope bench --db`: ingest speed and canned-query latency on SYNTHETIC
 * runs. Runs are inserted 1,000 per transaction here (sc_store_insert_runs); the per-run
 * transaction rate that simulator runs see is measured separately on the first 2,000. Each
 * canned query runs three times: the first time and the best of the three are printed. The
 * database is replaced when the bench starts and kept afterwards, for profiling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "store/canned_query.h"
#include "store/synthetic.h"

enum { BATCH = 1000, SINGLE_RUNS = 2000, ROWS_PER_RUN = 1 + 1 + SC_SYNTHETIC_METRICS + SC_SYNTHETIC_STALLS,
       QUERY_REPEATS = 3 };

static int count_row(void *context, int columns, const char *const *names, const char *const *values,
                     const sc_value_kind *kinds)
{
    if (values)
        ++*(long *)context;
    return 0;
}

static void remove_database(const char *path)
{
    char sidecar[4096];
    unlink(path);
    snprintf(sidecar, sizeof sidecar, "%s-wal", path);
    unlink(sidecar);
    snprintf(sidecar, sizeof sidecar, "%s-shm", path);
    unlink(sidecar);
}

/* Inserts runs [first, last) `batch` per transaction; returns the seconds taken or -1. */
static double insert_range(sc_store *store, const sc_synthetic_set *set, long first, long last, int batch,
                           sc_error *error)
{
    sc_synthetic_run *runs = calloc((size_t)batch, sizeof *runs);
    sc_run_record *records = calloc((size_t)batch, sizeof *records);
    double start = sc_monotonic_seconds();
    int status = 0;
    for (long index = first; index < last && !status;) {
        int count = 0;
        for (; count < batch && index < last; count++, index++) {
            sc_synthetic_run_fill(set, index, &runs[count]);
            records[count] = runs[count].record;
        }
        status = sc_store_insert_runs(store, records, count, NULL, error);
    }
    free(runs);
    free(records);
    return status ? -1 : sc_monotonic_seconds() - start;
}

static int time_queries(sc_store *store, FILE *out, sc_error *error)
{
    char **names;
    size_t count;
    if (sc_canned_query_names(&names, &count, error))
        return -1;
    int status = 0;
    fprintf(out, "%-18s %8s %10s %12s\n", "query", "rows", "first-s", "best-of-3-s");
    for (size_t i = 0; i < count && !status; i++) {
        sc_canned_query query;
        if ((status = sc_canned_query_load(names[i], &query, error)))
            break;
        sc_query_param params[8];
        int param_count = sc_synthetic_query_params(&query, params);
        long rows = 0;
        double first = 0, best = 0;
        for (int repeat = 0; repeat < QUERY_REPEATS && !status; repeat++) {
            rows = 0;
            double start = sc_monotonic_seconds();
            status = sc_canned_query_run(store, &query, params, param_count, count_row, &rows, error);
            double seconds = sc_monotonic_seconds() - start;
            first = repeat == 0 ? seconds : first;
            best = repeat == 0 || seconds < best ? seconds : best;
        }
        if (!status)
            fprintf(out, "%-18s %8ld %10.3f %12.3f\n", names[i], rows, first, best);
        sc_canned_query_free(&query);
    }
    sc_canned_names_free(names, count);
    return status;
}

int sc_store_bench(const char *path, long runs, FILE *out)
{
    sc_error error;
    sc_synthetic_set set;
    remove_database(path);
    sc_store *store = sc_store_open(path, &error);
    if (!store || sc_synthetic_init(&set, 64, &error)) {
        fprintf(stderr, "syncscope bench: %s\n", error.message);
        sc_store_close(store);
        return -1;
    }
    int status = sc_synthetic_add_sweep(&set, store, &error) || sc_synthetic_add_validations(store, &error) ? -1 : 0;
    long single = runs < SINGLE_RUNS ? runs : SINGLE_RUNS;
    double single_seconds = status ? -1 : insert_range(store, &set, 0, single, 1, &error);
    double batch_seconds = single_seconds < 0 ? -1 : insert_range(store, &set, single, runs, BATCH, &error);
    if (batch_seconds < 0)
        status = -1;
    if (!status) {
        fprintf(out, "store bench: %s, %ld synthetic runs, %d rows each (run, kernel, %d metrics, %d stall rows)\n",
                path, runs, ROWS_PER_RUN, SC_SYNTHETIC_METRICS, SC_SYNTHETIC_STALLS);
        if (single > 0)
            fprintf(out, "ingest, one transaction per run: %ld runs in %.3f s = %.0f runs/s, %.0f rows/s\n", single,
                    single_seconds, single / single_seconds, single * ROWS_PER_RUN / single_seconds);
        if (runs > single)
            fprintf(out, "ingest, %d runs per transaction: %ld runs in %.3f s = %.0f runs/s, %.0f rows/s\n", BATCH,
                    runs - single, batch_seconds, (runs - single) / batch_seconds,
                    (runs - single) * ROWS_PER_RUN / batch_seconds);
        status = time_queries(store, out, &error);
    }
    if (status)
        fprintf(stderr, "syncscope bench: %s\n", error.message);
    sc_synthetic_free(&set);
    sc_store_close(store);
    return status;
}
