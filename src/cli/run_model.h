/* run_model.h — `run --mode model`: a workload's cycles, stall breakdown and traffic predicted
 * by the latest calibrated model of the mechanism on the system, with an error band. */
#ifndef SYNCSCOPE_CLI_RUN_MODEL_H
#define SYNCSCOPE_CLI_RUN_MODEL_H

#include "cli/run_session.h"

/* Loads the configuration, profile (taken and stored if missing) and calibration, predicts,
 * stores a run with mode 'model' and prints it; returns the process exit code. */
int run_model_execute(const run_request *request);

#endif
