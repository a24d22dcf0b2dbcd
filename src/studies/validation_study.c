/* validation_study.c — validate_study (model_studies.h): the calibration of a mechanism on a
 * system that the study's workloads are modelled with (the latest fitted on all its manifests,
 * else on built-in workloads only) against detailed runs at held-out design points, drawn from another random stream
 * than calibration's and never one the calibration used; each comparison stored (validations
 * table, with the detailed and the model run). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "session/model_run.h"
#include "studies/model_studies.h"

/* Validation points come from this stream (calibration draws from another, calibration_study.c). */
#define VALIDATION_SEED 0x5EEDBA11DA7Eull

/* The design points the calibration the study's workloads are modelled with was fitted at (its
 * residuals name them). */
static int calibration_points(sc_store *store, const model_study *study, const char *manifests, char ***points,
                              int *count, sc_error *error)
{
    sc_calibration_row row;
    if (sc_store_latest_calibration(store, study->mechanism, study->system, manifests, &row, error) < 0)
        return -1;
    cJSON *residuals = cJSON_Parse(row.residuals);
    *count = 0;
    *points = calloc((size_t)cJSON_GetArraySize(residuals) + 1, sizeof **points);
    const cJSON *entry;
    cJSON_ArrayForEach(entry, residuals) {
        const cJSON *point = cJSON_GetObjectItemCaseSensitive(entry, "point");
        if (cJSON_IsString(point))
            (*points)[(*count)++] = strdup(point->valuestring);
    }
    cJSON_Delete(residuals);
    sc_calibration_row_release(&row);
    return 0;
}

static int store_comparison(sc_store *store, const model_study *study, const study_sample *s,
                            const model_design_point *point, const model_calibration *calibration,
                            const model_prediction *prediction, double stall_error, sc_error *error)
{
    sc_config *config = model_design_config(study->system, point, error);
    if (!config)
        return -1;
    model_run run;
    double sigma = model_cycles_sigma(study->model, s->profile, &s->sample.point, calibration);
    char *config_json = sc_config_canonical_json(config);
    char params[SC_WORKLOAD_PARAMS_BYTES];
    sc_workload_params_text(s->workload, study->size, 1, params);
    model_run_fill(&run, config, config_json, NULL, study->mechanism, s->workload->name, params, prediction, sigma,
                   calibration->id, 0.0);
    sc_validation_row row = {.calibration_id = calibration->id, .detailed_run_id = s->detailed_run_id,
                             .workload = s->workload->name, .point_config = point->json,
                             .detailed_cycles = s->sample.cycles, .model_cycles = prediction->cycles,
                             .stall_fraction_error = stall_error};
    int64_t id = sc_store_insert_validation(store, &run.record, &row, error);
    free(config_json);
    sc_config_free(config);
    return id < 0 ? -1 : 0;
}

/* Predicts every sample with the calibration, stores each comparison and fills the errors. */
static int compare_all(sc_store *store, const model_study *study, const study_sample *samples, int count,
                       const model_design_point *points, const model_calibration *calibration,
                       validation_outcome *outcome, sc_error *error)
{
    outcome->calibration_id = calibration->id;
    outcome->count = count;
    outcome->cycle_errors = malloc((size_t)count * sizeof *outcome->cycle_errors);
    outcome->stall_errors = malloc((size_t)count * GSI_CATEGORY_COUNT * sizeof *outcome->stall_errors);
    int status = 0;
    for (int s = 0; s < count && status == 0; s++) {
        model_prediction prediction;
        study->model->evaluate(samples[s].profile, &samples[s].sample.point, &calibration->params, &prediction);
        double fraction[GSI_CATEGORY_COUNT], worst = 0;
        model_stall_fractions(&prediction, fraction);
        outcome->cycle_errors[s] = (prediction.cycles - samples[s].sample.cycles) / samples[s].sample.cycles;
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++) {
            double difference = fraction[c] - samples[s].sample.stall_fraction[c];
            outcome->stall_errors[c * count + s] = difference;
            worst = fabs(difference) > worst ? fabs(difference) : worst;
        }
        status = store_comparison(store, study, &samples[s], &points[samples[s].point], calibration, &prediction, worst,
                                  error);
    }
    return status;
}

int validate_study(const model_study *study, sc_store *store, validation_outcome *outcome, sc_error *error)
{
    *outcome = (validation_outcome){0};
    model_calibration calibration;
    char **used = NULL;
    char *manifests = sc_workload_refs_manifests(study->workloads, study->workload_count);
    int used_count = 0,
        status = model_calibration_latest(store, study->mechanism, study->system, manifests, &calibration, error);
    if (status == 0)
        status = calibration_points(store, study, manifests, &used, &used_count, error);
    free(manifests);
    model_design_point *points = calloc((size_t)study->points, sizeof *points);
    if (status == 0)
        status = model_design_points(study->system, VALIDATION_SEED ^ study->seed, study->points,
                                     (const char *const *)used, used_count, points, error);
    int count = 0;
    study_sample *samples = status == 0 ? model_study_sample(study, store, points, study->points, &count, error) : NULL;
    status = samples ? compare_all(store, study, samples, count, points, &calibration, outcome, error) : -1;
    if (status < 0)
        validation_outcome_release(outcome);
    model_study_samples_free(samples, count);
    for (int i = 0; i < used_count; i++)
        free(used[i]);
    free(used);
    free(points);
    return status;
}

void validation_outcome_release(validation_outcome *outcome)
{
    free(outcome->cycle_errors);
    free(outcome->stall_errors);
    *outcome = (validation_outcome){0};
}
