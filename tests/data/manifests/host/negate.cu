// negate.cu — the second module of tests/data/manifests/host/modules.json (several PTX modules
// in one manifest): data[i] = -data[i] for i < n. Compiled with:
// nvcc -ptx -O3 -arch=sm_80 negate.cu -o negate.ptx
extern "C" __global__ void negate(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = -data[i];
}
