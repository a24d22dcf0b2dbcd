/* vecadd.c — driver of the streaming workload: c = a + b, then c = alpha * a + c (saxpy on the
 * result). Every element is read and written once per kernel; there is no reuse inside a kernel,
 * and the second kernel reads what the first wrote.
 */
#include "workloads/workload_support.h"

#define VECADD_BLOCK 256
#define VECADD_ALPHA 1.5f

/* Runs both kernels on a and b and reads the result into c. */
static int vecadd_on_device(sc_device *device, const float *a, const float *b, float *c, uint32_t n,
                            sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "vecadd", error);
    if (module < 0)
        return -1;
    uint64_t a_dev = sc_workload_upload(device, a, n * sizeof *a, error);
    uint64_t b_dev = sc_workload_upload(device, b, n * sizeof *b, error);
    uint64_t c_dev = sc_workload_alloc(device, n * sizeof *c, error);
    if (a_dev == 0 || b_dev == 0 || c_dev == 0)
        return -1;
    uint32_t grid = sc_blocks_for(n, VECADD_BLOCK);
    sc_kernel_arg add_args[] = {sc_arg_ptr(a_dev), sc_arg_ptr(b_dev), sc_arg_ptr(c_dev), sc_arg_u32(n)};
    sc_kernel_arg saxpy_args[] = {sc_arg_f32(VECADD_ALPHA), sc_arg_ptr(a_dev), sc_arg_ptr(c_dev), sc_arg_u32(n)};
    if (sc_launch_1d(device, module, "vecadd", grid, VECADD_BLOCK, add_args, 4, error) < 0 ||
        sc_launch_1d(device, module, "saxpy", grid, VECADD_BLOCK, saxpy_args, 4, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, c, c_dev, n * sizeof *c, error);
}

static int run_vecadd(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                      sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 1000, 65536, 1u << 20, 1u << 23);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 1);
    float *a = sc_random_floats(&scratch, &rng, n, -1.0f, 1.0f);
    float *b = sc_random_floats(&scratch, &rng, n, -1.0f, 1.0f);
    float *c = sc_scratch_alloc(&scratch, n * sizeof *c);
    int status = vecadd_on_device(device, a, b, c, n, error);
    if (status == 0) {
        float *expected = sc_scratch_alloc(&scratch, n * sizeof *expected);
        for (uint32_t i = 0; i < n; i++)
            expected[i] = VECADD_ALPHA * a[i] + (a[i] + b[i]);
        sc_compare_f32(check, "c", c, expected, n, 1e-6f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_vecadd = {
    .name = "vecadd",
    .description = "c = a + b then saxpy c = alpha*a + c over a float vector",
    .behaviour = "streaming, no reuse",
    .run = run_vecadd,
};
