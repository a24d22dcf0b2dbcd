// lud.cu — blocked right-looking LU decomposition (no pivoting) of an n x n row-major matrix in
// place, n a multiple of LUD_BLOCK. For each diagonal block d the host launches three kernels:
//   lud_diagonal:  one CTA factors the diagonal block in global memory, column by column; each
//                  step reads what the previous step wrote (read-after-write inside a kernel,
//                  ordered by __syncthreads).
//   lud_perimeter: one thread per column right of the block solves for U's row panel, and one
//                  thread per row below it solves for L's column panel.
//   lud_internal:  the trailing update A -= L U. Its CTAs are LUD_INTERNAL_X columns wide, so
//                  neighbouring CTAs write neighbouring words of the same cache lines (false
//                  sharing).

#define LUD_BLOCK 16
#define LUD_INTERNAL_X 8
#define LUD_INTERNAL_Y 16

extern "C" __global__ void lud_diagonal(float *a, unsigned n, unsigned d)
{
    unsigned t = threadIdx.x;   // row d + t of the block; blockDim.x == LUD_BLOCK
    float *block = a + d * n + d;
    for (unsigned k = 0; k < LUD_BLOCK - 1; k++) {
        if (t > k)
            block[t * n + k] /= block[k * n + k];
        __syncthreads();
        if (t > k)
            for (unsigned j = k + 1; j < LUD_BLOCK; j++)
                block[t * n + j] -= block[t * n + k] * block[k * n + j];
        __syncthreads();
    }
}

extern "C" __global__ void lud_perimeter(float *a, unsigned n, unsigned d)
{
    unsigned rest = n - d - LUD_BLOCK;
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const float *diagonal = a + d * n + d;
    if (t < rest) {
        // Column j of U's row panel: forward substitution with the unit-lower L of the block.
        float *column = a + d * n + d + LUD_BLOCK + t;
        for (unsigned i = 1; i < LUD_BLOCK; i++)
            for (unsigned m = 0; m < i; m++)
                column[i * n] -= diagonal[i * n + m] * column[m * n];
    } else if (t < 2 * rest) {
        // Row i of L's column panel: solve x U = row with the upper U of the block.
        float *row = a + (d + LUD_BLOCK + t - rest) * n + d;
        for (unsigned j = 0; j < LUD_BLOCK; j++) {
            for (unsigned m = 0; m < j; m++)
                row[j] -= row[m] * diagonal[m * n + j];
            row[j] /= diagonal[j * n + j];
        }
    }
}

extern "C" __global__ void lud_internal(float *a, unsigned n, unsigned d)
{
    unsigned first = d + LUD_BLOCK;
    unsigned col = first + blockIdx.x * LUD_INTERNAL_X + threadIdx.x;
    unsigned row = first + blockIdx.y * LUD_INTERNAL_Y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (unsigned m = 0; m < LUD_BLOCK; m++)
        sum += a[row * n + d + m] * a[(d + m) * n + col];
    a[row * n + col] -= sum;
}
