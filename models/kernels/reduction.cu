// reduction.cu — sum of an array of unsigned integers, two ways. Each CTA folds a grid-stride
// slice into one partial and adds it to a global total with atomicAdd.
//   reduce_shared: a shared-memory tree with __syncthreads between levels.
//   reduce_shuffle: warp shuffles inside each warp, then one shared word per warp.
// Both expect blockDim.x == REDUCE_BLOCK.

#define REDUCE_BLOCK 256
#define WARP_LANES 32

// Sum of the elements this thread visits in a grid-stride walk.
__device__ unsigned thread_partial(const unsigned *in, unsigned n)
{
    unsigned sum = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    return sum;
}

extern "C" __global__ void reduce_shared(const unsigned *in, unsigned n, unsigned *total)
{
    __shared__ unsigned partial[REDUCE_BLOCK];
    unsigned t = threadIdx.x;
    partial[t] = thread_partial(in, n);
    __syncthreads();
    for (unsigned half = REDUCE_BLOCK / 2; half > 0; half /= 2) {
        if (t < half)
            partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(total, partial[0]);
}

__device__ unsigned warp_sum(unsigned value)
{
    for (int offset = WARP_LANES / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

extern "C" __global__ void reduce_shuffle(const unsigned *in, unsigned n, unsigned *total)
{
    __shared__ unsigned warp_partial[REDUCE_BLOCK / WARP_LANES];
    unsigned lane = threadIdx.x % WARP_LANES, warp = threadIdx.x / WARP_LANES;
    unsigned sum = warp_sum(thread_partial(in, n));
    if (lane == 0)
        warp_partial[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < REDUCE_BLOCK / WARP_LANES ? warp_partial[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0)
            atomicAdd(total, sum);
    }
}
