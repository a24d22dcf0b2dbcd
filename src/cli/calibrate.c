/* calibrate.c — `syncscope calibrate`: fits a mechanism's model parameters to short detailed
 * runs at random design points around a system preset and stores the fit (calibrations table). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "cli/commands.h"
#include "cli/model_studies.h"

/* Calibration points come from this stream (validation draws from another, model_samples.h). */
#define CALIBRATION_SEED 0xCA11B8A7Eull

static void print_help(void)
{
    printf("usage: syncscope calibrate --mechanism wt|nol1|rfo|qr [--system PRESET] [--workloads W1,W2,...]\n"
           "                           [--points N] [--size tiny|small|large|huge] [--seed N] [--db PATH]\n\n"
           "Runs every workload in detail at N design points (default 6) drawn around the preset (L1 and L2\n"
           "capacity, CU count, DRAM clock, NoC latency), stores those runs, takes each workload's profile,\n"
           "fits the mechanism's free parameters (models/mechanisms/M.json) by nonlinear least squares and\n"
           "stores parameters, covariance, residuals and R^2 in the calibrations table.\n"
           "Default workloads: " MODEL_DEFAULT_WORKLOADS "; default size small.\n");
}

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
        cJSON_AddStringToObject(entry, "workload", samples[s].workload);
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
    if (model_param_spec_load(study->mechanism, &spec, error) < 0)
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
            sc_calibration_row row = {.mechanism = study->mechanism, .system = study->system, .params = params,
                                      .covariance = covariance, .residuals = residuals, .r2 = fit->r2,
                                      .sample_count = count};
            outcome->id = sc_store_insert_calibration(store, &row, error);
            outcome->sample_count = count;
            double mean_square = 0;
            for (int s = 0; s < count; s++)
                mean_square += fit->log_errors[s] * fit->log_errors[s] / count;
            outcome->rms_error = exp(sqrt(mean_square)) - 1;
            free(params);
            free(covariance);
            free(residuals);
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

static int calibrate(const model_study *study, sc_error *error)
{
    sc_store *store = sc_store_open(study->database_path, error);
    calibration_outcome outcome;
    if (!store || calibrate_study(study, store, &outcome, error) < 0) {
        sc_store_close(store);
        return -1;
    }
    printf("calibration %lld: mechanism %s, system %s, %d samples (%d points x %d workloads, size %s)\n",
           (long long)outcome.id, study->mechanism, study->system, outcome.sample_count, study->points,
           study->workload_count, study->size);
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
        printf("  %-20s %10.4g  +- %.3g\n", model_parameter_name((model_parameter)p), outcome.fit.params.value[p],
               sqrt(outcome.fit.covariance[p][p] > 0 ? outcome.fit.covariance[p][p] : 0));
    printf("  fit: R^2 %.4f (log cycles), RMS cycle error %.2f%%, %d iterations\n", outcome.fit.r2,
           100 * outcome.rms_error, outcome.fit.iterations);
    printf("  time: detailed runs and profiles %.2f s, fit %.3f s\n", outcome.detailed_seconds, outcome.fit_seconds);
    model_fit_release(&outcome.fit);
    sc_store_close(store);
    return 0;
}

int command_calibrate(int argc, char **argv)
{
    return model_study_command(argc, argv, "calibrate", 6, print_help, calibrate);
}
