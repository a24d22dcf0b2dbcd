/* model_studies.h — calibration and validation of a mechanism's model as functions on an open
 * store (calibration_study.c, validation_study.c), for the `calibrate` and `validate` commands
 * (which print the details) and for compare's model step (one line per mechanism). */
#ifndef SYNCSCOPE_STUDIES_MODEL_STUDIES_H
#define SYNCSCOPE_STUDIES_MODEL_STUDIES_H

#include "studies/model_samples.h"

typedef struct calibration_outcome {
    int64_t id;                     /* the calibrations row */
    int sample_count;
    model_fit fit;                  /* release with model_fit_release */
    double rms_error;               /* RMS relative cycle error of the fit (0.1 = 10 %) */
    double detailed_seconds, fit_seconds;
    /* calibrate_windows_study and calibrate_refit_study only */
    int64_t prior_id;               /* the calibration used as the prior */
    double detailed_share;          /* warp instructions simulated in detail / all, over every sampled run */
    int without_interval;           /* sampled runs whose estimate had no interval (down-weighted) */
} calibration_outcome;

/* Runs every workload of the study in detail at study->points design points drawn around the
 * preset (each run stored), takes the profiles, fits the mechanism's free parameters and stores
 * the fit in the calibrations table. */
int calibrate_study(const model_study *study, sc_store *store, calibration_outcome *outcome, sc_error *error);

/* Fits the parameters of the study's one workload (at study->size, seed 1) from sampled runs
 * (study->windows, study->sampling) at the MODEL_DESIGN_CORNERS corners plus study->points
 * Latin-hypercube points (model_design_corners_and_fill), each run stored, with the suite-wide
 * calibration of the mechanism on the system as the prior (sigma floored at study->prior_floor of
 * each parameter's range), and stores the fit keyed to that workload and its parameters. Fails
 * as bad input, naming the command to run, when there is no suite-wide calibration. Estimates
 * without an interval weigh STUDY_NO_INTERVAL_WEIGHT. */
int calibrate_windows_study(const model_study *study, sc_store *store, calibration_outcome *outcome, sc_error *error);

/* A sweep's refit (studies/sweep_spot.h): the study's one workload (study->workloads[0], at
 * study->size, seed 1) fitted to `samples` (its spot checks, each already run and stored) with
 * `prior_calibration` as the prior (sigma floored at study->prior_floor of each parameter's
 * range), and stored keyed to that workload and its parameters; its residuals also list the
 * prior's samples (`prior_residuals`, that calibration's residuals JSON) without their errors,
 * so its calibrated region (model/calibrated_region.h) holds the prior's. */
int calibrate_refit_study(const model_study *study, sc_store *store, const model_calibration *prior_calibration,
                          const char *prior_residuals, const study_sample *samples, int count,
                          calibration_outcome *outcome, sc_error *error);

typedef struct validation_outcome {
    int64_t calibration_id;         /* the calibration the first workload is modelled with */
    int64_t suite_calibration_id;   /* the suite-wide calibration of the first workload */
    int count;                      /* comparisons: held-out points x workloads */
    int own_workload;               /* comparisons made with the workload's own per-workload fit */
    double *cycle_errors;           /* per comparison: (model - detailed) / detailed cycles */
    double *stall_errors;           /* [category * count + comparison]: model - detailed stall fraction */
    double *suite_cycle_errors;     /* the same with the suite-wide calibration (where the workload */
    double *suite_stall_errors;     /* has no fit of its own: the same values) */
} validation_outcome;

/* Runs every workload of the study in detail and through the calibration of the mechanism on the
 * system it is modelled with (model_calibration_latest: its own per-workload fit, else the
 * suite-wide one) at study->points held-out design points (never a point of either calibration),
 * and where a workload has its own fit through the suite-wide one too; stores each comparison
 * (validations table, with the detailed and the model run). */
int validate_study(const model_study *study, sc_store *store, validation_outcome *outcome, sc_error *error);
void validation_outcome_release(validation_outcome *outcome);

#endif
