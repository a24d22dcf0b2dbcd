/* model_samples.h — what calibration and validation share: the study (mechanism, system,
 * workloads built-in or manifests, points, size, seed) and taking samples (one detailed run,
 * stored, plus the workload's profile) at design points. */
#ifndef SYNCSCOPE_STUDIES_MODEL_SAMPLES_H
#define SYNCSCOPE_STUDIES_MODEL_SAMPLES_H

#include "model/calibration.h"
#include "store/store.h"
#include "workloads/workload_ref.h"

/* Workloads calibrated and validated by default: the suite's kernels whose work does not depend
 * on timing (no spin-waits, locks or work queues, whose functional instruction counts differ from
 * any timed run). */
#define MODEL_DEFAULT_WORKLOADS "vecadd,reduction,histogram,spmv,stencil,matmul,kmeans,sort"

typedef struct model_study {
    const char *mechanism, *system, *size;
    const model_mechanism *model;
    sc_workload_ref workloads[32];  /* built-in workloads and manifests */
    int workload_count;
    int points;
    uint64_t seed;
    bool quiet;                     /* no progress line per detailed run (compare's model step) */
} model_study;

/* One sample with what produced it. */
typedef struct study_sample {
    model_sample sample;
    const sc_workload_ref *workload;  /* one of the study's */
    int point;                      /* index into the study's design points */
    int64_t detailed_run_id;
    model_profile *profile;         /* owned */
} study_sample;

/* Runs every workload at every point in detail (each run stored), takes the profiles, and
 * returns the samples (malloc'd, *count of them); prints one progress line per run on stderr
 * unless the study is quiet. */
study_sample *model_study_sample(const model_study *study, sc_store *store, const model_design_point *points,
                                 int point_count, int *count, sc_error *error);
void model_study_samples_free(study_sample *samples, int count);

#endif
