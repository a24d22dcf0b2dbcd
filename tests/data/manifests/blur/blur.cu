// blur.cu — a 3-point integer blur, one element per thread: b[i] = a[i-1] + 2 a[i] + a[i+1],
// the edges repeating their own element. Each thread reads three neighbouring words and writes
// one, so a large grid streams both arrays through the L2 and is bound by DRAM bandwidth at a
// low DRAM clock (blur.json; tests/integration/sampled_bandwidth.sh). blur.ptx is
// nvcc -ptx -O3 -arch=sm_80 blur.cu.
extern "C" __global__ void blur3(const unsigned *a, unsigned *b, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned left = i == 0 ? 0 : i - 1;
    unsigned right = i + 1 < n ? i + 1 : i;
    b[i] = a[left] + 2 * a[i] + a[right];
}
