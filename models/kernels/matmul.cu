// matmul.cu — C = A B for n x n row-major matrices (n a multiple of MATMUL_TILE), tiled through
// shared memory: each CTA computes one tile of C, loading one tile of A and one of B per step
// with a barrier before and after the tiles are used.

#define MATMUL_TILE 16

extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, unsigned n)
{
    __shared__ float tile_a[MATMUL_TILE][MATMUL_TILE];
    __shared__ float tile_b[MATMUL_TILE][MATMUL_TILE];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * MATMUL_TILE + ty, col = blockIdx.x * MATMUL_TILE + tx;
    float sum = 0.0f;
    for (unsigned t = 0; t < n; t += MATMUL_TILE) {
        tile_a[ty][tx] = a[row * n + t + tx];
        tile_b[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (unsigned k = 0; k < MATMUL_TILE; k++)
            sum += tile_a[ty][k] * tile_b[k][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}
