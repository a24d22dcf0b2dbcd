// host.cu — written for tests/integration/manifest_host_features.sh: kernels that read a
// __constant__ array and a __device__ table the manifest initialises, count their threads in a
// __device__ counter the manifest reads back, and work on a window of a buffer passed as
// buffer + offset. Compiled with: nvcc -ptx -O3 -arch=sm_80 host.cu -o host.ptx
__constant__ float coef[4];
__device__ unsigned int counter;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

// out[i] = in[i] * coef[i % 4] for i < n; every thread that does so counts itself.
extern "C" __global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * coef[i % 4];
        atomicAdd(&counter, 1u);
    }
}

// data[i] += table[i % 8] for i < n.
extern "C" __global__ void add_table(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += table[i % 8];
}
