/* model_run.c — a model prediction as a stored run (model_run.h). */
#include "session/model_run.h"

#include <stdio.h>

void model_run_fill(model_run *run, const sc_config *config, const char *config_json, const char *config_hash,
                    const char *mechanism, const char *workload, const char *workload_params, const model_prediction *p,
                    double sigma, int64_t calibration_id, double wall_seconds)
{
    const sc_metric_row metrics[MODEL_RUN_METRICS] = {
        {-1, "cycles", p->cycles, "GPU cycles"},
        {-1, "cycles_sigma", sigma, "relative"},
        {-1, "calibration_id", (double)calibration_id, NULL},
        {-1, "l1_hits", p->l1_hits, NULL},
        {-1, "l1_misses", p->l1_misses, NULL},
        {-1, "l2_hits", p->l2_hits, NULL},
        {-1, "l2_misses", p->l2_misses, NULL},
        {-1, "cpu_probe_hits", p->cpu_probe_hits, NULL},
        {-1, "l3_hits", p->l3_hits, NULL},
        {-1, "l3_misses", p->l3_misses, NULL},
        {-1, "noc_bytes", p->noc_bytes_to_cus + p->noc_bytes_from_cus, "bytes"},
        {-1, "dram_read_bytes", p->dram_read_bytes, "bytes"},
        {-1, "dram_write_bytes", p->dram_write_bytes, "bytes"},
    };
    for (int m = 0; m < MODEL_RUN_METRICS; m++)
        run->metrics[m] = metrics[m];
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        run->stalls[c] = (sc_stall_row){-1, gsi_category_name((gsi_category)c), NULL, p->stalls[c]};
    snprintf(run->params, sizeof run->params, "%s", workload_params);
    snprintf(run->system, sizeof run->system, "%s", sc_config_system(config));
    run->record = (sc_run_record){
        .system = run->system,
        .config_json = config_json,
        .config_hash = config_hash,
        .mechanism = mechanism,
        .workload = workload,
        .workload_params = run->params,
        .mode = "model",
        .seed = 1,
        .status = "ok",
        .cycles = p->cycles,
        .wall_seconds = wall_seconds,
        .metrics = run->metrics,
        .metric_count = MODEL_RUN_METRICS,
        .stalls = run->stalls,
        .stall_count = GSI_CATEGORY_COUNT,
    };
}
