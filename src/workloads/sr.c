/* sr.c — driver of the SR workload (Ren's Table 3.4: Rodinia's SRAD, speckle reducing
 * anisotropic diffusion of an ultrasound image). The image is exp(noise) with noise uniform in
 * [0, 1), as Rodinia's input preparation makes it. Each iteration the host reads the image back,
 * measures the speckle scale q0^2 = variance / mean^2 on the region of interest (the top-left
 * quarter), then launches srad_coefficients and srad_update (sr.cu). The check compares the
 * final image with the same iterations computed on the host.
 */
#include "workloads/workload_support.h"

#include <math.h>

#define SRAD_BLOCK 16   /* must match sr.cu */
#define SRAD_LAMBDA 0.5f

/* q0^2 of the region of interest (rows [0, rows/4), columns [0, cols/4)). */
static float srad_speckle_scale(const float *image, uint32_t rows, uint32_t cols)
{
    double sum = 0.0, sum2 = 0.0;
    uint32_t roi_rows = rows / 4, roi_cols = cols / 4;
    for (uint32_t r = 0; r < roi_rows; r++)
        for (uint32_t c = 0; c < roi_cols; c++) {
            double v = image[r * cols + c];
            sum += v;
            sum2 += v * v;
        }
    double size = (double)roi_rows * roi_cols, mean = sum / size, variance = sum2 / size - mean * mean;
    return (float)(variance / (mean * mean));
}

/* One iteration on the host; mirrors sr.cu's two kernels. */
static void srad_reference_step(float *image, float *coefficient, float *derivatives, uint32_t rows, uint32_t cols,
                                float q0sqr)
{
    size_t cells = (size_t)rows * cols;
    float *d_north = derivatives, *d_south = derivatives + cells, *d_west = derivatives + 2 * cells,
          *d_east = derivatives + 3 * cells;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            size_t i = (size_t)r * cols + c;
            float centre = image[i];
            float north = image[(r > 0 ? r - 1 : 0) * cols + c] - centre;
            float south = image[(r + 1 < rows ? r + 1 : r) * cols + c] - centre;
            float west = image[r * cols + (c > 0 ? c - 1 : 0)] - centre;
            float east = image[r * cols + (c + 1 < cols ? c + 1 : c)] - centre;
            float gradient2 = (north * north + south * south + west * west + east * east) / (centre * centre);
            float laplacian = (north + south + west + east) / centre;
            float numerator = 0.5f * gradient2 - 0.0625f * laplacian * laplacian;
            float denominator = 1.0f + 0.25f * laplacian;
            float qsqr = numerator / (denominator * denominator);
            denominator = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            float diffusion = 1.0f / (1.0f + denominator);
            coefficient[i] = diffusion < 0.0f ? 0.0f : diffusion > 1.0f ? 1.0f : diffusion;
            d_north[i] = north;
            d_south[i] = south;
            d_west[i] = west;
            d_east[i] = east;
        }
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            size_t i = (size_t)r * cols + c;
            float own = coefficient[i];
            float south = coefficient[(r + 1 < rows ? r + 1 : r) * cols + c];
            float east = coefficient[r * cols + (c + 1 < cols ? c + 1 : c)];
            float divergence = own * d_north[i] + south * d_south[i] + own * d_west[i] + east * d_east[i];
            image[i] = image[i] + 0.25f * SRAD_LAMBDA * divergence;
        }
}

static int srad_on_device(sc_device *device, float *image, uint32_t rows, uint32_t cols, uint32_t iterations,
                          sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "sr", error);
    if (module < 0)
        return -1;
    size_t bytes = (size_t)rows * cols * sizeof(float);
    uint64_t image_dev = sc_workload_upload(device, image, bytes, error);
    uint64_t buffers[5];   /* coefficient, dN, dS, dW, dE */
    for (int b = 0; b < 5; b++)
        if ((buffers[b] = sc_workload_alloc(device, bytes, error)) == 0)
            return -1;
    if (!image_dev)
        return -1;
    sc_dim3 grid = {cols / SRAD_BLOCK, rows / SRAD_BLOCK, 1}, block = {SRAD_BLOCK, SRAD_BLOCK, 1};
    for (uint32_t it = 0; it < iterations; it++) {
        if (it > 0 && sc_memcpy_from_device(device, image, image_dev, bytes, error) < 0)
            return -1;
        float q0sqr = srad_speckle_scale(image, rows, cols);
        sc_kernel_arg first[] = {sc_arg_ptr(image_dev),  sc_arg_ptr(buffers[0]), sc_arg_ptr(buffers[1]),
                                 sc_arg_ptr(buffers[2]), sc_arg_ptr(buffers[3]), sc_arg_ptr(buffers[4]),
                                 sc_arg_u32(rows),       sc_arg_u32(cols),       sc_arg_f32(q0sqr)};
        sc_kernel_arg second[] = {sc_arg_ptr(image_dev),  sc_arg_ptr(buffers[0]), sc_arg_ptr(buffers[1]),
                                  sc_arg_ptr(buffers[2]), sc_arg_ptr(buffers[3]), sc_arg_ptr(buffers[4]),
                                  sc_arg_u32(rows),       sc_arg_u32(cols),       sc_arg_f32(SRAD_LAMBDA)};
        if (sc_launch_kernel(device, module, "srad_coefficients", grid, block, 0, first, 9, error) < 0 ||
            sc_launch_kernel(device, module, "srad_update", grid, block, 0, second, 9, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, image, image_dev, bytes, error);
}

static int run_srad(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t rows = sc_size_pick(params->size, 32, 128, 512, 2048);
    uint32_t cols = sc_size_pick(params->size, 64, 128, 512, 2048);
    uint32_t iterations = sc_size_pick(params->size, 2, 4, 4, 2);
    size_t cells = (size_t)rows * cols;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 34);
    float *expected = sc_random_floats(&scratch, &rng, cells, 0.0f, 1.0f);
    for (size_t i = 0; i < cells; i++)
        expected[i] = expf(expected[i]);
    float *image = sc_scratch_alloc(&scratch, cells * sizeof *image);
    for (size_t i = 0; i < cells; i++)
        image[i] = expected[i];
    int status = srad_on_device(device, image, rows, cols, iterations, error);
    if (status == 0) {
        float *coefficient = sc_scratch_alloc(&scratch, cells * sizeof *coefficient);
        float *derivatives = sc_scratch_alloc(&scratch, 4 * cells * sizeof *derivatives);
        for (uint32_t it = 0; it < iterations; it++)
            srad_reference_step(expected, coefficient, derivatives, rows, cols,
                                srad_speckle_scale(expected, rows, cols));
        sc_compare_f32(check, "image", image, expected, cells, 1e-4f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_sr = {
    .name = "sr",
    .description = "Rodinia SRAD: speckle reducing anisotropic diffusion, two shared-memory tiled kernels per iteration",
    .behaviour = "intra-workgroup: halo tiles in shared memory with CTA barriers; host reads the image each iteration",
    .run = run_srad,
};
