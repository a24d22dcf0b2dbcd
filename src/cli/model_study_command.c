/* model_study_command.c — the options and frame `calibrate` and `validate` share
 * (see model_study_command.h). */
#include "cli/model_study_command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/files.h"
#include "cli/options.h"
#include "cli/sampling_options.h"
#include "protocols/mechanism.h"
#include "workloads/workload_ref.h"

/* The options `calibrate` and `validate` share. */
#define MODEL_STUDY_OPTIONS                                                                              \
    {.name = "mechanism", .kind = CLI_VALUE}, {.name = "system", .kind = CLI_VALUE},                    \
        {.name = "workloads", .kind = CLI_VALUE}, {.name = "points", .kind = CLI_VALUE},                \
        {.name = "size", .kind = CLI_VALUE}, {.name = "seed", .kind = CLI_VALUE}, {.name = "db", .kind = CLI_VALUE},         \
        {.name = "jobs", .kind = CLI_VALUE}, {.name = "detailed-from", .kind = CLI_VALUE}

/* Reads the options of a per-workload fit on sample windows: the prior's floor and the
 * sampling flags. Prints one line naming the bad option and returns 2 on bad usage. */
static int windows_from_options(model_study *study, const char *command, cli_option *options)
{
    const char *floor = cli_find(options, "prior-floor")->value;
    study->prior_floor = MODEL_WINDOWS_DEFAULT_PRIOR_FLOOR;
    if (floor) {
        char *end;
        study->prior_floor = strtod(floor, &end);
        if (end == floor || *end || !(study->prior_floor > 0 && study->prior_floor <= 1))
            return cli_usage_error(command, "--prior-floor must be a share of each parameter's range in (0, 1], not %s",
                                   floor);
    }
    return sampling_options_parse(command, options, &study->sampling);
}

/* Fills a study from the shared options; *workload_list receives the malloc'd copy of the
 * workload names the study points into. Prints one line naming the bad option and returns 2 on
 * bad usage. */
static int study_from_options(model_study *study, const char *command, cli_option *options, int default_points,
                              char **workload_list)
{
    const char *mechanism = cli_find(options, "mechanism")->value, *system = cli_find(options, "system")->value;
    const char *workloads = cli_find(options, "workloads")->value, *points = cli_find(options, "points")->value;
    const char *size = cli_find(options, "size")->value, *seed = cli_find(options, "seed")->value;
    cli_option *windows = cli_find(options, "windows");
    study->windows = windows && windows->present;
    study->mechanism = mechanism;
    study->system = system ? system : "gtx480";
    study->size = size ? size : study->windows ? MODEL_WINDOWS_DEFAULT_SIZE : "small";
    study->points = study->windows ? MODEL_WINDOWS_DEFAULT_FILL : default_points;
    if (study->windows) {
        int status = windows_from_options(study, command, options);
        if (status)
            return status;
    }
    if (!mechanism) {
        char names[256];
        sc_mechanism_names(names, sizeof names);
        return cli_usage_error(command, "--mechanism is required (one of %s)", names);
    }
    study->model = model_mechanism_find(mechanism);
    if (!study->model || !sc_protocol_find(mechanism))
        return cli_usage_error(command, "no analytical model and detailed protocol for mechanism %s", mechanism);
    sc_workload_size parsed;
    if (sc_workload_size_parse(study->size, &parsed) < 0)
        return cli_usage_error(command, "--size must be tiny, small, large or huge, not %s", study->size);
    unsigned long long number;
    if (points) {
        if (cli_parse_u64(command, "points", points, &number) < 0)
            return 2;
        if (study->windows && number > MODEL_DESIGN_MAX_FILL)
            return cli_usage_error(command, "--points (Latin-hypercube points besides the %d corners) must be 0..%d "
                                   "with --windows, not %s", MODEL_DESIGN_CORNERS, MODEL_DESIGN_MAX_FILL, points);
        if (!study->windows && (number < 1 || number > 1000))
            return cli_usage_error(command, "--points must be 1..1000, not %s", points);
        study->points = (int)number;
    }
    if (seed && cli_parse_u64(command, "seed", seed, &number) < 0)
        return 2;
    study->seed = seed ? number : 0;
    const char *jobs = cli_find(options, "jobs")->value;
    if (jobs && cli_parse_u64(command, "jobs", jobs, &number) < 0)
        return 2;
    if (jobs && (number < 1 || number > 256))
        return cli_usage_error(command, "--jobs must be 1..256, not %s", jobs);
    study->jobs = jobs ? (int)number : 0;
    *workload_list = strdup(workloads ? workloads : MODEL_DEFAULT_WORKLOADS);
    for (char *name = strtok(*workload_list, ","); name; name = strtok(NULL, ",")) {
        if (study->workload_count == MODEL_STUDY_MAX_WORKLOADS)
            return cli_usage_error(command, "--workloads: at most %d workloads", MODEL_STUDY_MAX_WORKLOADS);
        sc_error error = {{0}};
        if (sc_workload_ref_resolve(name, NULL, &study->workloads[study->workload_count++], &error) < 0)
            return cli_usage_error(command, "--workloads: %s", error.message);
    }
    if (!study->workload_count)
        return cli_usage_error(command, "--workloads is empty");
    if (study->windows && (study->workload_count != 1 || !workloads))
        return cli_usage_error(command, "--windows fits one workload: give it as --workload W (a built-in name or a "
                               "manifest)");
    return 0;
}

int model_study_command(int argc, char **argv, const char *command, int default_points, bool windows_options,
                        void (*help)(void),
                        int (*body)(const model_study *study, const char *database_path, sc_error *error))
{
    cli_option shared[] = {MODEL_STUDY_OPTIONS, {.name = NULL}};
    cli_option with_windows[] = {MODEL_STUDY_OPTIONS, {.name = "windows", .kind = CLI_FLAG},
                                 {.name = "prior-floor", .kind = CLI_VALUE}, SAMPLING_OPTIONS, {.name = NULL}};
    cli_option *options = windows_options ? with_windows : shared;
    const char *positional[1];
    int positional_count;
    bool show_help;
    if (cli_parse(argc, argv, options, positional, 0, &positional_count, &show_help) < 0)
        return 2;
    int status = 0;
    model_study study = {0};
    char *workload_list = NULL;
    if (show_help) {
        help();
    } else if ((status = study_from_options(&study, command, options, default_points, &workload_list)) == 0) {
        sc_error error = {{0}};
        const char *source_path = cli_find(options, "detailed-from")->value;
        const char *database_path = cli_database_path(cli_find(options, "db")->value);
        model_detailed_source source = {0};
        double start = sc_monotonic_seconds();
        /* The earlier database is checked before the study's database is opened: a bad one
         * leaves nothing behind. */
        if (source_path && sc_same_file(source_path, database_path))
            status = sc_fail_input(&error, "%s: --detailed-from names the study's own database", source_path);
        else if (source_path && !(source.store = sc_store_open_run_source(source_path, &error)))
            status = -1;
        study.detailed_source = source_path ? &source : NULL;
        if (status == 0 && body(&study, database_path, &error) < 0)
            status = -1;
        if (status == 0 && source_path)
            printf("detailed runs: %d reused from %s, %d simulated; wall time %.2f s\n", source.reused, source_path,
                   source.simulated, sc_monotonic_seconds() - start);
        if (status < 0) {
            fprintf(stderr, "syncscope %s: %s\n", command, error.message);
            status = cli_failure_status(&error);
        }
        sc_store_close(source.store);
    }
    free(workload_list);
    cli_options_free(options);
    return status;
}
