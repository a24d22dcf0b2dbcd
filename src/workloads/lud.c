/* lud.c — driver of the LU decomposition workload: a blocked, right-looking LU factorisation
 * without pivoting of a diagonally dominant matrix, three launches per diagonal block (see
 * lud.cu). It stands for the seeds' lud: the highest rate of read-after-write and false sharing
 * between CTAs. The check compares L and U with the host's unblocked Doolittle factorisation.
 */
#include "workloads/workload_support.h"

#define LUD_BLOCK 16        /* the three constants must match lud.cu */
#define LUD_INTERNAL_X 8
#define LUD_INTERNAL_Y 16
#define LUD_PERIMETER_BLOCK 64

/* In-place Doolittle: L (unit diagonal, not stored) below the diagonal, U on and above it. */
static void lud_reference(float *a, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = k + 1; i < n; i++) {
            a[i * n + k] /= a[k * n + k];
            for (uint32_t j = k + 1; j < n; j++)
                a[i * n + j] -= a[i * n + k] * a[k * n + j];
        }
}

/* Launches the three kernels of diagonal block d. */
static int lud_block_step(sc_device *device, int module, uint64_t a_dev, uint32_t n, uint32_t d, sc_error *error)
{
    sc_kernel_arg args[] = {sc_arg_ptr(a_dev), sc_arg_u32(n), sc_arg_u32(d)};
    uint32_t rest = n - d - LUD_BLOCK;
    if (sc_launch_1d(device, module, "lud_diagonal", 1, LUD_BLOCK, args, 3, error) < 0)
        return -1;
    if (rest == 0)
        return 0;
    if (sc_launch_1d(device, module, "lud_perimeter", sc_blocks_for(2 * rest, LUD_PERIMETER_BLOCK),
                     LUD_PERIMETER_BLOCK, args, 3, error) < 0)
        return -1;
    return sc_launch_kernel(device, module, "lud_internal", (sc_dim3){rest / LUD_INTERNAL_X, rest / LUD_INTERNAL_Y, 1},
                            (sc_dim3){LUD_INTERNAL_X, LUD_INTERNAL_Y, 1}, 0, args, 3, error);
}

static int lud_on_device(sc_device *device, float *a, uint32_t n, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "lud", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)n * n * sizeof *a;
    uint64_t a_dev = sc_workload_upload(device, a, bytes, error);
    if (a_dev == 0)
        return -1;
    for (uint32_t d = 0; d < n; d += LUD_BLOCK)
        if (lud_block_step(device, module, a_dev, n, d, error) < 0)
            return -1;
    return sc_memcpy_from_device(device, a, a_dev, bytes, error);
}

static int run_lud(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                   sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 32, 96, 192, 192);
    size_t cells = (size_t)n * n;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 11);
    float *a = sc_random_floats(&scratch, &rng, cells, -1.0f, 1.0f);
    for (uint32_t i = 0; i < n; i++)   /* diagonal dominance: stable without pivoting */
        a[i * n + i] += (float)n;
    float *expected = sc_scratch_alloc(&scratch, cells * sizeof *expected);
    for (size_t k = 0; k < cells; k++)
        expected[k] = a[k];
    int status = lud_on_device(device, a, n, error);
    if (status == 0) {
        lud_reference(expected, n);
        sc_compare_f32(check, "lu", a, expected, cells, 1e-4f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_lud = {
    .name = "lud",
    .description = "blocked LU decomposition: diagonal, perimeter and internal kernels per 16x16 block",
    .behaviour = "highest read-after-write rate, false sharing between CTAs",
    .run = run_lud,
};
