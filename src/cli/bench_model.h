/* bench_model.h — the `model` target of `syncscope bench` (bench_model.c). */
#ifndef SYNCSCOPE_CLI_BENCH_MODEL_H
#define SYNCSCOPE_CLI_BENCH_MODEL_H

#include "workloads/workload.h"

/* Prints per workload the profiling time and model evaluations per second; returns 0 or 1. */
int bench_model(const char *system, const char *mechanism, const char *only, sc_workload_size size);

#endif
