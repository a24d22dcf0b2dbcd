/* hardware_engine.h — an engine (exec/engine_interface.h) that runs each launch on a real NVIDIA
 * GPU through the CUDA driver, so `--mode hardware` checks a workload's output, and the litmus
 * tests' outcomes, on silicon with the very PTX the simulator runs.
 *
 * The device's global memory lives on the GPU: the engine allocates one region there and the
 * device places every allocation inside it (sc_device_set_global_base), so the addresses the
 * host hands to kernels are real GPU addresses. Around each launch the engine copies the device's
 * image to the GPU and back, and the values of the module's .global/.const variables to and from
 * the driver's copies of them. It measures each kernel with CUDA events; it counts no
 * instructions and no cycles. */
#ifndef SYNCSCOPE_HARDWARE_HARDWARE_ENGINE_H
#define SYNCSCOPE_HARDWARE_HARDWARE_ENGINE_H

#include <stdint.h>

#include "base/error.h"
#include "exec/engine_interface.h"

typedef struct hardware_engine hardware_engine;

/* Opens GPU `ordinal` and allocates the region for the device's global memory, the smaller of
 * 16 GiB and half the GPU's free memory. *global_base receives its address. */
hardware_engine *hardware_engine_create(int ordinal, uint64_t *global_base, sc_error *error);

extern const sc_engine_ops hardware_engine_ops;

/* The GPU's name, its multiprocessors and clock (kHz) as the driver reports them. */
const char *hardware_engine_device_name(const hardware_engine *engine);
int hardware_engine_multiprocessors(const hardware_engine *engine);
int hardware_engine_clock_khz(const hardware_engine *engine);
/* Seconds the GPU spent in kernels (CUDA events around each launch), summed over launches. */
double hardware_engine_kernel_seconds(const hardware_engine *engine);

#endif
