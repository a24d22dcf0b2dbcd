/* model_samples.c — options and detailed samples shared by `calibrate` and `validate`. */
#include "cli/model_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocols/protocol.h"
#include "session/run_session.h"
#include "workloads/workload.h"


int model_study_from_options(model_study *study, cli_option *options, int default_points, uint64_t default_seed)
{
    const char *mechanism = cli_find(options, "mechanism")->value, *system = cli_find(options, "system")->value;
    const char *workloads = cli_find(options, "workloads")->value, *points = cli_find(options, "points")->value;
    const char *size = cli_find(options, "size")->value, *seed = cli_find(options, "seed")->value;
    study->mechanism = mechanism;
    study->system = system ? system : "gtx480";
    study->size = size ? size : "small";
    study->points = default_points;
    study->seed = default_seed;
    study->database_path = cli_database_path(cli_find(options, "db")->value);
    if (!mechanism)
        return cli_usage_error(study->command, "--mechanism is required (wt, nol1, rfo or qr)");
    study->model = model_mechanism_find(mechanism);
    if (!study->model || !sc_protocol_find(mechanism))
        return cli_usage_error(study->command, "no analytical model and detailed protocol for mechanism %s", mechanism);
    sc_workload_size parsed;
    if (sc_workload_size_parse(study->size, &parsed) < 0)
        return cli_usage_error(study->command, "--size must be tiny, small, large or huge, not %s", study->size);
    unsigned long long number;
    if (points) {
        if (cli_parse_u64(study->command, "points", points, &number) < 0)
            return 2;
        if (number < 1 || number > 1000)
            return cli_usage_error(study->command, "--points must be 1..1000, not %s", points);
        study->points = (int)number;
    }
    if (seed && cli_parse_u64(study->command, "seed", seed, &number) < 0)
        return 2;
    study->seed = seed ? number : study->seed;
    study->workload_list = strdup(workloads ? workloads : MODEL_DEFAULT_WORKLOADS);
    for (char *name = strtok(study->workload_list, ","); name; name = strtok(NULL, ",")) {
        if (!sc_workload_find(name))
            return cli_usage_error(study->command, "unknown workload (see syncscope list workloads): %s", name);
        if (study->workload_count == (int)(sizeof study->workloads / sizeof study->workloads[0]))
            return cli_usage_error(study->command, "--workloads: at most 32 workloads");
        study->workloads[study->workload_count++] = name;
    }
    if (!study->workload_count)
        return cli_usage_error(study->command, "--workloads is empty");
    return 0;
}

void model_study_release(model_study *study)
{
    free(study->workload_list);
    study->workload_list = NULL;
}

/* Runs one workload at one point in detail, stores it and fills the sample's detailed side. */
static int detailed_sample(const model_study *study, sc_store *store, const sc_config *config, const char *workload,
                           study_sample *out, sc_error *error)
{
    run_request request = {.system = study->system, .mechanism = study->mechanism, .workload = workload,
                           .mode = "detailed", .seed = 1};
    sc_workload_size_parse(study->size, &request.size);
    run_result result;
    int status = run_session_simulate(&request, config, &result, error);
    if (status == 0 && !result.check.passed)
        status = sc_fail(error, "%s: detailed run failed its check: %s", workload, result.check.detail);
    if (status == 0) {
        out->detailed_run_id = run_session_store(store, &request, config, &result, error);
        status = out->detailed_run_id < 0 ? -1 : 0;
    }
    if (status == 0) {
        out->sample.cycles = (double)result.timing.cycles;
        double cu_cycles = (double)result.timing.cycles * result.timing.cu_count;
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            out->sample.stall_fraction[c] = (double)result.timing.total.category[c] / cu_cycles;
    }
    run_result_release(&result);
    return status;
}

study_sample *model_study_sample(const model_study *study, sc_store *store, const model_design_point *points,
                                 int point_count, int *count, sc_error *error)
{
    study_sample *samples = calloc((size_t)point_count * study->workload_count + 1, sizeof *samples);
    int made = 0, status = 0;
    for (int p = 0; p < point_count && status == 0; p++) {
        sc_config *config = model_design_config(study->system, &points[p], error);
        if (!config || model_point_from_config(config, &samples[made].sample.point, error) < 0) {
            sc_config_free(config);
            status = -1;
            break;
        }
        model_point point = samples[made].sample.point;
        for (int w = 0; w < study->workload_count && status == 0; w++) {
            study_sample *s = &samples[made];
            *s = (study_sample){.workload = study->workloads[w], .point = p};
            s->sample.point = point;
            s->profile = model_profile_obtain(store, s->workload, study->size, 1, config, error);
            status = s->profile ? detailed_sample(study, store, config, s->workload, s, error) : -1;
            s->sample.profile = s->profile;
            made++;
            if (status == 0 && !study->quiet)
                fprintf(stderr, "  point %d/%d %-10s detailed %.0f cycles\n", p + 1, point_count, s->workload,
                        s->sample.cycles);
        }
        sc_config_free(config);
    }
    if (status != 0) {
        model_study_samples_free(samples, made);
        return NULL;
    }
    *count = made;
    return samples;
}

void model_study_samples_free(study_sample *samples, int count)
{
    for (int i = 0; i < count; i++)
        profile_free(samples[i].profile);
    free(samples);
}

int model_study_command(int argc, char **argv, const char *command, int default_points, void (*help)(void),
                        int (*body)(const model_study *study, sc_error *error))
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
    model_study study = {.command = command};
    if (show_help) {
        help();
    } else if ((status = model_study_from_options(&study, options, default_points, 0)) == 0) {
        sc_error error = {{0}};
        if (body(&study, &error) < 0) {
            fprintf(stderr, "syncscope %s: %s\n", command, error.message);
            status = 1;
        }
    }
    model_study_release(&study);
    cli_options_free(options);
    return status;
}
