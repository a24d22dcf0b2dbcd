// Non-inlined device functions (calls with parameters and returns), local arrays, double math,
// integer division and bit tricks.
__device__ __noinline__ int pick(const int *table, int index, int scale)
{
    int local[16];
    for (int i = 0; i < 16; ++i)
        local[i] = table[(index + i) & 63] * scale;
    return local[index & 15];
}

__device__ __noinline__ double blend(double a, double b, float w)
{
    return a * w + b * (1.0 - w) + sqrt(a * a + b * b);
}

__device__ __noinline__ void note(int *out, int v)
{
    out[v & 7] = v;
}

__global__ void call_chain(const int *table, int *out, double *dout, float *fout, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t >= n) return;
    int a = pick(table, t, 3);
    int b = pick(table, t + 1, 5);
    double d = blend((double)a, (double)b, 0.25f);
    note(out, a + b);
    dout[t] = d / (double)(b + 1) + exp(d) + log(d + 2.0);
    fout[t] = sinf((float)a) + cosf((float)b) + tanhf(0.5f * a) + rsqrtf((float)(b + 1))
              + __expf((float)t) + __logf((float)(t + 1)) + (float)a / (float)(b + 3);
    out[t + 8] = a / (b + 1) + a % (b + 7) + (unsigned)a / 3u + (unsigned)b % 10u;
}

__global__ void bits(const unsigned *in, unsigned *out, unsigned long long *wide)
{
    unsigned x = in[threadIdx.x];
    unsigned long long w = wide[threadIdx.x];
    out[threadIdx.x * 8 + 0] = __popc(x) + __popcll(w);
    out[threadIdx.x * 8 + 1] = __clz(x) + __clzll(w);
    out[threadIdx.x * 8 + 2] = __brev(x);
    out[threadIdx.x * 8 + 3] = __byte_perm(x, x >> 3, 0x5140);
    out[threadIdx.x * 8 + 4] = (x >> 5) & 0x7f;
    out[threadIdx.x * 8 + 5] = __ffs(x) + __funnelshift_l(x, x * 3, 7) + __funnelshift_rc(x, x + 1, x);
    out[threadIdx.x * 8 + 6] = min(x, 100u) + max((int)x, -4) + abs((int)x - 500);
    out[threadIdx.x * 8 + 7] = (x & 0xf0f0) | (~x & 0x0f0f) ^ (x << 2);
    wide[threadIdx.x] = __brevll(w) + ((w >> 40) & 0xfff) + __umulhi(x, 77u) + (unsigned long long)x * x;
}
