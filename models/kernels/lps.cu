// lps.cu — Ren's LPS (the GPGPU-Sim suite's 3-D Laplace solver): one Jacobi iteration of
// Laplace's equation on an nx x ny x nz grid with fixed boundary values:
//   u2 = (u1 west + east + south + north + below + above) / 6   (interior points)
//   u2 = u1                                                       (boundary points)
// Each thread owns one (i, j) column and marches up through the planes. Per plane the CTA stages
// its LPS_BX x LPS_BY tile of the plane and a one-point halo in shared memory and meets at a CTA
// barrier; a thread keeps the points below and above its own in registers.
// Expects blockDim = (LPS_BX, LPS_BY).

#define LPS_BX 32
#define LPS_BY 4

extern "C" __global__ void lps_step(const float *u1, float *u2, unsigned nx, unsigned ny, unsigned nz)
{
    __shared__ float tile[LPS_BY + 2][LPS_BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.x * LPS_BX + tx, j = blockIdx.y * LPS_BY + ty;
    bool active = i < (int)nx && j < (int)ny;
    size_t plane = (size_t)nx * ny, column = (size_t)j * nx + i;
    int west = max(i - 1, 0), east = min(i + 1, (int)nx - 1), south = max(j - 1, 0), north = min(j + 1, (int)ny - 1);
    float below = 0.0f, centre = 0.0f, above = 0.0f;
    if (active) {
        centre = u1[column];
        if (nz > 1)
            above = u1[plane + column];
    }
    for (unsigned k = 0; k < nz; k++) {
        size_t base = k * plane;
        if (active) {
            tile[ty + 1][tx + 1] = centre;
            if (tx == 0)
                tile[ty + 1][0] = u1[base + (size_t)j * nx + west];
            if (tx == LPS_BX - 1 || i == (int)nx - 1)
                tile[ty + 1][tx + 2] = u1[base + (size_t)j * nx + east];
            if (ty == 0)
                tile[0][tx + 1] = u1[base + (size_t)south * nx + i];
            if (ty == LPS_BY - 1 || j == (int)ny - 1)
                tile[ty + 2][tx + 1] = u1[base + (size_t)north * nx + i];
        }
        __syncthreads();
        if (active) {
            if (i == 0 || j == 0 || k == 0 || i == (int)nx - 1 || j == (int)ny - 1 || k == nz - 1)
                u2[base + column] = centre;
            else
                u2[base + column] = (tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] +
                                     below + above) * (1.0f / 6.0f);
            below = centre;
            centre = above;
            above = k + 2 < nz ? u1[base + 2 * plane + column] : 0.0f;
        }
        __syncthreads();
    }
}
