/* run_model.c — a run in mode model (run_model.h), of a built-in or a manifest workload, with
 * the workload's own per-workload calibration when it has one, else the suite-wide one: sigma
 * combines the calibration's residual spread (or its validations' held-out error, the larger) and its
 * parameter covariance (model_cycles_sigma). */
#include "session/run_model.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "protocols/mechanism.h"
#include "session/model_run.h"

static int predict(const run_request *request, sc_config *config, sc_store *store, run_model_result *result,
                   sc_error *error)
{
    const model_mechanism *mechanism = model_mechanism_find(request->mechanism);
    if (!mechanism) {
        char names[256];
        sc_mechanism_names(names, sizeof names);
        return sc_fail(error, "mechanism %s has no analytical model (models exist for %s)", request->mechanism,
                       names);
    }
    sc_workload_ref workload;
    if (sc_workload_ref_resolve(request->workload_file ? request->workload_file : request->workload, NULL, &workload,
                                error) < 0)
        return -1;
    snprintf(result->workload_name, sizeof result->workload_name, "%s", workload.name);
    const char *size = sc_workload_size_name(request->size);
    model_point point;
    model_calibration calibration;
    if (model_point_from_config(config, &point, error) < 0 || model_point_of_mechanism(mechanism, config, &point, error) < 0 ||
        model_calibration_latest(store, request->mechanism, request->system, &workload, size, request->seed,
                                 &calibration, error) < 0)
        return -1;
    result->calibration_id = calibration.id;
    result->calibration_own_workload = calibration.own_workload;
    double start = sc_monotonic_seconds();
    model_profile *profile = model_profile_obtain(store, &workload, size, request->seed, config, error);
    if (!profile)
        return -1;
    mechanism->evaluate(profile, &point, &calibration.params, &result->prediction);
    result->sigma = model_cycles_sigma(mechanism, profile, &point, &calibration, result->prediction.cycles);
    double wall = sc_monotonic_seconds() - start;
    model_run run;
    char params[SC_WORKLOAD_PARAMS_BYTES];
    sc_workload_params_text(&workload, size, request->seed, params);
    char *config_json = sc_config_canonical_json(config);
    model_run_fill(&run, config, config_json, NULL, request->mechanism, workload.name, params, &result->prediction,
                   result->sigma, calibration.id, wall);
    result->run_id = sc_store_insert_run(store, &run.record, error);
    free(config_json);
    profile_free(profile);
    return result->run_id < 0 ? -1 : 0;
}

int run_model_execute(const run_request *request, run_model_result *result, sc_error *error)
{
    sc_config *config = sc_config_load(request->system, request->config_file, request->sets, request->set_count, error);
    sc_store *store = config ? sc_store_open(request->database_path, error) : NULL;
    int status = store ? predict(request, config, store, result, error) : -1;
    sc_store_close(store);
    sc_config_free(config);
    return status;
}
