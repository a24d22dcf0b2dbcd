/* engine_interface.h — what passes between a device (host/host_api.h) and the engine that
 * executes its launches (the functional engine here, the timing and sampled engines in timing/):
 * the launch description with the global memory it runs on, the statistics an engine reports for
 * it, and the engine's operations. The device is opaque here; engines above host/ may hand it to
 * the host API. */
#ifndef SYNCSCOPE_EXEC_ENGINE_INTERFACE_H
#define SYNCSCOPE_EXEC_ENGINE_INTERFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "ptx/ptx_ir.h"

typedef struct sc_dim3 {
    uint32_t x, y, z;
} sc_dim3;

/* The device's flat global memory as a launch sees it: `bytes` holds [SC_GLOBAL_BASE,
 * SC_GLOBAL_BASE + size) (exec/address_map.h), NULL when size is 0. It neither moves nor grows
 * while the launch runs. */
typedef struct sc_global_image {
    uint8_t *bytes;
    uint64_t size;
} sc_global_image;

/* What moves a launch's mapped chunks between global memory and the CTAs' shared memory
 * (docs/local-memory.md): the DMA engine (scratchpad+DMA, GSI §4.5) or the stash (§4.6). */
typedef enum sc_mapping_kind {
    SC_MAPPING_DMA = 0,
    SC_MAPPING_STASH,
} sc_mapping_kind;

/* A local-memory mapping declared with a launch (docs/local-memory.md): CTA c (linear id) finds the
 * global bytes [global + c * bytes_per_cta, + bytes_per_cta) in its shared memory at the start of
 * its dynamic shared memory plus shared_offset, and what it writes there reaches those global
 * bytes. With kind DMA the chunk is loaded when the CTA starts and written back when it finishes;
 * with kind STASH each word is loaded at its first access and written through the mechanism's
 * store path (the functional engine performs both as the DMA copies). bytes_per_cta 0: no
 * mapping. Addresses, offset and size are multiples of 4 bytes. */
#define SC_MAPPING_WORD_BYTES 4
typedef struct sc_dma_mapping {
    uint64_t global;
    uint64_t bytes_per_cta;
    uint32_t shared_offset;
    sc_mapping_kind kind;
} sc_dma_mapping;

/* Everything an engine needs to run one kernel launch. */
typedef struct sc_launch {
    const ptx_module *module;
    int function;                 /* index of the .entry in module */
    sc_dim3 grid, block;
    uint32_t dynamic_shared_bytes;
    const uint8_t *param_buffer;  /* kernel_param_bytes bytes laid out per the parser */
    const uint64_t *symbol_addresses;  /* per module symbol: global address, or the shared offset in
                                        * this kernel's layout (host/device.c) */
    uint32_t static_shared_bytes;      /* this kernel's static .shared bytes per CTA (its own variables
                                        * and those of the functions it calls) */
    uint64_t launch_index;        /* 0, 1, 2... per device */
    /* Run only the CTAs [cta_first, cta_end) of the grid (linear ids), as a sampled run does
     * with the windows of a launch; cta_end 0 means every CTA. */
    uint64_t cta_first, cta_end;
    sc_global_image global;       /* the device's global memory */
    sc_dma_mapping dma;           /* the launch's local-memory mapping (DMA or stash), if any */
} sc_launch;

/* Statistics an engine reports for one launch (the timing engine fills cycles too). */
typedef struct sc_launch_stats {
    uint64_t warp_instructions;   /* issued warp instructions (guard-false lanes included) */
    uint64_t thread_instructions; /* active lanes summed over warp instructions */
    uint64_t cycles;              /* 0 for the functional engine */
} sc_launch_stats;

typedef struct sc_device sc_device;

/* The execution engine behind a device. */
typedef struct sc_engine_ops {
    int (*launch)(void *engine, sc_device *device, const sc_launch *launch, sc_launch_stats *stats,
                  sc_error *error);
    /* Called before the host reads [address, address+bytes) and after it writes it. */
    void (*host_access)(void *engine, sc_device *device, uint64_t address, size_t bytes, bool is_write);
    void (*destroy)(void *engine);
    bool sequentially_consistent; /* every execution it produces is SC (one instruction at a time) */
} sc_engine_ops;

#endif
