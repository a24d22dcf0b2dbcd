/* compare.c — `syncscope compare`, the main job: every mechanism over the built-in suite on one
 * system preset. Each run is checked against its C reference and stored; a table is printed and
 * an SVG report is written (SIMT efficiency per workload, and the GSI stall figures when the
 * runs carry stall breakdowns, i.e. in detailed and sampled modes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/progress.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "export/database.h"
#include "export/output.h"
#include "export/report.h"
#include "export/svg.h"
#include "protocols/mechanism.h"
#include "session/run_session.h"
#include "studies/compare_model.h"

static void print_help(void)
{
    printf("usage: syncscope compare [--system PRESET] [--mechanisms M,M...] [--workloads W,W...]\n"
           "                         [--size tiny|small|large|huge] [--mode detailed|sampled|functional] [--report DIR]\n"
           "                         [--model-points N] [--db PATH]\n\n"
           "Runs every mechanism (default: all) over the workloads (default: the built-in suite; a name\n"
           "ending in .json is a manifest) on the\n"
           "detailed timing model (default), sampled (run --mode sampled with its default sampling) or the\n"
           "functional executor, stores every run, prints a table and writes the SVG report to DIR\n"
           "[notebooks_export/report]: SIMT efficiency, and in detailed and sampled modes the GSI stall\n"
           "breakdowns normalised to the first mechanism.\n\n"
           "Then the model step: each compared mechanism with an analytical model is calibrated at N design\n"
           "points around the preset (--model-points, default 2; 0 skips the step) and validated at N other,\n"
           "held-out points, over the compared workloads the models cover and the compared manifests, and a\n"
           "one-at-a-time model sweep\n"
           "(L1, L2, CU count, DRAM clock) is stored; `syncscope query model_error` and `query sensitivity`\n"
           "read them.\n");
}

typedef struct comparison {
    const char *names_w[64];   /* the workloads' names (of workload_refs) */
    sc_workload_ref *workload_refs;   /* built-in workloads and manifests */
    const char *names_m[16];
    int workloads, mechanisms;
    double *efficiency;    /* [workload * mechanisms + mechanism]: thread / (warp * width) */
    long long *run_ids;    /* stored runs, in run order */
    size_t run_count;
} comparison;

static int write_efficiency_figure(const comparison *c, const char *directory, unsigned width, sc_error *error)
{
    sc_bar_chart chart = {
        .title = "SIMT efficiency per workload (active lanes per issued warp instruction)",
        .y_label = "active lanes / warp width",
        .style = SC_BARS_GROUPED,
        .group_count = (size_t)c->workloads,
        .group_labels = c->names_w,
        .bar_count = (size_t)c->mechanisms,
        .bar_labels = c->names_m,
        .segment_count = 1,
        .values = c->efficiency,
        .reference_line = 1.0,
    };
    char *svg = sc_svg_bar_chart(&chart, error);
    if (!svg)
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/simt_efficiency.svg", directory);
    int status = sc_output_write_figure(path, svg, error);
    free(svg);
    if (status == 0)
        printf("report: %s (warp width %u)\n", path, width);
    return status;
}

static int run_all(comparison *c, run_request *request, const sc_config *config, sc_store *store)
{
    int failures = 0;
    printf("%-12s", "workload");
    for (int m = 0; m < c->mechanisms; m++)
        printf(" | %-6s %5s %11s %11s %7s", c->names_m[m], "check", "warp-instr", "cycles", "run id");
    printf("\n");
    sc_progress progress;
    sc_progress_start(&progress, "compare", "detailed runs", (long)c->workloads * c->mechanisms);
    for (int w = 0; w < c->workloads; w++) {
        printf("%-12s", c->names_w[w]);
        for (int m = 0; m < c->mechanisms; m++) {
            sc_error error = {{0}};
            run_result result;
            run_request_set_workload(request, &c->workload_refs[w]);
            request->mechanism = c->names_m[m];
            int status = run_session_simulate(request, config, &result, &error);
            if (status == 0)
                result.run_id = run_session_store(store, request, config, &result, &error);
            if (status < 0 || result.run_id < 0) {
                printf(" | error: %s", error.message);
                c->efficiency[w * c->mechanisms + m] = NAN;
                failures++;
            } else {
                failures += !result.check.passed;
                c->efficiency[w * c->mechanisms + m] =
                    (double)result.stats.thread_instructions /
                    ((double)result.stats.warp_instructions * sc_config_int(config, "gpu.warp_size"));
                c->run_ids[c->run_count++] = result.run_id;
                char cycles[24] = "-";
                if (result.timing.present)
                    snprintf(cycles, sizeof cycles, "%llu", (unsigned long long)result.timing.cycles);
                printf(" | %-6s %5s %11llu %11s %7lld", "", result.check.passed ? "ok" : "FAIL",
                       (unsigned long long)result.stats.warp_instructions, cycles, (long long)result.run_id);
            }
            run_result_release(&result);
            fflush(stdout);
        }
        printf("\n");
        sc_progress_step(&progress, c->mechanisms);
    }
    return failures;
}

/* The GSI figures of the stored runs, each workload normalised to its first mechanism's run. */
static int write_stall_figures(const comparison *c, const char *database, const char *directory, sc_error *error)
{
    sqlite3 *db = sc_database_open_readonly(database, error);
    if (!db)
        return -1;
    sc_report_options options = {.baseline = c->names_m[0]};
    int status = sc_report_write_gsi(db, c->run_ids, c->run_count, &options, directory, error);
    sqlite3_close(db);
    if (status == 0)
        printf("report: %s/stalls_overall.svg, stalls_mem_data.svg, stalls_mem_struct.svg\n", directory);
    return status;
}

static int fill_names(comparison *c, cli_option *options, char *workload_text, char *mechanism_text)
{
    if (workload_text) {
        c->workloads = sc_name_split(workload_text, c->names_w, 64);
    } else {
        int count;
        const sc_workload *const *suite = sc_workload_suite(&count);
        for (int i = 0; i < count && i < 64; i++)
            c->names_w[c->workloads++] = suite[i]->name;
    }
    if (mechanism_text) {
        c->mechanisms = sc_name_split(mechanism_text, c->names_m, 16);
    } else {
        int count;
        const sc_mechanism *const *list = sc_mechanism_list(&count);
        for (int i = 0; i < count && i < 16; i++)
            c->names_m[c->mechanisms++] = list[i]->name;
    }
    if (c->workloads < 0 || c->mechanisms < 0) {
        fprintf(stderr, "syncscope compare: --%s: too many names\n", c->workloads < 0 ? "workloads" : "mechanisms");
        return 2;
    }
    c->workload_refs = calloc((size_t)c->workloads + 1, sizeof *c->workload_refs);
    for (int w = 0; w < c->workloads; w++) {
        sc_error error = {{0}};
        if (sc_workload_ref_resolve(c->names_w[w], NULL, &c->workload_refs[w], &error) < 0) {
            fprintf(stderr, "syncscope compare: %s\n", error.message);
            return 2;
        }
        c->names_w[w] = c->workload_refs[w].name;
    }
    for (int m = 0; m < c->mechanisms; m++)
        if (!sc_mechanism_find(c->names_m[m])) {
            fprintf(stderr, "syncscope compare: unknown mechanism '%s' (see syncscope list mechanisms)\n", c->names_m[m]);
            return 2;
        }
    return 0;
}

static int compare(cli_option *options)
{
    comparison c = {0};
    char *workload_text = cli_find(options, "workloads")->value ? strdup(cli_find(options, "workloads")->value) : NULL;
    char *mechanism_text = cli_find(options, "mechanisms")->value ? strdup(cli_find(options, "mechanisms")->value) : NULL;
    const char *report = cli_find(options, "report")->value ? cli_find(options, "report")->value : "notebooks_export/report";
    const char *size_text = cli_find(options, "size")->value, *mode = cli_find(options, "mode")->value;
    run_request request = {
        .system = cli_find(options, "system")->value ? cli_find(options, "system")->value : "gtx480",
        .mode = mode ? mode : "detailed",
        .size = SC_SIZE_SMALL,
        .seed = 1,
        .sampling = sampling_defaults(),
    };
    int status = fill_names(&c, options, workload_text, mechanism_text);
    const char *model_points_text = cli_find(options, "model-points")->value;
    unsigned long long model_points = 2;
    if (status == 0 && model_points_text && cli_parse_u64("compare", "model-points", model_points_text, &model_points) < 0)
        status = 2;
    if (status == 0 && model_points > 1000)
        status = cli_usage_error("compare", "--model-points must be 0..1000, not %s", model_points_text);
    if (status == 0 && size_text && sc_workload_size_parse(size_text, &request.size) < 0) {
        fprintf(stderr, "syncscope compare: --size must be tiny, small, large or huge\n");
        status = 2;
    }
    sc_error error = {{0}};
    sc_config *config = status ? NULL : sc_config_load(request.system, NULL, NULL, 0, &error);
    sc_store *store = config ? sc_store_open(cli_database_path(cli_find(options, "db")->value), &error) : NULL;
    if (status == 0 && !store) {
        fprintf(stderr, "syncscope compare: %s\n", error.message);
        status = cli_failure_status(&error);
    }
    if (status == 0) {
        printf("system %s, mode %s, size %s, database %s\n\n", request.system, request.mode,
               sc_workload_size_name(request.size), sc_store_path(store));
        c.efficiency = calloc((size_t)(c.workloads * c.mechanisms), sizeof *c.efficiency);
        c.run_ids = calloc((size_t)(c.workloads * c.mechanisms), sizeof *c.run_ids);
        int failures = run_all(&c, &request, config, store);
        bool timed = strcmp(request.mode, "functional") != 0;   /* detailed or sampled: stalls stored */
        if (sc_output_make_directories(report, &error) < 0 ||
            write_efficiency_figure(&c, report, (unsigned)sc_config_int(config, "gpu.warp_size"), &error) < 0 ||
            (timed && c.run_count && write_stall_figures(&c, sc_store_path(store), report, &error) < 0)) {
            fprintf(stderr, "syncscope compare: %s\n", error.message);
            failures++;
        }
        if (!timed)
            printf("note: functional runs have no timing; stall figures need --mode detailed or sampled\n");
        compare_model_request model = {
            .system = request.system, .size = sc_workload_size_name(request.size),
            .mechanisms = c.names_m, .mechanism_count = c.mechanisms,
            .workloads = c.workload_refs, .workload_count = c.workloads, .points = (int)model_points,
        };
        if (model_points && compare_model_step(&model, store, stdout, &error) < 0) {
            fprintf(stderr, "syncscope compare: %s\n", error.message);
            failures++;
        }
        printf("%d of %d runs failed\n", failures, c.workloads * c.mechanisms);
        status = failures ? 1 : 0;
    }
    free(c.efficiency);
    free(c.run_ids);
    free(c.workload_refs);
    sc_store_close(store);
    sc_config_free(config);
    free(workload_text);
    free(mechanism_text);
    return status;
}

int command_compare(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "system", .kind = CLI_VALUE},     {.name = "mechanisms", .kind = CLI_VALUE},
        {.name = "workloads", .kind = CLI_VALUE},  {.name = "size", .kind = CLI_VALUE},
        {.name = "mode", .kind = CLI_VALUE},       {.name = "report", .kind = CLI_VALUE},
        {.name = "db", .kind = CLI_VALUE},         {.name = "model-points", .kind = CLI_VALUE},
        {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 0, &positional_count, &help) < 0)
        return 2;
    int status = help ? (print_help(), 0) : compare(options);
    cli_options_free(options);
    return status;
}
