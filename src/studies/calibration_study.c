/* calibration_study.c — calibrate_study and calibrate_windows_study (model_studies.h): a
 * mechanism's model parameters fitted to short detailed runs of the suite at random design
 * points around a system preset, or to one workload's sampled runs (short detailed windows) at
 * the corners and a Latin hypercube of the same ranges with the suite-wide fit as the prior; the
 * fit stored in the calibrations table with its parameters, covariance and per-sample residuals
 * as JSON (and calibrate_refit_study: a sweep's spot checks fitted with the calibration it used as
 * the prior), the content digests of the manifest workloads it was fitted on, and for a per-workload
 * fit that workload and its parameters (the workloads it is used for). */
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

/* One object per sample: its workload, design point, detailed run, both cycle counts, log error;
 * for a sampled run also whether its estimate had an interval and its share run in detail. A
 * refit then lists its prior's samples (`carried`: that calibration's residuals, id
 * `carried_from`) without their errors, as "from_calibration" entries: the points its
 * information comes from (calibrated_region.h), not residuals of this fit. */
static char *residuals_json(const model_study *study, const study_sample *samples, int count, const model_fit *fit,
                            const char *carried, int64_t carried_from)
{
    cJSON *array = cJSON_CreateArray();
    for (int s = 0; s < count; s++) {
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddStringToObject(entry, "workload", samples[s].workload->name);
        cJSON_AddStringToObject(entry, "point", samples[s].point_json);
        cJSON_AddNumberToObject(entry, "detailed_run_id", (double)samples[s].detailed_run_id);
        cJSON_AddNumberToObject(entry, "detailed_cycles", samples[s].sample.cycles);
        cJSON_AddNumberToObject(entry, "model_cycles", samples[s].sample.cycles * exp(fit->log_errors[s]));
        cJSON_AddNumberToObject(entry, "log_error", fit->log_errors[s]);
        if (study->windows) {
            cJSON_AddBoolToObject(entry, "has_interval", samples[s].has_interval);
            cJSON_AddNumberToObject(entry, "detailed_fraction", samples[s].detailed_fraction);
        }
        cJSON_AddItemToArray(array, entry);
    }
    cJSON *prior = carried ? cJSON_Parse(carried) : NULL, *entry;
    cJSON_ArrayForEach(entry, prior) {
        cJSON *kept = cJSON_CreateObject();
        static const char *const fields[] = {"workload", "point", "detailed_run_id", "detailed_cycles"};
        for (int f = 0; f < 4; f++) {
            const cJSON *value = cJSON_GetObjectItemCaseSensitive(entry, fields[f]);
            if (value)
                cJSON_AddItemToObject(kept, fields[f], cJSON_Duplicate(value, true));
        }
        /* an entry the prior carried names its own source (null in a copied calibration) */
        const cJSON *from = cJSON_GetObjectItemCaseSensitive(entry, "from_calibration");
        cJSON_AddItemToObject(kept, "from_calibration",
                              from ? cJSON_Duplicate(from, true) : cJSON_CreateNumber((double)carried_from));
        cJSON_AddItemToArray(array, kept);
    }
    cJSON_Delete(prior);
    char *text = cJSON_PrintUnformatted(array);
    cJSON_Delete(array);
    return text;
}

/* Fits the samples (with `prior` unless NULL), stores the fit (for one workload's parameters
 * `workload_params` unless NULL; a refit with its prior's samples `carried` from calibration
 * `carried_from`, residuals_json) and fills the outcome. */
static int fit_and_store(const model_study *study, sc_store *store, const model_param_spec *spec,
                         const study_sample *samples, int count, const model_prior *prior, const char *workload_params,
                         const char *carried, int64_t carried_from, calibration_outcome *outcome, sc_error *error)
{
    model_sample *plain = malloc((size_t)count * sizeof *plain + 1);
    for (int s = 0; s < count; s++)
        plain[s] = samples[s].sample;
    double start = sc_monotonic_seconds();
    model_fit *fit = &outcome->fit;
    int status = model_fit_parameters(study->model, spec, plain, count, prior, fit, error);
    outcome->fit_seconds = sc_monotonic_seconds() - start;
    free(plain);
    if (status < 0)
        return -1;
    char *params = params_json(&fit->params), *covariance = covariance_json(fit);
    char *residuals = residuals_json(study, samples, count, fit, carried, carried_from);
    char *manifests = sc_workload_refs_manifests(study->workloads, study->workload_count);
    sc_calibration_row row = {.mechanism = study->mechanism, .system = study->system, .params = params,
                              .covariance = covariance, .residuals = residuals, .r2 = fit->r2,
                              .sample_count = count, .manifests = manifests,
                              .workload = workload_params ? study->workloads[0].name : NULL,
                              .workload_params = workload_params};
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
        return -1;
    }
    return 0;
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
        status = fit_and_store(study, store, &spec, samples, count, NULL, NULL, NULL, 0, outcome, error);
        model_study_samples_free(samples, count);
    }
    free(points);
    return status;
}

/* The prior of a per-workload fit: a calibration's parameters (the suite-wide one; for a
 * sweep's refit, the one the sweep used), each sigma its standard deviation from that fit's
 * covariance floored at study->prior_floor of the parameter's bound range, and the data
 * residuals' spread that fit's RMS log cycle error (at least WINDOWS_DATA_SIGMA_FLOOR). */
#define WINDOWS_DATA_SIGMA_FLOOR 0.01

static void prior_of_calibration(const model_study *study, const model_param_spec *spec,
                                 const model_calibration *calibration, model_prior *prior)
{
    prior->center = calibration->params;
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++) {
        double variance = calibration->covariance[p][p];
        double floor = study->prior_floor * (spec->upper.value[p] - spec->lower.value[p]);
        double sigma = variance > 0 ? sqrt(variance) : 0.0;
        prior->sigma[p] = sigma > floor ? sigma : floor;
    }
    prior->data_sigma = calibration->residual_rms > WINDOWS_DATA_SIGMA_FLOOR ? calibration->residual_rms
                                                                               : WINDOWS_DATA_SIGMA_FLOOR;
}

int calibrate_windows_study(const model_study *study, sc_store *store, calibration_outcome *outcome, sc_error *error)
{
    const sc_workload_ref *workload = &study->workloads[0];
    model_param_spec spec;
    model_calibration suite;
    if (model_param_spec_load(sc_mechanism_find(study->mechanism)->params_file, &spec, error) < 0)
        return -1;
    if (model_calibration_latest(store, study->mechanism, study->system, workload, NULL, 1, &suite, error) < 0)
        return sc_fail_input(error, "no suite-wide calibration of mechanism %s on system %s to use as the prior (run "
                             "syncscope calibrate --mechanism %s --system %s first)", study->mechanism, study->system,
                             study->mechanism, study->system);
    outcome->prior_id = suite.id;
    model_prior prior;
    prior_of_calibration(study, &spec, &suite, &prior);
    int point_count = MODEL_DESIGN_CORNERS + study->points;
    model_design_point *points = calloc((size_t)point_count, sizeof *points);
    if (model_design_corners_and_fill(study->system, CALIBRATION_SEED ^ study->seed, study->points, points, error) < 0) {
        free(points);
        return -1;
    }
    int count = 0, status = -1;
    double start = sc_monotonic_seconds();
    study_sample *samples = model_study_sample(study, store, points, point_count, &count, error);
    outcome->detailed_seconds = sc_monotonic_seconds() - start;
    if (samples) {
        double all = 0, detailed = 0;
        for (int s = 0; s < count; s++) {
            all += (double)samples[s].warp_instructions;
            detailed += samples[s].detailed_fraction * (double)samples[s].warp_instructions;
            outcome->without_interval += !samples[s].has_interval;
        }
        outcome->detailed_share = all > 0 ? detailed / all : 0.0;
        char params[SC_WORKLOAD_PARAMS_BYTES];
        sc_workload_params_text(workload, study->size, 1, params);
        status = fit_and_store(study, store, &spec, samples, count, &prior, params, NULL, 0, outcome, error);
        model_study_samples_free(samples, count);
    }
    free(points);
    return status;
}

int calibrate_refit_study(const model_study *study, sc_store *store, const model_calibration *prior_calibration,
                          const char *prior_residuals, const study_sample *samples, int count,
                          calibration_outcome *outcome, sc_error *error)
{
    model_param_spec spec;
    if (model_param_spec_load(sc_mechanism_find(study->mechanism)->params_file, &spec, error) < 0)
        return -1;
    model_prior prior;
    prior_of_calibration(study, &spec, prior_calibration, &prior);
    outcome->prior_id = prior_calibration->id;
    char params[SC_WORKLOAD_PARAMS_BYTES];
    sc_workload_params_text(&study->workloads[0], study->size, 1, params);
    return fit_and_store(study, store, &spec, samples, count, &prior, params, prior_residuals, prior_calibration->id,
                         outcome, error);
}
