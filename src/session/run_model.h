/* run_model.h — a run in mode model: a workload's cycles, stall breakdown and traffic predicted
 * by the latest calibrated model of the mechanism on the system, with the cycles' uncertainty,
 * stored as a run (`run --mode model` prints it). */
#ifndef SYNCSCOPE_SESSION_RUN_MODEL_H
#define SYNCSCOPE_SESSION_RUN_MODEL_H

#include "model/model.h"
#include "session/run_session.h"

typedef struct run_model_result {
    model_prediction prediction;
    double sigma;                   /* one-sigma relative uncertainty of the cycles */
    int64_t calibration_id;
    int64_t run_id;
} run_model_result;

/* Loads the configuration, profile (taken and stored if missing) and calibration, predicts and
 * stores a run with mode 'model' in the request's database (which it needs). */
int run_model_execute(const run_request *request, run_model_result *result, sc_error *error);

#endif
