/* run_model.h — a run in mode model: a workload's (built-in or manifest) cycles, stall breakdown
 * and traffic predicted by the calibrated model of the mechanism on the system that the workload
 * is modelled with (model.h: model_calibration_latest: its own per-workload fit, else the
 * suite-wide one), with the cycles' uncertainty, stored as a
 * run (`run --mode model` prints it). */
#ifndef SYNCSCOPE_SESSION_RUN_MODEL_H
#define SYNCSCOPE_SESSION_RUN_MODEL_H

#include "model/model.h"
#include "session/run_session.h"

typedef struct run_model_result {
    char workload_name[128];        /* the built-in workload's or the manifest's name */
    model_prediction prediction;
    double sigma;                   /* one-sigma relative uncertainty of the cycles */
    int64_t calibration_id;
    bool calibration_own_workload;  /* the calibration was fitted to this workload alone (its windows) */
    int64_t run_id;
} run_model_result;

/* Loads the configuration, profile (taken and stored if missing) and calibration, predicts and
 * stores a run with mode 'model' in the request's database (which it needs). */
int run_model_execute(const run_request *request, run_model_result *result, sc_error *error);

#endif
