/* profiler.h — the profiling pass: a functional run (no timing) watched instruction by
 * instruction, producing a workload profile (profile.h). It runs built-in workloads and user
 * manifests alike, because it is only an observer on the functional engine. */
#ifndef SYNCSCOPE_MODEL_PROFILER_H
#define SYNCSCOPE_MODEL_PROFILER_H

#include "config/config.h"
#include "host/host_api.h"
#include "model/profile.h"

typedef struct profiler profiler;

/* A profiler for `config` (CU count, warp size, CTA residency and line size come from it) and a
 * device whose functional engine reports to it. */
profiler *profiler_create(const sc_config *config);
sc_device *profiler_device(profiler *profiler, sc_error *error);

/* Hands over the profile gathered so far (labelled with the workload, parameters and system)
 * and frees the profiler; the device must have been destroyed first. */
model_profile *profiler_finish(profiler *profiler, const char *workload, const char *params, const char *system);

#endif
