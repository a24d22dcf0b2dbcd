/* histogram.c — driver of the histogram workload. The input arrives from the host in chunks:
 * for each chunk the host writes the staging buffer the GPU reads, then launches the contended
 * global-atomic kernel and the shared-memory privatised kernel, each accumulating into its own
 * bins. So the workload interleaves host writes with many short kernels, as the seeds describe.
 */
#include "workloads/workload_support.h"

#define HISTOGRAM_BLOCK 256
#define HISTOGRAM_BINS 16       /* few bins: heavy contention (at most 256, see histogram.cu) */

static int histogram_on_device(sc_device *device, const uint32_t *values, uint32_t n, uint32_t chunk,
                               uint32_t grid, uint32_t *global_bins, uint32_t *shared_bins,
                               sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "histogram", error);
    if (module < 0)
        return -1;
    uint64_t staging = sc_workload_alloc(device, chunk * sizeof *values, error);
    uint64_t global_dev = sc_workload_alloc(device, HISTOGRAM_BINS * sizeof *global_bins, error);
    uint64_t shared_dev = sc_workload_alloc(device, HISTOGRAM_BINS * sizeof *shared_bins, error);
    if (staging == 0 || global_dev == 0 || shared_dev == 0)
        return -1;
    for (uint32_t start = 0; start < n; start += chunk) {
        uint32_t count = n - start < chunk ? n - start : chunk;
        sc_kernel_arg global_args[] = {sc_arg_ptr(staging), sc_arg_u32(count), sc_arg_ptr(global_dev)};
        sc_kernel_arg shared_args[] = {sc_arg_ptr(staging), sc_arg_u32(count), sc_arg_ptr(shared_dev),
                                       sc_arg_u32(HISTOGRAM_BINS)};
        if (sc_memcpy_to_device(device, staging, values + start, count * sizeof *values, error) < 0 ||
            sc_launch_1d(device, module, "histogram_global", grid, HISTOGRAM_BLOCK, global_args, 3, error) < 0 ||
            sc_launch_1d(device, module, "histogram_shared", grid, HISTOGRAM_BLOCK, shared_args, 4, error) < 0)
            return -1;
    }
    if (sc_memcpy_from_device(device, global_bins, global_dev, HISTOGRAM_BINS * sizeof *global_bins, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, shared_bins, shared_dev, HISTOGRAM_BINS * sizeof *shared_bins, error);
}

static int run_histogram(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                         sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 4096, 1u << 17, 1u << 20, 1u << 22);
    uint32_t chunk = sc_size_pick(params->size, 2048, 1u << 15, 1u << 18, 1u << 16);
    uint32_t grid = sc_size_pick(params->size, 2, 16, 64, 64);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 3);
    uint32_t *values = sc_random_u32s(&scratch, &rng, n, HISTOGRAM_BINS);
    uint32_t global_bins[HISTOGRAM_BINS], shared_bins[HISTOGRAM_BINS], expected[HISTOGRAM_BINS] = {0};
    int status = histogram_on_device(device, values, n, chunk, grid, global_bins, shared_bins, error);
    if (status == 0) {
        for (uint32_t i = 0; i < n; i++)
            expected[values[i]]++;
        if (sc_compare_u32(check, "global_bins", global_bins, expected, HISTOGRAM_BINS))
            sc_compare_u32(check, "shared_bins", shared_bins, expected, HISTOGRAM_BINS);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_histogram = {
    .name = "histogram",
    .description = "16-bin histogram by contended global atomics and by shared-memory privatisation, fed in host-written chunks",
    .behaviour = "contended atomics, frequent CPU-GPU sharing across many launches",
    .run = run_histogram,
};
