/* bench_sampled.h — the `bench sampled` target: sampled estimates against full detailed runs. */
#ifndef SYNCSCOPE_CLI_BENCH_SAMPLED_H
#define SYNCSCOPE_CLI_BENCH_SAMPLED_H

#include "timing/sampled_engine.h"
#include "workloads/workload.h"

/* Runs each workload (or `only`) in full detail and sampled; prints a row each. Returns 0 when
 * every run completed and passed its check. */
int bench_sampled(const char *system, const char *mechanism, const char *only, sc_workload_size size,
                  const sampling_options *sampling);

#endif
