// Atomics of every kind, a CAS loop, fences and scoped acquire/release forms.
#include <cuda/atomic>

__device__ int counter = 7;
__device__ unsigned flags[4] = {1, 2, 3, 4};
__constant__ float coefficients[4] = {1.0f, 0.5f, 0.25f, 0.125f};

__device__ float atomic_max_float(float *address, float value)
{
    int *as_int = (int *)address;
    int old = *as_int, assumed;
    do {
        assumed = old;
        old = atomicCAS(as_int, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void all_atomics(int *ints, unsigned *uints, float *floats, double *doubles,
                            unsigned long long *wide)
{
    __shared__ int shared_counter;
    int t = threadIdx.x;
    if (t == 0) shared_counter = 0;
    __syncthreads();
    atomicAdd(&ints[0], t);
    atomicSub(&ints[1], t);
    atomicExch(&ints[2], t);
    atomicMin(&ints[3], t);
    atomicMax(&ints[4], t);
    atomicInc(&uints[0], 17u);
    atomicDec(&uints[1], 17u);
    atomicAnd(&ints[5], t);
    atomicOr(&ints[6], t);
    atomicXor(&ints[7], t);
    int old = atomicCAS(&ints[8], t, t + 1);
    atomicAdd(&floats[0], 1.5f * coefficients[t & 3]);
    atomicAdd(&doubles[0], 2.0);
    atomicAdd(&wide[0], 1ull);
    atomicAdd(&shared_counter, 1);
    atomicMax(&uints[2], (unsigned)t);
    __syncthreads();
    float m = atomic_max_float(&floats[1], (float)t);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    atomicAdd(&counter, old + shared_counter);
    ints[9 + t] = (int)m + flags[t & 3];
}

__global__ void scoped_atomics(unsigned *data, unsigned *flag, unsigned *out)
{
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> d(data[threadIdx.x]);
    if (threadIdx.x == 0) {
        d.store(42, cuda::memory_order_relaxed);
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) == 0) { }
        out[threadIdx.x] = d.load(cuda::memory_order_relaxed);
    }
    unsigned r;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(flag) : "memory");
    asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(flag), "r"(r) : "memory");
    asm volatile("ld.relaxed.cta.global.u32 %0, [%1];" : "=r"(r) : "l"(data) : "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    asm volatile("fence.sc.cta;" ::: "memory");
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(out), "r"(r) : "memory");
    asm volatile("atom.acquire.sys.global.exch.b32 %0, [%1], %0;" : "+r"(r) : "l"(out) : "memory");
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(out) : "memory");
    __nanosleep(100);
    f.fetch_add(r, cuda::memory_order_acq_rel);
    d.fetch_or(r, cuda::memory_order_seq_cst);
}
