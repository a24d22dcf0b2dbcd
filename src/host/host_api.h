/* host_api.h — the host side of a simulated GPU: what a workload driver (our built-in suite, or
 * the manifest runner) uses to allocate device memory, copy data in and out, load PTX and launch
 * kernels. It plays the role of the CUDA runtime API.
 *
 * A device owns one flat global-memory image and an engine that executes launches
 * (exec/engine_interface.h): the functional SIMT executor or the cycle-level timing model. Host
 * reads and writes go through the engine too, so a timing engine with caches can make memory
 * coherent before the host reads it (and invalidate GPU copies after the host writes), exactly as
 * a CPU-GPU system must.
 */
#ifndef SYNCSCOPE_HOST_HOST_API_H
#define SYNCSCOPE_HOST_HOST_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "exec/engine_interface.h"
#include "ptx/ptx_ir.h"

/* One kernel argument: the raw little-endian bits; the launch copies as many bytes as the
 * kernel's parameter declares. Use the constructors below. */
typedef struct sc_kernel_arg {
    uint64_t bits;
} sc_kernel_arg;

static inline sc_kernel_arg sc_arg_u32(uint32_t value) { return (sc_kernel_arg){value}; }
static inline sc_kernel_arg sc_arg_i32(int32_t value) { return (sc_kernel_arg){(uint32_t)value}; }
static inline sc_kernel_arg sc_arg_u64(uint64_t value) { return (sc_kernel_arg){value}; }
sc_kernel_arg sc_arg_f32(float value);
sc_kernel_arg sc_arg_f64(double value);
#define sc_arg_ptr sc_arg_u64

/* One completed launch, as the device logs it. */
typedef struct sc_launch_record {
    const char *kernel;            /* function name (owned by the module) */
    sc_dim3 grid, block;
    sc_launch_stats stats;
} sc_launch_record;

typedef struct sc_device_stats {
    uint64_t launches;
    uint64_t warp_instructions;
    uint64_t thread_instructions;
    uint64_t cycles;
    uint64_t host_bytes_in, host_bytes_out;
    double engine_seconds;        /* wall time spent inside engine launches */
    double engine_cpu_seconds;    /* the calling thread's CPU time inside engine launches */
} sc_device_stats;

/* Creates a device with the functional engine and `warp_size` lanes per warp (32 or 64). */
sc_device *sc_device_create(unsigned warp_size, sc_error *error);
void sc_device_destroy(sc_device *device);
/* Replaces the engine (the device takes ownership; the old one is destroyed). */
void sc_device_set_engine(sc_device *device, const sc_engine_ops *ops, void *engine);
unsigned sc_device_warp_size(const sc_device *device);
/* Moves the device's global memory to start at `base` (SC_GLOBAL_BASE by default), for an engine
 * whose memory lives elsewhere (a real GPU's: hardware/hardware_engine.h). Only before anything
 * is allocated or loaded. */
int sc_device_set_global_base(sc_device *device, uint64_t base, sc_error *error);
/* Whether every execution the device's engine produces is sequentially consistent (the
 * functional engine's), so a litmus test's weak outcome can never appear. */
bool sc_device_sequentially_consistent(const sc_device *device);
const sc_device_stats *sc_device_statistics(const sc_device *device);
/* Every launch so far, in order. */
const sc_launch_record *sc_device_launches(const sc_device *device, size_t *count);

/* Loads a PTX file (placing its .global/.const variables in device memory). Returns a module
 * handle >= 0, or -1. */
int sc_device_load_ptx(sc_device *device, const char *path, sc_error *error);
/* Loads one of the built-in suite's kernels: models/kernels/<name>.ptx under the data dir. */
int sc_device_load_builtin_ptx(sc_device *device, const char *name, sc_error *error);
const ptx_module *sc_device_module(const sc_device *device, int module);

/* Device memory. Allocations are 256-byte aligned and zero-filled. sc_device_malloc returns 0
 * when the image cannot grow. */
uint64_t sc_device_malloc(sc_device *device, uint64_t bytes);
int sc_memcpy_to_device(sc_device *device, uint64_t destination, const void *source, size_t bytes,
                        sc_error *error);
int sc_memcpy_from_device(sc_device *device, void *destination, uint64_t source, size_t bytes,
                          sc_error *error);
int sc_memset_device(sc_device *device, uint64_t destination, int value, size_t bytes, sc_error *error);
/* cudaMemcpy device-to-device: the engine makes the source coherent, then sees a host write of
 * the destination (ranges may overlap, as with memmove). */
int sc_memcpy_device_to_device(sc_device *device, uint64_t destination, uint64_t source, size_t bytes,
                               sc_error *error);
/* Address of a module's .global/.const variable (exact or unmangled C++ name), or 0 if there is
 * none of that name. */
uint64_t sc_device_symbol_address(const sc_device *device, int module, const char *name);

/* Launches `kernel` (exact or unmangled name) of `module` and runs it to completion. */
int sc_launch_kernel(sc_device *device, int module, const char *kernel, sc_dim3 grid, sc_dim3 block,
                     uint32_t dynamic_shared_bytes, const sc_kernel_arg *args, int arg_count,
                     sc_error *error);
/* The same with a DMA mapping of each CTA's chunk of global memory into its dynamic shared memory
 * (exec/engine_interface.h: sc_dma_mapping; docs/local-memory.md); NULL: none. */
int sc_launch_kernel_mapped(sc_device *device, int module, const char *kernel, sc_dim3 grid, sc_dim3 block,
                            uint32_t dynamic_shared_bytes, const sc_dma_mapping *dma, const sc_kernel_arg *args,
                            int arg_count, sc_error *error);

/* Raw access to the flat global image for engines: a pointer to `bytes` bytes at `address`, or
 * NULL when the range is not inside the image. */
uint8_t *sc_device_global_pointer(sc_device *device, uint64_t address, uint64_t bytes);

/* Like sc_device_global_pointer for a cache line that may run past the end of the image:
 * returns the part of [address, address + *bytes) inside it (shortening *bytes), or NULL. */
uint8_t *sc_device_global_span(sc_device *device, uint64_t address, uint64_t *bytes);

#endif
