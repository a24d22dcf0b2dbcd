// Shared-memory tree reduction with __syncthreads, dynamic shared memory and warp shuffles.
extern __shared__ float dynamic_buffer[];

__global__ void block_sum(const float *input, float *output, int n)
{
    __shared__ float partial[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[tid] = i < n ? input[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        output[blockIdx.x] = partial[0];
}

__global__ void dynamic_scale(float *data, float factor)
{
    unsigned tid = threadIdx.x;
    dynamic_buffer[tid] = data[tid] * factor;
    __syncthreads();
    data[tid] = dynamic_buffer[blockDim.x - 1 - tid];
}

__global__ void warp_ops(const int *input, int *output, unsigned *ballots)
{
    int v = input[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    int up = __shfl_up_sync(0xffffffff, v, 1);
    int x = __shfl_xor_sync(0xffffffff, up, 3);
    int idx = __shfl_sync(0xffffffff, x, 0);
    unsigned ballot = __ballot_sync(0xffffffff, v > 0);
    int all = __all_sync(0xffffffff, v > 1);
    int any = __any_sync(0xffffffff, v > 2);
    unsigned active = __activemask();
    __syncwarp();
    if ((threadIdx.x & 31) == 0)
        ballots[threadIdx.x / 32] = ballot ^ active;
    output[threadIdx.x] = idx + all + any;
}
