/* spmv.c — driver of the sparse matrix-vector workload: a few steps of x <- A x with A in CSR
 * form, ping-ponging two vectors, one row per thread. A is random (about 8 entries per row), or
 * the Matrix Market file named by the environment variable SYNCSCOPE_SPMV_MTX (a non-square
 * matrix gets one product).
 */
#include "workloads/workload_support.h"

#include <math.h>
#include <stdlib.h>

#define SPMV_BLOCK 128
#define SPMV_MTX_VARIABLE "SYNCSCOPE_SPMV_MTX"

/* Host reference of one product y = A x. */
static void spmv_reference(const sc_csr *a, const float *x, float *y)
{
    for (uint32_t r = 0; r < a->rows; r++) {
        float sum = 0.0f;
        for (uint32_t k = a->row_offsets[r]; k < a->row_offsets[r + 1]; k++)
            sum += a->values[k] * x[a->columns[k]];
        y[r] = sum;
    }
}

/* Runs `steps` products starting from x; the last product lands in `result` (a->rows floats). */
static int spmv_on_device(sc_device *device, const sc_csr *a, const float *x, int steps, float *result,
                          sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "spmv", error);
    if (module < 0)
        return -1;
    sc_device_csr a_dev;
    size_t longest = a->rows > a->cols ? a->rows : a->cols;
    uint64_t vectors[2] = {sc_workload_alloc(device, longest * sizeof(float), error),
                           sc_workload_alloc(device, longest * sizeof(float), error)};
    if (sc_csr_upload(device, a, &a_dev, error) < 0 || vectors[0] == 0 || vectors[1] == 0 ||
        sc_memcpy_to_device(device, vectors[0], x, a->cols * sizeof *x, error) < 0)
        return -1;
    for (int step = 0; step < steps; step++) {
        sc_kernel_arg args[] = {sc_arg_u32(a->rows), sc_arg_ptr(a_dev.row_offsets), sc_arg_ptr(a_dev.columns),
                                sc_arg_ptr(a_dev.values), sc_arg_ptr(vectors[step % 2]),
                                sc_arg_ptr(vectors[(step + 1) % 2])};
        if (sc_launch_1d(device, module, "spmv_csr", sc_blocks_for(a->rows, SPMV_BLOCK), SPMV_BLOCK, args, 6,
                         error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, result, vectors[steps % 2], a->rows * sizeof *result, error);
}

/* The matrix: from the file named in the environment, else random. */
static int spmv_matrix(sc_scratch *scratch, sc_rng *rng, sc_workload_size size, sc_csr *a, sc_error *error)
{
    const char *path = getenv(SPMV_MTX_VARIABLE);
    if (path && *path)
        return sc_csr_read_mtx(scratch, path, a, error);
    uint32_t rows = sc_size_pick(size, 512, 16384, 100000, 30000);
    sc_csr_random(scratch, rng, rows, rows, 8, -1.0f, 1.0f, a);
    return 0;
}

static int run_spmv(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                    sc_error *error)
{
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 4);
    sc_csr a;
    if (spmv_matrix(&scratch, &rng, params->size, &a, error) < 0) {
        sc_scratch_release(&scratch);
        return -1;
    }
    int steps = a.rows == a.cols ? (int)sc_size_pick(params->size, 3, 3, 3, 80) : 1;
    size_t longest = a.rows > a.cols ? a.rows : a.cols;
    float *x = sc_random_floats(&scratch, &rng, longest, -1.0f, 1.0f);
    float *result = sc_scratch_alloc(&scratch, a.rows * sizeof *result);
    int status = spmv_on_device(device, &a, x, steps, result, error);
    if (status == 0) {
        float *next = sc_scratch_alloc(&scratch, longest * sizeof *next);
        for (int step = 0; step < steps; step++) {
            spmv_reference(&a, x, next);
            float *swap = x;
            x = next;
            next = swap;
        }
        float largest = 1.0f;   /* the chain's error is measured against the vector's norm */
        for (uint32_t row = 0; row < a.rows; row++)
            largest = fmaxf(largest, fabsf(x[row]));
        sc_compare_f32_scaled(check, "y", result, x, a.rows, 1e-4f, largest);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_spmv = {
    .name = "spmv",
    .description = "CSR sparse matrix-vector product, 3 chained steps, 80 at size huge "
                   "(SYNCSCOPE_SPMV_MTX=file.mtx for a real matrix)",
    .behaviour = "irregular gathers, very high or very low L1 reuse",
    .run = run_spmv,
};
