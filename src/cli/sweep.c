/* sweep.c — `syncscope sweep SPEC.json`: evaluates a design-space sweep (or one shard of it)
 * into the database (studies/sweep.h), prints what it stored and, for an unsharded sweep, the
 * sensitivity report (studies/sweep_report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "studies/sweep.h"
#include "studies/sweep_report.h"

static void print_help(void)
{
    printf("usage: syncscope sweep SPEC.json [--shard K/N] [--restart] [--report-only] [--report DIR] [--db PATH]\n"
           "                       [--calibration FILE.sqlite]\n\n"
           "Evaluates every point of the sweep SPEC.json for each of its mechanisms and workloads,\n"
           "stores each run tied to the sweep and its point, and prints the sensitivity of cycles to\n"
           "each parameter (one-at-a-time elasticities for an \"oat\" design, Morris mu*/sigma for a\n"
           "\"morris\" design; a cycle summary otherwise) with SVG figures in DIR\n"
           "[notebooks_export/sweep].\n\n"
           "Each point is stored in one transaction with all its runs, and points already stored are\n"
           "skipped: a sweep that was interrupted (killed, failed, locked out) continues where it\n"
           "stopped when run again.\n\n"
           "  --shard K/N    evaluate only the points i with i %% N == K-1 (merge the shard databases\n"
           "                 with `syncscope merge`, then report with --report-only)\n"
           "  --restart      first remove every stored point of this sweep with its runs, then\n"
           "                 evaluate all of them\n"
           "  --report-only  evaluate nothing: report on the sweep's runs already in the database\n"
           "  --report DIR   where the figures go\n"
           "  --db PATH      results database [$SYNCSCOPE_DB or db/syncscope.sqlite]\n"
           "  --calibration FILE.sqlite\n"
           "                 a model sweep reads its calibrations from this database (read only) instead\n"
           "                 of --db, and stores a copy of each one it uses in --db (a shard's database:\n"
           "                 merging shards keeps one copy of each calibration)\n\n"
           "SPEC.json: {\"name\": ..., \"system\": PRESET, \"size\": tiny|small|large|huge,\n"
           "  \"mechanisms\": [...], \"workloads\": [...], \"mode\": \"model\" | \"detailed\" | \"sampled\",\n"
           "  (a workload ending in .json is a manifest, relative to SPEC.json's directory)\n"
           "  \"parameters\": {\"l1.size\": {\"values\": [...]}, \"noc.latency\": {\"range\": [lo, hi], \"count\": n},\n"
           "                 \"l2.size\": {\"log_range\": [lo, hi], \"count\": n}},\n"
           "  \"design\": \"grid\" | \"oat\" | {\"random\": N} | {\"lhs\": N} | {\"morris\": R, \"levels\": L},\n"
           "  \"seed\": S, \"spot_check\": F | {\"widest\": K, \"outside\": true, \"max_outside\": N, \"mode\": \"sampled\"}}\n\n"
           "spot_check (model sweeps): F, a share of the points also run in detail; or, after the model\n"
           "pass, the K points with the widest 95%% band and up to N [8] points outside the region the\n"
           "calibrations covered, run sampled (or \"detailed\") and compared with their bands; a mechanism\n"
           "x workload with a measurement outside its band is refitted on its measurements (the sweep's\n"
           "calibration as the prior), the refit stored as that workload's calibration and its model\n"
           "runs evaluated again with it (docs/calibration.md).\n");
}

/* The spot checks where they matter: what was measured, how much of it fell outside its band,
 * and whether the models were refitted. */
static void print_spot_summary(const sweep_spec *spec, const sweep_spot_summary *spot)
{
    printf("sweep %s: spot checks: %lld points measured (%s; widest band %d, outside the calibrated region %s), "
           "%lld runs, %lld outside their 95%% band; %lld points of the shard lie outside the calibrated region",
           spec->name, (long long)spot->points, spec->spot_mode, spec->spot_widest,
           spec->spot_outside ? "yes" : "no", (long long)spot->runs, (long long)spot->outside_band,
           (long long)spot->extrapolated);
    if (spot->points_measured_before)
        printf("; %lld chosen points were measured before (%lld of their runs compared again)",
               (long long)spot->points_measured_before, (long long)spot->runs_measured_before);
    if (spot->refits)
        printf("; REFIT %d mechanism x workload pair(s), %lld model runs evaluated again: mean cycle error at the spot "
               "points %.2f%% before, %.2f%% after", spot->refits, (long long)spot->refitted_runs,
               100 * spot->error_before, 100 * spot->error_after);
    else if (spot->runs + spot->runs_measured_before)
        printf("; no refit: mean cycle error at the spot points %.2f%%", 100 * spot->error_before);
    printf(" (%.2f s)\n", spot->seconds);
}

static int run_sweep(const char *spec_path, const char *shard, bool restart, bool report_only,
                     const char *report_dir, const char *database, const char *calibration, sc_error *error)
{
    sweep_spec *spec = calloc(1, sizeof *spec);
    sweep_session session = {.spec = spec, .shards = 1};
    if (shard)
        sweep_parse_shard(shard, &session.remainder, &session.shards);
    sc_store *store = NULL;
    int status = spec ? sweep_spec_load(spec_path, spec, error) : sc_fail(error, "out of memory");
    if (status == 0)
        status = sweep_session_prepare(&session, error);
    /* A detailed sweep's points are checked before the database is opened (a bad point creates
     * nothing); a model sweep's calibrations are looked up in it before its points are checked. */
    bool model = status == 0 && !strcmp(spec->mode, "model");
    if (status == 0 && !report_only && !model)
        status = sweep_session_check(&session, NULL, error);
    /* --calibration names a database to read before the sweep's own is opened or created. */
    if (status == 0 && calibration && !model)
        status = sc_fail_input(error, "--calibration is for a model sweep; %s is a %s sweep", spec_path, spec->mode);
    if (status == 0 && !report_only && model && calibration &&
        !(session.calibration_store = sc_store_open_reader(calibration, error)))
        status = -1;
    if (status == 0 && !(store = report_only ? sc_store_open_reader(database, error) : sc_store_open(database, error)))
        status = -1;
    if (status == 0 && !report_only && model)
        status = sweep_session_check(&session, store, error);
    int64_t sweep_id = -1;
    double seconds = 0;
    if (status == 0 && report_only)
        status = sweep_find_stored(store, &session, &sweep_id, error);
    else if (status == 0)
        status = sweep_session_evaluate(&session, store, restart, &sweep_id, &seconds, error);
    if (status == 0 && !report_only) {
        int64_t points = (session.design.count - session.remainder + session.shards - 1) / session.shards;
        if (session.points_removed)
            printf("sweep %s: --restart removed its %lld stored points and their runs\n", spec->name,
                   (long long)session.points_removed);
        if (session.points_resumed)
            printf("sweep %s: %lld of its points were already stored; continuing with the other %lld\n", spec->name,
                   (long long)session.points_resumed, (long long)(points - session.points_resumed));
        printf("sweep %s (id %lld): %lld of %lld points%s%s, %lld %s runs stored in %.2f s (%.1f runs/s)",
               spec->name, (long long)sweep_id, (long long)points, (long long)session.design.count,
               shard ? " in shard " : "", shard ? shard : "", (long long)session.runs, spec->mode, seconds,
               seconds > 0 ? (double)session.runs / seconds : 0.0);
        if (session.model && !spec->spot_targeted)
            printf(", %lld points also run in detail", (long long)(session.spot_checks /
                                                                   (session.mechanism_count * session.workload_count)));
        /* The same runs in detail would have taken the spot checks' mean time each. */
        double model_seconds = seconds - session.detailed_seconds;
        if (session.model && session.spot_checks && model_seconds > 0)
            printf(" (%.2f s per detailed run: the model sweep is %.0fx faster than the same runs in detail)",
                   session.detailed_seconds / (double)session.spot_checks,
                   session.detailed_seconds / (double)session.spot_checks * (double)session.runs / model_seconds);
        printf("%s", session.failed_checks ? "; some output checks FAILED" : "");
        if (session.unreliable_estimates) {
            printf("; %lld sampled estimate(s) UNRELIABLE, without a confidence interval (sample.has_interval 0)",
                   (long long)session.unreliable_estimates);
            fprintf(stderr,
                    "syncscope sweep: warning: %lld sampled estimate(s) without a confidence interval, unreliable;"
                    " stored with sample.has_interval 0\n",
                    (long long)session.unreliable_estimates);
        }
        printf("\n");
        if (session.model && spec->spot_targeted)
            print_spot_summary(spec, &session.spot);
    }
    if (status == 0 && (!shard || report_only)) {
        sweep_report_input input = {
            .design = &session.design, .sweep_id = sweep_id,
            .mechanisms = session.mechanisms, .mechanism_count = session.mechanism_count,
            .workloads = session.workloads, .workload_count = session.workload_count,
        };
        status = sweep_report(store, &input, report_dir, stdout, error);
    }
    sweep_session_release(&session);
    sc_store_close(session.calibration_store);
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
        {.name = "restart", .kind = CLI_FLAG},      {.name = "calibration", .kind = CLI_VALUE},
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
    } else if (cli_find(options, "restart")->present && cli_find(options, "report-only")->present) {
        code = cli_usage_error("sweep", "--restart evaluates the sweep again; it cannot go with --report-only");
    } else if (cli_find(options, "calibration")->value && cli_find(options, "report-only")->present) {
        code = cli_usage_error("sweep", "--calibration is for evaluating a model sweep; it cannot go with --report-only");
    } else {
        const char *report_dir = cli_find(options, "report")->value;
        sc_error error = {{0}};
        int status = run_sweep(positional[0], shard, cli_find(options, "restart")->present,
                               cli_find(options, "report-only")->present,
                               report_dir ? report_dir : "notebooks_export/sweep",
                               cli_database_path(cli_find(options, "db")->value),
                               cli_find(options, "calibration")->value, &error);
        if (status < 0)
            fprintf(stderr, "syncscope sweep: %s\n", error.message);
        code = status < 0 ? cli_failure_status(&error) : status;
    }
    cli_options_free(options);
    return code;
}
