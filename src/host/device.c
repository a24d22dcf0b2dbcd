/* device.c — the simulated device behind the host API: the flat global-memory image, loaded PTX
 * modules with their variables placed in memory, and kernel launches handed to the engine. */
#include "host/host_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/files.h"
#include "exec/address_map.h"
#include "exec/alu.h"
#include "exec/functional_engine.h"

enum { ALLOCATION_ALIGNMENT = 256, MAX_MODULES = 64 };
#define MAX_GLOBAL_BYTES (16ull << 30)

/* A module on the device. Shared variables are laid out per kernel, as the CUDA runtime charges
 * them: a kernel's CTA holds the .shared variables that the kernel and the functions it calls
 * use, so each entry function has its own symbol address table (global addresses, plus its own
 * shared offsets) and its own static shared size. */
typedef struct loaded_module {
    ptx_module *module;
    uint64_t *global_addresses;       /* per symbol: device address of .global/.const variables */
    uint64_t **kernel_addresses;      /* per function: symbol addresses for launches of it (entries only) */
    uint32_t *kernel_static_shared;   /* per function: static .shared bytes of its CTAs (entries only) */
} loaded_module;

struct sc_device {
    unsigned warp_size;
    uint64_t global_base;       /* address of the image's first byte: SC_GLOBAL_BASE unless an engine
                                 * whose memory lies elsewhere set it (sc_device_set_global_base) */
    uint8_t *global;            /* image of [global_base, global_base + global_used) */
    uint64_t global_used, global_capacity;
    loaded_module modules[MAX_MODULES];
    int module_count;
    const sc_engine_ops *engine_ops;
    void *engine;
    sc_device_stats stats;
    sc_launch_record *launches;
    size_t launch_capacity;
};

sc_kernel_arg sc_arg_f32(float value)
{
    return (sc_kernel_arg){alu_from_f32(value)};
}

sc_kernel_arg sc_arg_f64(double value)
{
    return (sc_kernel_arg){alu_from_f64(value)};
}

static void free_loaded_module(loaded_module *loaded)
{
    for (int32_t f = 0; loaded->kernel_addresses && f < loaded->module->function_count; f++)
        free(loaded->kernel_addresses[f]);
    free(loaded->kernel_addresses);
    free(loaded->kernel_static_shared);
    free(loaded->global_addresses);
    ptx_module_free(loaded->module);
}

sc_device *sc_device_create(unsigned warp_size, sc_error *error)
{
    if (warp_size != 32 && warp_size != 64) {
        sc_fail(error, "warp size %u: must be 32 or 64", warp_size);
        return NULL;
    }
    sc_device *device = calloc(1, sizeof *device);
    device->warp_size = warp_size;
    device->global_base = SC_GLOBAL_BASE;
    functional_engine_options options = functional_engine_defaults(warp_size);
    sc_device_set_engine(device, &functional_engine_ops, functional_engine_create(&options));
    return device;
}

void sc_device_destroy(sc_device *device)
{
    if (!device)
        return;
    if (device->engine_ops)
        device->engine_ops->destroy(device->engine);
    for (int i = 0; i < device->module_count; i++)
        free_loaded_module(&device->modules[i]);
    free(device->global);
    free(device->launches);
    free(device);
}

void sc_device_set_engine(sc_device *device, const sc_engine_ops *ops, void *engine)
{
    if (device->engine_ops)
        device->engine_ops->destroy(device->engine);
    device->engine_ops = ops;
    device->engine = engine;
}

int sc_device_set_global_base(sc_device *device, uint64_t base, sc_error *error)
{
    if (device->global_used != 0 || device->module_count != 0)
        return sc_fail(error, "the device's global memory cannot move once it holds data");
    device->global_base = base;
    return 0;
}

bool sc_device_sequentially_consistent(const sc_device *device)
{
    return device->engine_ops->sequentially_consistent;
}

unsigned sc_device_warp_size(const sc_device *device)
{
    return device->warp_size;
}

const sc_device_stats *sc_device_statistics(const sc_device *device)
{
    return &device->stats;
}

const sc_launch_record *sc_device_launches(const sc_device *device, size_t *count)
{
    *count = device->stats.launches;
    return device->launches;
}

static void log_launch(sc_device *device, const sc_launch *launch, const sc_launch_stats *stats)
{
    if (device->stats.launches == device->launch_capacity) {
        device->launch_capacity = device->launch_capacity ? device->launch_capacity * 2 : 16;
        device->launches = realloc(device->launches, device->launch_capacity * sizeof *device->launches);
    }
    device->launches[device->stats.launches] = (sc_launch_record){
        .kernel = launch->module->functions[launch->function].name,
        .grid = launch->grid,
        .block = launch->block,
        .stats = *stats,
    };
}

uint64_t sc_device_malloc(sc_device *device, uint64_t bytes)
{
    uint64_t offset = (device->global_used + ALLOCATION_ALIGNMENT - 1) & ~(uint64_t)(ALLOCATION_ALIGNMENT - 1);
    if (bytes > MAX_GLOBAL_BYTES || offset + bytes > MAX_GLOBAL_BYTES)
        return 0;
    uint64_t end = offset + (bytes ? bytes : 1);
    if (end > device->global_capacity) {
        uint64_t capacity = device->global_capacity ? device->global_capacity : (1u << 20);
        while (capacity < end)
            capacity *= 2;
        uint8_t *grown = realloc(device->global, capacity);
        if (!grown)
            return 0;
        memset(grown + device->global_capacity, 0, capacity - device->global_capacity);
        device->global = grown;
        device->global_capacity = capacity;
    }
    device->global_used = end;
    return device->global_base + offset;
}

uint8_t *sc_device_global_pointer(sc_device *device, uint64_t address, uint64_t bytes)
{
    if (address < device->global_base)
        return NULL;
    uint64_t offset = address - device->global_base;
    if (offset > device->global_used || bytes > device->global_used - offset)
        return NULL;
    return device->global + offset;
}

uint8_t *sc_device_global_span(sc_device *device, uint64_t address, uint64_t *bytes)
{
    if (address < device->global_base || address - device->global_base >= device->global_used)
        return NULL;
    uint64_t offset = address - device->global_base;
    if (*bytes > device->global_used - offset)
        *bytes = device->global_used - offset;
    return device->global + offset;
}

static int host_range(sc_device *device, uint64_t address, size_t bytes, uint8_t **pointer, sc_error *error)
{
    *pointer = sc_device_global_pointer(device, address, bytes);
    if (!*pointer)
        return sc_fail(error, "host copy of %zu bytes at 0x%llx is outside device memory", bytes,
                       (unsigned long long)address);
    return 0;
}

int sc_memcpy_to_device(sc_device *device, uint64_t destination, const void *source, size_t bytes, sc_error *error)
{
    uint8_t *pointer;
    if (host_range(device, destination, bytes, &pointer, error) < 0)
        return -1;
    memcpy(pointer, source, bytes);
    device->engine_ops->host_access(device->engine, device, destination, bytes, true);
    device->stats.host_bytes_in += bytes;
    return 0;
}

int sc_memcpy_from_device(sc_device *device, void *destination, uint64_t source, size_t bytes, sc_error *error)
{
    uint8_t *pointer;
    if (host_range(device, source, bytes, &pointer, error) < 0)
        return -1;
    device->engine_ops->host_access(device->engine, device, source, bytes, false);
    memcpy(destination, pointer, bytes);
    device->stats.host_bytes_out += bytes;
    return 0;
}

int sc_memset_device(sc_device *device, uint64_t destination, int value, size_t bytes, sc_error *error)
{
    uint8_t *pointer;
    if (host_range(device, destination, bytes, &pointer, error) < 0)
        return -1;
    memset(pointer, value, bytes);
    device->engine_ops->host_access(device->engine, device, destination, bytes, true);
    return 0;
}

int sc_memcpy_device_to_device(sc_device *device, uint64_t destination, uint64_t source, size_t bytes,
                               sc_error *error)
{
    uint8_t *from, *to;
    if (host_range(device, source, bytes, &from, error) < 0 || host_range(device, destination, bytes, &to, error) < 0)
        return -1;
    device->engine_ops->host_access(device->engine, device, source, bytes, false);
    memmove(to, from, bytes);
    device->engine_ops->host_access(device->engine, device, destination, bytes, true);
    return 0;
}

/* Marks in `used` the module symbols that the instructions of the `reached` functions name. */
static void mark_used_symbols(const ptx_module *module, const bool *reached, bool *used)
{
    for (int32_t f = 0; f < module->function_count; f++) {
        const ptx_function *function = &module->functions[f];
        for (int32_t i = 0; reached[f] && i < function->instruction_count; i++) {
            const ptx_instruction *in = &function->instructions[i];
            for (unsigned k = 0; k < in->operand_count; k++)
                if (in->operands[k].symbol >= 0)
                    used[in->operands[k].symbol] = true;
        }
    }
}

/* Lays out the .shared variables kernel `entry` uses (declaration order, each at its alignment)
 * in `addresses`, which already holds the global addresses; dynamic shared memory starts at
 * the next 16-byte boundary. */
static int place_kernel_shared(const ptx_module *module, int32_t entry, uint64_t *addresses, uint32_t *static_bytes,
                               sc_error *error)
{
    bool *reached = calloc((size_t)module->function_count + 1, sizeof *reached);
    bool *used = calloc((size_t)module->symbol_count + 1, sizeof *used);
    ptx_reachable_functions(module, entry, reached);
    mark_used_symbols(module, reached, used);
    uint64_t shared = 0;
    for (int32_t i = 0; i < module->symbol_count; i++) {
        const ptx_symbol *symbol = &module->symbols[i];
        uint64_t align = symbol->align ? symbol->align : 1;
        if (symbol->storage == PTX_STORAGE_SHARED && used[i]) {
            shared = (shared + align - 1) / align * align;
            addresses[i] = shared;
            shared += symbol->size;
        }
    }
    shared = (shared + 15) & ~15ull;
    for (int32_t i = 0; i < module->symbol_count; i++)
        if (module->symbols[i].storage == PTX_STORAGE_DYNAMIC_SHARED)
            addresses[i] = shared;
    free(reached);
    free(used);
    if (shared > UINT32_MAX)
        return sc_fail(error, "%s: kernel %s: static shared memory too large", module->path,
                       module->functions[entry].name);
    *static_bytes = (uint32_t)shared;
    return 0;
}

/* Places a module's .global/.const variables in device memory and lays out the .shared ones of
 * each kernel. */
static int place_symbols(sc_device *device, loaded_module *loaded, sc_error *error)
{
    const ptx_module *module = loaded->module;
    uint64_t *global_addresses = calloc((size_t)module->symbol_count + 1, sizeof(uint64_t));
    loaded->global_addresses = global_addresses;
    loaded->kernel_addresses = calloc((size_t)module->function_count + 1, sizeof *loaded->kernel_addresses);
    loaded->kernel_static_shared = calloc((size_t)module->function_count + 1, sizeof *loaded->kernel_static_shared);
    int status = 0;
    for (int32_t i = 0; i < module->symbol_count && status == 0; i++) {
        const ptx_symbol *symbol = &module->symbols[i];
        if (symbol->storage != PTX_STORAGE_GLOBAL && symbol->storage != PTX_STORAGE_CONST)
            continue;
        uint64_t address = sc_device_malloc(device, symbol->size);
        if (!address) {
            status = sc_fail(error, "%s: no device memory for variable %s", module->path, symbol->name);
            break;
        }
        if (symbol->initializer)
            memcpy(sc_device_global_pointer(device, address, symbol->size), symbol->initializer, symbol->size);
        global_addresses[i] = address;
    }
    for (int32_t f = 0; f < module->function_count && status == 0; f++) {
        if (!module->functions[f].is_entry)
            continue;
        loaded->kernel_addresses[f] = malloc(((size_t)module->symbol_count + 1) * sizeof(uint64_t));
        memcpy(loaded->kernel_addresses[f], global_addresses, ((size_t)module->symbol_count + 1) * sizeof(uint64_t));
        status = place_kernel_shared(module, f, loaded->kernel_addresses[f], &loaded->kernel_static_shared[f], error);
    }
    return status;
}

int sc_device_load_ptx(sc_device *device, const char *path, sc_error *error)
{
    if (device->module_count == MAX_MODULES)
        return sc_fail(error, "%s: too many modules loaded (limit %d)", path, MAX_MODULES);
    ptx_module *module = ptx_load_file(path, error);
    if (!module)
        return -1;
    loaded_module *loaded = &device->modules[device->module_count];
    *loaded = (loaded_module){.module = module};
    if (place_symbols(device, loaded, error) < 0) {
        free_loaded_module(loaded);
        return -1;
    }
    return device->module_count++;
}

int sc_device_load_builtin_ptx(sc_device *device, const char *name, sc_error *error)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/models/kernels/%s.ptx", sc_data_dir(), name);
    return sc_device_load_ptx(device, path, error);
}

const ptx_module *sc_device_module(const sc_device *device, int module)
{
    return module >= 0 && module < device->module_count ? device->modules[module].module : NULL;
}

uint64_t sc_device_symbol_address(const sc_device *device, int module, const char *name)
{
    const ptx_module *m = sc_device_module(device, module);
    int32_t index = m ? ptx_find_variable(m, name) : -1;
    return index < 0 ? 0 : device->modules[module].global_addresses[index];
}

static int build_parameters(const ptx_module *module, const ptx_function *kernel, const sc_kernel_arg *args,
                            int arg_count, uint8_t *buffer, sc_error *error)
{
    if (arg_count != kernel->param_count)
        return sc_fail(error, "kernel %s takes %d arguments, %d given", kernel->name, kernel->param_count, arg_count);
    for (int i = 0; i < arg_count; i++) {
        const ptx_symbol *param = &module->symbols[kernel->params[i]];
        if (param->size > sizeof args[i].bits)
            return sc_fail(error, "kernel %s: parameter %s of %llu bytes cannot be passed (at most 8)", kernel->name,
                           param->name, (unsigned long long)param->size);
        for (uint64_t b = 0; b < param->size; b++)
            buffer[param->offset + b] = (uint8_t)(args[i].bits >> (8 * b));
    }
    return 0;
}

int sc_launch_kernel(sc_device *device, int module_handle, const char *kernel_name, sc_dim3 grid, sc_dim3 block,
                     uint32_t dynamic_shared_bytes, const sc_kernel_arg *args, int arg_count, sc_error *error)
{
    return sc_launch_kernel_mapped(device, module_handle, kernel_name, grid, block, dynamic_shared_bytes, NULL, args,
                                   arg_count, error);
}

int sc_launch_kernel_mapped(sc_device *device, int module_handle, const char *kernel_name, sc_dim3 grid,
                            sc_dim3 block, uint32_t dynamic_shared_bytes, const sc_dma_mapping *dma,
                            const sc_kernel_arg *args, int arg_count, sc_error *error)
{
    const ptx_module *module = sc_device_module(device, module_handle);
    if (!module)
        return sc_fail(error, "launch of %s: no such module", kernel_name);
    int function = ptx_find_function(module, kernel_name);
    if (function < 0 || !module->functions[function].is_entry)
        return sc_fail(error, "%s: no kernel named '%s'", module->path, kernel_name);
    if (ptx_check_kernel(module, function, error) < 0)
        return -1;
    const ptx_function *kernel = &module->functions[function];
    uint8_t *parameters = calloc(kernel->kernel_param_bytes + 1, 1);
    int status = build_parameters(module, kernel, args, arg_count, parameters, error);
    sc_launch launch = {
        .module = module,
        .function = function,
        .grid = grid,
        .block = block,
        .dynamic_shared_bytes = dynamic_shared_bytes,
        .param_buffer = parameters,
        .symbol_addresses = device->modules[module_handle].kernel_addresses[function],
        .static_shared_bytes = device->modules[module_handle].kernel_static_shared[function],
        .launch_index = device->stats.launches,
        .global = {device->global, device->global_used},
        .dma = dma ? *dma : (sc_dma_mapping){0},
    };
    sc_launch_stats stats = {0};
    double start = sc_monotonic_seconds(), cpu_start = sc_thread_cpu_seconds();
    if (status == 0)
        status = device->engine_ops->launch(device->engine, device, &launch, &stats, error);
    device->stats.engine_seconds += sc_monotonic_seconds() - start;
    device->stats.engine_cpu_seconds += sc_thread_cpu_seconds() - cpu_start;
    if (status < 0)
        sc_fail_prefix(error, "launch %llu of %s", (unsigned long long)launch.launch_index, kernel_name);
    free(parameters);
    log_launch(device, &launch, &stats);
    device->stats.launches++;
    device->stats.warp_instructions += stats.warp_instructions;
    device->stats.thread_instructions += stats.thread_instructions;
    device->stats.cycles += stats.cycles;
    return status;
}
