/* stn.c — driver of the STN workload (Ren's Table 3.4: a stencil finite-difference solver
 * synchronised with fast barriers, after Xiao and Feng): one launch of stn_solve (stn.cu) runs
 * every Jacobi iteration of a 2-D heat-equation solve, the CTAs meeting at an inter-workgroup
 * barrier between iterations. The grid is small enough that every preset holds all its CTAs at
 * once (qr-apu has 8 CUs of 8 CTA slots each). The check compares the final grid with the same
 * iterations computed on the host.
 */
#include "workloads/workload_support.h"

#define STN_ALPHA 0.2f

/* One Jacobi iteration; mirrors stn.cu. */
static void stn_reference_step(const float *in, float *out, uint32_t rows, uint32_t cols)
{
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t i = r * cols + c;
            float centre = in[i];
            if (r == 0 || c == 0 || r + 1 == rows || c + 1 == cols)
                out[i] = centre;
            else
                out[i] = centre + STN_ALPHA * (in[i - cols] + in[i + cols] + in[i + 1] + in[i - 1] - 4.0f * centre);
        }
}

static int stn_on_device(sc_device *device, const float *initial, uint32_t rows, uint32_t cols, uint32_t iterations,
                         uint32_t ctas, uint32_t block, float *result, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "stn", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)rows * cols * sizeof(float);
    uint64_t grids[2] = {sc_workload_upload(device, initial, bytes, error), sc_workload_upload(device, initial, bytes, error)};
    uint64_t arrive = sc_workload_alloc(device, ctas * sizeof(uint32_t), error);
    uint64_t release = sc_workload_alloc(device, ctas * sizeof(uint32_t), error);
    if (!grids[0] || !grids[1] || !arrive || !release)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(grids[0]), sc_arg_ptr(grids[1]), sc_arg_u32(rows),    sc_arg_u32(cols),
                            sc_arg_u32(iterations), sc_arg_f32(STN_ALPHA), sc_arg_ptr(arrive), sc_arg_ptr(release)};
    if (sc_launch_1d(device, module, "stn_solve", ctas, block, args, 8, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, result, grids[iterations % 2], bytes, error);
}

static int run_stn(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t rows = sc_size_pick(params->size, 48, 192, 512, 1024);
    uint32_t cols = sc_size_pick(params->size, 64, 256, 512, 1024);
    uint32_t iterations = sc_size_pick(params->size, 6, 24, 48, 64);
    uint32_t ctas = sc_size_pick(params->size, 8, 16, 32, 64);
    uint32_t block = 128;
    size_t cells = (size_t)rows * cols;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 32);
    float *grid = sc_random_floats(&scratch, &rng, cells, 20.0f, 80.0f);
    for (uint32_t c = 0; c < cols; c++)
        grid[c] = 100.0f;   /* a hot top edge, held fixed */
    float *result = sc_scratch_alloc(&scratch, cells * sizeof *result);
    int status = stn_on_device(device, grid, rows, cols, iterations, ctas, block, result, error);
    if (status == 0) {
        float *next = sc_scratch_alloc(&scratch, cells * sizeof *next);
        for (uint32_t it = 0; it < iterations; it++) {
            stn_reference_step(grid, next, rows, cols);
            float *swap = grid;
            grid = next;
            next = swap;
        }
        sc_compare_f32(check, "temperature", result, grid, cells, 1e-5f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_stn = {
    .name = "stn",
    .description = "2-D Jacobi heat solver, all iterations in one launch behind a fenced lock-free grid barrier",
    .behaviour = "inter-workgroup: neighbouring bands exchange boundary rows through a fast barrier (Ren's STN)",
    .run = run_stn,
};
