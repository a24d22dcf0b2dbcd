/* run_session.h — executing one run from a request: configuration, device, workload, check,
 * statistics and storage. Shared by `run` and the commands that run many workloads. */
#ifndef SYNCSCOPE_CLI_RUN_SESSION_H
#define SYNCSCOPE_CLI_RUN_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "config/config.h"
#include "host/host_api.h"
#include "workloads/workload.h"

typedef struct run_request {
    const char *system, *mechanism, *workload, *workload_file, *mode, *config_file;
    const char **sets;
    int set_count;
    sc_workload_size size;
    uint64_t seed, jitter;
    const char **dumps;        /* "buffer=file" */
    int dump_count;
    const char *database_path; /* NULL: do not store */
    bool json;
} run_request;

typedef struct run_result {
    char workload_name[128];
    sc_check_result check;
    sc_device_stats stats;
    double wall_seconds;
    int64_t run_id;            /* 0 when not stored */
    char config_hash[17];
} run_result;

/* Fills a request from parsed `run` options; prints a one-line error and returns 2 on bad usage. */
int run_request_from_options(run_request *request, cli_option *options);

/* Runs the request's workload on a device built from `config`. */
int run_session_simulate(const run_request *request, const sc_config *config, run_result *result, sc_error *error);

/* Loads the configuration, simulates, stores and prints; returns the process exit code. */
int run_session_execute(const run_request *request);

#endif
