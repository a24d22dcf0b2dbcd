// Miscellaneous CUDA forms: __syncthreads_count/and/or, 64-bit and shared CAS, scoped atomics,
// cache-hinted loads/stores, half precision, 64-bit division, rounding conversions, clock64.
#include <cuda/atomic>
#include <cuda_fp16.h>
__global__ void misc(int *a, unsigned long long *w, float *f, double *d, __half *h, long long n)
{
    __shared__ float sf[64];
    __shared__ unsigned long long sw[4];
    int t = threadIdx.x;
    sf[t & 63] = f[t];
    __syncthreads();
    int c = __syncthreads_count(a[t] > 0);
    int all = __syncthreads_and(a[t] > 1);
    int any = __syncthreads_or(a[t] > 2);
    atomicAdd(&sf[(t + 1) & 63], 1.0f);
    atomicCAS(&w[0], 1ull, 2ull);
    atomicCAS(&sw[0], 1ull, 2ull);
    atomicMax(&w[1], (unsigned long long)t);
    atomicAdd_block(&a[5], 1);
    atomicAdd_system(&a[6], 1);
    cuda::atomic_ref<int, cuda::thread_scope_block> r(a[7]);
    r.fetch_min(t, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> r2(w[2]);
    r2.store(5, cuda::memory_order_seq_cst);
    unsigned long long v = r2.load(cuda::memory_order_seq_cst);
    float x = __ldg(&f[t]) + __ldcg(&f[t + 1]) + __fdividef(f[t], 3.0f) + __saturatef(f[t]);
    __stcs(&f[t + 2], x);
    int m = __mul24(t, a[t]) + __umul24(t, t);
    long long q = n / (t + 1) + n % (t + 3);
    h[t] = __hadd(h[t], h[t + 1]);
    float sh = __shfl_sync(0xffffffff, x, 3);
    double dd = __shfl_down_sync(0xffffffff, d[t], 1);
    long long ck = clock64();
    unsigned smid; asm("mov.u32 %0, %%smid;" : "=r"(smid));
    d[t] = dd + (double)q + (double)ck + fabs(d[t]) + floor(d[t]) + ceil(d[t]) + trunc(d[t]) + rint(d[t]);
    a[t] = c + all + any + m + (int)v + smid + __float2int_rn(sh) + (int)__float2half(x);
    w[t] = __double_as_longlong(d[t]) >> 3;
}
