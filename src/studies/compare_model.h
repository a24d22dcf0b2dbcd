/* compare_model.h — the model step of `syncscope compare` (compare_model.c): calibration,
 * validation and a small model sweep of the compared mechanisms. */
#ifndef SYNCSCOPE_STUDIES_COMPARE_MODEL_H
#define SYNCSCOPE_STUDIES_COMPARE_MODEL_H

#include <stdio.h>

#include "store/store.h"
#include "workloads/workload_ref.h"

typedef struct compare_model_request {
    const char *system, *size;
    const char *const *mechanisms;  /* the compared ones */
    int mechanism_count;
    const sc_workload_ref *workloads;   /* the compared ones, built-in or manifests */
    int workload_count;
    int points;                     /* calibration points, and as many held-out validation points */
} compare_model_request;

/* Calibrates and validates each compared mechanism that has an analytical model over the
 * compared workloads the models cover (and the compared manifests), then runs the model sweep; prints one line for each
 * mechanism and one for the sweep (or one saying why the step was skipped) to `out`. */
int compare_model_step(const compare_model_request *request, sc_store *store, FILE *out, sc_error *error);

#endif
