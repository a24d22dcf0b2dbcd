/* launch.c — turns a kernel launch into executor state: per-launch facts (shared-memory size,
 * local stack size, register widths, pre-decoded instructions) and CTAs whose warps start at the
 * kernel's first instruction; the launch's DMA mapping, checked, and performed at once for the
 * functional engine. */
#include "exec/warp.h"

#include <stdlib.h>
#include <string.h>

#include "exec/address_map.h"
#include "exec/operands.h"
#include "exec/program.h"
#include "exec/simt_stack.h"

enum { RECURSIVE_STACK_BYTES = 16384 };

/* Deepest per-thread frame stack reachable from `function`. `on_path` marks the functions of the
 * call chain being explored: a call back into one of them is recursion and gets a fixed budget
 * (following it would never end, and re-walking it per call site would take exponential time). */
static uint64_t stack_bytes(const ptx_module *module, int32_t function, bool *on_path)
{
    const ptx_function *f = &module->functions[function];
    uint64_t deepest_callee = 0;
    on_path[function] = true;
    for (int32_t i = 0; i < f->instruction_count; i++) {
        const ptx_instruction *in = &f->instructions[i];
        if (in->opcode != PTX_OP_CALL || in->callee < 0)
            continue;
        uint64_t callee = on_path[in->callee] ? RECURSIVE_STACK_BYTES : stack_bytes(module, in->callee, on_path);
        if (callee > deepest_callee)
            deepest_callee = callee;
    }
    on_path[function] = false;
    return f->frame_bytes + deepest_callee;
}

/* A launch's local-memory mapping (DMA or stash) must lie inside its dynamic shared memory and, for
 * every CTA of the grid, inside global memory, in whole 4-byte words. */
static int check_dma_mapping(const sc_launch *launch, uint64_t cta_count, sc_error *error)
{
    const sc_dma_mapping *dma = &launch->dma;
    if (dma->bytes_per_cta == 0)
        return 0;
    const char *name = launch->module->functions[launch->function].name;
    const char *kind = dma->kind == SC_MAPPING_STASH ? "stash" : "DMA";
    if (dma->global % 4 || dma->bytes_per_cta % 4 || dma->shared_offset % 4)
        return sc_fail(error, "kernel %s: %s mapping: global address, bytes per CTA and shared offset must be "
                       "multiples of 4", name, kind);
    if ((uint64_t)dma->shared_offset + dma->bytes_per_cta > launch->dynamic_shared_bytes)
        return sc_fail(error, "kernel %s: %s mapping of %llu bytes at shared offset %u does not fit the launch's "
                       "%u bytes of dynamic shared memory", name, kind, (unsigned long long)dma->bytes_per_cta,
                       dma->shared_offset, launch->dynamic_shared_bytes);
    uint64_t offset = dma->global - SC_GLOBAL_BASE;
    if (dma->global < SC_GLOBAL_BASE || offset > launch->global.size ||
        cta_count > (launch->global.size - offset) / dma->bytes_per_cta)
        return sc_fail(error, "kernel %s: %s mapping of %llu CTAs x %llu bytes at 0x%llx is outside device memory",
                       name, kind, (unsigned long long)cta_count, (unsigned long long)dma->bytes_per_cta,
                       (unsigned long long)dma->global);
    return 0;
}

int exec_kernel_init(exec_kernel *kernel, sc_device *device, const sc_launch *launch, unsigned width,
                     sc_error *error)
{
    const sc_dim3 block = launch->block, grid = launch->grid;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024)
        return sc_fail(error, "block of %llu threads: must be 1..1024", (unsigned long long)threads);
    uint64_t cta_count = (uint64_t)grid.x * grid.y * grid.z;
    if (cta_count == 0)
        return sc_fail(error, "empty grid");
    uint64_t cta_end = launch->cta_end ? launch->cta_end : cta_count;
    if (launch->cta_first >= cta_end || cta_end > cta_count)
        return sc_fail(error, "CTA range [%llu, %llu) is not inside the grid of %llu CTAs",
                       (unsigned long long)launch->cta_first, (unsigned long long)cta_end,
                       (unsigned long long)cta_count);
    if (check_dma_mapping(launch, cta_count, error) < 0)
        return -1;
    *kernel = (exec_kernel){
        .device = device,
        .launch = launch,
        .module = launch->module,
        .entry = &launch->module->functions[launch->function],
        .symbol_addresses = launch->symbol_addresses,
        .static_shared_bytes = launch->static_shared_bytes,
        .shared_bytes = launch->static_shared_bytes + launch->dynamic_shared_bytes,
        .width = width,
        .full_mask = width >= 64 ? ~0ull : (1ull << width) - 1,
        .threads_per_cta = (uint32_t)threads,
        .warps_per_cta = (unsigned)((threads + width - 1) / width),
        .cta_count = cta_count,
        .cta_first = launch->cta_first,
        .cta_end = cta_end,
        .cu_count = 1,
    };
    const ptx_module *module = launch->module;
    kernel->register_masks = calloc((size_t)module->function_count, sizeof *kernel->register_masks);
    kernel->programs = calloc((size_t)module->function_count, sizeof *kernel->programs);
    for (int32_t f = 0; f < module->function_count; f++) {
        const ptx_function *function = &module->functions[f];
        kernel->register_masks[f] = calloc((size_t)function->register_count + 1, sizeof(uint64_t));
        for (int32_t r = 0; r < function->register_count; r++)
            kernel->register_masks[f][r] = operand_register_mask(function, r);
        kernel->programs[f] = exec_program_build(kernel, f);
    }
    bool *on_path = calloc((size_t)module->function_count, sizeof *on_path);
    uint64_t stack = stack_bytes(module, launch->function, on_path);
    free(on_path);
    kernel->local_stride = (stack + 15) & ~15ull;
    return 0;
}

void exec_kernel_release(exec_kernel *kernel)
{
    for (int32_t f = 0; kernel->register_masks && f < kernel->module->function_count; f++) {
        free(kernel->register_masks[f]);
        free(kernel->programs[f]);
    }
    free(kernel->register_masks);
    free(kernel->programs);
    kernel->register_masks = NULL;
    kernel->programs = NULL;
}

/* The allocations of a finished warp that a new one takes over (exec_cta_reuse); all NULL for a
 * warp allocated afresh. */
typedef struct warp_storage {
    exec_frame *frames;
    int32_t frame_capacity;
    exec_simt_entry *stack;
    int32_t stack_capacity;
    uint64_t *registers;      /* the kernel frame's */
    uint8_t *local_memory;
} warp_storage;

/* Zeroed storage of `bytes`: `reused` cleared, or a new allocation when there is none. */
static void *zeroed(void *reused, size_t bytes)
{
    return reused ? memset(reused, 0, bytes) : calloc(1, bytes);
}

static int warp_init(exec_warp *warp, exec_cta *cta, const exec_kernel *kernel, unsigned index,
                     const warp_storage *storage, sc_error *error)
{
    unsigned width = kernel->width;
    uint64_t first_thread = (uint64_t)index * width;
    uint64_t lanes = kernel->threads_per_cta - first_thread;
    *warp = (exec_warp){
        .cta = cta,
        .kernel = kernel,
        .index_in_cta = index,
        .stack = storage->stack,
        .stack_capacity = storage->stack_capacity,
        .frame_capacity = storage->frames ? storage->frame_capacity : 4,
        .frame_depth = 1,
    };
    unsigned valid_lanes = lanes < width ? (unsigned)lanes : width;
    warp->valid_mask = valid_lanes == 64 ? ~0ull : (1ull << valid_lanes) - 1;
    warp->frames = storage->frames ? storage->frames : calloc((size_t)warp->frame_capacity, sizeof *warp->frames);
    warp->frames[0] = (exec_frame){
        .function = kernel->launch->function,
        .return_pc = -1,
        .registers = zeroed(storage->registers, ((size_t)kernel->entry->register_count * width + 1) * sizeof(uint64_t)),
        .register_masks = kernel->register_masks[kernel->launch->function],
        .ops = kernel->programs[kernel->launch->function],
        .call_mask = warp->valid_mask,
    };
    warp->local_memory = kernel->local_stride ? zeroed(storage->local_memory, (size_t)width * kernel->local_stride)
                                              : NULL;
    return simt_push(warp, 0, kernel->entry->instruction_count, warp->valid_mask, error);
}

/* CTA `linear_id` of the launch in *cta, on `cu`, its storage that of `warps` (NULL: new). */
static int cta_init(exec_cta *cta, const exec_kernel *kernel, uint64_t linear_id, unsigned cu, exec_warp *warps,
                    uint8_t *shared_memory, sc_error *error)
{
    const sc_dim3 grid = kernel->launch->grid;
    *cta = (exec_cta){
        .kernel = kernel,
        .linear_id = linear_id,
        .ctaid = {(uint32_t)(linear_id % grid.x), (uint32_t)((linear_id / grid.x) % grid.y),
                  (uint32_t)(linear_id / ((uint64_t)grid.x * grid.y))},
        .shared_memory = zeroed(shared_memory, (size_t)kernel->shared_bytes + 1),
        .warps = warps ? warps : calloc(kernel->warps_per_cta, sizeof *cta->warps),
        .warp_count = kernel->warps_per_cta,
        .cu = cu,
    };
    for (unsigned i = 0; i < cta->warp_count; i++) {
        exec_warp *warp = &cta->warps[i];
        warp_storage storage = {0};
        if (warps) {
            /* Frames a finished warp was still in (it exited inside a call) go; the rest is kept. */
            for (int32_t f = 1; f < warp->frame_depth; f++)
                free(warp->frames[f].registers);
            storage = (warp_storage){warp->frames, warp->frame_capacity, warp->stack, warp->stack_capacity,
                                     warp->frames[0].registers, warp->local_memory};
        }
        if (warp_init(warp, cta, kernel, i, &storage, error) < 0)
            return -1;
    }
    return 0;
}

int exec_cta_init(exec_cta *cta, const exec_kernel *kernel, uint64_t linear_id, unsigned cu, sc_error *error)
{
    return cta_init(cta, kernel, linear_id, cu, NULL, NULL, error);
}

int exec_cta_reuse(exec_cta *cta, uint64_t linear_id, unsigned cu, sc_error *error)
{
    return cta_init(cta, cta->kernel, linear_id, cu, cta->warps, cta->shared_memory, error);
}

void exec_cta_release(exec_cta *cta)
{
    for (unsigned i = 0; i < cta->warp_count; i++) {
        exec_warp *warp = &cta->warps[i];
        for (int32_t f = 0; f < warp->frame_depth; f++)
            free(warp->frames[f].registers);
        free(warp->frames);
        free(warp->stack);
        free(warp->local_memory);
    }
    free(cta->warps);
    free(cta->shared_memory);
    cta->warps = NULL;
    cta->shared_memory = NULL;
}

uint64_t exec_dma_global(const exec_cta *cta)
{
    const sc_dma_mapping *dma = &cta->kernel->launch->dma;
    return dma->global + cta->linear_id * dma->bytes_per_cta;
}

uint8_t *exec_dma_shared(const exec_cta *cta)
{
    return cta->shared_memory + cta->kernel->static_shared_bytes + cta->kernel->launch->dma.shared_offset;
}

void exec_cta_dma_in(exec_cta *cta)
{
    const sc_launch *launch = cta->kernel->launch;
    if (launch->dma.bytes_per_cta)
        memcpy(exec_dma_shared(cta), launch->global.bytes + (exec_dma_global(cta) - SC_GLOBAL_BASE),
               launch->dma.bytes_per_cta);
}

void exec_cta_dma_out(const exec_cta *cta)
{
    const sc_launch *launch = cta->kernel->launch;
    if (launch->dma.bytes_per_cta)
        memcpy(launch->global.bytes + (exec_dma_global(cta) - SC_GLOBAL_BASE), exec_dma_shared(cta),
               launch->dma.bytes_per_cta);
}
