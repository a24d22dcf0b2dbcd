/* run_session.c — one run from request to printed (and stored) result (see run_session.h). */
#include "cli/run_session.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/run_model.h"
#include "exec/functional_engine.h"
#include "protocols/mechanism.h"
#include "workloads/manifest.h"

static const char *const modes[] = {"functional", "detailed", "sampled", "model"};

static bool known_mode(const char *mode)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(modes[i], mode))
            return true;
    return false;
}


int run_request_from_options(run_request *request, cli_option *options)
{
    cli_option *set = cli_find(options, "set"), *dump = cli_find(options, "dump");
    *request = (run_request){
        .system = cli_find(options, "system")->value,
        .mechanism = cli_find(options, "mechanism")->value,
        .workload = cli_find(options, "workload")->value,
        .workload_file = cli_find(options, "workload-file")->value,
        .mode = cli_find(options, "mode")->value,
        .config_file = cli_find(options, "config")->value,
        .sets = (const char *const *)set->values,
        .set_count = set->count,
        .size = SC_SIZE_SMALL,
        .seed = 1,
        .dumps = (const char *const *)dump->values,
        .dump_count = dump->count,
        .json = cli_find(options, "json")->present,
    };
    if (!request->system)
        request->system = "gtx480";
    if (!request->mechanism)
        request->mechanism = "wt";
    if (!request->mode)
        request->mode = "functional";
    if (!cli_find(options, "no-db")->present)
        request->database_path = cli_database_path(cli_find(options, "db")->value);
    if (!request->workload == !request->workload_file)
        return cli_usage_error("run", "give exactly one of --workload and --workload-file");
    if (request->workload && !sc_workload_find(request->workload))
        return cli_usage_error("run", "unknown workload (see syncscope list workloads): %s", request->workload);
    if (!sc_mechanism_find(request->mechanism))
        return cli_usage_error("run", "unknown mechanism (see syncscope list mechanisms): %s", request->mechanism);
    if (!known_mode(request->mode))
        return cli_usage_error("run", "--mode must be functional, detailed, sampled or model, not %s", request->mode);
    if (request->dump_count && !request->workload_file)
        return cli_usage_error("run", "--dump needs --workload-file (built-in workloads check their own outputs)");
    const char *size = cli_find(options, "size")->value;
    if (size && sc_workload_size_parse(size, &request->size) < 0)
        return cli_usage_error("run", "--size must be tiny, small, large or huge, not %s", size);
    unsigned long long number;
    const char *seed = cli_find(options, "seed")->value, *jitter = cli_find(options, "jitter")->value;
    if (seed && cli_parse_u64("run", "seed", seed, &number) < 0)
        return 2;
    request->seed = seed ? number : request->seed;
    if (jitter && cli_parse_u64("run", "jitter", jitter, &number) < 0)
        return 2;
    request->jitter = jitter ? number : 0;
    bool sampling_given = cli_find(options, "sample-period")->present || cli_find(options, "sample-window-waves")->present ||
                          cli_find(options, "sample-warmup-waves")->present ||
                          cli_find(options, "sample-warmup-launches")->present;
    if (sampling_given && strcmp(request->mode, "sampled") != 0)
        return cli_usage_error("run", "--sample-* options need --mode sampled");
    return run_sampled_options("run", options, &request->sampling);
}

functional_engine_options run_session_functional_options(const sc_config *config)
{
    functional_engine_options options = functional_engine_defaults((unsigned)sc_config_int(config, "gpu.warp_size"));
    options.cu_count = (unsigned)sc_config_int(config, "gpu.cu_count");
    options.ctas_per_cu = (unsigned)sc_config_int(config, "gpu.max_ctas_per_cu");
    return options;
}

sc_device *run_session_functional_device(const sc_config *config, sc_error *error)
{
    sc_device *device = sc_device_create((unsigned)sc_config_int(config, "gpu.warp_size"), error);
    if (!device)
        return NULL;
    functional_engine_options options = run_session_functional_options(config);
    sc_device_set_engine(device, &functional_engine_ops, functional_engine_create(&options));
    return device;
}

static int dump_buffers(const run_request *request, const sc_manifest *manifest, sc_device *device, sc_error *error)
{
    for (int i = 0; i < request->dump_count; i++) {
        const char *spec = request->dumps[i], *equals = strchr(spec, '=');
        if (!equals || equals == spec || !equals[1])
            return sc_fail(error, "--dump '%s': expected BUFFER=FILE", spec);
        char buffer[256];
        snprintf(buffer, sizeof buffer, "%.*s", (int)(equals - spec), spec);
        if (sc_manifest_dump(manifest, device, buffer, equals + 1, error) < 0)
            return -1;
    }
    return 0;
}

static int run_manifest(const run_request *request, sc_device *device, run_result *result, sc_error *error)
{
    sc_manifest *manifest = sc_manifest_load(request->workload_file, error);
    if (!manifest)
        return -1;
    snprintf(result->workload_name, sizeof result->workload_name, "%s", sc_manifest_name(manifest));
    int status = sc_manifest_run(manifest, device, &result->check, error);
    if (status == 0)
        status = dump_buffers(request, manifest, device, error);
    sc_manifest_free(manifest);
    return status;
}

static void keep_launches(run_result *result, const sc_device *device)
{
    size_t count;
    const sc_launch_record *launches = sc_device_launches(device, &count);
    result->kernels = calloc(count + 1, sizeof *result->kernels);
    result->kernel_count = (int)count;
    for (size_t i = 0; i < count; i++)
        result->kernels[i] = (sc_kernel_row){
            .index = (int)i,
            .name = strdup(launches[i].kernel),
            .grid = {launches[i].grid.x, launches[i].grid.y, launches[i].grid.z},
            .block = {launches[i].block.x, launches[i].block.y, launches[i].block.z},
            .warp_instructions = (int64_t)launches[i].stats.warp_instructions,
            .cycles = launches[i].stats.cycles ? (double)launches[i].stats.cycles : -1.0,
        };
}

void run_result_release(run_result *result)
{
    run_timing_release(&result->timing);
    for (int i = 0; i < result->kernel_count; i++)
        free((char *)result->kernels[i].name);
    free(result->kernels);
    result->kernels = NULL;
    result->kernel_count = 0;
}

int64_t run_session_store(sc_store *store, const run_request *request, const sc_config *config,
                          const run_result *result, sc_error *error)
{
    const sc_device_stats *stats = &result->stats;
    sc_metric_row base_metrics[] = {
        {-1, "warp_instructions", (double)stats->warp_instructions, "instructions"},
        {-1, "thread_instructions", (double)stats->thread_instructions, "instructions"},
        {-1, "launches", (double)stats->launches, NULL},
        {-1, "host_bytes_in", (double)stats->host_bytes_in, "bytes"},
        {-1, "host_bytes_out", (double)stats->host_bytes_out, "bytes"},
        {-1, "engine_seconds", stats->engine_seconds, "s"},
    };
    int base_count = (int)(sizeof base_metrics / sizeof base_metrics[0]);
    int metric_count = base_count + result->timing.metric_count;
    sc_metric_row *metrics = malloc((size_t)metric_count * sizeof *metrics);
    memcpy(metrics, base_metrics, sizeof base_metrics);
    if (result->timing.metric_count)
        memcpy(metrics + base_count, result->timing.metrics, (size_t)result->timing.metric_count * sizeof *metrics);
    sc_stall_row *stalls = NULL;
    int stall_count = result->timing.present ? run_timing_stall_rows(&result->timing, &stalls) : 0;
    char params[160];
    snprintf(params, sizeof params, "{\"size\": \"%s\", \"seed\": %llu}",
             request->workload_file ? "manifest" : sc_workload_size_name(request->size),
             (unsigned long long)request->seed);
    char *config_json = sc_config_canonical_json(config);
    sc_run_record record = {
        .system = request->system,
        .config_json = config_json,
        .config_hash = result->config_hash,
        .mechanism = request->mechanism,
        .workload = result->workload_name,
        .workload_params = params,
        .mode = request->mode,
        .seed = (int64_t)request->seed,
        .jittered = request->jitter != 0,
        .jitter = (int64_t)request->jitter,
        .status = result->check.passed ? "ok" : "check_failed",
        .check_detail = result->check.detail,
        .cycles = result->timing.present ? (double)result->timing.cycles : -1.0,
        .wall_seconds = result->wall_seconds,
        .sweep_point_id = request->sweep_point_id,
        .kernels = result->kernels,
        .kernel_count = result->kernel_count,
        .metrics = metrics,
        .metric_count = metric_count,
        .stalls = stalls,
        .stall_count = stall_count,
    };
    int64_t id = sc_store_insert_run(store, &record, error);
    free(stalls);
    free(metrics);
    free(config_json);
    return id;
}

int run_session_simulate(const run_request *request, const sc_config *config, run_result *result, sc_error *error)
{
    *result = (run_result){0};
    snprintf(result->config_hash, sizeof result->config_hash, "%s", sc_config_hash(config));
    bool detailed = strcmp(request->mode, "detailed") == 0, sampled = strcmp(request->mode, "sampled") == 0;
    if (!detailed && !sampled && strcmp(request->mode, "functional") != 0)
        return sc_fail(error, "--mode %s cannot run here: this path runs the functional, detailed and sampled modes",
                       request->mode);
    void *engine = NULL;
    sc_device *device =
        detailed  ? run_timing_device(config, request->mechanism, request->jitter, &engine, error)
        : sampled ? run_sampled_device(config, request->mechanism, request->jitter, &request->sampling, &engine, error)
                  : run_session_functional_device(config, error);
    if (!device)
        return -1;
    double start = sc_monotonic_seconds();
    int status;
    if (request->workload_file) {
        status = run_manifest(request, device, result, error);
    } else {
        const sc_workload *workload = sc_workload_find(request->workload);
        snprintf(result->workload_name, sizeof result->workload_name, "%s", workload->name);
        sc_workload_params params = {.size = request->size, .seed = request->seed};
        status = workload->run(device, &params, &result->check, error);
    }
    result->wall_seconds = sc_monotonic_seconds() - start;
    result->stats = *sc_device_statistics(device);
    keep_launches(result, device);
    if (engine && sampled)
        run_sampled_collect(engine, &request->sampling, &result->timing, &result->sample, result->kernels,
                            result->kernel_count);
    else if (engine)
        run_timing_collect(engine, &result->timing);
    sc_device_destroy(device);
    return status;
}

/* Cycles, IPC and the stall breakdown as a share of CU cycles (mean over CUs). */
static void print_timing(const run_timing *timing, uint64_t warp_instructions)
{
    printf("cycles             %llu (IPC %.3f warp instructions/cycle)\n", (unsigned long long)timing->cycles,
           timing->cycles ? (double)warp_instructions / (double)timing->cycles : 0.0);
    printf("stalls (GSI)      ");
    double cu_cycles = (double)timing->cycles * timing->cu_count;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        if (timing->total.category[c])
            printf(" %s %.1f%%", gsi_category_name((gsi_category)c),
                   cu_cycles > 0 ? 100.0 * (double)timing->total.category[c] / cu_cycles : 0.0);
    printf("\n");
}

/* A sampled run's interval and how much of it ran in detail. */
static void print_sample(const run_sample *sample)
{
    if (sample->has_ci)
        printf("95%% CI             [%.0f, %.0f] cycles (+-%.2f%%)\n", sample->ci_low, sample->ci_high,
               sample->cycles > 0 ? 100.0 * (sample->ci_high - sample->cycles) / sample->cycles : 0.0);
    else
        printf("95%% CI             none: %s\n", sample->no_ci_reason);
    printf("sampled            %.2f%% of warp instructions in detail, %llu measured windows/launches "
           "(period %u, windows of %g waves with %g warm-up, %u warm-up launches)\n", 100.0 * sample->detailed_fraction,
           (unsigned long long)sample->units, sample->options.period, sample->options.window_waves,
           sample->options.warmup_waves, sample->options.warmup_launches);
}

static void print_text(const run_request *request, const run_result *result)
{
    printf("workload           %s (%s)\n", result->workload_name,
           request->workload_file ? "manifest" : sc_workload_size_name(request->size));
    printf("system             %s   mechanism %s   mode %s\n", request->system, request->mechanism, request->mode);
    printf("check              %s (%s)\n", result->check.passed ? "passed" : "FAILED", result->check.detail);
    printf("kernel launches    %llu\n", (unsigned long long)result->stats.launches);
    printf("warp instructions  %llu\n", (unsigned long long)result->stats.warp_instructions);
    printf("thread instrs      %llu\n", (unsigned long long)result->stats.thread_instructions);
    if (result->timing.present)
        print_timing(&result->timing, result->stats.warp_instructions);
    if (result->sample.present)
        print_sample(&result->sample);
    printf("wall time          %.3f s, of which %.3f s in kernels (%.2f M warp-instructions/s)\n",
           result->wall_seconds, result->stats.engine_seconds,
           result->stats.engine_seconds > 0 ? (double)result->stats.warp_instructions / result->stats.engine_seconds / 1e6
                                            : 0.0);
    if (result->run_id)
        printf("stored as run      %lld\n", (long long)result->run_id);
}

static void print_json(const run_request *request, const run_result *result)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "run_id", (double)result->run_id);
    cJSON_AddStringToObject(root, "mode", request->mode);
    cJSON_AddStringToObject(root, "system", request->system);
    cJSON_AddStringToObject(root, "mechanism", request->mechanism);
    cJSON_AddStringToObject(root, "workload", result->workload_name);
    cJSON_AddStringToObject(root, "config_hash", result->config_hash);
    cJSON_AddStringToObject(root, "check", result->check.passed ? "passed" : "failed");
    cJSON_AddStringToObject(root, "check_detail", result->check.detail);
    cJSON_AddNumberToObject(root, "launches", (double)result->stats.launches);
    cJSON_AddNumberToObject(root, "warp_instructions", (double)result->stats.warp_instructions);
    cJSON_AddNumberToObject(root, "thread_instructions", (double)result->stats.thread_instructions);
    /* The functional mode has no timing: cycles and stalls exist only in detailed and sampled runs. */
    if (result->timing.present) {
        cJSON_AddNumberToObject(root, "cycles", (double)result->timing.cycles);
        cJSON *stalls = cJSON_AddObjectToObject(root, "stalls");
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            cJSON_AddNumberToObject(stalls, gsi_category_name((gsi_category)c),
                                    (double)result->timing.total.category[c] / result->timing.cu_count);
    } else {
        cJSON_AddNullToObject(root, "cycles");
        cJSON_AddNullToObject(root, "stalls");
    }
    if (result->sample.present) {
        const run_sample *sample = &result->sample;
        cJSON *object = cJSON_AddObjectToObject(root, "sample");
        cJSON_AddNumberToObject(object, "estimated_cycles", sample->cycles);
        if (sample->has_ci) {
            cJSON_AddNumberToObject(object, "ci_low", sample->ci_low);
            cJSON_AddNumberToObject(object, "ci_high", sample->ci_high);
        } else {
            cJSON_AddNullToObject(object, "ci_low");
            cJSON_AddNullToObject(object, "ci_high");
            cJSON_AddStringToObject(object, "no_ci_reason", sample->no_ci_reason);
        }
        cJSON_AddNumberToObject(object, "detailed_fraction", sample->detailed_fraction);
        cJSON_AddNumberToObject(object, "windows", (double)sample->units);
    }
    cJSON_AddNumberToObject(root, "wall_seconds", result->wall_seconds);
    char *text = cJSON_PrintUnformatted(root);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(root);
}

/* Opens the database before simulating, so a bad database fails before any work is done. */
static sc_store *open_store(const run_request *request, sc_error *error)
{
    if (!request->database_path)
        return NULL;
    return sc_store_open(request->database_path, error);
}

int run_session_execute(const run_request *request)
{
    if (!strcmp(request->mode, "model"))
        return run_model_execute(request);
    sc_error error = {{0}};
    sc_config *config = sc_config_load(request->system, request->config_file, request->sets, request->set_count, &error);
    if (!config) {
        fprintf(stderr, "syncscope run: %s\n", error.message);
        return 1;
    }
    sc_store *store = open_store(request, &error);
    run_result result = {0};
    int status = (request->database_path && !store) ? -1 : run_session_simulate(request, config, &result, &error);
    if (status == 0 && store) {
        result.run_id = run_session_store(store, request, config, &result, &error);
        status = result.run_id < 0 ? -1 : 0;
    }
    sc_store_close(store);
    sc_config_free(config);
    if (status < 0) {
        run_result_release(&result);
        fprintf(stderr, "syncscope run: %s\n", error.message);
        return 1;
    }
    if (request->json)
        print_json(request, &result);
    else
        print_text(request, &result);
    run_result_release(&result);
    return result.check.passed ? 0 : 1;
}
