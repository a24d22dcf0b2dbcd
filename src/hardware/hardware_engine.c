/* hardware_engine.c — launches on a real GPU through the CUDA driver (hardware_engine.h). */
#include "hardware/hardware_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"
#include "hardware/cuda_driver.h"

#define MAX_REGION_BYTES (16ull << 30)
#define DEFAULT_SHARED_LIMIT 49152u   /* bytes of dynamic shared memory a launch gets without opting in */
#define JIT_LOG_BYTES 4096

/* A PTX module as the driver loaded it. */
typedef struct loaded_module {
    const ptx_module *ptx;
    cuda_module module;
} loaded_module;

struct hardware_engine {
    cuda_driver driver;
    cuda_device device;
    cuda_context context;
    cuda_pointer region;
    uint64_t region_bytes;
    cuda_event start, end;
    loaded_module *modules;
    int module_count;
    char name[256];
    int multiprocessors, clock_khz;
    double kernel_seconds;
};

static int check(hardware_engine *engine, cuda_result result, const char *what, sc_error *error)
{
    return cuda_check(&engine->driver, result, what, error);
}

static void hardware_destroy(void *opaque)
{
    hardware_engine *engine = opaque;
    if (!engine)
        return;
    if (engine->context) {
        for (int i = 0; i < engine->module_count; i++)
            engine->driver.module_unload(engine->modules[i].module);
        if (engine->start)
            engine->driver.event_destroy(engine->start);
        if (engine->end)
            engine->driver.event_destroy(engine->end);
        if (engine->region)
            engine->driver.memory_free(engine->region);
        engine->driver.primary_context_release(engine->device);
    }
    free(engine->modules);
    cuda_driver_unload(&engine->driver);
    free(engine);
}

static int open_gpu(hardware_engine *engine, int ordinal, sc_error *error)
{
    cuda_driver *d = &engine->driver;
    if (check(engine, d->init(0), "cuInit", error) < 0 ||
        check(engine, d->device_get(&engine->device, ordinal), "cuDeviceGet", error) < 0 ||
        check(engine, d->primary_context_retain(&engine->context, engine->device), "cuDevicePrimaryCtxRetain",
              error) < 0 ||
        check(engine, d->context_set_current(engine->context), "cuCtxSetCurrent", error) < 0 ||
        check(engine, d->device_get_name(engine->name, sizeof engine->name, engine->device), "cuDeviceGetName",
              error) < 0 ||
        check(engine, d->device_get_attribute(&engine->multiprocessors, CUDA_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                              engine->device), "cuDeviceGetAttribute", error) < 0 ||
        check(engine, d->device_get_attribute(&engine->clock_khz, CUDA_DEVICE_ATTRIBUTE_CLOCK_RATE, engine->device),
              "cuDeviceGetAttribute", error) < 0 ||
        check(engine, d->event_create(&engine->start, 0), "cuEventCreate", error) < 0 ||
        check(engine, d->event_create(&engine->end, 0), "cuEventCreate", error) < 0)
        return -1;
    size_t free_bytes, total_bytes;
    if (check(engine, d->memory_info(&free_bytes, &total_bytes), "cuMemGetInfo", error) < 0)
        return -1;
    uint64_t bytes = free_bytes / 2 < MAX_REGION_BYTES ? free_bytes / 2 : MAX_REGION_BYTES;
    engine->region_bytes = bytes;
    char what[96];
    snprintf(what, sizeof what, "allocating %llu bytes of GPU memory", (unsigned long long)bytes);
    return check(engine, d->memory_alloc(&engine->region, bytes), what, error);
}

hardware_engine *hardware_engine_create(int ordinal, uint64_t *global_base, sc_error *error)
{
    hardware_engine *engine = calloc(1, sizeof *engine);
    if (cuda_driver_load(&engine->driver, error) < 0 || open_gpu(engine, ordinal, error) < 0) {
        hardware_destroy(engine);
        return NULL;
    }
    *global_base = engine->region;
    return engine;
}

/* The driver's module for `ptx`, loading (JIT-compiling) its file's text on first use. */
static int module_of(hardware_engine *engine, const ptx_module *ptx, cuda_module *module, sc_error *error)
{
    for (int i = 0; i < engine->module_count; i++)
        if (engine->modules[i].ptx == ptx) {
            *module = engine->modules[i].module;
            return 0;
        }
    size_t size;
    char *text = sc_read_file(ptx->path, &size, error);
    if (!text)
        return -1;
    char log[JIT_LOG_BYTES] = "";
    int options[] = {CUDA_JIT_ERROR_LOG_BUFFER, CUDA_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    cuda_result result = engine->driver.module_load_data(module, text, 2, options, values);
    free(text);
    if (result != 0) {
        char what[512];
        snprintf(what, sizeof what, "%s: the driver cannot load this PTX%s%.300s", ptx->path, *log ? ": " : "", log);
        for (char *c = what; *c; c++)
            if (*c == '\n')
                *c = ' ';
        return check(engine, result, what, error);
    }
    engine->modules = realloc(engine->modules, (size_t)(engine->module_count + 1) * sizeof *engine->modules);
    engine->modules[engine->module_count++] = (loaded_module){ptx, *module};
    return 0;
}

/* Copies the module's .global/.const variables between the device's image (where the host reads
 * and writes them, and where a kernel given a variable's device address as an argument writes it)
 * and the driver's copies (which the kernel's code names). To the GPU, `uploaded` keeps what was
 * sent; back from it, each byte the kernel changed in the driver's copy replaces the image's
 * byte, and the image keeps the bytes written through the address (the image has already been
 * copied back from the GPU). */
static int copy_variables(hardware_engine *engine, cuda_module module, const sc_launch *launch, bool to_gpu,
                          uint8_t *uploaded, sc_error *error)
{
    const ptx_module *ptx = launch->module;
    uint64_t uploaded_offset = 0;
    for (int32_t i = 0; i < ptx->symbol_count; i++) {
        const ptx_symbol *symbol = &ptx->symbols[i];
        if (symbol->storage != PTX_STORAGE_GLOBAL && symbol->storage != PTX_STORAGE_CONST)
            continue;
        cuda_pointer address;
        size_t bytes;
        char what[320];
        snprintf(what, sizeof what, "%s: variable %s", ptx->path, symbol->name);
        if (check(engine, engine->driver.module_get_global(&address, &bytes, module, symbol->name), what, error) < 0)
            return -1;
        uint64_t offset = launch->symbol_addresses[i] - engine->region;
        if (bytes > symbol->size || offset + bytes > launch->global.size)
            return sc_fail(error, "%s: variable %s: the driver's copy (%zu bytes) does not match the module's",
                           ptx->path, symbol->name, bytes);
        uint8_t *image = launch->global.bytes + offset, *sent = uploaded + uploaded_offset;
        uploaded_offset += symbol->size;
        if (to_gpu) {
            memcpy(sent, image, bytes);
            if (check(engine, engine->driver.copy_to_device(address, image, bytes), what, error) < 0)
                return -1;
            continue;
        }
        uint8_t *after = malloc(bytes + 1);
        int status = check(engine, engine->driver.copy_to_host(after, address, bytes), what, error);
        for (size_t b = 0; status == 0 && b < bytes; b++)
            if (after[b] != sent[b])
                image[b] = after[b];
        free(after);
        if (status < 0)
            return -1;
    }
    return 0;
}

/* Bytes of the module's .global/.const variables (copy_variables' `uploaded`). */
static uint64_t variable_bytes(const ptx_module *ptx)
{
    uint64_t total = 0;
    for (int32_t i = 0; i < ptx->symbol_count; i++)
        if (ptx->symbols[i].storage == PTX_STORAGE_GLOBAL || ptx->symbols[i].storage == PTX_STORAGE_CONST)
            total += ptx->symbols[i].size;
    return total;
}

/* Times one launch of `function` with CUDA events and waits for it. */
static int run_kernel(hardware_engine *engine, cuda_function function, const sc_launch *launch, sc_error *error)
{
    const ptx_function *kernel = &launch->module->functions[launch->function];
    uint32_t shared = launch->dynamic_shared_bytes;
    if (shared + launch->static_shared_bytes > DEFAULT_SHARED_LIMIT &&
        check(engine, engine->driver.function_set_attribute(function, CUDA_FUNCTION_ATTRIBUTE_MAX_DYNAMIC_SHARED_BYTES,
                                                            (int)shared),
              "cuFuncSetAttribute (dynamic shared memory)", error) < 0)
        return -1;
    size_t parameter_bytes = kernel->kernel_param_bytes;
    void *extra[] = {CUDA_LAUNCH_PARAM_BUFFER_POINTER, (void *)launch->param_buffer, CUDA_LAUNCH_PARAM_BUFFER_SIZE,
                     &parameter_bytes, CUDA_LAUNCH_PARAM_END};
    float milliseconds = 0;
    if (check(engine, engine->driver.event_record(engine->start, NULL), "cuEventRecord", error) < 0 ||
        check(engine,
              engine->driver.launch_kernel(function, launch->grid.x, launch->grid.y, launch->grid.z, launch->block.x,
                                           launch->block.y, launch->block.z, shared, NULL, NULL,
                                           parameter_bytes ? extra : NULL),
              kernel->name, error) < 0 ||
        check(engine, engine->driver.event_record(engine->end, NULL), "cuEventRecord", error) < 0 ||
        check(engine, engine->driver.event_synchronize(engine->end), kernel->name, error) < 0 ||
        check(engine, engine->driver.event_elapsed_time(&milliseconds, engine->start, engine->end),
              "cuEventElapsedTime", error) < 0)
        return -1;
    engine->kernel_seconds += milliseconds / 1000.0;
    return 0;
}

static int hardware_launch(void *opaque, sc_device *device, const sc_launch *launch, sc_launch_stats *stats,
                           sc_error *error)
{
    (void)device;
    hardware_engine *engine = opaque;
    *stats = (sc_launch_stats){0};
    const char *name = launch->module->functions[launch->function].name;
    if (launch->cta_first != 0 || launch->cta_end != 0)
        return sc_fail(error, "%s: the hardware engine runs whole grids, not a part of one", name);
    if (launch->dma.bytes_per_cta != 0)
        return sc_fail(error, "%s: a DMA or stash mapping (docs/local-memory.md) is simulated hardware; a GPU has none", name);
    if (launch->global.size > engine->region_bytes)
        return sc_fail(error, "%s: the device's memory (%llu bytes) outgrew the GPU region (%llu bytes)", name,
                       (unsigned long long)launch->global.size, (unsigned long long)engine->region_bytes);
    cuda_module module;
    cuda_function function;
    if (module_of(engine, launch->module, &module, error) < 0 ||
        check(engine, engine->driver.module_get_function(&function, module, name), name, error) < 0)
        return -1;
    if (launch->global.size &&
        check(engine, engine->driver.copy_to_device(engine->region, launch->global.bytes, launch->global.size),
              "copying device memory to the GPU", error) < 0)
        return -1;
    uint8_t *uploaded = malloc(variable_bytes(launch->module) + 1);
    int status = copy_variables(engine, module, launch, true, uploaded, error) < 0 ||
                         run_kernel(engine, function, launch, error) < 0 ||
                         (launch->global.size &&
                          check(engine,
                                engine->driver.copy_to_host(launch->global.bytes, engine->region, launch->global.size),
                                "copying device memory from the GPU", error) < 0) ||
                         copy_variables(engine, module, launch, false, uploaded, error) < 0
                     ? -1
                     : 0;
    free(uploaded);
    return status;
}

/* The image is copied around every launch, so host accesses between launches need nothing. */
static void hardware_host_access(void *engine, sc_device *device, uint64_t address, size_t bytes, bool is_write)
{
    (void)engine, (void)device, (void)address, (void)bytes, (void)is_write;
}

const sc_engine_ops hardware_engine_ops = {
    .launch = hardware_launch,
    .host_access = hardware_host_access,
    .destroy = hardware_destroy,
};

const char *hardware_engine_device_name(const hardware_engine *engine)
{
    return engine->name;
}

int hardware_engine_multiprocessors(const hardware_engine *engine)
{
    return engine->multiprocessors;
}

int hardware_engine_clock_khz(const hardware_engine *engine)
{
    return engine->clock_khz;
}

double hardware_engine_kernel_seconds(const hardware_engine *engine)
{
    return engine->kernel_seconds;
}
