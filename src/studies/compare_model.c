/* compare_model.c — the model step of `syncscope compare`, so that the main job's database holds
 * everything the canned queries ask about (model_error, sensitivity), measured honestly:
 *
 *   1. The workloads: the compared ones that the analytical models are calibrated on
 *      (MODEL_DEFAULT_WORKLOADS: work independent of timing) and the compared manifests (the
 *      user's own kernels, calibrated with them); the mechanisms: the compared ones
 *      with both a model and a detailed protocol. With none of either, the step says so and
 *      stops.
 *   2. Each mechanism is calibrated at N design points drawn around the preset (N detailed runs
 *      per workload, stored) and validated at N other, held-out points (N more detailed runs and
 *      N model runs per workload, each comparison stored in the validations table), exactly as
 *      `syncscope calibrate --points N` then `syncscope validate --points N` do.
 *   3. A one-at-a-time model sweep "compare-SYSTEM-SIZE" around the preset: L1 and L2 capacity at
 *      1/2 and 2x (kept multiples of ways x line size, and of banks for the L2), CU count at 1/2
 *      and 3/4 and DRAM clock at 0.5x and 1.5x, every point predicted by the calibrations just
 *      made and stored tied to the sweep (`syncscope query sensitivity`); a compare run again
 *      keeps the points already stored (sweep.h) and evaluates only the missing ones. */
#include "studies/compare_model.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/names.h"
#include "config/config.h"
#include "protocols/mechanism.h"
#include "studies/model_studies.h"
#include "studies/sweep.h"

/* Step 2 for one mechanism: calibrate, validate, print one line. */
static int calibrate_and_validate(model_study *study, sc_store *store, FILE *out, sc_error *error)
{
    double start = sc_monotonic_seconds();
    calibration_outcome calibration;
    if (calibrate_study(study, store, &calibration, error) < 0)
        return -1;
    validation_outcome validation;
    if (validate_study(study, store, &validation, error) < 0) {
        model_fit_release(&calibration.fit);
        return -1;
    }
    /* the suite-wide fit just made, also where a workload has a per-workload fit of its own */
    double sum = 0, largest = 0;
    for (int i = 0; i < validation.count; i++) {
        sum += fabs(validation.suite_cycle_errors[i]);
        largest = fmax(largest, fabs(validation.suite_cycle_errors[i]));
    }
    fprintf(out, "model %-5s calibration %lld on %d points x %d workloads (R^2 %.3f, fit RMS error %.1f%%); "
            "%d held-out comparisons: mean |error| %.1f%%, max %.1f%% (%.1f s)\n",
            study->mechanism, (long long)calibration.id, study->points, study->workload_count, calibration.fit.r2,
            100 * calibration.rms_error, validation.count, 100 * sum / validation.count, 100 * largest,
            sc_monotonic_seconds() - start);
    model_fit_release(&calibration.fit);
    validation_outcome_release(&validation);
    return 0;
}

static void add_values_axis(cJSON *parameters, const char *key, double low, double high)
{
    double values[] = {low, high};
    cJSON *axis = cJSON_AddObjectToObject(parameters, key);
    cJSON_AddItemToObject(axis, "values", cJSON_CreateDoubleArray(values, 2));
}

/* A capacity key at half and twice the preset's value, the half rounded down to `granule`. */
static void add_capacity_axis(cJSON *parameters, const sc_config *base, const char *key, long long granule)
{
    long long preset = sc_config_int(base, key), half = preset / 2 / granule * granule;
    add_values_axis(parameters, key, (double)(half < granule ? granule : half), (double)(preset * 2));
}

/* Step 3's specification, as `syncscope sweep` would read it from a file. */
static char *sweep_spec_text(const compare_model_request *request, const char *const *mechanisms, int mechanism_count,
                             const sc_workload_ref *workloads, int workload_count, const sc_config *base)
{
    char name[160];
    snprintf(name, sizeof name, "compare-%s-%s", request->system, request->size);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", name);
    cJSON_AddStringToObject(root, "system", request->system);
    cJSON_AddStringToObject(root, "size", request->size);
    cJSON_AddStringToObject(root, "mode", "model");
    cJSON_AddItemToObject(root, "mechanisms", cJSON_CreateStringArray(mechanisms, mechanism_count));
    cJSON *names = cJSON_AddArrayToObject(root, "workloads");
    for (int w = 0; w < workload_count; w++)   /* a manifest by its path (relative to the current directory) */
        cJSON_AddItemToArray(names, cJSON_CreateString(workloads[w].builtin ? workloads[w].name : workloads[w].path));
    cJSON *parameters = cJSON_AddObjectToObject(root, "parameters");
    long long line = sc_config_int(base, "l1.line_size");
    add_capacity_axis(parameters, base, "l1.size", sc_config_int(base, "l1.associativity") * line);
    add_capacity_axis(parameters, base, "l2.size",
                      sc_config_int(base, "l2.associativity") * line * sc_config_int(base, "l2.banks"));
    long long cus = sc_config_int(base, "gpu.cu_count");
    add_values_axis(parameters, "gpu.cu_count", (double)(cus / 2), (double)(cus * 3 / 4));
    double dram_mhz = round(sc_config_float(base, "dram.clock") / 1e6);
    add_values_axis(parameters, "dram.clock", round(dram_mhz * 0.5) * 1e6, round(dram_mhz * 1.5) * 1e6);
    cJSON_AddStringToObject(root, "design", "oat");
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* Step 3: the sweep, and its line. */
static int model_sweep(const compare_model_request *request, sc_store *store, const char *const *mechanisms,
                       int mechanism_count, const sc_workload_ref *workloads, int workload_count, FILE *out,
                       sc_error *error)
{
    sc_config *base = sc_config_load(request->system, NULL, NULL, 0, error);
    if (!base)
        return -1;
    char *text = sweep_spec_text(request, mechanisms, mechanism_count, workloads, workload_count, base);
    sc_config_free(base);
    sweep_spec *spec = calloc(1, sizeof *spec);
    sweep_totals totals;
    int status = sweep_spec_parse(text, "compare's model sweep", spec, error);
    free(text);
    if (status == 0)
        status = sweep_evaluate(spec, store, &totals, error);
    if (status == 0 && totals.points_resumed)
        fprintf(out, "model sweep %s (id %lld): %lld of its %lld points were already stored (kept); %lld model runs "
                "added in %.2f s (syncscope query sensitivity)\n", spec->name, (long long)totals.sweep_id,
                (long long)totals.points_resumed, (long long)totals.points, (long long)totals.runs, totals.seconds);
    else if (status == 0)
        fprintf(out, "model sweep %s (id %lld): one parameter at a time, %lld points x %d mechanisms x %d workloads "
                "= %lld model runs in %.2f s (syncscope query sensitivity)\n", spec->name, (long long)totals.sweep_id,
                (long long)totals.points, totals.mechanism_count, totals.workload_count, (long long)totals.runs,
                totals.seconds);
    sweep_spec_free(spec);
    free(spec);
    return status;
}

int compare_model_step(const compare_model_request *request, sc_store *store, FILE *out, sc_error *error)
{
    model_study study = {.system = request->system, .size = request->size, .points = request->points, .quiet = true};
    char covered[] = MODEL_DEFAULT_WORKLOADS;
    const char *model_workloads[32];
    int model_workload_count = sc_name_split(covered, model_workloads, 32);
    for (int w = 0; w < request->workload_count && study.workload_count < 32; w++)
        if (!request->workloads[w].builtin ||
            sc_name_index(model_workloads, model_workload_count, request->workloads[w].name) >= 0)
            study.workloads[study.workload_count++] = request->workloads[w];
    const char *mechanisms[16];
    int mechanism_count = 0;
    for (int m = 0; m < request->mechanism_count && mechanism_count < 16; m++)
        if (model_mechanism_find(request->mechanisms[m]) && sc_protocol_find(request->mechanisms[m]))
            mechanisms[mechanism_count++] = request->mechanisms[m];
    if (!study.workload_count || !mechanism_count) {
        fprintf(out, "model: skipped: %s\n",
                !study.workload_count ? "no compared workload is one the models cover (" MODEL_DEFAULT_WORKLOADS
                                        ") or a manifest"
                                      : "no compared mechanism has an analytical model");
        return 0;
    }
    for (int m = 0; m < mechanism_count; m++) {
        study.mechanism = mechanisms[m];
        study.model = model_mechanism_find(mechanisms[m]);
        if (calibrate_and_validate(&study, store, out, error) < 0)
            return sc_fail_prefix(error, "model step, mechanism %s", mechanisms[m]);
    }
    if (model_sweep(request, store, mechanisms, mechanism_count, study.workloads, study.workload_count, out, error) < 0)
        return sc_fail_prefix(error, "model sweep");
    return 0;
}
