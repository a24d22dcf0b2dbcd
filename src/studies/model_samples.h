/* model_samples.h — what calibration and validation share: the study (mechanism, system,
 * workloads built-in or manifests, points, size, seed, detailed or sampled runs) and taking
 * samples (one detailed or sampled run, stored, plus the workload's profile) at design points. */
#ifndef SYNCSCOPE_STUDIES_MODEL_SAMPLES_H
#define SYNCSCOPE_STUDIES_MODEL_SAMPLES_H

#include "model/calibration.h"
#include "store/store.h"
#include "timing/sampled_engine.h"
#include "workloads/workload_ref.h"

/* Workloads calibrated and validated by default: the suite's kernels whose work does not depend
 * on timing (no spin-waits, locks or work queues, whose functional instruction counts differ from
 * any timed run). */
#define MODEL_DEFAULT_WORKLOADS "vecadd,reduction,histogram,spmv,stencil,matmul,kmeans,sort"

#define MODEL_STUDY_MAX_WORKLOADS 32

/* An earlier database whose detailed (or sampled) runs a study copies instead of simulating them
 * again, each one that is the same computation as a run the study needs (store.h: sc_run_key,
 * sc_store_copy_run), and how many runs were copied and how many simulated. */
typedef struct model_detailed_source {
    sc_store *store;                /* sc_store_open_run_source */
    int reused, simulated;
} model_detailed_source;

typedef struct model_study {
    const char *mechanism, *system, *size;
    const model_mechanism *model;
    sc_workload_ref workloads[MODEL_STUDY_MAX_WORKLOADS];  /* built-in workloads and manifests */
    int workload_count;
    int points;
    uint64_t seed;
    bool quiet;                     /* no progress line per detailed run (compare's model step) */
    bool windows;                   /* samples are sampled runs (short detailed windows), not full runs */
    sampling_options sampling;      /* the sampled runs' windows (windows only) */
    double prior_floor;             /* per-workload fit: floor on the prior's sigma, share of each bound range */
    int jobs;                       /* threads taking the samples' runs and profiles (0: one per processor) */
    model_detailed_source *detailed_source;  /* NULL: every run simulated (model_study_sample only) */
} model_study;

/* One sample with what produced it. */
typedef struct study_sample {
    model_sample sample;
    const sc_workload_ref *workload;  /* one of the study's */
    int point;                      /* index into the study's design points */
    const char *point_json;         /* the point's keys that differ from the preset (a JSON object) */
    int64_t detailed_run_id;        /* the stored detailed (or sampled) run */
    model_profile *profile;         /* owned */
    bool has_interval;              /* a sampled run's estimate has its 95% interval (full runs: true) */
    double detailed_fraction;       /* warp instructions simulated in detail / all (full runs: 1) */
    uint64_t warp_instructions;     /* of the whole run */
    bool reused;                    /* its run was copied from the study's detailed source, not simulated */
} study_sample;

/* The default floor on a per-workload fit's prior sigma (`calibrate --windows --prior-floor`, a
 * sweep's refit), as a share of each parameter's bound range. */
#define MODEL_WINDOWS_DEFAULT_PRIOR_FLOOR 0.05

/* A sampled estimate without an interval counts this much in a fit (its residuals are
 * multiplied by it): its error is unknown, and bfs's was 28% at size huge (docs/calibration.md). */
#define STUDY_NO_INTERVAL_WEIGHT 0.25

/* Runs every workload at every point in detail, or sampled when study->windows (each run
 * stored; with a study->detailed_source, a run it holds of the same computation is copied from it
 * instead, and counted), takes the profiles, and returns the samples (malloc'd, *count of them); prints one progress line per run on stderr
 * unless the study is quiet. The runs and the profiles the store lacks are taken on study->jobs
 * threads, then stored on the calling thread in the order of the points and workloads, so the
 * store ends up as taking them one after the other leaves it, whatever the number of jobs. */
study_sample *model_study_sample(const model_study *study, sc_store *store, const model_design_point *points,
                                 int point_count, int *count, sc_error *error);
void model_study_samples_free(study_sample *samples, int count);

/* One sample of `workload` at the point of `config` (its keys that differ from the preset:
 * `point_json`, kept by reference), the run stored in sweep point `sweep_point_id` (0: none);
 * without a progress line. Release its profile with profile_free. */
int model_study_sample_one(const model_study *study, sc_store *store, const sc_config *config,
                           const sc_workload_ref *workload, int64_t sweep_point_id, const char *point_json,
                           study_sample *out, sc_error *error);

/* The sample of `workload` that stored run `run_id` measured at the point of `config` (an earlier
 * evaluation's; `point_json` kept by reference): its cycles, its stall cycles per GSI category
 * summed over its CUs, and for a sampled run its interval flag and detailed share, read back from
 * the store as model_study_sample_one filled them, plus the workload's profile. Release the
 * profile with profile_free. */
int model_study_sample_stored(const model_study *study, sc_store *store, const sc_config *config,
                              const sc_workload_ref *workload, int64_t run_id, const char *point_json,
                              study_sample *out, sc_error *error);

#endif
