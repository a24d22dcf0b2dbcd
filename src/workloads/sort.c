/* sort.c — driver of the sort workload: QuickRelease's sort microbenchmark, a radix sort of
 * random 32-bit unsigned keys one byte at a time. Each of the four passes is three launches
 * (count the keys of each digit per block, turn the counts into output positions, move every key
 * to its position) and then swaps the input and output arrays, so every pass reads what the
 * previous one wrote. The check compares the result with the host's qsort.
 */
#include "workloads/workload_support.h"

#include <stdlib.h>

#define SORT_BLOCK 256     /* RADIX_BLOCK of sort.cu */
#define SORT_DIGITS 256    /* RADIX_DIGITS of sort.cu: one byte per pass */
#define SORT_PASSES 4

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
    uint32_t blocks = sc_blocks_for(n, SORT_BLOCK);
    uint64_t buffers[2] = {sc_workload_upload(device, keys, n * sizeof *keys, error), 0};
    if (buffers[0] == 0 || (buffers[1] = sc_workload_alloc(device, n * sizeof *keys, error)) == 0)
        return -1;
    uint64_t counts = sc_workload_alloc(device, (size_t)SORT_DIGITS * blocks * sizeof(uint32_t), error);
    if (counts == 0)
        return -1;
    for (uint32_t pass = 0; pass < SORT_PASSES; pass++) {
        uint64_t in = buffers[pass % 2], out = buffers[(pass + 1) % 2];
        uint32_t shift = 8 * pass;
        sc_kernel_arg count_args[] = {sc_arg_ptr(in), sc_arg_ptr(counts), sc_arg_u32(n), sc_arg_u32(shift)};
        sc_kernel_arg offset_args[] = {sc_arg_ptr(counts), sc_arg_u32(blocks)};
        sc_kernel_arg move_args[] = {sc_arg_ptr(in), sc_arg_ptr(out), sc_arg_ptr(counts), sc_arg_u32(n),
                                     sc_arg_u32(shift)};
        if (sc_launch_1d(device, module, "radix_count", blocks, SORT_BLOCK, count_args, 4, error) < 0 ||
            sc_launch_1d(device, module, "radix_offsets", 1, SORT_DIGITS, offset_args, 2, error) < 0 ||
            sc_launch_1d(device, module, "radix_move", blocks, SORT_BLOCK, move_args, 5, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, keys, buffers[SORT_PASSES % 2], n * sizeof *keys, error);
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
    .description = "radix sort of 32-bit keys by bytes: 4 passes x (count, offsets, move), ping-pong buffers",
    .behaviour = "each pass reads what the previous one wrote, very high or very low reuse",
    .run = run_sort,
};
