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
} calibration_outcome;

/* Runs every workload of the study in detail at study->points design points drawn around the
 * preset (each run stored), takes the profiles, fits the mechanism's free parameters and stores
 * the fit in the calibrations table. */
int calibrate_study(const model_study *study, sc_store *store, calibration_outcome *outcome, sc_error *error);

typedef struct validation_outcome {
    int64_t calibration_id;         /* the calibration validated: the latest of mechanism and system */
    int count;                      /* comparisons: held-out points x workloads */
    double *cycle_errors;           /* per comparison: (model - detailed) / detailed cycles */
    double *stall_errors;           /* [category * count + comparison]: model - detailed stall fraction */
} validation_outcome;

/* Runs every workload of the study in detail and through the latest calibration of the mechanism
 * on the system at study->points held-out design points (never a point of that calibration) and
 * stores each comparison (validations table, with the detailed and the model run). */
int validate_study(const model_study *study, sc_store *store, validation_outcome *outcome, sc_error *error);
void validation_outcome_release(validation_outcome *outcome);

#endif
