// sr.cu — Ren's SR (Rodinia's SRAD): speckle reducing anisotropic diffusion of an ultrasound
// image J (rows x cols). One iteration is two launches; each CTA stages a SRAD_BLOCK x SRAD_BLOCK
// tile and its halo in shared memory and meets at a CTA barrier before computing. Neighbours
// outside the image are the nearest edge pixel.
//   srad_coefficients: the directional derivatives dN, dS, dW, dE of J, and the diffusion
//     coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1], where q^2 is
//     the instantaneous coefficient of variation (from the gradient and the Laplacian) and q0^2
//     the speckle scale the host measured on a region of interest.
//   srad_update: J += lambda / 4 * (c * dN + c_south * dS + c * dW + c_east * dE).
// Expects blockDim = (SRAD_BLOCK, SRAD_BLOCK) and rows, cols multiples of SRAD_BLOCK.

#define SRAD_BLOCK 16

extern "C" __global__ void srad_coefficients(const float *image, float *coefficient, float *d_north, float *d_south,
                                             float *d_west, float *d_east, unsigned rows, unsigned cols, float q0sqr)
{
    __shared__ float tile[SRAD_BLOCK + 2][SRAD_BLOCK + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * SRAD_BLOCK + ty, c = blockIdx.x * SRAD_BLOCK + tx;
    int i = r * cols + c;
    tile[ty + 1][tx + 1] = image[i];
    if (ty == 0)
        tile[0][tx + 1] = image[max(r - 1, 0) * cols + c];
    if (ty == SRAD_BLOCK - 1)
        tile[SRAD_BLOCK + 1][tx + 1] = image[min(r + 1, (int)rows - 1) * cols + c];
    if (tx == 0)
        tile[ty + 1][0] = image[r * cols + max(c - 1, 0)];
    if (tx == SRAD_BLOCK - 1)
        tile[ty + 1][SRAD_BLOCK + 1] = image[r * cols + min(c + 1, (int)cols - 1)];
    __syncthreads();
    float centre = tile[ty + 1][tx + 1];
    float north = tile[ty][tx + 1] - centre, south = tile[ty + 2][tx + 1] - centre;
    float west = tile[ty + 1][tx] - centre, east = tile[ty + 1][tx + 2] - centre;
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

extern "C" __global__ void srad_update(float *image, const float *coefficient, const float *d_north,
                                       const float *d_south, const float *d_west, const float *d_east, unsigned rows,
                                       unsigned cols, float lambda)
{
    __shared__ float tile[SRAD_BLOCK + 1][SRAD_BLOCK + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * SRAD_BLOCK + ty, c = blockIdx.x * SRAD_BLOCK + tx;
    int i = r * cols + c;
    tile[ty][tx] = coefficient[i];
    if (ty == SRAD_BLOCK - 1)
        tile[SRAD_BLOCK][tx] = coefficient[min(r + 1, (int)rows - 1) * cols + c];
    if (tx == SRAD_BLOCK - 1)
        tile[ty][SRAD_BLOCK] = coefficient[r * cols + min(c + 1, (int)cols - 1)];
    __syncthreads();
    float own = tile[ty][tx];
    float divergence = own * d_north[i] + tile[ty + 1][tx] * d_south[i] + own * d_west[i] + tile[ty][tx + 1] * d_east[i];
    image[i] = image[i] + 0.25f * lambda * divergence;
}
