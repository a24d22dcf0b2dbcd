/* run_session.h — executing one run from a request: configuration, device, workload, check,
 * statistics and storage. Shared by `run` (which prints the result) and the commands and
 * studies that run many workloads. */
#ifndef SYNCSCOPE_SESSION_RUN_SESSION_H
#define SYNCSCOPE_SESSION_RUN_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "exec/functional_engine.h"
#include "host/host_api.h"
#include "session/run_sampled.h"
#include "session/run_timing.h"
#include "store/store.h"
#include "workloads/workload.h"
#include "workloads/workload_ref.h"

typedef struct run_request {
    const char *system, *mechanism, *workload, *workload_file, *mode, *config_file;
    const char *const *sets;
    int set_count;
    sc_workload_size size;
    uint64_t seed, jitter;
    const char *const *dumps;  /* "buffer=file" */
    int dump_count;
    const char *database_path; /* NULL: do not store */
    int64_t sweep_point_id;    /* the sweep point the run belongs to; 0: none */
    bool json;
    sampling_options sampling; /* sampled mode */
} run_request;

typedef struct run_result {
    char workload_name[128];
    char manifest_digest[SC_SHA256_HEX];   /* a manifest's content digest (stored in its parameters) */
    sc_check_result check;
    sc_device_stats stats;
    double wall_seconds;
    int64_t run_id;            /* 0 when not stored */
    char config_hash[17];
    sc_kernel_row *kernels;    /* one per launch (names malloc'd) */
    int kernel_count;
    run_timing timing;         /* detailed mode: cycles, stall breakdown, memory metrics; sampled: estimated */
    run_sample sample;         /* sampled mode: the estimate and how much ran in detail */
    char gpu_name[128];        /* hardware mode: the GPU it ran on */
} run_result;

void run_result_release(run_result *result);

/* Points the request at a resolved workload: a built-in workload's name or a manifest's path. */
void run_request_set_workload(run_request *request, const sc_workload_ref *workload);

/* A simulated run as a store record (status "ok" or "check_failed"), with the rows it owns;
 * `result` must outlive it. */
typedef struct run_session_record {
    sc_run_record record;
    sc_metric_row *metrics;
    sc_stall_row *stalls;
    char *config_json;
    char params[SC_WORKLOAD_PARAMS_BYTES];
} run_session_record;

void run_session_make_record(const run_request *request, const sc_config *config, const run_result *result,
                             run_session_record *out);
void run_session_record_release(run_session_record *record);

/* Stores a simulated run (status "ok", "check_failed"); returns the run id or -1. */
int64_t run_session_store(sc_store *store, const run_request *request, const sc_config *config,
                          const run_result *result, sc_error *error);

/* The functional engine's options for `config`: its warp size and CTA residency. */
functional_engine_options run_session_functional_options(const sc_config *config);

/* A device on the functional engine with the configuration's warp size and CTA residency. */
sc_device *run_session_functional_device(const sc_config *config, sc_error *error);

/* Runs the request's workload on a device built from `config`. */
int run_session_simulate(const run_request *request, const sc_config *config, run_result *result, sc_error *error);

/* Loads the configuration, opens the database when the request names one (before simulating,
 * so a bad database fails before any work is done), simulates and stores the run (its id in
 * result->run_id). Not for mode "model" (run_model.h). On failure *result is released. */
int run_session_execute(const run_request *request, run_result *result, sc_error *error);

#endif
