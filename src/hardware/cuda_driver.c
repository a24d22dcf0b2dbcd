/* cuda_driver.c — loads the CUDA driver library at run time and resolves the entry points the
 * hardware engine calls (cuda_driver.h). */
#include "hardware/cuda_driver.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The exported symbol behind each entry point: the current version of each driver API name
 * (cuda.h maps e.g. cuMemAlloc to cuMemAlloc_v2). */
typedef struct entry_point {
    const char *symbol;
    size_t offset;
} entry_point;

#define ENTRY(field, symbol) {symbol, offsetof(cuda_driver, field)}
static const entry_point entry_points[] = {
    ENTRY(init, "cuInit"),
    ENTRY(device_get, "cuDeviceGet"),
    ENTRY(device_get_name, "cuDeviceGetName"),
    ENTRY(device_get_attribute, "cuDeviceGetAttribute"),
    ENTRY(primary_context_retain, "cuDevicePrimaryCtxRetain"),
    ENTRY(primary_context_release, "cuDevicePrimaryCtxRelease_v2"),
    ENTRY(context_set_current, "cuCtxSetCurrent"),
    ENTRY(context_synchronize, "cuCtxSynchronize"),
    ENTRY(memory_info, "cuMemGetInfo_v2"),
    ENTRY(memory_alloc, "cuMemAlloc_v2"),
    ENTRY(memory_free, "cuMemFree_v2"),
    ENTRY(copy_to_device, "cuMemcpyHtoD_v2"),
    ENTRY(copy_to_host, "cuMemcpyDtoH_v2"),
    ENTRY(memset_bytes, "cuMemsetD8_v2"),
    ENTRY(module_load_data, "cuModuleLoadDataEx"),
    ENTRY(module_unload, "cuModuleUnload"),
    ENTRY(module_get_function, "cuModuleGetFunction"),
    ENTRY(module_get_global, "cuModuleGetGlobal_v2"),
    ENTRY(function_set_attribute, "cuFuncSetAttribute"),
    ENTRY(launch_kernel, "cuLaunchKernel"),
    ENTRY(event_create, "cuEventCreate"),
    ENTRY(event_destroy, "cuEventDestroy_v2"),
    ENTRY(event_record, "cuEventRecord"),
    ENTRY(event_synchronize, "cuEventSynchronize"),
    ENTRY(event_elapsed_time, "cuEventElapsedTime"),
    ENTRY(error_string, "cuGetErrorString"),
};
#undef ENTRY

int cuda_driver_load(cuda_driver *driver, sc_error *error)
{
    *driver = (cuda_driver){0};
    const char *path = getenv("SYNCSCOPE_CUDA_DRIVER");
    if (!path || !*path)
        path = "libcuda.so.1";
    driver->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!driver->library)
        return sc_fail(error, "running on a GPU needs the CUDA driver: cannot load %s (%s)", path, dlerror());
    for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++) {
        void *address = dlsym(driver->library, entry_points[i].symbol);
        if (!address) {
            cuda_driver_unload(driver);
            return sc_fail(error, "%s has no %s: the CUDA driver is too old or not a CUDA driver", path,
                           entry_points[i].symbol);
        }
        memcpy((char *)driver + entry_points[i].offset, &address, sizeof address);
    }
    return 0;
}

void cuda_driver_unload(cuda_driver *driver)
{
    if (driver->library)
        dlclose(driver->library);
    *driver = (cuda_driver){0};
}

int cuda_check(const cuda_driver *driver, cuda_result result, const char *what, sc_error *error)
{
    if (result == 0)
        return 0;
    const char *text = NULL;
    if (driver->error_string(result, &text) != 0 || !text)
        text = "unknown error";
    return sc_fail(error, "%s: %s (CUDA error %d)", what, text, result);
}
