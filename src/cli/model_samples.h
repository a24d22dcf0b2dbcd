/* model_samples.h — what `calibrate` and `validate` share: parsing their common options, and
 * taking samples (one detailed run, stored, plus the workload's profile) at design points. */
#ifndef SYNCSCOPE_CLI_MODEL_SAMPLES_H
#define SYNCSCOPE_CLI_MODEL_SAMPLES_H

#include "cli/options.h"
#include "model/calibration.h"
#include "store/store.h"

/* Workloads calibrated and validated by default: the suite's kernels whose work does not depend
 * on timing (no spin-waits, locks or work queues, whose functional instruction counts differ from
 * any timed run). */
#define MODEL_DEFAULT_WORKLOADS "vecadd,reduction,histogram,spmv,stencil,matmul,kmeans,sort"

typedef struct model_study {
    const char *command;            /* "calibrate" or "validate", for messages */
    const char *mechanism, *system, *size;
    const model_mechanism *model;
    char *workload_list;            /* malloc'd copy, split in place */
    const char *workloads[32];
    int workload_count;
    int points;
    uint64_t seed;
    const char *database_path;
    bool quiet;                     /* no progress line per detailed run (compare's model step) */
} model_study;

/* Fills a study from the options shared by both commands (mechanism, system, workloads, points,
 * size, seed, db); prints one line naming the bad option and returns 2 on bad usage. */
int model_study_from_options(model_study *study, cli_option *options, int default_points, uint64_t default_seed);
void model_study_release(model_study *study);

/* The whole of `calibrate` or `validate` (named `command`): parses the shared options, prints
 * `help` for --help, runs `body` on the study and reports its error in one line. Returns the
 * process exit code. */
int model_study_command(int argc, char **argv, const char *command, int default_points, void (*help)(void),
                        int (*body)(const model_study *study, sc_error *error));

/* One sample with what produced it. */
typedef struct study_sample {
    model_sample sample;
    const char *workload;
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
