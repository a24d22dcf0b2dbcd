/* synthetic.h — SYNTHETIC runs for tests and benchmarks, never for results.
 *
 * Every synthetic run is marked as such: workload "synthetic-N", workload_params
 * {"synthetic": true} and check_detail "synthetic test data". The configurations are real
 * presets with l1.size, l2.size and gpu.cu_count varied, so queries over configuration fields
 * behave as on real data. Run `index` decomposes into mechanism (index % 4: wt, qr, rfo,
 * ideal), workload ((index / 4) % 8) and configuration ((index / 32) % config_count);
 * every 97th run has status check_failed.
 */
#ifndef SYNCSCOPE_STORE_SYNTHETIC_H
#define SYNCSCOPE_STORE_SYNTHETIC_H

#include "store/store.h"

enum { SC_SYNTHETIC_METRICS = 8, SC_SYNTHETIC_STALLS = 8 };

typedef struct sc_synthetic_set {
    int config_count;
    char **config_json;
    char (*config_hash)[17];
    char **system;
    char **point_params;        /* the varied keys of each configuration, as a JSON object */
    int64_t *sweep_point_id;    /* per configuration, once sc_synthetic_add_sweep ran; else 0 */
} sc_synthetic_set;

typedef struct sc_synthetic_run {
    sc_run_record record;
    sc_kernel_row kernel;
    sc_metric_row metrics[SC_SYNTHETIC_METRICS];
    sc_stall_row stalls[SC_SYNTHETIC_STALLS];
    char workload[32];
} sc_synthetic_run;

/* Builds `variants` configurations of each preset under sc_data_dir(). */
int sc_synthetic_init(sc_synthetic_set *set, int variants, sc_error *error);
void sc_synthetic_free(sc_synthetic_set *set);

/* Fills `run` with synthetic run number `index` (deterministic). */
void sc_synthetic_run_fill(const sc_synthetic_set *set, long index, sc_synthetic_run *run);

/* Records the configurations as points of a sweep named "synthetic-sweep"; later runs refer
 * to them. */
int sc_synthetic_add_sweep(sc_synthetic_set *set, sc_store *store, sc_error *error);

/* Picks, from values that match synthetic data (workload synthetic-0, system gsi, sweep
 * synthetic-sweep, key l1.size = 32768), those the canned query declares; returns how many
 * were written to `params` (room for 8). */
struct sc_canned_query;
int sc_synthetic_query_params(const struct sc_canned_query *query, sc_query_param params[8]);

/* Adds one synthetic calibration per mechanism and system, each with a few validations. */
int sc_synthetic_add_validations(sc_store *store, sc_error *error);

#endif
