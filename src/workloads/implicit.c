/* implicit.c — driver of the GSI thesis's "implicit" microbenchmark (§5.3): each CTA owns a chunk
 * of an array (one element per thread), each thread reads its element, computes one xorshift32
 * step on it and writes it back in place. Three workloads, the same input and result
 * (models/kernels/implicit.cu):
 *   implicit        the thesis's baseline scratchpad: explicit copies global -> scratchpad -> global;
 *   implicit-dma    scratchpad+DMA: the launch maps each CTA's chunk into its scratchpad (a DMA
 *                   mapping, docs/local-memory.md) and the kernel touches only the scratchpad;
 *   implicit-stash  stash: the same kernel, the launch mapping each CTA's chunk into its stash.
 * The check compares the array with the same step computed on the host.
 */
#include "workloads/workload_support.h"

#define IMPLICIT_BLOCK 256

/* The kernel's computation (implicit.cu: implicit_compute). */
static uint32_t implicit_compute(uint32_t v)
{
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return v;
}

/* Elements of a run: one CTA of IMPLICIT_BLOCK threads per chunk. */
static uint32_t implicit_elements(sc_workload_size size)
{
    return IMPLICIT_BLOCK * sc_size_pick(size, 4, 60, 960, 15360);
}

/* The three organisations of local memory the workloads compare (§5.3). */
typedef enum implicit_variant {
    IMPLICIT_SCRATCHPAD,
    IMPLICIT_DMA,
    IMPLICIT_STASH,
} implicit_variant;

/* Runs one variant on the whole array and reads the result back. */
static int implicit_on_device(sc_device *device, implicit_variant variant, const uint32_t *data, uint32_t *result,
                              uint32_t n, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "implicit", error);
    uint64_t data_dev = module < 0 ? 0 : sc_workload_upload(device, data, n * sizeof *data, error);
    if (data_dev == 0)
        return -1;
    sc_dim3 grid = {n / IMPLICIT_BLOCK, 1, 1}, block = {IMPLICIT_BLOCK, 1, 1};
    uint32_t chunk_bytes = IMPLICIT_BLOCK * sizeof(uint32_t);
    int status;
    if (variant == IMPLICIT_SCRATCHPAD) {
        sc_kernel_arg args[] = {sc_arg_ptr(data_dev)};
        status = sc_launch_kernel(device, module, "implicit_scratchpad", grid, block, chunk_bytes, args, 1, error);
    } else {   /* the mapped kernel touches only its chunk in shared memory; the mapping moves the data */
        sc_dma_mapping mapping = {.global = data_dev, .bytes_per_cta = chunk_bytes, .shared_offset = 0,
                                  .kind = variant == IMPLICIT_STASH ? SC_MAPPING_STASH : SC_MAPPING_DMA};
        status = sc_launch_kernel_mapped(device, module, "implicit_dma", grid, block, chunk_bytes, &mapping, NULL, 0,
                                         error);
    }
    return status == 0 ? sc_memcpy_from_device(device, result, data_dev, n * sizeof *result, error) : -1;
}

static int run_variant(sc_device *device, implicit_variant variant, const sc_workload_params *params,
                       sc_check_result *check, sc_error *error)
{
    uint32_t n = implicit_elements(params->size);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 1);
    uint32_t *data = sc_random_u32s(&scratch, &rng, n, UINT32_MAX);
    uint32_t *result = sc_scratch_alloc(&scratch, n * sizeof *result);
    int status = implicit_on_device(device, variant, data, result, n, error);
    if (status == 0) {
        for (uint32_t i = 0; i < n; i++)
            data[i] = implicit_compute(data[i]);
        sc_compare_u32(check, "data", result, data, n);
    }
    sc_scratch_release(&scratch);
    return status;
}

static int run_implicit(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    return run_variant(device, IMPLICIT_SCRATCHPAD, params, check, error);
}

static int run_implicit_dma(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                            sc_error *error)
{
    return run_variant(device, IMPLICIT_DMA, params, check, error);
}

static int run_implicit_stash(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                              sc_error *error)
{
    return run_variant(device, IMPLICIT_STASH, params, check, error);
}

const sc_workload sc_workload_implicit = {
    .name = "implicit",
    .description = "GSI implicit microbenchmark: each CTA copies its chunk into the scratchpad, updates it in place, copies it back",
    .behaviour = "local memory: explicit scratchpad copies (GSI case study 2 baseline)",
    .run = run_implicit,
};

const sc_workload sc_workload_implicit_dma = {
    .name = "implicit-dma",
    .description = "GSI implicit microbenchmark with each CTA's chunk DMA-mapped into its scratchpad",
    .behaviour = "local memory: scratchpad+DMA (GSI case study 2)",
    .run = run_implicit_dma,
};

const sc_workload sc_workload_implicit_stash = {
    .name = "implicit-stash",
    .description = "GSI implicit microbenchmark with each CTA's chunk mapped into its stash",
    .behaviour = "local memory: stash (GSI case study 2)",
    .run = run_implicit_stash,
};
