/* lps.c — driver of the LPS workload (Ren's Table 3.4: the GPGPU-Sim suite's 3-D Laplace
 * solver): Jacobi iterations of Laplace's equation on a 3-D grid whose boundary is held at
 * 1 on the top face (k = nz - 1) and 0 elsewhere, the interior starting at random values; one
 * launch of lps_step (lps.cu) per iteration, ping-ponging two grids. The check compares the final
 * grid with the same iterations computed on the host.
 */
#include "workloads/workload_support.h"

#define LPS_BX 32   /* must match lps.cu */
#define LPS_BY 4

/* One Jacobi iteration; mirrors lps.cu (same summation order). */
static void lps_reference_step(const float *u1, float *u2, uint32_t nx, uint32_t ny, uint32_t nz)
{
    size_t plane = (size_t)nx * ny;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++) {
                size_t p = k * plane + (size_t)j * nx + i;
                if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1)
                    u2[p] = u1[p];
                else
                    u2[p] = (u1[p - 1] + u1[p + 1] + u1[p - nx] + u1[p + nx] + u1[p - plane] + u1[p + plane]) *
                            (1.0f / 6.0f);
            }
}

static int lps_on_device(sc_device *device, const float *initial, uint32_t nx, uint32_t ny, uint32_t nz,
                         uint32_t iterations, float *result, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "lps", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)nx * ny * nz * sizeof(float);
    uint64_t grids[2] = {sc_workload_upload(device, initial, bytes, error), sc_workload_alloc(device, bytes, error)};
    if (!grids[0] || !grids[1])
        return -1;
    sc_dim3 grid = {sc_blocks_for(nx, LPS_BX), sc_blocks_for(ny, LPS_BY), 1}, block = {LPS_BX, LPS_BY, 1};
    for (uint32_t it = 0; it < iterations; it++) {
        sc_kernel_arg args[] = {sc_arg_ptr(grids[it % 2]), sc_arg_ptr(grids[(it + 1) % 2]), sc_arg_u32(nx), sc_arg_u32(ny),
                                sc_arg_u32(nz)};
        if (sc_launch_kernel(device, module, "lps_step", grid, block, 0, args, 5, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, result, grids[iterations % 2], bytes, error);
}

static int run_lps(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t nx = sc_size_pick(params->size, 32, 64, 128, 256);
    uint32_t ny = sc_size_pick(params->size, 16, 64, 128, 256);
    uint32_t nz = sc_size_pick(params->size, 8, 32, 64, 128);
    uint32_t iterations = sc_size_pick(params->size, 3, 4, 4, 4);
    size_t points = (size_t)nx * ny * nz, plane = (size_t)nx * ny;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 35);
    float *grid = sc_random_floats(&scratch, &rng, points, 0.0f, 1.0f);
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++)
                if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1)
                    grid[k * plane + (size_t)j * nx + i] = k == nz - 1 ? 1.0f : 0.0f;
    float *result = sc_scratch_alloc(&scratch, points * sizeof *result);
    int status = lps_on_device(device, grid, nx, ny, nz, iterations, result, error);
    if (status == 0) {
        float *next = sc_scratch_alloc(&scratch, points * sizeof *next);
        for (uint32_t it = 0; it < iterations; it++) {
            lps_reference_step(grid, next, nx, ny, nz);
            float *swap = grid;
            grid = next;
            next = swap;
        }
        sc_compare_f32(check, "u", result, grid, points, 1e-5f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_lps = {
    .name = "lps",
    .description = "3-D Laplace solver (GPGPU-Sim suite): Jacobi iterations, plane tiles in shared memory",
    .behaviour = "intra-workgroup: per-plane halo tiles shared through CTA barriers, streaming up the z axis",
    .run = run_lps,
};
