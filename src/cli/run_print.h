/* run_print.h — printing the result of `syncscope run`: a simulated run (functional, detailed or
 * sampled) or a model run, as text or as one line of JSON. */
#ifndef SYNCSCOPE_CLI_RUN_PRINT_H
#define SYNCSCOPE_CLI_RUN_PRINT_H

#include "session/run_model.h"
#include "session/run_session.h"

void run_print_text(const run_request *request, const run_result *result);
void run_print_json(const run_request *request, const run_result *result);

void run_print_model_text(const run_request *request, const run_model_result *result);
void run_print_model_json(const run_request *request, const run_model_result *result);

#endif
