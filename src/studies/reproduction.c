/* reproduction.c — a seed paper's experiment run and stored (see reproduction.h). */
#include "studies/reproduction.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/names.h"
#include "base/progress.h"
#include "session/run_session.h"

static int read_run_id(void *context, int columns, const char *const *names, const char *const *values,
                       const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    if (values && values[0])
        *(int64_t *)context = atoll(values[0]);
    return 0;
}

/* The latest ok detailed run of `mechanism` on `workload` at the sweep point `point`; with
 * `config_hash`, only one this build stored (same version and revision) with that configuration.
 * 0 when there is none, -1 on error. */
static int64_t stored_run(const reproduction *r, int64_t point, const char *mechanism, const char *workload,
                          const char *config_hash, sc_error *error)
{
    char point_text[32];
    snprintf(point_text, sizeof point_text, "%lld", (long long)point);
    const sc_query_param params[] = {{"point", point_text}, {"mechanism", mechanism}, {"workload", workload},
                                     {"config", config_hash ? config_hash : ""},
                                     {"version", SYNCSCOPE_VERSION}, {"revision", SYNCSCOPE_GIT_REVISION}};
    int64_t run_id = 0;
    if (sc_store_query(r->runs.store,
                       "SELECT max(id) FROM runs WHERE sweep_point_id = :point AND mechanism = :mechanism"
                       " AND workload = :workload AND mode = 'detailed' AND status = 'ok'"
                       " AND (:config = '' OR (config_hash = :config AND tool_version = :version"
                       " AND git_revision = :revision))",
                       params, 6, read_run_id, &run_id, error) < 0)
        return -1;
    return run_id;
}

int reproduction_open(reproduction *r, sc_error *error)
{
    char sweep_name[96], spec[256];
    snprintf(sweep_name, sizeof sweep_name, "reproduce-%s", r->study->name);
    snprintf(spec, sizeof spec, "{\"study\":\"%s\",\"system\":\"%s\"}", r->study->name, r->study->system);
    if ((r->last_run_before = sc_store_last_run_id(r->runs.store, error)) < 0 ||
        (r->runs.sweep_id = sc_store_ensure_sweep(r->runs.store, sweep_name, spec, error)) < 0)
        return -1;
    if (r->restart)
        sc_store_remove_sweep_runs_after(r->runs.store, r->runs.sweep_id, 0);
    return 0;
}

/* Runs and stores one workload under every mechanism at one size. */
static int run_workload(reproduction *r, const sc_config *config, sc_progress *progress, const char *workload,
                        const char *size, FILE *out, sc_error *error)
{
    sc_workload_size size_class;
    sc_workload_size_parse(size, &size_class);
    char params[64];
    snprintf(params, sizeof params, "{\"size\":\"%s\"}", size);
    int64_t point = sc_store_ensure_sweep_point(r->runs.store, r->runs.sweep_id, size_class, params, error);
    if (point < 0)
        return -1;
    for (int m = 0; m < r->runs.mechanism_count; m++) {
        run_request request = {
            .system = r->study->system, .mechanism = r->runs.mechanisms[m], .workload = workload,
            .mode = "detailed", .size = size_class, .seed = 1, .sweep_point_id = point,
            .database_path = sc_store_path(r->runs.store),
        };
        int64_t kept = stored_run(r, point, r->runs.mechanisms[m], workload, sc_config_hash(config), error);
        if (kept < 0)
            return -1;
        if (kept > 0) {
            fprintf(out, "%-6s %-10s %-5s kept run %lld (stored by this build earlier)\n", size, workload,
                    r->runs.mechanisms[m], (long long)kept);
            r->runs_kept++;
            sc_progress_step(progress, 1);
            continue;
        }
        run_result result;
        int status = run_session_simulate(&request, config, &result, error);
        int64_t run_id = status == 0 ? run_session_store(r->runs.store, &request, config, &result, error) : -1;
        if (run_id < 0)
            status = -1;
        if (status < 0) {
            run_result_release(&result);
            return sc_fail_prefix(error, "%s on %s (%s)", workload, r->runs.mechanisms[m], size);
        }
        fprintf(out, "%-6s %-10s %-5s %-4s %12llu cycles  run %lld\n", size, workload, r->runs.mechanisms[m],
                result.check.passed ? "ok" : "FAIL", (unsigned long long)result.timing.cycles, (long long)run_id);
        fflush(out);
        r->runs_done++;
        r->failed_checks += !result.check.passed;
        run_result_release(&result);
        sc_progress_step(progress, 1);
    }
    return 0;
}

/* Calls `visit` for every (workload, size) the reproduction runs, in run order: the workloads at
 * the main size, then the scaling workloads at each scaling size (once at a size that is both);
 * stops at the first nonzero return. */
static int for_each_run_list(reproduction *r, int (*visit)(reproduction *, const char *, const char *, void *),
                             void *context)
{
    int status = 0;
    for (int w = 0; status == 0 && w < r->runs.workload_count; w++)
        if (sc_name_index(r->runs.scaling_workloads, r->runs.scaling_workload_count, r->runs.workloads[w]) < 0 ||
            sc_name_index(r->runs.scaling_sizes, r->runs.scaling_size_count, r->runs.size) < 0)
            status = visit(r, r->runs.workloads[w], r->runs.size, context);
    for (int s = 0; status == 0 && s < r->runs.scaling_size_count; s++)
        for (int w = 0; status == 0 && w < r->runs.scaling_workload_count; w++)
            status = visit(r, r->runs.scaling_workloads[w], r->runs.scaling_sizes[s], context);
    return status;
}

typedef struct run_context {
    const sc_config *config;
    sc_progress progress;
    FILE *out;
    sc_error *error;
} run_context;

static int visit_run(reproduction *r, const char *workload, const char *size, void *context)
{
    run_context *c = context;
    return run_workload(r, c->config, &c->progress, workload, size, c->out, c->error);
}

static int count_runs(reproduction *r, const char *workload, const char *size, void *context)
{
    (void)workload, (void)size;
    *(long *)context += r->runs.mechanism_count;
    return 0;
}

int reproduction_run(reproduction *r, FILE *out, sc_error *error)
{
    sc_config *config = sc_config_load(r->study->system, NULL, NULL, 0, error);
    if (!config)
        return -1;
    long total = 0;
    for_each_run_list(r, count_runs, &total);
    run_context context = {.config = config, .out = out, .error = error};
    sc_progress_start(&context.progress, r->study->name, "runs", total);
    int status = for_each_run_list(r, visit_run, &context);
    sc_config_free(config);
    if (status < 0)
        sc_store_remove_sweep_runs_after(r->runs.store, r->runs.sweep_id, r->last_run_before);
    return status;
}

typedef struct missing_context {
    int64_t missing;
    char first[96];
    sc_error *error;
} missing_context;

static int visit_missing(reproduction *r, const char *workload, const char *size, void *context)
{
    missing_context *c = context;
    char sweep_text[32], params[64];
    snprintf(sweep_text, sizeof sweep_text, "%lld", (long long)r->runs.sweep_id);
    snprintf(params, sizeof params, "{\"size\":\"%s\"}", size);
    const sc_query_param point_params[] = {{"sweep", sweep_text}, {"params", params}};
    int64_t point = 0;
    if (sc_store_query(r->runs.store, "SELECT id FROM sweep_points WHERE sweep_id = :sweep AND params = :params",
                       point_params, 2, read_run_id, &point, c->error) < 0)
        return -1;
    for (int m = 0; m < r->runs.mechanism_count; m++) {
        int64_t run = point > 0 ? stored_run(r, point, r->runs.mechanisms[m], workload, NULL, c->error) : 0;
        if (run < 0)
            return -1;
        if (run == 0 && c->missing++ == 0)
            snprintf(c->first, sizeof c->first, "%s %s %s", size, workload, r->runs.mechanisms[m]);
    }
    return 0;
}

int reproduction_check_complete(reproduction *r, sc_error *error)
{
    missing_context context = {.error = error};
    if (for_each_run_list(r, visit_missing, &context) < 0)
        return -1;
    if (context.missing)
        return sc_fail(error,
                       "%lld of the reproduction's runs have no ok run stored (the first: %s); run `syncscope reproduce %s` "
                       "with the same options to finish them",
                       (long long)context.missing, context.first, r->study->name);
    return 0;
}
