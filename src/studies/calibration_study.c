/* calibration_study.c — calibrate_study (model_studies.h): a mechanism's model parameters fitted
 * to short detailed runs at random design points around a system preset, the fit stored in the
 * calibrations table with its parameters, covariance and per-sample residuals as JSON, and the
 * content digests of the manifest workloads it was fitted on (the workloads it is used for). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "base/clock.h"
#include "protocols/mechanism.h"
#include "studies/model_studies.h"

/* Calibration points come from this stream (validation draws from another, validation_study.c). */
#define CALIBRATION_SEED 0xCA11B8A7Eull

static char *params_json(const model_params *params)
{
    cJSON *object = cJSON_CreateObject();
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
        cJSON_AddNumberToObject(object, model_parameter_name((model_parameter)p), params->value[p]);
    char *text = cJSON_PrintUnformatted(object);
    cJSON_Delete(object);
    return text;
}

static char *covariance_json(const model_fit *fit)
{
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; i < MODEL_PARAMETER_COUNT; i++)
        for (int j = 0; j < MODEL_PARAMETER_COUNT; j++)
            cJSON_AddItemToArray(array, cJSON_CreateNumber(fit->covariance[i][j]));
    char *text = cJSON_PrintUnformatted(array);
    cJSON_Delete(array);
    return text;
}

/* One object per sample: its workload, design point, detailed run, both cycle counts, log error. */
static char *residuals_json(const study_sample *samples, int count, const model_design_point *points,
                            const model_fit *fit)
{
    cJSON *array = cJSON_CreateArray();
    for (int s = 0; s < count; s++) {
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddStringToObject(entry, "workload", samples[s].workload->name);
        cJSON_AddStringToObject(entry, "point", points[samples[s].point].json);
        cJSON_AddNumberToObject(entry, "detailed_run_id", (double)samples[s].detailed_run_id);
        cJSON_AddNumberToObject(entry, "detailed_cycles", samples[s].sample.cycles);
        cJSON_AddNumberToObject(entry, "model_cycles", samples[s].sample.cycles * exp(fit->log_errors[s]));
        cJSON_AddNumberToObject(entry, "log_error", fit->log_errors[s]);
        cJSON_AddItemToArray(array, entry);
    }
    char *text = cJSON_PrintUnformatted(array);
    cJSON_Delete(array);
    return text;
}

int calibrate_study(const model_study *study, sc_store *store, calibration_outcome *outcome, sc_error *error)
{
    model_param_spec spec;
    if (model_param_spec_load(sc_mechanism_find(study->mechanism)->params_file, &spec, error) < 0)
        return -1;
    model_design_point *points = calloc((size_t)study->points, sizeof *points);
    if (model_design_points(study->system, CALIBRATION_SEED ^ study->seed, study->points, NULL, 0, points, error) < 0) {
        free(points);
        return -1;
    }
    int count = 0, status = -1;
    double start = sc_monotonic_seconds();
    study_sample *samples = model_study_sample(study, store, points, study->points, &count, error);
    outcome->detailed_seconds = sc_monotonic_seconds() - start;
    if (samples) {
        model_sample *plain = malloc((size_t)count * sizeof *plain);
        for (int s = 0; s < count; s++)
            plain[s] = samples[s].sample;
        start = sc_monotonic_seconds();
        model_fit *fit = &outcome->fit;
        status = model_fit_parameters(study->model, &spec, plain, count, fit, error);
        outcome->fit_seconds = sc_monotonic_seconds() - start;
        free(plain);
        if (status == 0) {
            char *params = params_json(&fit->params), *covariance = covariance_json(fit);
            char *residuals = residuals_json(samples, count, points, fit);
            char *manifests = sc_workload_refs_manifests(study->workloads, study->workload_count);
            sc_calibration_row row = {.mechanism = study->mechanism, .system = study->system, .params = params,
                                      .covariance = covariance, .residuals = residuals, .r2 = fit->r2,
                                      .sample_count = count, .manifests = manifests};
            outcome->id = sc_store_insert_calibration(store, &row, error);
            outcome->sample_count = count;
            double mean_square = 0;
            for (int s = 0; s < count; s++)
                mean_square += fit->log_errors[s] * fit->log_errors[s] / count;
            outcome->rms_error = exp(sqrt(mean_square)) - 1;
            free(params);
            free(covariance);
            free(residuals);
            free(manifests);
            if (outcome->id < 0) {
                model_fit_release(fit);
                status = -1;
            }
        }
        model_study_samples_free(samples, count);
    }
    free(points);
    return status;
}
