/* cuda_driver.h — the few CUDA driver API calls the hardware engine needs, loaded at run time
 * from the driver library (libcuda.so.1) with dlopen, so syncscope builds and runs everywhere and
 * needs a GPU and its driver only for `--mode hardware`. The types are the driver API's ABI
 * (handles are opaque pointers, device pointers 64-bit, results ints); the numbered constants
 * below are the driver API's values of the names in their comments. */
#ifndef SYNCSCOPE_HARDWARE_CUDA_DRIVER_H
#define SYNCSCOPE_HARDWARE_CUDA_DRIVER_H

#include <stddef.h>

#include "base/error.h"

typedef int cuda_result;                 /* CUresult: 0 is CUDA_SUCCESS */
typedef int cuda_device;                 /* CUdevice */
typedef struct cuda_context_st *cuda_context;
typedef struct cuda_module_st *cuda_module;
typedef struct cuda_function_st *cuda_function;
typedef struct cuda_event_st *cuda_event;
typedef unsigned long long cuda_pointer; /* CUdeviceptr */

enum {
    CUDA_JIT_ERROR_LOG_BUFFER = 5,                      /* CU_JIT_ERROR_LOG_BUFFER */
    CUDA_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,           /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */
    CUDA_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,              /* kHz */
    CUDA_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CUDA_DEVICE_ATTRIBUTE_MAX_SHARED_PER_BLOCK_OPTIN = 97,
    CUDA_FUNCTION_ATTRIBUTE_MAX_DYNAMIC_SHARED_BYTES = 8, /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
};
/* cuLaunchKernel's `extra` markers: the packed parameter buffer and its size. */
#define CUDA_LAUNCH_PARAM_END ((void *)0x00)
#define CUDA_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CUDA_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

/* The driver's entry points (the versioned symbols the driver exports for each name). */
typedef struct cuda_driver {
    void *library;
    cuda_result (*init)(unsigned flags);
    cuda_result (*device_get)(cuda_device *device, int ordinal);
    cuda_result (*device_get_name)(char *name, int length, cuda_device device);
    cuda_result (*device_get_attribute)(int *value, int attribute, cuda_device device);
    cuda_result (*primary_context_retain)(cuda_context *context, cuda_device device);
    cuda_result (*primary_context_release)(cuda_device device);
    cuda_result (*context_set_current)(cuda_context context);
    cuda_result (*context_synchronize)(void);
    cuda_result (*memory_info)(size_t *free_bytes, size_t *total_bytes);
    cuda_result (*memory_alloc)(cuda_pointer *pointer, size_t bytes);
    cuda_result (*memory_free)(cuda_pointer pointer);
    cuda_result (*copy_to_device)(cuda_pointer destination, const void *source, size_t bytes);
    cuda_result (*copy_to_host)(void *destination, cuda_pointer source, size_t bytes);
    cuda_result (*memset_bytes)(cuda_pointer destination, unsigned char value, size_t bytes);
    cuda_result (*module_load_data)(cuda_module *module, const void *image, unsigned option_count, int *options,
                                    void **option_values);
    cuda_result (*module_unload)(cuda_module module);
    cuda_result (*module_get_function)(cuda_function *function, cuda_module module, const char *name);
    cuda_result (*module_get_global)(cuda_pointer *pointer, size_t *bytes, cuda_module module, const char *name);
    cuda_result (*function_set_attribute)(cuda_function function, int attribute, int value);
    cuda_result (*launch_kernel)(cuda_function function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                 unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                                 void *stream, void **parameters, void **extra);
    cuda_result (*event_create)(cuda_event *event, unsigned flags);
    cuda_result (*event_destroy)(cuda_event event);
    cuda_result (*event_record)(cuda_event event, void *stream);
    cuda_result (*event_synchronize)(cuda_event event);
    cuda_result (*event_elapsed_time)(float *milliseconds, cuda_event start, cuda_event end);
    cuda_result (*error_string)(cuda_result result, const char **text);
} cuda_driver;

/* Loads the driver library (SYNCSCOPE_CUDA_DRIVER names another file) and resolves every entry
 * point. Fails with one line saying which library or symbol is missing. */
int cuda_driver_load(cuda_driver *driver, sc_error *error);
void cuda_driver_unload(cuda_driver *driver);

/* Fails with "WHAT: the driver's error text (code)" when `result` is not success; returns 0 on
 * success. */
int cuda_check(const cuda_driver *driver, cuda_result result, const char *what, sc_error *error);

#endif
