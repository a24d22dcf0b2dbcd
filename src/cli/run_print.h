/* run_print.h — printing the result of `syncscope run`: a simulated run (functional, detailed or
 * sampled) or a model run, as text or as one line of JSON. */
#ifndef SYNCSCOPE_CLI_RUN_PRINT_H
#define SYNCSCOPE_CLI_RUN_PRINT_H

#include "session/run_model.h"
#include "session/run_session.h"

/* Prints a simulated run (functional, detailed or sampled), as JSON when the request asks. */
void run_print(const run_request *request, const run_result *result);

/* Prints a model run, as JSON when the request asks. */
void run_print_model(const run_request *request, const run_model_result *result);

#endif
