/* matmul.c — driver of the dense matrix multiply workload: C = A B for square matrices through
 * 16 x 16 shared-memory tiles with barriers around each tile step.
 */
#include "workloads/workload_support.h"

#define MATMUL_TILE 16   /* must match matmul.cu */

static void matmul_reference(const float *a, const float *b, float *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            float sum = 0.0f;
            for (uint32_t k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
}

static int matmul_on_device(sc_device *device, const float *a, const float *b, float *c, uint32_t n,
                            sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "matmul", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)n * n * sizeof(float);
    uint64_t a_dev = sc_workload_upload(device, a, bytes, error);
    uint64_t b_dev = sc_workload_upload(device, b, bytes, error);
    uint64_t c_dev = sc_workload_alloc(device, bytes, error);
    if (a_dev == 0 || b_dev == 0 || c_dev == 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(a_dev), sc_arg_ptr(b_dev), sc_arg_ptr(c_dev), sc_arg_u32(n)};
    if (sc_launch_kernel(device, module, "matmul_tiled", (sc_dim3){n / MATMUL_TILE, n / MATMUL_TILE, 1},
                         (sc_dim3){MATMUL_TILE, MATMUL_TILE, 1}, 0, args, 4, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, c, c_dev, bytes, error);
}

static int run_matmul(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                      sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 32, 96, 192, 192);
    size_t cells = (size_t)n * n;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 7);
    float *a = sc_random_floats(&scratch, &rng, cells, -1.0f, 1.0f);
    float *b = sc_random_floats(&scratch, &rng, cells, -1.0f, 1.0f);
    float *c = sc_scratch_alloc(&scratch, cells * sizeof *c);
    int status = matmul_on_device(device, a, b, c, n, error);
    if (status == 0) {
        float *expected = sc_scratch_alloc(&scratch, cells * sizeof *expected);
        matmul_reference(a, b, expected, n);
        sc_compare_f32(check, "c", c, expected, cells, 1e-4f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_matmul = {
    .name = "matmul",
    .description = "dense C = A B through 16x16 shared-memory tiles",
    .behaviour = "tiled reuse in shared memory, barriers, intermediate L1 reuse",
    .run = run_matmul,
};
