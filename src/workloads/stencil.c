/* stencil.c — driver of the hotspot-like stencil workload: several time steps of a 2-D 5-point
 * stencil on a temperature grid with a constant power map, ping-ponging two device buffers so
 * each launch reads what the previous one wrote.
 */
#include "workloads/workload_support.h"

#define STENCIL_BLOCK_X 16
#define STENCIL_BLOCK_Y 16
#define STENCIL_STEP 0.1f
#define STENCIL_K 0.2f

/* Host reference of one time step; mirrors stencil.cu. */
static void stencil_reference(const float *in, const float *power, float *out, uint32_t rows, uint32_t cols)
{
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t i = r * cols + c;
            float centre = in[i];
            float north = r > 0 ? in[i - cols] : centre;
            float south = r + 1 < rows ? in[i + cols] : centre;
            float west = c > 0 ? in[i - 1] : centre;
            float east = c + 1 < cols ? in[i + 1] : centre;
            out[i] = centre + STENCIL_STEP * (power[i] + STENCIL_K * (north + south + east + west - 4.0f * centre));
        }
}

static int stencil_on_device(sc_device *device, const float *temperature, const float *power, uint32_t rows,
                             uint32_t cols, int steps, float *result, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "stencil", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)rows * cols * sizeof(float);
    uint64_t grids[2] = {sc_workload_upload(device, temperature, bytes, error), sc_workload_alloc(device, bytes, error)};
    uint64_t power_dev = sc_workload_upload(device, power, bytes, error);
    if (grids[0] == 0 || grids[1] == 0 || power_dev == 0)
        return -1;
    sc_dim3 grid = {sc_blocks_for(cols, STENCIL_BLOCK_X), sc_blocks_for(rows, STENCIL_BLOCK_Y), 1};
    sc_dim3 block = {STENCIL_BLOCK_X, STENCIL_BLOCK_Y, 1};
    for (int step = 0; step < steps; step++) {
        sc_kernel_arg args[] = {sc_arg_ptr(grids[step % 2]), sc_arg_ptr(power_dev), sc_arg_ptr(grids[(step + 1) % 2]),
                                sc_arg_u32(rows), sc_arg_u32(cols), sc_arg_f32(STENCIL_STEP), sc_arg_f32(STENCIL_K)};
        if (sc_launch_kernel(device, module, "stencil_step", grid, block, 0, args, 7, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, result, grids[steps % 2], bytes, error);
}

static int run_stencil(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                       sc_error *error)
{
    uint32_t rows = sc_size_pick(params->size, 40, 128, 384, 2048);
    uint32_t cols = sc_size_pick(params->size, 36, 128, 384, 2048);
    int steps = (int)sc_size_pick(params->size, 4, 8, 4, 4);
    size_t cells = (size_t)rows * cols;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 6);
    float *temperature = sc_random_floats(&scratch, &rng, cells, 20.0f, 80.0f);
    float *power = sc_random_floats(&scratch, &rng, cells, 0.0f, 1.0f);
    float *result = sc_scratch_alloc(&scratch, cells * sizeof *result);
    int status = stencil_on_device(device, temperature, power, rows, cols, steps, result, error);
    if (status == 0) {
        float *next = sc_scratch_alloc(&scratch, cells * sizeof *next);
        for (int step = 0; step < steps; step++) {
            stencil_reference(temperature, power, next, rows, cols);
            float *swap = temperature;
            temperature = next;
            next = swap;
        }
        sc_compare_f32(check, "temperature", result, temperature, cells, 1e-5f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_stencil = {
    .name = "stencil",
    .description = "hotspot-like 2-D 5-point stencil, several time steps ping-ponging two grids",
    .behaviour = "neighbour reuse within a kernel, producer-consumer between launches",
    .run = run_stencil,
};
