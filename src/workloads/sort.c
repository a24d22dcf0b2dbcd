/* sort.c — driver of the sort workload: a bitonic sort of 2^k random unsigned keys, one launch per
 * compare-exchange stage, every stage reading what the previous one wrote in place. The check
 * compares the result with the host's qsort.
 */
#include "workloads/workload_support.h"

#include <stdlib.h>

#define SORT_BLOCK 256

static int compare_keys(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int sort_on_device(sc_device *device, uint32_t *keys, uint32_t n, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "sort", error);
    if (module < 0)
        return -1;
    uint64_t keys_dev = sc_workload_upload(device, keys, n * sizeof *keys, error);
    if (keys_dev == 0)
        return -1;
    uint32_t block = n < SORT_BLOCK ? n : SORT_BLOCK;
    for (uint32_t size = 2; size <= n; size *= 2)
        for (uint32_t stride = size / 2; stride > 0; stride /= 2) {
            sc_kernel_arg args[] = {sc_arg_ptr(keys_dev), sc_arg_u32(size), sc_arg_u32(stride)};
            if (sc_launch_1d(device, module, "bitonic_stage", n / block, block, args, 3, error) < 0)
                return -1;
        }
    return sc_memcpy_from_device(device, keys, keys_dev, n * sizeof *keys, error);
}

static int run_sort(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                    sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 1u << 10, 1u << 12, 1u << 14, 1u << 14);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 10);
    uint32_t *keys = sc_random_u32s(&scratch, &rng, n, UINT32_MAX);
    uint32_t *expected = sc_scratch_alloc(&scratch, n * sizeof *expected);
    for (uint32_t i = 0; i < n; i++)
        expected[i] = keys[i];
    int status = sort_on_device(device, keys, n, error);
    if (status == 0) {
        qsort(expected, n, sizeof *expected, compare_keys);
        sc_compare_u32(check, "keys", keys, expected, n);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_sort = {
    .name = "sort",
    .description = "bitonic sort of 2^k unsigned keys, one launch per compare-exchange stage",
    .behaviour = "in-place ping-pong between many launches, very high or very low reuse",
    .run = run_sort,
};
