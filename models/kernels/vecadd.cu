// vecadd.cu — streaming kernels with no reuse: c = a + b, then y = alpha * x + y (saxpy).
// Every element is read once and written once; consecutive threads touch consecutive words.

extern "C" __global__ void vecadd(const float *a, const float *b, float *c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float alpha, const float *x, float *y, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
