/* run_hardware.h — `--mode hardware`: a device whose launches run on the machine's NVIDIA GPU
 * (hardware/hardware_engine.h), and what such a run reports. */
#ifndef SYNCSCOPE_SESSION_RUN_HARDWARE_H
#define SYNCSCOPE_SESSION_RUN_HARDWARE_H

#include <stddef.h>

#include "config/config.h"
#include "host/host_api.h"
#include "session/run_timing.h"

/* A device on GPU 0 (SYNCSCOPE_CUDA_DEVICE names another ordinal); *engine receives the engine
 * (owned by the device). */
sc_device *run_hardware_device(const sc_config *config, void **engine, sc_error *error);

/* Adds the run's hardware metrics (GPU seconds in kernels, multiprocessors, clock) to `timing`
 * (which stays not present: a hardware run has no cycles) and writes the GPU's name. */
void run_hardware_collect(void *engine, run_timing *timing, char *gpu_name, size_t name_size);

#endif
