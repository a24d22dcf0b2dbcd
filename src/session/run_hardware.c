/* run_hardware.c — devices on a real GPU for `--mode hardware` (run_hardware.h). */
#include "session/run_hardware.h"

#include <stdio.h>
#include <stdlib.h>

#include "hardware/hardware_engine.h"

sc_device *run_hardware_device(const sc_config *config, void **engine, sc_error *error)
{
    const char *ordinal_text = getenv("SYNCSCOPE_CUDA_DEVICE");
    int ordinal = ordinal_text && *ordinal_text ? atoi(ordinal_text) : 0;
    sc_device *device = sc_device_create((unsigned)sc_config_int(config, "gpu.warp_size"), error);
    if (!device)
        return NULL;
    if (sc_device_warp_size(device) != 32) {
        sc_device_destroy(device);
        sc_fail_input(error, "gpu.warp_size: --mode hardware runs on an NVIDIA GPU, whose warps have 32 lanes");
        return NULL;
    }
    uint64_t base;
    hardware_engine *gpu = hardware_engine_create(ordinal, &base, error);
    if (!gpu || sc_device_set_global_base(device, base, error) < 0) {
        if (gpu)
            hardware_engine_ops.destroy(gpu);
        sc_device_destroy(device);
        return NULL;
    }
    sc_device_set_engine(device, &hardware_engine_ops, gpu);
    *engine = gpu;
    return device;
}

void run_hardware_collect(void *engine, run_timing *timing, char *gpu_name, size_t name_size)
{
    const hardware_engine *gpu = engine;
    run_timing_add_metric(timing, -1, "gpu_kernel_seconds", hardware_engine_kernel_seconds(gpu), "s");
    run_timing_add_metric(timing, -1, "gpu_multiprocessors", hardware_engine_multiprocessors(gpu), NULL);
    run_timing_add_metric(timing, -1, "gpu_clock_khz", hardware_engine_clock_khz(gpu), "kHz");
    snprintf(gpu_name, name_size, "%s", hardware_engine_device_name(gpu));
}
