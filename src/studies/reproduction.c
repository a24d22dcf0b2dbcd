/* reproduction.c — a seed paper's experiment run and stored (see reproduction.h). */
#include "studies/reproduction.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/names.h"
#include "base/progress.h"
#include "session/run_session.h"

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
                       params, 6, sc_store_row_int64, &run_id, error) < 0)
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

/* The sweep point of a size and variant: its index (the size class's, and for the study's
 * variant v, the size class's after (v + 1) blocks of every size class) and its parameters (the
 * size, and the variant's label if any). */
static int64_t point_index(const reproduction *r, sc_workload_size size_class, const study_variant *variant)
{
    int64_t sizes = (int64_t)SC_SIZE_HUGE + 1;
    return variant ? sizes * (1 + (variant - r->study->variants)) + size_class : size_class;
}

static void point_params(const char *size, const study_variant *variant, char *params, size_t bytes)
{
    if (variant)
        snprintf(params, bytes, "{\"size\":\"%s\",\"variant\":\"%s\"}", size, variant->label);
    else
        snprintf(params, bytes, "{\"size\":\"%s\"}", size);
}

/* Runs and stores one workload at one size: under every mechanism, or under the variant's. */
static int run_workload(reproduction *r, const sc_config *config, sc_progress *progress, const char *workload,
                        const char *size, const study_variant *variant, FILE *out, sc_error *error)
{
    sc_workload_size size_class;
    sc_workload_size_parse(size, &size_class);
    char params[160];
    point_params(size, variant, params, sizeof params);
    int64_t point = sc_store_ensure_sweep_point(r->runs.store, r->runs.sweep_id, point_index(r, size_class, variant),
                                                params, error);
    if (point < 0)
        return -1;
    int count = variant ? 1 : r->runs.mechanism_count;
    for (int m = 0; m < count; m++) {
        const char *mechanism = variant ? variant->mechanism : r->runs.mechanisms[m];
        const char *label = variant ? variant->label : mechanism;
        run_request request = {
            .system = r->study->system, .mechanism = mechanism, .workload = workload,
            .mode = "detailed", .size = size_class, .seed = 1, .sweep_point_id = point,
            .database_path = sc_store_path(r->runs.store),
        };
        int64_t kept = stored_run(r, point, mechanism, workload, sc_config_hash(config), error);
        if (kept < 0)
            return -1;
        if (kept > 0) {
            fprintf(out, "%-6s %-10s %-5s kept run %lld (stored by this build earlier)\n", size, workload,
                    label, (long long)kept);
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
            return sc_fail_prefix(error, "%s on %s (%s)", workload, label, size);
        }
        fprintf(out, "%-6s %-10s %-5s %-4s %12llu cycles  run %lld\n", size, workload, label,
                result.check.passed ? "ok" : "FAIL", (unsigned long long)result.timing.cycles, (long long)run_id);
        fflush(out);
        r->runs_done++;
        r->failed_checks += !result.check.passed;
        run_result_release(&result);
        sc_progress_step(progress, 1);
    }
    return 0;
}

typedef int (*run_visitor)(reproduction *r, const char *workload, const char *size, const study_variant *variant,
                           void *context);

/* Calls `visit` for the variant on those of `workloads` it runs, at the main size. */
static int visit_variant(reproduction *r, const study_variant *v, const char *const *workloads, int count,
                         run_visitor visit, void *context)
{
    int status = 0;
    for (int w = 0; status == 0 && w < count; w++)
        if (sc_name_index(v->workloads, sc_name_count(v->workloads), workloads[w]) >= 0)
            status = visit(r, workloads[w], r->runs.size, v, context);
    return status;
}

/* Calls `visit` for every (workload, size, variant) the reproduction runs, in run order: the
 * workloads at the main size, then the scaling workloads at each scaling size (once at a size
 * that is both), then each variant on its workloads among those run at the main size and the
 * variant workloads; stops at the first nonzero return. */
static int for_each_run_list(reproduction *r, run_visitor visit, void *context)
{
    int status = 0;
    for (int w = 0; status == 0 && w < r->runs.workload_count; w++)
        if (sc_name_index(r->runs.scaling_workloads, r->runs.scaling_workload_count, r->runs.workloads[w]) < 0 ||
            sc_name_index(r->runs.scaling_sizes, r->runs.scaling_size_count, r->runs.size) < 0)
            status = visit(r, r->runs.workloads[w], r->runs.size, NULL, context);
    for (int s = 0; status == 0 && s < r->runs.scaling_size_count; s++)
        for (int w = 0; status == 0 && w < r->runs.scaling_workload_count; w++)
            status = visit(r, r->runs.scaling_workloads[w], r->runs.scaling_sizes[s], NULL, context);
    for (const study_variant *v = r->study->variants; status == 0 && v && v->label; v++)
        if ((status = visit_variant(r, v, r->runs.workloads, r->runs.workload_count, visit, context)) == 0)
            status = visit_variant(r, v, r->runs.variant_workloads, r->runs.variant_workload_count, visit, context);
    return status;
}

typedef struct run_context {
    const sc_config *config;
    sc_progress progress;
    FILE *out;
    sc_error *error;
} run_context;

static int visit_run(reproduction *r, const char *workload, const char *size, const study_variant *variant,
                     void *context)
{
    run_context *c = context;
    if (!variant)
        return run_workload(r, c->config, &c->progress, workload, size, NULL, c->out, c->error);
    sc_config *config = sc_config_load(r->study->system, NULL, variant->sets, sc_name_count(variant->sets), c->error);
    if (!config)
        return -1;
    int status = run_workload(r, config, &c->progress, workload, size, variant, c->out, c->error);
    sc_config_free(config);
    return status;
}

static int count_runs(reproduction *r, const char *workload, const char *size, const study_variant *variant,
                      void *context)
{
    (void)workload, (void)size;
    *(long *)context += variant ? 1 : r->runs.mechanism_count;
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

static int visit_missing(reproduction *r, const char *workload, const char *size, const study_variant *variant,
                         void *context)
{
    missing_context *c = context;
    char sweep_text[32], params[160];
    snprintf(sweep_text, sizeof sweep_text, "%lld", (long long)r->runs.sweep_id);
    point_params(size, variant, params, sizeof params);
    const sc_query_param point_params[] = {{"sweep", sweep_text}, {"params", params}};
    int64_t point = 0;
    if (sc_store_query(r->runs.store, "SELECT id FROM sweep_points WHERE sweep_id = :sweep AND params = :params",
                       point_params, 2, sc_store_row_int64, &point, c->error) < 0)
        return -1;
    for (int m = 0; m < (variant ? 1 : r->runs.mechanism_count); m++) {
        const char *mechanism = variant ? variant->mechanism : r->runs.mechanisms[m];
        int64_t run = point > 0 ? stored_run(r, point, mechanism, workload, NULL, c->error) : 0;
        if (run < 0)
            return -1;
        if (run == 0 && c->missing++ == 0)
            snprintf(c->first, sizeof c->first, "%s %s %s", size, workload, variant ? variant->label : mechanism);
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
