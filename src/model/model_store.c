/* model_store.c — the fast layer's use of the results store: profiles taken on demand and
 * reused (a manifest's keyed by its content digest), the calibration a workload is modelled with
 * (its own per-workload fit, else the suite-wide one; found in the store, or copied from another
 * database) with its validations' held-out error, and the uncertainty of a calibrated
 * prediction (model.h). */
#include "model/model.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profiler.h"

static model_profile *profile_by_functional_pass(const sc_workload_ref *workload, sc_workload_size size, uint64_t seed,
                                                 const sc_config *config, const char *params, sc_error *error)
{
    profiler *p = profiler_create(config);
    sc_device *device = profiler_device(p, error);
    sc_check_result check = {0};
    sc_workload_params workload_params = {.size = size, .seed = seed};
    int status = device ? sc_workload_ref_run(workload, device, &workload_params, &check, error) : -1;
    sc_device_destroy(device);
    model_profile *profile = profiler_finish(p, workload->name, params, sc_config_system(config));
    if (status == 0 && !check.passed)
        status = sc_fail(error, "workload %s: its check failed in the profiling pass: %s", workload->name, check.detail);
    if (status != 0) {
        profile_free(profile);
        return NULL;
    }
    return profile;
}

model_profile *model_profile_obtain(sc_store *store, const sc_workload_ref *workload, const char *size_name,
                                    uint64_t seed, const sc_config *config, sc_error *error)
{
    sc_workload_size size;
    if (sc_workload_size_parse(size_name, &size) < 0)
        return sc_fail(error, "size must be tiny, small, large or huge, not %s", size_name), NULL;
    char params[SC_WORKLOAD_PARAMS_BYTES], key[PROFILE_KEY_BYTES];
    sc_workload_params_text(workload, size_name, seed, params);
    profile_key_of(config, key);
    if (store) {
        error->message[0] = '\0';
        char *json = sc_store_find_profile(store, workload->name, params, sc_config_system(config), key, error);
        if (json) {
            model_profile *profile = profile_from_json(json, error);
            free(json);
            return profile;
        }
        if (error->message[0])
            return NULL;
    }
    model_profile *profile = profile_by_functional_pass(workload, size, seed, config, params, error);
    if (profile && store) {
        char *json = profile_to_json(profile);
        int64_t id = sc_store_insert_profile(store, workload->name, params, profile->system, key, json, error);
        free(json);
        if (id < 0) {
            profile_free(profile);
            return NULL;
        }
    }
    return profile;
}

/* ---- calibrations ---- */

/* Parameters the model no longer has: a calibration that fitted one fitted the others beside a
 * term that is gone, so it is refused rather than used. */
static const char *const retired_parameters[] = {
    "barrier_cycles",   /* replaced by the warps' skew at barriers from the profile (model_core.c: join_waits) */
};

static int read_params(const char *json, model_params *params, sc_error *error)
{
    cJSON *root = cJSON_Parse(json);
    int status = root ? 0 : sc_fail(error, "calibration: params are not valid JSON");
    for (size_t r = 0; r < sizeof retired_parameters / sizeof retired_parameters[0] && status == 0; r++)
        if (cJSON_GetObjectItemCaseSensitive(root, retired_parameters[r]))
            status = sc_fail(error, "calibration: fitted with %s, which the model no longer has: calibrate again "
                                    "(syncscope calibrate --mechanism M --system S)", retired_parameters[r]);
    for (int p = 0; p < MODEL_PARAMETER_COUNT && status == 0; p++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, model_parameter_name((model_parameter)p));
        if (!cJSON_IsNumber(item))
            status = sc_fail(error, "calibration: parameter %s missing", model_parameter_name((model_parameter)p));
        else
            params->value[p] = item->valuedouble;
    }
    cJSON_Delete(root);
    return status;
}

/* Covariance: a row-major MODEL_PARAMETER_COUNT^2 array; residuals: objects with "log_error". */
static void read_spread(const char *covariance, const char *residuals, model_calibration *out)
{
    cJSON *matrix = cJSON_Parse(covariance), *list = cJSON_Parse(residuals);
    if (cJSON_GetArraySize(matrix) == MODEL_PARAMETER_COUNT * MODEL_PARAMETER_COUNT)
        for (int i = 0; i < MODEL_PARAMETER_COUNT * MODEL_PARAMETER_COUNT; i++)
            out->covariance[i / MODEL_PARAMETER_COUNT][i % MODEL_PARAMETER_COUNT] =
                cJSON_GetArrayItem(matrix, i)->valuedouble;
    double sum = 0;
    int count = 0;
    const cJSON *residual;
    cJSON_ArrayForEach(residual, list) {
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(residual, "log_error");
        if (cJSON_IsNumber(value)) {
            sum += value->valuedouble * value->valuedouble;
            count++;
        }
    }
    out->residual_rms = count ? sqrt(sum / count) : 0.0;
    cJSON_Delete(matrix);
    cJSON_Delete(list);
}

/* A stored calibration row as the models use it. */
static int calibration_of_row(const sc_calibration_row *row, model_calibration *out, sc_error *error)
{
    memset(out, 0, sizeof *out);
    out->id = row->id;
    out->r2 = row->r2;
    out->sample_count = (int)row->sample_count;
    out->own_workload = row->workload != NULL;
    int status = read_params(row->params, &out->params, error);
    if (status == 0)
        read_spread(row->covariance, row->residuals, out);
    return status;
}

/* The calibration of `row` (read from `store`) with its validations' held-out spread. */
static int calibration_with_validations(sc_store *store, const sc_calibration_row *row, model_calibration *out,
                                        sc_error *error)
{
    bool own;
    if (calibration_of_row(row, out, error) < 0)
        return -1;
    return sc_store_validation_spread(store, row->id, row->mechanism, row->system, &out->validation_rms,
                                      &out->validation_count, &own, error);
}

int model_calibration_row(sc_store *store, const char *mechanism, const char *system, const sc_workload_ref *workload,
                          const char *size, uint64_t seed, sc_calibration_row *row, sc_error *error)
{
    char *manifests = sc_workload_refs_manifests(workload, 1), params[SC_WORKLOAD_PARAMS_BYTES];
    if (size)
        sc_workload_params_text(workload, size, seed, params);
    int status = sc_store_latest_calibration(store, mechanism, system, manifests, size ? workload->name : NULL,
                                             size ? params : NULL, row, error);
    free(manifests);
    return status;
}

int model_calibration_latest(sc_store *store, const char *mechanism, const char *system, const sc_workload_ref *workload,
                             const char *size, uint64_t seed, model_calibration *out, sc_error *error)
{
    sc_calibration_row row;
    if (model_calibration_row(store, mechanism, system, workload, size, seed, &row, error) < 0)
        return -1;
    int status = calibration_with_validations(store, &row, out, error);
    sc_calibration_row_release(&row);
    return status;
}

int model_calibration_import(sc_store *to, sc_store *from, const char *mechanism, const char *system,
                             const sc_workload_ref *workload, const char *size, uint64_t seed, model_calibration *out,
                             sc_error *error)
{
    sc_calibration_row row;
    if (model_calibration_row(from, mechanism, system, workload, size, seed, &row, error) < 0)
        return -1;
    int status = calibration_with_validations(from, &row, out, error);
    int64_t id = status == 0 ? sc_store_copy_calibration(to, &row, error) : -1;
    sc_calibration_row_release(&row);
    if (id < 0)
        return -1;
    out->id = id;
    return 0;
}

double model_cycles_sigma(const model_mechanism *mechanism, const model_profile *profile, const model_point *point,
                          const model_calibration *calibration, double cycles)
{
    model_prediction moved;
    double gradient[MODEL_PARAMETER_COUNT];
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++) {
        gradient[p] = 0.0;
        if (!model_parameter_moves_cycles((model_parameter)p))
            continue;
        model_params params = calibration->params;
        double step = 1e-4 * (fabs(params.value[p]) + 1e-3);
        params.value[p] += step;
        mechanism->evaluate(profile, point, &params, &moved);
        gradient[p] = (log(moved.cycles) - log(cycles)) / step;
    }
    double spread = calibration->validation_rms > calibration->residual_rms ? calibration->validation_rms
                                                                            : calibration->residual_rms;
    double variance = spread * spread;
    for (int i = 0; i < MODEL_PARAMETER_COUNT; i++)
        for (int j = 0; j < MODEL_PARAMETER_COUNT; j++)
            variance += gradient[i] * calibration->covariance[i][j] * gradient[j];
    return sqrt(variance > 0 ? variance : 0.0);
}
