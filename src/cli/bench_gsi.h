/* bench_gsi.h — the `bench gsi` target: the simulation time the GSI stall inspector adds. */
#ifndef SYNCSCOPE_CLI_BENCH_GSI_H
#define SYNCSCOPE_CLI_BENCH_GSI_H

#include "workloads/workload.h"

/* Runs each workload (or `only`) in detail with sim.gsi true and false, `runs` times each,
 * alternately; prints a row each. Returns 0 when every run completed, passed its check and the
 * two settings agreed in cycles and warp instructions. */
int bench_gsi(const char *system, const char *mechanism, const char *only, sc_workload_size size, unsigned runs);

#endif
