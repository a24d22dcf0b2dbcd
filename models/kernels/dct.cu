// dct.cu — the AMD APP SDK's 8x8 discrete cosine transform of an image, one CTA of 8x8 threads
// per 8x8 block. With D the 8x8 DCT matrix and X a block, the forward transform is D X D^T and
// the inverse D^T X D; `inverse` picks which, by reading D transposed.
//   pass 1: thread (i, j) = (threadIdx.x, threadIdx.y) computes inter[j][i] = sum_k X[j][k] M[i][k]
//           (M = D forward, D^T inverse), reading the block straight from global memory as the
//           SDK kernel does, so each input element is read by the 8 threads of its row;
//   pass 2: after a barrier, out[j][i] = sum_k M[j][k] inter[k][i], written to the same place
//           of the output image. Every thread reads the whole matrix: the L1 re-use.

#define DCT_SIZE 8

extern "C" __global__ void dct8x8(float *output, const float *input, const float *dct_matrix, unsigned width,
                                  unsigned inverse)
{
    __shared__ float inter[DCT_SIZE * DCT_SIZE];
    unsigned i = threadIdx.x, j = threadIdx.y;
    const float *block = input + blockIdx.y * DCT_SIZE * width + blockIdx.x * DCT_SIZE;
    float acc = 0.0f;
    for (unsigned k = 0; k < DCT_SIZE; k++) {
        float m = inverse ? dct_matrix[k * DCT_SIZE + i] : dct_matrix[i * DCT_SIZE + k];
        acc += block[j * width + k] * m;
    }
    inter[j * DCT_SIZE + i] = acc;
    __syncthreads();
    acc = 0.0f;
    for (unsigned k = 0; k < DCT_SIZE; k++) {
        float m = inverse ? dct_matrix[k * DCT_SIZE + j] : dct_matrix[j * DCT_SIZE + k];
        acc += m * inter[k * DCT_SIZE + i];
    }
    output[(blockIdx.y * DCT_SIZE + j) * width + blockIdx.x * DCT_SIZE + i] = acc;
}
