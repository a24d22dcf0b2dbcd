/* model_run.h — a model prediction as a stored run (mode 'model'): cycles, the GSI categories
 * as mean-over-CU stall rows, predicted hits, misses and traffic as metrics, and the cycles'
 * one-sigma uncertainty. Used by runs in mode model (run_model.h), validation and model sweeps. */
#ifndef SYNCSCOPE_SESSION_MODEL_RUN_H
#define SYNCSCOPE_SESSION_MODEL_RUN_H

#include "model/model.h"
#include "store/store.h"

enum { MODEL_RUN_METRICS = 13 };

typedef struct model_run {
    sc_run_record record;
    sc_metric_row metrics[MODEL_RUN_METRICS];
    sc_stall_row stalls[GSI_CATEGORY_COUNT];
    char params[SC_WORKLOAD_PARAMS_BYTES];
    char system[256];               /* the preset's name (a copy: the record outlives the config) */
} model_run;

/* `workload_params` is the workload's parameters text (workload_ref.h: sc_workload_params_text).
 * `config_json` is the configuration's canonical JSON (sc_config_canonical_json) and
 * `config_hash` its hash (NULL: the store computes it); the record points to both, so they must
 * outlive it (a sweep serialises a point once for all its runs). */
void model_run_fill(model_run *run, const sc_config *config, const char *config_json, const char *config_hash,
                    const char *mechanism, const char *workload, const char *workload_params,
                    const model_prediction *prediction,
                    double sigma, int64_t calibration_id, double wall_seconds);

#endif
