// implicit.cu — the GSI thesis's "implicit" microbenchmark (§5.3, from the stash paper): each CTA
// owns a chunk of an array, one element per thread; each thread reads its element, computes on it
// and writes the result back in place. Variants, same result:
//   implicit_scratchpad: explicit copies global -> scratchpad -> global around the computation
//                        (the thesis's baseline scratchpad, §4.4);
//   implicit_dma:        the chunk is mapped to the kernel's shared memory by the launch, a DMA
//                        mapping (scratchpad+DMA, §4.5) or a stash mapping (the stash, §4.6;
//                        docs/local-memory.md): the kernel only touches its shared memory.
// The computation is one xorshift32 step (Marsaglia's 13, 17, 5; our choice: the thesis does not
// give it). Both expect the dynamic shared memory to hold blockDim.x words.

__device__ unsigned implicit_compute(unsigned v)
{
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return v;
}

extern "C" __global__ void implicit_scratchpad(unsigned *data)
{
    extern __shared__ unsigned chunk[];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    chunk[threadIdx.x] = data[i];
    __syncthreads();
    chunk[threadIdx.x] = implicit_compute(chunk[threadIdx.x]);
    __syncthreads();
    data[i] = chunk[threadIdx.x];
}

extern "C" __global__ void implicit_dma()
{
    extern __shared__ unsigned chunk[];
    chunk[threadIdx.x] = implicit_compute(chunk[threadIdx.x]);
}
