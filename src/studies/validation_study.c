/* validation_study.c — validate_study (model_studies.h): the calibrations of a mechanism on a
 * system that the study's workloads are modelled with (each workload's own per-workload fit,
 * else the suite-wide one: the latest fitted on its manifest, else on built-in workloads only)
 * against detailed runs at held-out design points, drawn from another random stream than
 * calibration's and never one either calibration used; where a workload has its own fit, the
 * suite-wide one is compared at the same runs too; each comparison stored (validations table,
 * with the detailed and the model run). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "session/model_run.h"
#include "studies/model_studies.h"

/* Validation points come from this stream (calibration draws from another, calibration_study.c). */
#define VALIDATION_SEED 0x5EEDBA11DA7Eull

/* Adds the design points the calibration of `workload` (size NULL: the suite-wide one) was fitted
 * at (its residuals name them) to *points. */
static int calibration_points(sc_store *store, const model_study *study, const sc_workload_ref *workload,
                              const char *size, char ***points, int *count, sc_error *error)
{
    sc_calibration_row row;
    if (model_calibration_row(store, study->mechanism, study->system, workload, size, 1, &row, error) < 0)
        return -1;
    cJSON *residuals = cJSON_Parse(row.residuals);
    *points = realloc(*points, (size_t)(*count + cJSON_GetArraySize(residuals) + 1) * sizeof **points);
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

/* The calibrations each workload of the study is modelled with (its own, else the suite-wide
 * one) and the suite-wide ones, and every point either was fitted at. */
static int study_calibrations(sc_store *store, const model_study *study, model_calibration *used,
                              model_calibration *suite, char ***points, int *count, sc_error *error)
{
    int status = 0;
    for (int w = 0; w < study->workload_count && status == 0; w++) {
        const sc_workload_ref *workload = &study->workloads[w];
        status = model_calibration_latest(store, study->mechanism, study->system, workload, study->size, 1, &used[w],
                                          error) < 0 ||
                         model_calibration_latest(store, study->mechanism, study->system, workload, NULL, 1, &suite[w],
                                                  error) < 0 ||
                         calibration_points(store, study, workload, study->size, points, count, error) < 0 ||
                         calibration_points(store, study, workload, NULL, points, count, error) < 0
                     ? -1 : 0;
    }
    return status;
}

static int store_comparison(sc_store *store, const model_study *study, const study_sample *s,
                            const model_design_point *point, const model_calibration *calibration,
                            const model_prediction *prediction, double stall_error, sc_error *error)
{
    sc_config *config = model_design_config(study->system, point, error);
    if (!config)
        return -1;
    model_run run;
    double sigma = model_cycles_sigma(study->model, s->profile, &s->sample.point, calibration, prediction->cycles);
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

/* Predicts sample `s` with `calibration` and fills its cycle error and stall errors (into
 * `stall_errors` at [category * count + s]); returns the worst stall error. */
static double compare_one(const model_study *study, const study_sample *sample, const model_calibration *calibration,
                          int s, int count, double *cycle_errors, double *stall_errors, model_prediction *prediction)
{
    study->model->evaluate(sample->profile, &sample->sample.point, &calibration->params, prediction);
    double fraction[GSI_CATEGORY_COUNT], worst = 0;
    model_stall_fractions(prediction, fraction);
    cycle_errors[s] = (prediction->cycles - sample->sample.cycles) / sample->sample.cycles;
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++) {
        double difference = fraction[c] - sample->sample.stall_fraction[c];
        stall_errors[c * count + s] = difference;
        worst = fabs(difference) > worst ? fabs(difference) : worst;
    }
    return worst;
}

/* Predicts every sample with the calibration its workload is modelled with and, where that is
 * the workload's own, with the suite-wide one too; stores each comparison and fills the errors. */
static int compare_all(sc_store *store, const model_study *study, const study_sample *samples, int count,
                       const model_design_point *points, const model_calibration *used,
                       const model_calibration *suite, validation_outcome *outcome, sc_error *error)
{
    outcome->calibration_id = used[0].id;
    outcome->suite_calibration_id = suite[0].id;
    outcome->count = count;
    outcome->cycle_errors = malloc((size_t)count * sizeof *outcome->cycle_errors);
    outcome->stall_errors = malloc((size_t)count * GSI_CATEGORY_COUNT * sizeof *outcome->stall_errors);
    outcome->suite_cycle_errors = malloc((size_t)count * sizeof *outcome->suite_cycle_errors);
    outcome->suite_stall_errors = malloc((size_t)count * GSI_CATEGORY_COUNT * sizeof *outcome->suite_stall_errors);
    int status = 0;
    for (int s = 0; s < count && status == 0; s++) {
        int w = (int)(samples[s].workload - study->workloads);
        outcome->own_workload += used[w].own_workload;
        model_prediction prediction;
        double worst = compare_one(study, &samples[s], &used[w], s, count, outcome->cycle_errors,
                                   outcome->stall_errors, &prediction);
        status = store_comparison(store, study, &samples[s], &points[samples[s].point], &used[w], &prediction, worst,
                                  error);
        if (status == 0 && used[w].own_workload) {
            worst = compare_one(study, &samples[s], &suite[w], s, count, outcome->suite_cycle_errors,
                                outcome->suite_stall_errors, &prediction);
            status = store_comparison(store, study, &samples[s], &points[samples[s].point], &suite[w], &prediction,
                                      worst, error);
        } else if (status == 0) {
            outcome->suite_cycle_errors[s] = outcome->cycle_errors[s];
            for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
                outcome->suite_stall_errors[c * count + s] = outcome->stall_errors[c * count + s];
        }
    }
    return status;
}

int validate_study(const model_study *study, sc_store *store, validation_outcome *outcome, sc_error *error)
{
    *outcome = (validation_outcome){0};
    model_calibration used[MODEL_STUDY_MAX_WORKLOADS], suite[MODEL_STUDY_MAX_WORKLOADS];
    char **excluded = NULL;
    int excluded_count = 0, status = study_calibrations(store, study, used, suite, &excluded, &excluded_count, error);
    model_design_point *points = calloc((size_t)study->points, sizeof *points);
    if (status == 0)
        status = model_design_points(study->system, VALIDATION_SEED ^ study->seed, study->points,
                                     (const char *const *)excluded, excluded_count, points, error);
    int count = 0;
    study_sample *samples = status == 0 ? model_study_sample(study, store, points, study->points, &count, error) : NULL;
    status = samples ? compare_all(store, study, samples, count, points, used, suite, outcome, error) : -1;
    if (status < 0)
        validation_outcome_release(outcome);
    model_study_samples_free(samples, count);
    for (int i = 0; i < excluded_count; i++)
        free(excluded[i]);
    free(excluded);
    free(points);
    return status;
}

void validation_outcome_release(validation_outcome *outcome)
{
    free(outcome->cycle_errors);
    free(outcome->stall_errors);
    free(outcome->suite_cycle_errors);
    free(outcome->suite_stall_errors);
    *outcome = (validation_outcome){0};
}
