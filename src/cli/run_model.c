/* run_model.c — `run --mode model` (run_model.h). The error band is +-2 sigma, sigma combining
 * the calibration's residual spread and its parameter covariance (model_cycles_sigma). */
#include "cli/run_model.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "cli/model_run.h"
#include "protocols/mechanism.h"

static void print_text(const run_request *request, const model_prediction *p, double sigma, int64_t calibration,
                       int64_t run_id)
{
    printf("workload           %s (%s)\n", request->workload, sc_workload_size_name(request->size));
    printf("system             %s   mechanism %s   mode model (calibration %lld)\n", request->system,
           request->mechanism, (long long)calibration);
    printf("cycles             %.0f  (95%% band %.0f .. %.0f, sigma %.1f%%)\n", p->cycles, p->cycles * exp(-2 * sigma),
           p->cycles * exp(2 * sigma), 100 * sigma);
    printf("stalls (GSI)      ");
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        if (p->stalls[c] > 0.0005 * p->cycles)
            printf(" %s %.1f%%", gsi_category_name((gsi_category)c), 100 * p->stalls[c] / p->cycles);
    printf("\nL1 hits/misses     %.0f / %.0f   L2 hits/misses %.0f / %.0f\n", p->l1_hits, p->l1_misses, p->l2_hits,
           p->l2_misses);
    printf("traffic            NoC to CUs %.0f B, from CUs %.0f B; DRAM read %.0f B, write %.0f B\n",
           p->noc_bytes_to_cus, p->noc_bytes_from_cus, p->dram_read_bytes, p->dram_write_bytes);
    printf("stored as run      %lld\n", (long long)run_id);
}

static void print_json(const run_request *request, const model_prediction *p, double sigma, int64_t calibration,
                       int64_t run_id)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "run_id", (double)run_id);
    cJSON_AddStringToObject(root, "mode", "model");
    cJSON_AddStringToObject(root, "system", request->system);
    cJSON_AddStringToObject(root, "mechanism", request->mechanism);
    cJSON_AddStringToObject(root, "workload", request->workload);
    cJSON_AddNumberToObject(root, "calibration_id", (double)calibration);
    cJSON_AddNumberToObject(root, "cycles", p->cycles);
    cJSON_AddNumberToObject(root, "cycles_low", p->cycles * exp(-2 * sigma));
    cJSON_AddNumberToObject(root, "cycles_high", p->cycles * exp(2 * sigma));
    cJSON *stalls = cJSON_AddObjectToObject(root, "stalls");
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        cJSON_AddNumberToObject(stalls, gsi_category_name((gsi_category)c), p->stalls[c]);
    cJSON_AddNumberToObject(root, "l1_hits", p->l1_hits);
    cJSON_AddNumberToObject(root, "l1_misses", p->l1_misses);
    cJSON_AddNumberToObject(root, "l2_hits", p->l2_hits);
    cJSON_AddNumberToObject(root, "l2_misses", p->l2_misses);
    cJSON_AddNumberToObject(root, "noc_bytes_to_cus", p->noc_bytes_to_cus);
    cJSON_AddNumberToObject(root, "noc_bytes_from_cus", p->noc_bytes_from_cus);
    cJSON_AddNumberToObject(root, "dram_read_bytes", p->dram_read_bytes);
    cJSON_AddNumberToObject(root, "dram_write_bytes", p->dram_write_bytes);
    char *text = cJSON_PrintUnformatted(root);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(root);
}

static int predict(const run_request *request, sc_config *config, sc_store *store, sc_error *error)
{
    const model_mechanism *mechanism = model_mechanism_find(request->mechanism);
    if (!mechanism)
        return sc_fail(error, "mechanism %s has no analytical model yet (models exist for wt and nol1)",
                       request->mechanism);
    if (request->workload_file)
        return sc_fail(error, "--mode model takes a built-in --workload (profiles of manifests are not supported yet)");
    model_point point;
    model_calibration calibration;
    if (model_point_from_config(config, &point, error) < 0 ||
        model_calibration_latest(store, request->mechanism, request->system, &calibration, error) < 0)
        return -1;
    double start = sc_monotonic_seconds();
    model_profile *profile = model_profile_obtain(store, request->workload, sc_workload_size_name(request->size),
                                                  request->seed, config, error);
    if (!profile)
        return -1;
    model_prediction prediction;
    mechanism->evaluate(profile, &point, &calibration.params, &prediction);
    double sigma = model_cycles_sigma(mechanism, profile, &point, &calibration);
    double wall = sc_monotonic_seconds() - start;
    model_run run;
    char *config_json = sc_config_canonical_json(config);
    model_run_fill(&run, config, config_json, NULL, request->mechanism, request->workload,
                   sc_workload_size_name(request->size), &prediction, sigma, calibration.id, wall);
    int64_t run_id = sc_store_insert_run(store, &run.record, error);
    free(config_json);
    profile_free(profile);
    if (run_id < 0)
        return -1;
    if (request->json)
        print_json(request, &prediction, sigma, calibration.id, run_id);
    else
        print_text(request, &prediction, sigma, calibration.id, run_id);
    return 0;
}

int run_model_execute(const run_request *request)
{
    sc_error error = {{0}};
    if (!request->database_path) {
        fprintf(stderr, "syncscope run: --mode model reads its calibration from the database; drop --no-db\n");
        return 2;
    }
    sc_config *config = sc_config_load(request->system, request->config_file, request->sets, request->set_count, &error);
    sc_store *store = config ? sc_store_open(request->database_path, &error) : NULL;
    int status = store ? predict(request, config, store, &error) : -1;
    sc_store_close(store);
    sc_config_free(config);
    if (status < 0) {
        fprintf(stderr, "syncscope run: %s\n", error.message);
        return 1;
    }
    return 0;
}
