/* run_session.c — one run from request to stored result (see run_session.h). */
#include "session/run_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/detailed_identity.h"
#include "exec/functional_engine.h"
#include "protocols/mechanism.h"
#include "session/run_hardware.h"
#include "workloads/manifest.h"

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
    int status = sc_manifest_digest(manifest, result->manifest_digest, error);
    if (status == 0)
        status = sc_manifest_run(manifest, device, &result->check, error);
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

void run_request_set_workload(run_request *request, const sc_workload_ref *workload)
{
    request->workload = workload->builtin ? workload->name : NULL;
    request->workload_file = workload->builtin ? NULL : workload->path;
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

/* Whether the request's mode runs the detailed timing model (in full, or in a sampled run's
 * windows): what the detailed identity covers. */
static bool simulated_in_detail(const run_request *request)
{
    return !strcmp(request->mode, "detailed") || !strcmp(request->mode, "sampled");
}

void run_session_make_record(const run_request *request, const sc_config *config, const run_result *result,
                             run_session_record *out)
{
    const sc_device_stats *stats = &result->stats;
    sc_metric_row base_metrics[] = {
        {-1, "warp_instructions", (double)stats->warp_instructions, "instructions"},
        {-1, "thread_instructions", (double)stats->thread_instructions, "instructions"},
        {-1, "launches", (double)stats->launches, NULL},
        {-1, "host_bytes_in", (double)stats->host_bytes_in, "bytes"},
        {-1, "host_bytes_out", (double)stats->host_bytes_out, "bytes"},
        {-1, "engine_seconds", stats->engine_seconds, "s"},
        {-1, "engine_cpu_seconds", stats->engine_cpu_seconds, "s"},
    };
    int base_count = (int)(sizeof base_metrics / sizeof base_metrics[0]);
    int metric_count = base_count + result->timing.metric_count;
    sc_metric_row *metrics = malloc((size_t)metric_count * sizeof *metrics);
    memcpy(metrics, base_metrics, sizeof base_metrics);
    if (result->timing.metric_count)
        memcpy(metrics + base_count, result->timing.metrics, (size_t)result->timing.metric_count * sizeof *metrics);
    sc_stall_row *stalls = NULL;
    int stall_count = result->timing.present ? run_timing_stall_rows(&result->timing, &stalls) : 0;
    char *params = out->params;
    sc_workload_params_format(request->workload_file ? result->manifest_digest : NULL,
                              sc_workload_size_name(request->size), request->seed, out->params);
    char *config_json = sc_config_canonical_json(config);
    out->metrics = metrics;
    out->stalls = stalls;
    out->config_json = config_json;
    out->record = (sc_run_record){
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
        .detailed_identity = simulated_in_detail(request) ? sc_detailed_identity() : NULL,
        .kernels = result->kernels,
        .kernel_count = result->kernel_count,
        .metrics = metrics,
        .metric_count = metric_count,
        .stalls = stalls,
        .stall_count = stall_count,
    };
}

void run_session_record_release(run_session_record *record)
{
    free(record->stalls);
    free(record->metrics);
    free(record->config_json);
}

int64_t run_session_store(sc_store *store, const run_request *request, const sc_config *config,
                          const run_result *result, sc_error *error)
{
    run_session_record record;
    run_session_make_record(request, config, result, &record);
    int64_t id = sc_store_insert_run(store, &record.record, error);
    run_session_record_release(&record);
    return id;
}

int run_session_simulate(const run_request *request, const sc_config *config, run_result *result, sc_error *error)
{
    *result = (run_result){0};
    snprintf(result->config_hash, sizeof result->config_hash, "%s", sc_config_hash(config));
    bool detailed = strcmp(request->mode, "detailed") == 0, sampled = strcmp(request->mode, "sampled") == 0;
    bool hardware = strcmp(request->mode, "hardware") == 0;
    if (!detailed && !sampled && !hardware && strcmp(request->mode, "functional") != 0)
        return sc_fail(error,
                       "--mode %s cannot run here: this path runs the functional, detailed, sampled and hardware modes",
                       request->mode);
    void *engine = NULL;
    sc_device *device =
        detailed   ? run_timing_device(config, request->mechanism, request->jitter, &engine, error)
        : sampled  ? run_sampled_device(config, request->mechanism, request->jitter, &request->sampling, &engine, error)
        : hardware ? run_hardware_device(config, &engine, error)
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
        const sc_mechanism *mechanism = request->mechanism ? sc_mechanism_find(request->mechanism) : NULL;
        sc_workload_params params = {
            .size = request->size, .seed = request->seed,
            .sequentially_consistent = mechanism && mechanism->memory_model == SC_MODEL_SEQUENTIAL};
        status = workload->run(device, &params, &result->check, error);
    }
    result->wall_seconds = sc_monotonic_seconds() - start;
    result->stats = *sc_device_statistics(device);
    keep_launches(result, device);
    if (engine && sampled)
        run_sampled_collect(engine, &request->sampling, &result->timing, &result->sample, result->kernels,
                            result->kernel_count);
    else if (engine && hardware)
        run_hardware_collect(engine, &result->timing, result->gpu_name, sizeof result->gpu_name);
    else if (engine)
        run_timing_collect(engine, &result->timing);
    sc_device_destroy(device);
    return status;
}

/* Opens the database before simulating, so a bad database fails before any work is done. */
static sc_store *open_store(const run_request *request, sc_error *error)
{
    if (!request->database_path)
        return NULL;
    return sc_store_open(request->database_path, error);
}

int run_session_execute(const run_request *request, run_result *result, sc_error *error)
{
    *result = (run_result){0};
    sc_config *config = sc_config_load(request->system, request->config_file, request->sets, request->set_count, error);
    if (!config)
        return -1;
    sc_store *store = open_store(request, error);
    int status = (request->database_path && !store) ? -1 : run_session_simulate(request, config, result, error);
    if (status == 0 && store) {
        result->run_id = run_session_store(store, request, config, result, error);
        status = result->run_id < 0 ? -1 : 0;
    }
    sc_store_close(store);
    sc_config_free(config);
    if (status < 0)
        run_result_release(result);
    return status;
}
