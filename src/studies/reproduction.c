/* reproduction.c — a seed paper's experiment run and stored (see reproduction.h). */
#include "studies/reproduction.h"

#include <stdio.h>

#include "base/names.h"
#include "base/progress.h"
#include "session/run_session.h"

int reproduction_open(reproduction *r, sc_error *error)
{
    char sweep_name[96], spec[256];
    snprintf(sweep_name, sizeof sweep_name, "reproduce-%s", r->study->name);
    snprintf(spec, sizeof spec, "{\"study\":\"%s\",\"system\":\"%s\"}", r->study->name, r->study->system);
    if ((r->last_run_before = sc_store_last_run_id(r->runs.store, error)) < 0 ||
        (r->runs.sweep_id = sc_store_ensure_sweep(r->runs.store, sweep_name, spec, error)) < 0)
        return -1;
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

static int run_all(reproduction *r, FILE *out, sc_error *error)
{
    sc_config *config = sc_config_load(r->study->system, NULL, NULL, 0, error);
    if (!config)
        return -1;
    int status = 0;
    long total = 0;
    /* Pass 0 counts the runs for the progress lines, pass 1 makes them: one loop, so the count is
     * the runs made. */
    for (int pass = 0; pass < 2; pass++) {
        sc_progress progress;
        sc_progress_start(&progress, r->study->name, "runs", total);
        for (int w = 0; status == 0 && w < r->runs.workload_count; w++)
            if (sc_name_index(r->runs.scaling_workloads, r->runs.scaling_workload_count, r->runs.workloads[w]) < 0 ||
                sc_name_index(r->runs.scaling_sizes, r->runs.scaling_size_count, r->runs.size) < 0)
                status = pass ? run_workload(r, config, &progress, r->runs.workloads[w], r->runs.size, out, error)
                              : (total += r->runs.mechanism_count, 0);
        for (int s = 0; status == 0 && s < r->runs.scaling_size_count; s++)
            for (int w = 0; status == 0 && w < r->runs.scaling_workload_count; w++)
                status = pass ? run_workload(r, config, &progress, r->runs.scaling_workloads[w], r->runs.scaling_sizes[s],
                                             out, error)
                              : (total += r->runs.mechanism_count, 0);
    }
    sc_config_free(config);
    return status;
}

int reproduction_run(reproduction *r, FILE *out, sc_error *error)
{
    int status = run_all(r, out, error);
    if (status < 0)
        sc_store_remove_sweep_runs_after(r->runs.store, r->runs.sweep_id, r->last_run_before);
    return status;
}
