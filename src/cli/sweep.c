/* sweep.c — `syncscope sweep SPEC.json`: every point of a design-space sweep (or one shard of
 * it), for each mechanism and workload, evaluated and stored with the point it belongs to; then,
 * for an unsharded sweep, the sensitivity report (sweep_report.c). Every point's configuration
 * is checked before anything runs, and a sweep that fails part-way removes the runs it stored,
 * so the database never holds half a shard. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/random.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/sweep.h"
#include "cli/sweep_model.h"
#include "cli/sweep_report.h"
#include "model/model.h"
#include "model/sweep_design.h"
#include "protocols/mechanism.h"
#include "session/run_session.h"
#include "timing/timing_config.h"

static void print_help(void)
{
    printf("usage: syncscope sweep SPEC.json [--shard K/N] [--report-only] [--report DIR] [--db PATH]\n\n"
           "Evaluates every point of the sweep SPEC.json for each of its mechanisms and workloads,\n"
           "stores each run tied to the sweep and its point, and prints the sensitivity of cycles to\n"
           "each parameter (one-at-a-time elasticities for an \"oat\" design, Morris mu*/sigma for a\n"
           "\"morris\" design; a cycle summary otherwise) with SVG figures in DIR\n"
           "[notebooks_export/sweep].\n\n"
           "  --shard K/N    evaluate only the points i with i %% N == K-1 (merge the shard databases\n"
           "                 with `syncscope merge`, then report with --report-only)\n"
           "  --report-only  evaluate nothing: report on the sweep's runs already in the database\n"
           "  --report DIR   where the figures go\n"
           "  --db PATH      results database [$SYNCSCOPE_DB or db/syncscope.sqlite]\n\n"
           "SPEC.json: {\"name\": ..., \"system\": PRESET, \"size\": tiny|small|large|huge,\n"
           "  \"mechanisms\": [...], \"workloads\": [...], \"mode\": \"detailed\",\n"
           "  \"parameters\": {\"l1.size\": {\"values\": [...]}, \"noc.latency\": {\"range\": [lo, hi], \"count\": n},\n"
           "                 \"l2.size\": {\"log_range\": [lo, hi], \"count\": n}},\n"
           "  \"design\": \"grid\" | \"oat\" | {\"random\": N} | {\"lhs\": N} | {\"morris\": R, \"levels\": L},\n"
           "  \"seed\": S}\n");
}

typedef struct sweep_session {
    const sweep_spec *spec;
    sweep_design design;
    const char *mechanisms[SWEEP_MAX_NAMES];
    int mechanism_count;
    const char *workloads[SWEEP_MAX_NAMES];
    int workload_count;
    sc_workload_size size;
    sc_config *base;
    int64_t remainder, shards;
    sweep_model *model;           /* mode model: the calibrated models */
    int64_t runs, failed_checks, spot_checks;
    double detailed_seconds;      /* wall time of the spot checks' detailed runs */
} sweep_session;


/* The configuration of point `index` (base plus its varied keys), or NULL with the key named. */
static sc_config *point_config(const sweep_session *session, int64_t index, double *values, sc_error *error)
{
    sweep_design_point(&session->design, index, values);
    sc_config *config = sc_config_copy(session->base);
    for (int a = 0; a < session->spec->axis_count; a++) {
        if (values[a] != values[a])   /* NAN: the preset's value */
            continue;
        char text[128];
        sweep_axis_format(&session->spec->axes[a], values[a], text, sizeof text);
        if (sc_config_set(config, session->spec->axes[a].key, text, error) < 0) {
            sc_fail_prefix(error, "sweep %s, point %lld", session->spec->name, (long long)index);
            sc_config_free(config);
            return NULL;
        }
    }
    return config;
}

/* Checks every point of the shard before anything runs: each key's value, and the system the
 * timing model derives from the whole configuration. */
static int check_points(const sweep_session *session, sc_error *error)
{
    double values[SWEEP_MAX_AXES];
    for (int64_t index = session->remainder; index < session->design.count; index += session->shards) {
        sc_config *config = point_config(session, index, values, error);
        if (!config)
            return -1;
        timing_config timing;
        int status = timing_config_load(config, 0, &timing, error);
        sc_config_free(config);
        if (status < 0) {
            char params[4096];
            sweep_design_params_json(&session->design, values, params, sizeof params);
            return sc_fail_prefix(error, "sweep %s, point %lld %s", session->spec->name, (long long)index, params);
        }
    }
    return 0;
}

/* Runs every mechanism x workload of a point on the detailed model and stores the runs. */
static int run_detailed(sweep_session *session, sc_store *store, const sc_config *config, int64_t index,
                        int64_t point_id, sc_error *error)
{
    int status = 0;
    for (int m = 0; status == 0 && m < session->mechanism_count; m++) {
        for (int w = 0; status == 0 && w < session->workload_count; w++) {
            run_request request = {
                .system = session->spec->system,
                .mechanism = session->mechanisms[m],
                .workload = session->workloads[w],
                .mode = "detailed",
                .size = session->size,
                .seed = 1,
                .database_path = sc_store_path(store),
                .sweep_point_id = point_id,
            };
            run_result result;
            status = run_session_simulate(&request, config, &result, error);
            if (status == 0 && run_session_store(store, &request, config, &result, error) < 0)
                status = -1;
            if (status < 0)
                sc_fail_prefix(error, "sweep %s, point %lld, %s on %s", session->spec->name, (long long)index,
                               session->workloads[w], session->mechanisms[m]);
            session->runs += status == 0 && strcmp(session->spec->mode, "model") != 0;
            session->spot_checks += status == 0 && !strcmp(session->spec->mode, "model");
            session->failed_checks += status == 0 && !result.check.passed;
            session->detailed_seconds += status == 0 ? result.wall_seconds : 0.0;
            run_result_release(&result);
        }
    }
    return status;
}

/* Whether a model-evaluated point is also run in detail: a fixed pseudo-random share
 * `spot_check` of the points, the same whichever shard evaluates them. */
static bool spot_checked(const sweep_session *session, int64_t index)
{
    uint64_t state = session->spec->seed ^ ((uint64_t)index * 0x9e3779b97f4a7c15ull);
    return (double)(sc_splitmix64(&state) >> 11) * 0x1.0p-53 < session->spec->spot_check;
}

static int evaluate_point(sweep_session *session, sc_store *store, int64_t sweep_id, int64_t index, sc_error *error)
{
    double values[SWEEP_MAX_AXES];
    char params[4096];
    sc_config *config = point_config(session, index, values, error);
    if (!config)
        return -1;
    int status = 0;
    int64_t point_id = -1;
    if (sweep_design_params_json(&session->design, values, params, sizeof params) < 0)
        status = sc_fail(error, "sweep %s: point %lld has too many parameters to store", session->spec->name,
                         (long long)index);
    else
        point_id = sc_store_ensure_sweep_point(store, sweep_id, index, params, error);
    if (point_id < 0)
        status = -1;
    bool model = !strcmp(session->spec->mode, "model");
    if (status == 0 && model) {
        status = sweep_model_point(session->model, config, point_id, error);
        session->runs += status == 0 ? session->mechanism_count * session->workload_count : 0;
    }
    if (status == 0 && (!model || spot_checked(session, index)))
        status = run_detailed(session, store, config, index, point_id, error);
    sc_config_free(config);
    return status;
}

/* A row callback keeping the first column of the last row as an integer (NULL leaves it). */
static int read_integer(void *context, int columns, const char *const *names, const char *const *values,
                        const sc_value_kind *kinds)
{
    (void)columns, (void)names, (void)kinds;
    if (values && values[0])
        *(int64_t *)context = atoll(values[0]);
    return 0;
}

static int evaluate_shard(sweep_session *session, sc_store *store, int64_t sweep_id, sc_error *error)
{
    int64_t last_before = sc_store_last_run_id(store, error);
    if (last_before < 0)
        return -1;
    int status = 0;
    for (int64_t index = session->remainder; status == 0 && index < session->design.count; index += session->shards)
        status = evaluate_point(session, store, sweep_id, index, error);
    if (status == 0 && session->model)
        status = sweep_model_flush(session->model, error);
    if (status < 0)
        sc_store_remove_sweep_runs_after(store, sweep_id, last_before);
    return status;
}

/* The stored sweep with this name and specification (for --report-only, which writes nothing). */
static int find_sweep(sc_store *store, const sweep_spec *spec, int64_t *sweep_id, sc_error *error)
{
    sc_query_param params[] = {{"name", spec->name}, {"spec", spec->text}};
    *sweep_id = -1;
    if (sc_store_query(store, "SELECT id FROM sweeps WHERE name = :name AND spec = :spec", params, 2, read_integer,
                       sweep_id, error) < 0)
        return -1;
    if (*sweep_id < 0)
        return sc_fail(error, "%s: no sweep '%s' with this specification in the database", sc_store_path(store),
                       spec->name);
    return 0;
}

/* Mechanisms and workloads: the spec's, or every mechanism and the whole suite. */
static int resolve_names(sweep_session *session, sc_error *error)
{
    const sweep_spec *spec = session->spec;
    for (int m = 0; m < spec->mechanism_count; m++)
        if (!sc_mechanism_find(spec->mechanisms[m]))
            return sc_fail(error, "sweep %s: mechanisms: unknown mechanism '%s'", spec->name, spec->mechanisms[m]);
    for (int w = 0; w < spec->workload_count; w++)
        if (!sc_workload_find(spec->workloads[w]))
            return sc_fail(error, "sweep %s: workloads: unknown workload '%s'", spec->name, spec->workloads[w]);
    int count;
    const sc_mechanism *const *mechanisms = sc_mechanism_list(&count);
    bool model = !strcmp(spec->mode, "model");
    if (spec->mechanism_count) {
        session->mechanism_count = spec->mechanism_count;
        for (int m = 0; m < spec->mechanism_count; m++)
            session->mechanisms[m] = spec->mechanisms[m];
    } else {
        /* Every mechanism; in model mode, every mechanism with a model. */
        for (int m = 0; m < count; m++)
            if (!model || model_mechanism_find(mechanisms[m]->name))
                session->mechanisms[session->mechanism_count++] = mechanisms[m]->name;
    }
    const sc_workload *const *suite = sc_workload_suite(&count);
    session->workload_count = spec->workload_count ? spec->workload_count : count;
    for (int w = 0; w < session->workload_count; w++)
        session->workloads[w] = spec->workload_count ? spec->workloads[w] : suite[w]->name;
    sc_workload_size_parse(spec->size, &session->size);
    return 0;
}

/* Names, design, base configuration and (unless only reporting) every point checked. */
static int session_prepare(sweep_session *session, bool check, sc_error *error)
{
    if (resolve_names(session, error) < 0 || sweep_design_init(&session->design, session->spec, error) < 0)
        return -1;
    if (!(session->base = sc_config_load(session->spec->system, NULL, NULL, 0, error)))
        return -1;
    return check ? check_points(session, error) : 0;
}

/* Evaluates the session's shard into `store` under the sweep's row (*sweep_id) and times it. */
static int session_evaluate(sweep_session *session, sc_store *store, int64_t *sweep_id, double *seconds,
                            sc_error *error)
{
    const sweep_spec *spec = session->spec;
    if (!strcmp(spec->mode, "model") &&
        !(session->model = sweep_model_open(store, spec->system, session->mechanisms, session->mechanism_count,
                                            session->workloads, session->workload_count, spec->size, error)))
        return -1;
    if ((*sweep_id = sc_store_ensure_sweep(store, spec->name, spec->text, error)) < 0)
        return -1;
    double start = sc_monotonic_seconds();
    int status = evaluate_shard(session, store, *sweep_id, error);
    *seconds = sc_monotonic_seconds() - start;
    return status;
}

static void session_release(sweep_session *session)
{
    sweep_model_close(session->model);
    sc_config_free(session->base);
    sweep_design_free(&session->design);
}

int sweep_evaluate(const sweep_spec *spec, sc_store *store, sweep_totals *totals, sc_error *error)
{
    sweep_session session = {.spec = spec, .shards = 1};
    *totals = (sweep_totals){0};
    int status = session_prepare(&session, true, error);
    if (status == 0)
        status = session_evaluate(&session, store, &totals->sweep_id, &totals->seconds, error);
    totals->points = session.design.count;
    totals->mechanism_count = session.mechanism_count;
    totals->workload_count = session.workload_count;
    totals->runs = session.runs;
    totals->failed_checks = session.failed_checks;
    session_release(&session);
    return status;
}

static int run_sweep(const char *spec_path, const char *shard, bool report_only, const char *report_dir,
                     const char *database, sc_error *error)
{
    sweep_spec *spec = calloc(1, sizeof *spec);
    sweep_session session = {.spec = spec, .shards = 1};
    if (shard)
        sweep_parse_shard(shard, &session.remainder, &session.shards);
    sc_store *store = NULL;
    int status = spec ? sweep_spec_load(spec_path, spec, error) : sc_fail(error, "out of memory");
    if (status == 0)
        status = session_prepare(&session, !report_only, error);
    if (status == 0 && !(store = report_only ? sc_store_open_existing(database, error) : sc_store_open(database, error)))
        status = -1;
    int64_t sweep_id = -1;
    double seconds = 0;
    if (status == 0 && report_only)
        status = find_sweep(store, spec, &sweep_id, error);
    else if (status == 0)
        status = session_evaluate(&session, store, &sweep_id, &seconds, error);
    if (status == 0 && !report_only) {
        int64_t points = (session.design.count - session.remainder + session.shards - 1) / session.shards;
        printf("sweep %s (id %lld): %lld of %lld points%s%s, %lld %s runs stored in %.2f s (%.1f runs/s)",
               spec->name, (long long)sweep_id, (long long)points, (long long)session.design.count,
               shard ? " in shard " : "", shard ? shard : "", (long long)session.runs, spec->mode, seconds,
               seconds > 0 ? (double)session.runs / seconds : 0.0);
        if (session.model)
            printf(", %lld points also run in detail", (long long)(session.spot_checks /
                                                                   (session.mechanism_count * session.workload_count)));
        /* The same runs in detail would have taken the spot checks' mean time each. */
        double model_seconds = seconds - session.detailed_seconds;
        if (session.model && session.spot_checks && model_seconds > 0)
            printf(" (%.2f s per detailed run: the model sweep is %.0fx faster than the same runs in detail)",
                   session.detailed_seconds / (double)session.spot_checks,
                   session.detailed_seconds / (double)session.spot_checks * (double)session.runs / model_seconds);
        printf("%s\n", session.failed_checks ? "; some output checks FAILED" : "");
    }
    if (status == 0 && (!shard || report_only)) {
        sweep_report_input input = {
            .design = &session.design, .sweep_id = sweep_id,
            .mechanisms = session.mechanisms, .mechanism_count = session.mechanism_count,
            .workloads = session.workloads, .workload_count = session.workload_count,
        };
        status = sweep_report(store, &input, report_dir, stdout, error);
    }
    session_release(&session);
    sc_store_close(store);
    if (spec)
        sweep_spec_free(spec);
    free(spec);
    return status < 0 ? -1 : session.failed_checks ? 1 : 0;
}

int command_sweep(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "shard", .kind = CLI_VALUE},       {.name = "report-only", .kind = CLI_FLAG},
        {.name = "report", .kind = CLI_VALUE},      {.name = "db", .kind = CLI_VALUE},
        {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    if (help) {
        print_help();
        cli_options_free(options);
        return 0;
    }
    int code;
    const char *shard = cli_find(options, "shard")->value;
    int64_t remainder, shards;
    if (positional_count != 1) {
        code = cli_usage_error("sweep", "give one sweep specification (SPEC.json)");
    } else if (shard && sweep_parse_shard(shard, &remainder, &shards) < 0) {
        code = cli_usage_error("sweep", "--shard '%s': expected K/N with 1 <= K <= N", shard);
    } else {
        const char *report_dir = cli_find(options, "report")->value;
        sc_error error = {{0}};
        int status = run_sweep(positional[0], shard, cli_find(options, "report-only")->present,
                               report_dir ? report_dir : "notebooks_export/sweep",
                               cli_database_path(cli_find(options, "db")->value), &error);
        if (status < 0)
            fprintf(stderr, "syncscope sweep: %s\n", error.message);
        code = status < 0 ? 1 : status;
    }
    cli_options_free(options);
    return code;
}
