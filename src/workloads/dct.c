/* dct.c — driver of the AMD APP SDK style 8x8 DCT workload: the host writes an image and the DCT
 * matrix, the dct8x8 kernel transforms every 8x8 block (forward), a second launch of the same
 * kernel transforms the coefficients back (inverse) — the next kernel reading what the last one
 * wrote — and the host reads the coefficients and the reconstructed image.
 *
 * The check recomputes both transforms on the host in the kernel's order of operations (each
 * pass a chain of fused multiply-adds over k = 0..7, as nvcc emits it) and compares the
 * coefficients and the reconstruction with them; it also checks that the reconstruction is the
 * original image, so a wrong reference cannot pass unnoticed.
 */
#include <math.h>

#include "workloads/workload_support.h"

#define DCT_SIZE 8   /* block edge: CTAs are DCT_SIZE x DCT_SIZE threads (dct.cu) */

/* The orthonormal DCT-II matrix: D[u][x] = a(u) cos((2x + 1) u pi / 16), a(0) = sqrt(1/8),
 * a(u > 0) = sqrt(2/8). */
static void dct_matrix(float matrix[DCT_SIZE * DCT_SIZE])
{
    const double pi = 3.14159265358979323846;
    for (int u = 0; u < DCT_SIZE; u++)
        for (int x = 0; x < DCT_SIZE; x++) {
            double scale = sqrt((u == 0 ? 1.0 : 2.0) / DCT_SIZE);
            matrix[u * DCT_SIZE + x] = (float)(scale * cos((2 * x + 1) * u * pi / (2 * DCT_SIZE)));
        }
}

/* One launch of dct8x8 on the host: the image `input` (width x width) into `output`. */
static void reference_dct(const float *input, float *output, const float *matrix, uint32_t width, bool inverse)
{
    for (uint32_t by = 0; by < width / DCT_SIZE; by++)
        for (uint32_t bx = 0; bx < width / DCT_SIZE; bx++) {
            const float *block = input + (size_t)by * DCT_SIZE * width + bx * DCT_SIZE;
            float inter[DCT_SIZE][DCT_SIZE];
            for (int j = 0; j < DCT_SIZE; j++)
                for (int i = 0; i < DCT_SIZE; i++) {
                    float acc = 0.0f;
                    for (int k = 0; k < DCT_SIZE; k++) {
                        float m = inverse ? matrix[k * DCT_SIZE + i] : matrix[i * DCT_SIZE + k];
                        acc = fmaf(m, block[(size_t)j * width + (uint32_t)k], acc);
                    }
                    inter[j][i] = acc;
                }
            for (int j = 0; j < DCT_SIZE; j++)
                for (int i = 0; i < DCT_SIZE; i++) {
                    float acc = 0.0f;
                    for (int k = 0; k < DCT_SIZE; k++) {
                        float m = inverse ? matrix[k * DCT_SIZE + j] : matrix[j * DCT_SIZE + k];
                        acc = fmaf(m, inter[k][i], acc);
                    }
                    output[((size_t)by * DCT_SIZE + (uint32_t)j) * width + bx * DCT_SIZE + (uint32_t)i] = acc;
                }
        }
}

/* The forward and the inverse transform on the device. */
static int dct_on_device(sc_device *device, const float *image, const float *matrix, uint32_t width,
                         float *coefficients, float *reconstruction, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "dct", error);
    if (module < 0)
        return -1;
    size_t image_bytes = (size_t)width * width * sizeof(float);
    uint64_t image_dev = sc_workload_upload(device, image, image_bytes, error);
    uint64_t matrix_dev = sc_workload_upload(device, matrix, DCT_SIZE * DCT_SIZE * sizeof(float), error);
    uint64_t coefficients_dev = sc_workload_alloc(device, image_bytes, error);
    uint64_t reconstruction_dev = sc_workload_alloc(device, image_bytes, error);
    if (image_dev == 0 || matrix_dev == 0 || coefficients_dev == 0 || reconstruction_dev == 0)
        return -1;
    sc_dim3 grid = {width / DCT_SIZE, width / DCT_SIZE, 1}, block = {DCT_SIZE, DCT_SIZE, 1};
    sc_kernel_arg forward[] = {sc_arg_ptr(coefficients_dev), sc_arg_ptr(image_dev), sc_arg_ptr(matrix_dev),
                               sc_arg_u32(width), sc_arg_u32(0)};
    sc_kernel_arg inverse[] = {sc_arg_ptr(reconstruction_dev), sc_arg_ptr(coefficients_dev), sc_arg_ptr(matrix_dev),
                               sc_arg_u32(width), sc_arg_u32(1)};
    if (sc_launch_kernel(device, module, "dct8x8", grid, block, 0, forward, 5, error) < 0 ||
        sc_launch_kernel(device, module, "dct8x8", grid, block, 0, inverse, 5, error) < 0 ||
        sc_memcpy_from_device(device, coefficients, coefficients_dev, image_bytes, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, reconstruction, reconstruction_dev, image_bytes, error);
}

static int run_dct(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t width = sc_size_pick(params->size, 64, 256, 1024, 2048);
    size_t pixels = (size_t)width * width;
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 18);
    float *image = sc_random_floats(&scratch, &rng, pixels, 0.0f, 255.0f);
    float matrix[DCT_SIZE * DCT_SIZE];
    dct_matrix(matrix);
    float *coefficients = sc_scratch_alloc(&scratch, pixels * sizeof(float));
    float *reconstruction = sc_scratch_alloc(&scratch, pixels * sizeof(float));
    int status = dct_on_device(device, image, matrix, width, coefficients, reconstruction, error);
    if (status == 0) {
        float *expected_coefficients = sc_scratch_alloc(&scratch, pixels * sizeof(float));
        float *expected_reconstruction = sc_scratch_alloc(&scratch, pixels * sizeof(float));
        reference_dct(image, expected_coefficients, matrix, width, false);
        reference_dct(expected_coefficients, expected_reconstruction, matrix, width, true);
        if (sc_compare_f32(check, "coefficients", coefficients, expected_coefficients, pixels, 1e-6f) &&
            sc_compare_f32(check, "reconstruction", reconstruction, expected_reconstruction, pixels, 1e-6f))
            sc_compare_f32(check, "reconstruction vs image", reconstruction, image, pixels, 1e-4f);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_dct = {
    .name = "dct",
    .description = "AMD SDK style 8x8 DCT of an image (one CTA per block), then the inverse DCT of the coefficients",
    .behaviour = "intermediate re-use: DCT matrix and block rows re-read from L1, next kernel reads the last one's output",
    .run = run_dct,
};
