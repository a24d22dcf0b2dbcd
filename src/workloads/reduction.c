/* reduction.c — driver of the reduction workload: the sum of an unsigned array computed by a
 * shared-memory tree (barriers between levels) and by warp shuffles, each CTA adding its partial
 * to a global total with atomicAdd. Integer sums make the check exact whatever the atomic order.
 */
#include "workloads/workload_support.h"

#define REDUCE_BLOCK 256   /* must match reduction.cu */

static const char *const reduce_kernels[] = {"reduce_shared", "reduce_shuffle"};
#define REDUCE_KERNEL_COUNT 2

/* Runs every variant over `values`; totals[v] receives variant v's sum. */
static int reduction_on_device(sc_device *device, const uint32_t *values, uint32_t n, uint32_t grid,
                               uint32_t totals[REDUCE_KERNEL_COUNT], sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "reduction", error);
    if (module < 0)
        return -1;
    uint64_t values_dev = sc_workload_upload(device, values, n * sizeof *values, error);
    if (values_dev == 0)
        return -1;
    for (int v = 0; v < REDUCE_KERNEL_COUNT; v++) {
        uint64_t total_dev = sc_workload_alloc(device, sizeof(uint32_t), error);
        sc_kernel_arg args[] = {sc_arg_ptr(values_dev), sc_arg_u32(n), sc_arg_ptr(total_dev)};
        if (total_dev == 0 ||
            sc_launch_1d(device, module, reduce_kernels[v], grid, REDUCE_BLOCK, args, 3, error) < 0 ||
            sc_workload_read_u32(device, total_dev, &totals[v], error) < 0)
            return -1;
    }
    return 0;
}

static int run_reduction(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                         sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 4096, 1u << 18, 1u << 21, 1u << 21);
    uint32_t grid = sc_size_pick(params->size, 4, 64, 120, 120);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 2);
    uint32_t *values = sc_random_u32s(&scratch, &rng, n, 1024);
    uint32_t totals[REDUCE_KERNEL_COUNT];
    int status = reduction_on_device(device, values, n, grid, totals, error);
    if (status == 0) {
        uint32_t expected = 0;
        for (uint32_t i = 0; i < n; i++)
            expected += values[i];
        sc_check_pass(check);
        for (int v = 0; v < REDUCE_KERNEL_COUNT && check->passed; v++)
            if (totals[v] != expected)
                sc_check_fail(check, "%s total = %u, expected %u", reduce_kernels[v], totals[v], expected);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_reduction = {
    .name = "reduction",
    .description = "array sum by a shared-memory tree and by warp shuffles, partials combined with atomicAdd",
    .behaviour = "barrier-synchronised shared-memory reuse, one contended atomic per CTA",
    .run = run_reduction,
};
