// histogram.cu — counts values into bins with atomics, two ways.
//   histogram_global: every thread increments the global bin directly (contended when bins are
//                     few and threads many).
//   histogram_shared: each CTA counts into a private shared-memory copy, then adds the non-zero
//                     bins to the global histogram (at most HISTOGRAM_MAX_BINS bins).
// Inputs are already bin indices (< bins).

#define HISTOGRAM_MAX_BINS 256

extern "C" __global__ void histogram_global(const unsigned *values, unsigned n, unsigned *bins)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[values[i]], 1u);
}

extern "C" __global__ void histogram_shared(const unsigned *values, unsigned n, unsigned *bins,
                                            unsigned bin_count)
{
    __shared__ unsigned local[HISTOGRAM_MAX_BINS];
    for (unsigned b = threadIdx.x; b < bin_count; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[values[i]], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bin_count; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}
