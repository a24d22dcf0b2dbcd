/* hsp.c — driver of the HSP workload (Ren's Table 3.4: Rodinia's hotspot): a transient thermal
 * simulation of a 16 mm x 16 mm chip on a rows x cols grid. Each launch of hsp_step (hsp.cu)
 * advances the temperatures by up to HSP_PYRAMID time steps in shared memory; the host
 * ping-pongs two temperature grids until every step is done. The chip's thermal constants are
 * Rodinia's (chip 0.5 mm thick, silicon heat capacity 1.75e6 J/m^3K and conductivity 100 W/mK,
 * capacitance scaling 0.5, maximum power density 3e6 W/m^2, precision 0.001, ambient 80 C); the
 * time step follows from them. The check compares the final temperatures with the same steps
 * computed cell by cell on the host over the whole grid (the pyramid's redundant halo work gives
 * the same values).
 */
#include "workloads/workload_support.h"

#define HSP_PYRAMID 2   /* must match hsp.cu */
#define HSP_TILE_X 32
#define HSP_TILE_Y 8

/* The constants of the cell update, derived from the chip as in Rodinia. */
typedef struct hsp_constants {
    float step_div_cap, rx1, ry1, rz1, ambient;
} hsp_constants;

static hsp_constants hsp_chip(uint32_t rows, uint32_t cols)
{
    const double chip_height = 0.016, chip_width = 0.016, thickness = 0.0005, factor_chip = 0.5;
    const double specific_heat = 1.75e6, conductivity = 100.0, max_power_density = 3.0e6, precision = 0.001;
    double grid_height = chip_height / rows, grid_width = chip_width / cols;
    double cap = factor_chip * specific_heat * thickness * grid_width * grid_height;
    double rx = grid_width / (2.0 * conductivity * thickness * grid_height);
    double ry = grid_height / (2.0 * conductivity * thickness * grid_width);
    double rz = thickness / (conductivity * grid_height * grid_width);
    double max_slope = max_power_density / (factor_chip * thickness * specific_heat);
    double step = precision / max_slope;
    return (hsp_constants){(float)(step / cap), (float)(1.0 / rx), (float)(1.0 / ry), (float)(1.0 / rz), 80.0f};
}

/* One time step over the whole grid; mirrors hsp.cu's cell update. */
static void hsp_reference_step(const float *power, const float *in, float *out, uint32_t rows, uint32_t cols,
                               hsp_constants k)
{
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t i = r * cols + c;
            float t = in[i];
            float north = r == 0 ? t : in[i - cols];
            float south = r == rows - 1 ? t : in[i + cols];
            float west = c == 0 ? t : in[i - 1];
            float east = c == cols - 1 ? t : in[i + 1];
            out[i] = t + k.step_div_cap * (power[i] + (north + south - 2.0f * t) * k.ry1 +
                                          (east + west - 2.0f * t) * k.rx1 + (k.ambient - t) * k.rz1);
        }
}

static int hsp_on_device(sc_device *device, const float *power, const float *temperature, uint32_t rows,
                         uint32_t cols, uint32_t steps, hsp_constants k, float *result, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "hsp", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)rows * cols * sizeof(float);
    uint64_t power_dev = sc_workload_upload(device, power, bytes, error);
    uint64_t grids[2] = {sc_workload_upload(device, temperature, bytes, error), sc_workload_alloc(device, bytes, error)};
    if (!power_dev || !grids[0] || !grids[1])
        return -1;
    sc_dim3 grid = {sc_blocks_for(cols, HSP_TILE_X), sc_blocks_for(rows, HSP_TILE_Y), 1};
    sc_dim3 block = {HSP_TILE_X + 2 * HSP_PYRAMID, HSP_TILE_Y + 2 * HSP_PYRAMID, 1};
    unsigned launch = 0;
    for (uint32_t done = 0; done < steps; launch++) {
        uint32_t now = steps - done < HSP_PYRAMID ? steps - done : HSP_PYRAMID;
        sc_kernel_arg args[] = {sc_arg_ptr(power_dev),     sc_arg_ptr(grids[launch % 2]), sc_arg_ptr(grids[(launch + 1) % 2]),
                                sc_arg_u32(rows),          sc_arg_u32(cols),              sc_arg_u32(now),
                                sc_arg_f32(k.step_div_cap), sc_arg_f32(k.rx1),            sc_arg_f32(k.ry1),
                                sc_arg_f32(k.rz1),         sc_arg_f32(k.ambient)};
        if (sc_launch_kernel(device, module, "hsp_step", grid, block, 0, args, 11, error) < 0)
            return -1;
        done += now;
    }
    return sc_memcpy_from_device(device, result, grids[launch % 2], bytes, error);
}

static int run_hsp(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t rows = sc_size_pick(params->size, 32, 256, 512, 1024);
    uint32_t cols = sc_size_pick(params->size, 64, 256, 512, 1024);
    uint32_t steps = sc_size_pick(params->size, 4, 8, 8, 8);
    size_t cells = (size_t)rows * cols;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 33);
    float *temperature = sc_random_floats(&scratch, &rng, cells, 323.0f, 343.0f);
    float *power = sc_random_floats(&scratch, &rng, cells, 0.0f, 0.5f);
    hsp_constants k = hsp_chip(rows, cols);
    float *result = sc_scratch_alloc(&scratch, cells * sizeof *result);
    int status = hsp_on_device(device, power, temperature, rows, cols, steps, k, result, error);
    if (status == 0) {
        float *next = sc_scratch_alloc(&scratch, cells * sizeof *next);
        for (uint32_t s = 0; s < steps; s++) {
            hsp_reference_step(power, temperature, next, rows, cols, k);
            float *swap = temperature;
            temperature = next;
            next = swap;
        }
        sc_compare_f32(check, "temperature", result, temperature, cells, 1e-6f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_hsp = {
    .name = "hsp",
    .description = "Rodinia hotspot: thermal simulation, two time steps per launch in shared memory (pyramid)",
    .behaviour = "intra-workgroup: shared-memory tiles with CTA barriers, one 128 B block per output tile row",
    .run = run_hsp,
};
