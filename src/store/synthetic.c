/* synthetic.c — deterministic SYNTHETIC runs for tests and the store benchmark (see
 * synthetic.h). The numbers only need to be plausible and varied, not to mean anything. */
#include "store/synthetic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "store/canned_query.h"
#include "store/store_internal.h"

static const char *const mechanisms[] = {"wt", "qr", "rfo", "ideal"};
static const double mechanism_speed[] = {1.0, 1.25, 1.1, 1.4};
static const char *const metric_names[SC_SYNTHETIC_METRICS] = {
    "instructions", "l1.hits", "l1.misses", "l2.hits", "dram.reads", "dram.writes",
    "traffic.l1_l2.bytes", "traffic.l2_dram.bytes",
};
static const char *const stall_categories[SC_SYNTHETIC_STALLS][2] = {
    {"NO_STALL", ""}, {"IDLE", ""}, {"SYNC", ""}, {"MEM_DATA", "L2"}, {"MEM_DATA", "MAIN_MEMORY"},
    {"MEM_STRUCT", "MSHR_FULL"}, {"COMP_DATA", ""}, {"COMP_STRUCT", ""},
};

/* A fixed pseudo-random number in [0, 1) for (index, salt). */
static double noise(long index, unsigned salt)
{
    unsigned long long x = (unsigned long long)index * 0x9E3779B97F4A7C15ULL + salt * 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 29;
    return (double)(x >> 11) / 9007199254740992.0;
}

int sc_synthetic_init(sc_synthetic_set *set, int variants, sc_error *error)
{
    memset(set, 0, sizeof *set);
    sc_preset_list presets;
    if (sc_config_list_presets(&presets, error))
        return -1;
    size_t total = presets.count * (size_t)variants;
    set->config_json = calloc(total, sizeof *set->config_json);
    set->config_hash = calloc(total, sizeof *set->config_hash);
    set->system = calloc(total, sizeof *set->system);
    set->point_params = calloc(total, sizeof *set->point_params);
    set->sweep_point_id = calloc(total, sizeof *set->sweep_point_id);
    for (size_t p = 0; p < presets.count; p++) {
        sc_config *preset = sc_config_load(presets.names[p], NULL, NULL, 0, error);
        if (!preset) {
            sc_preset_list_free(&presets);
            return -1;
        }
        for (int v = 0; v < variants; v++) {
            sc_config *variant = sc_config_copy(preset);
            char l1[32], l2[32], cus[32];
            snprintf(l1, sizeof l1, "%lld", (long long)(sc_config_int(preset, "l1.size") << (v % 4)) / 2);
            snprintf(l2, sizeof l2, "%lld", (long long)(sc_config_int(preset, "l2.size") << (v / 4 % 4)) / 2);
            snprintf(cus, sizeof cus, "%lld", (long long)sc_config_int(preset, "gpu.cu_count") * (1 + v / 16));
            if (sc_config_set(variant, "l1.size", l1, error) || sc_config_set(variant, "l2.size", l2, error) ||
                sc_config_set(variant, "gpu.cu_count", cus, error)) {
                sc_config_free(variant);
                sc_config_free(preset);
                sc_preset_list_free(&presets);
                return -1;
            }
            int i = set->config_count++;
            set->config_json[i] = sc_config_canonical_json(variant);
            memcpy(set->config_hash[i], sc_config_hash(variant), 17);
            set->system[i] = strdup(presets.names[p]);
            char params[160];
            snprintf(params, sizeof params, "{\"l1.size\":%s,\"l2.size\":%s,\"gpu.cu_count\":%s}", l1, l2, cus);
            set->point_params[i] = strdup(params);
            sc_config_free(variant);
        }
        sc_config_free(preset);
    }
    sc_preset_list_free(&presets);
    return 0;
}

void sc_synthetic_free(sc_synthetic_set *set)
{
    for (int i = 0; i < set->config_count; i++) {
        free(set->config_json[i]);
        free(set->system[i]);
        free(set->point_params[i]);
    }
    free(set->config_json);
    free(set->config_hash);
    free(set->system);
    free(set->point_params);
    free(set->sweep_point_id);
    memset(set, 0, sizeof *set);
}

void sc_synthetic_run_fill(const sc_synthetic_set *set, long index, sc_synthetic_run *run)
{
    int mechanism = (int)(index % 4), workload = (int)(index / 4 % 8);
    int config = (int)(index / 32 % set->config_count);
    double cycles = (double)(long)(1e6 * (1 + 0.5 * workload) * (1 + 0.1 * (config % 7)) /
                                   mechanism_speed[mechanism] * (1 + 0.02 * noise(index, 1)));
    memset(run, 0, sizeof *run);
    snprintf(run->workload, sizeof run->workload, "synthetic-%d", workload);

    run->kernel = (sc_kernel_row){0, "synthetic_kernel", {64, 1, 1}, {256, 1, 1}, (int64_t)(cycles * 3), cycles};
    for (int m = 0; m < SC_SYNTHETIC_METRICS; m++)
        run->metrics[m] = (sc_metric_row){-1, metric_names[m], (double)(long)(cycles * (0.1 + noise(index, 10 + m))),
                                          m >= 6 ? "bytes" : ""};
    double remaining = cycles;
    for (int s = 0; s < SC_SYNTHETIC_STALLS; s++) {
        double share = s + 1 < SC_SYNTHETIC_STALLS ? (double)(long)(cycles * 0.05 * (1 + noise(index, 20 + s))) : remaining;
        remaining -= share;
        run->stalls[s] = (sc_stall_row){-1, stall_categories[s][0], stall_categories[s][1], share};
    }
    run->record = (sc_run_record){
        .system = set->system[config],
        .config_json = set->config_json[config],
        .config_hash = set->config_hash[config],
        .mechanism = mechanisms[mechanism],
        .workload = run->workload,
        .workload_params = "{\"synthetic\":true}",
        .mode = mechanism == 3 ? "model" : "detailed",
        .seed = index / 32 / set->config_count,
        .status = index % 97 == 96 ? "check_failed" : "ok", /* a few failures for run_outcomes */
        .check_detail = index % 97 == 96 ? "synthetic test data: injected output mismatch" : "synthetic test data",
        .cycles = cycles,
        .wall_seconds = cycles / 1e6,
        .sweep_point_id = set->sweep_point_id[config],
        .kernels = &run->kernel,
        .kernel_count = 1,
        .metrics = run->metrics,
        .metric_count = SC_SYNTHETIC_METRICS,
        .stalls = run->stalls,
        .stall_count = SC_SYNTHETIC_STALLS,
    };
}

int sc_synthetic_add_sweep(sc_synthetic_set *set, sc_store *store, sc_error *error)
{
    int64_t sweep = sc_store_ensure_sweep(store, "synthetic-sweep",
                                          "{\"synthetic\":true,\"vary\":[\"l1.size\",\"l2.size\",\"gpu.cu_count\"]}",
                                          error);
    if (sweep < 0)
        return -1;
    for (int i = 0; i < set->config_count; i++) {
        set->sweep_point_id[i] = sc_store_ensure_sweep_point(store, sweep, i, set->point_params[i], error);
        if (set->sweep_point_id[i] < 0)
            return -1;
    }
    return 0;
}

int sc_synthetic_add_validations(sc_store *store, sc_error *error)
{
    int status = sc_store_exec(store,
                         "BEGIN IMMEDIATE;"
                         "INSERT INTO calibrations (mechanism, system, params, covariance, residuals, r2, sample_count)"
                         " SELECT m.value, s.value, '{\"synthetic\":true,\"a\":1.0}', '[[0.01]]', '[0.01,-0.02]', 0.97, 8"
                         " FROM json_each('[\"wt\",\"qr\",\"rfo\",\"ideal\"]') m,"
                         "      json_each('[\"qr-apu\",\"gsi\",\"sahc-apu\",\"gtx480\"]') s;"
                         "WITH RECURSIVE point(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM point WHERE n < 9)"
                         " INSERT INTO validations (calibration_id, workload, point_config, detailed_cycles, model_cycles,"
                         " stall_fraction_error)"
                         " SELECT c.id, 'synthetic-' || (point.n % 8), json_object('l1.size', 16384 << (point.n % 3)),"
                         " 1e6 + point.n * 1000, (1e6 + point.n * 1000) * (1 + ((c.id * 7 + point.n) % 11 - 5) / 100.0),"
                         " ((c.id + point.n) % 5) / 100.0"
                         " FROM calibrations c, point;"
                         "COMMIT;",
                         error);
    if (status)
        sc_store_rollback(store);
    return status;
}

int sc_synthetic_query_params(const sc_canned_query *query, sc_query_param params[8])
{
    static const sc_query_param matching[] = {
        {"workload", "synthetic-0"}, {"system", "gsi"}, {"sweep", "synthetic-sweep"},
        {"key", "l1.size"}, {"value", "32768"},
    };
    int count = 0;
    for (int p = 0; p < query->param_count && count < 8; p++)
        for (size_t m = 0; m < sizeof matching / sizeof matching[0]; m++)
            if (!strcmp(query->params[p].name, matching[m].name))
                params[count++] = matching[m];
    return count;
}
