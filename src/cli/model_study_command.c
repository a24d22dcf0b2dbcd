/* model_study_command.c — the options and frame `calibrate` and `validate` share
 * (see model_study_command.h). */
#include "cli/model_study_command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "protocols/mechanism.h"
#include "workloads/workload_ref.h"

/* Fills a study from the shared options; *workload_list receives the malloc'd copy of the
 * workload names the study points into. Prints one line naming the bad option and returns 2 on
 * bad usage. */
static int study_from_options(model_study *study, const char *command, cli_option *options, int default_points,
                              char **workload_list)
{
    const char *mechanism = cli_find(options, "mechanism")->value, *system = cli_find(options, "system")->value;
    const char *workloads = cli_find(options, "workloads")->value, *points = cli_find(options, "points")->value;
    const char *size = cli_find(options, "size")->value, *seed = cli_find(options, "seed")->value;
    study->mechanism = mechanism;
    study->system = system ? system : "gtx480";
    study->size = size ? size : "small";
    study->points = default_points;
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
        if (number < 1 || number > 1000)
            return cli_usage_error(command, "--points must be 1..1000, not %s", points);
        study->points = (int)number;
    }
    if (seed && cli_parse_u64(command, "seed", seed, &number) < 0)
        return 2;
    study->seed = seed ? number : 0;
    *workload_list = strdup(workloads ? workloads : MODEL_DEFAULT_WORKLOADS);
    for (char *name = strtok(*workload_list, ","); name; name = strtok(NULL, ",")) {
        if (study->workload_count == (int)(sizeof study->workloads / sizeof study->workloads[0]))
            return cli_usage_error(command, "--workloads: at most 32 workloads");
        sc_error error = {{0}};
        if (sc_workload_ref_resolve(name, NULL, &study->workloads[study->workload_count++], &error) < 0)
            return cli_usage_error(command, "--workloads: %s", error.message);
    }
    if (!study->workload_count)
        return cli_usage_error(command, "--workloads is empty");
    return 0;
}

int model_study_command(int argc, char **argv, const char *command, int default_points, void (*help)(void),
                        int (*body)(const model_study *study, const char *database_path, sc_error *error))
{
    cli_option options[] = {
        {.name = "mechanism", .kind = CLI_VALUE}, {.name = "system", .kind = CLI_VALUE},
        {.name = "workloads", .kind = CLI_VALUE}, {.name = "points", .kind = CLI_VALUE},
        {.name = "size", .kind = CLI_VALUE},      {.name = "seed", .kind = CLI_VALUE},
        {.name = "db", .kind = CLI_VALUE},        {.name = NULL},
    };
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
        if (body(&study, cli_database_path(cli_find(options, "db")->value), &error) < 0) {
            fprintf(stderr, "syncscope %s: %s\n", command, error.message);
            status = cli_failure_status(&error);
        }
    }
    free(workload_list);
    cli_options_free(options);
    return status;
}
