/* exec_kernels.cu — kernels for tests/unit/test_exec.c: each exercises one part of the SIMT
 * executor (divergence and reconvergence, calls, local memory, warp collectives, barriers,
 * shared/generic addressing, atomics, module variables, thread indices). The test computes every
 * expected value independently in C.
 *
 * Regenerate: nvcc -ptx -O3 -arch=sm_80 exec_kernels.cu -o exec_kernels.ptx
 */

#define FULL_MASK 0xffffffffu

/* if/else whose paths are real branches (each holds a loop or a load); the code after the join
 * must run on every lane, so its activemask is full again. */
extern "C" __global__ void divergent_if(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    int r = 0;
    if (t % 3 == 0) {
        for (int i = 0; i < v; i++)
            r += i * t;
    } else {
        r = in[(t + 1) % blockDim.x] * 2;
    }
    out[t] = r + 1000 + t;
    out[blockDim.x + t] = __popc(__activemask());
}

/* Two nested loops whose trip counts differ per lane, with continue and break. */
extern "C" __global__ void nested_loops(const int *trips, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = trips[t];
    int s = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i % 3 + (t & 1); j++) {
            if ((i + j + t) % 4 == 0)
                continue;
            s += i * 10 + j;
        }
        if (s > 500)
            break;
    }
    out[t] = s;
}

/* Some lanes leave with exit, some with return from inside a divergent branch; only the
 * survivors store. */
extern "C" __global__ void early_exit(int *out)
{
    int t = threadIdx.x;
    if (t % 5 == 0)
        asm volatile("exit;");
    int s = t;
    if (t & 1) {
        if (t > 20)
            return;
        s *= 3;
    }
    out[t] = s + 1000;
}

__device__ __noinline__ int mix(int a, int b)
{
    int s = 0;
    for (int i = 0; i < (a & 7); i++)
        s += b ^ i;
    return s * 3 + a;
}

__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* A uniform call, a call made by odd lanes only, and recursion of per-lane depth. */
extern "C" __global__ void calls(const int *in, int *out)
{
    int t = threadIdx.x;
    int r = mix(t, in[t]);
    if (t & 1)
        r += mix(in[t], t);
    out[t] = r;
    out[blockDim.x + t] = fib(t % 12);
}

/* A per-thread array indexed by a loaded value, so it must live in local memory. */
extern "C" __global__ void local_array(const int *in, int *out)
{
    int t = threadIdx.x;
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = in[t] * i + t;
    int k = in[t] & 15;
    a[k] += 100;
    int s = 0;
    for (int i = 0; i <= k; i++)
        s += a[(i * 5 + t) & 15];
    out[t] = s;
}

/* Every shfl.sync mode, whole-warp and in sub-warp segments, including source lanes outside
 * the warp or segment. */
extern "C" __global__ void shuffles(const int *in, int *out)
{
    int t = threadIdx.x, n = blockDim.x;
    int v = in[t];
    out[0 * n + t] = __shfl_up_sync(FULL_MASK, v, 3);
    out[1 * n + t] = __shfl_down_sync(FULL_MASK, v, 5);
    out[2 * n + t] = __shfl_xor_sync(FULL_MASK, v, 6);
    out[3 * n + t] = __shfl_sync(FULL_MASK, v, (t * 7 + 3) & 31);
    out[4 * n + t] = __shfl_sync(FULL_MASK, v, t + 40);
    out[5 * n + t] = __shfl_down_sync(FULL_MASK, v, 3, 8);
    out[6 * n + t] = __shfl_up_sync(FULL_MASK, v, 2, 8);
    out[7 * n + t] = __shfl_sync(FULL_MASK, v, 5, 16);
}

/* vote.sync ballot/any/all over the whole warp, and activemask inside a divergent branch. */
extern "C" __global__ void votes(const int *in, unsigned *out)
{
    int t = threadIdx.x, n = blockDim.x;
    int v = in[t];
    out[0 * n + t] = __ballot_sync(FULL_MASK, v % 3 == 0);
    out[1 * n + t] = __any_sync(FULL_MASK, v == 77);
    out[2 * n + t] = __all_sync(FULL_MASK, v >= 0);
    unsigned m = 0;
    if (v & 1)
        m = __activemask();
    out[3 * n + t] = m;
}

__device__ __noinline__ int load_generic(const int *p)
{
    return *p;
}

__device__ __noinline__ void store_generic(int *p, int v)
{
    *p = v;
}

/* Two warps of one CTA exchange values through shared memory across __syncthreads, partly
 * through generic pointers to shared memory. */
extern "C" __global__ void barrier_exchange(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t * t + 1;
    __syncthreads();
    int a = s[63 - t];
    int b = load_generic(&s[(t + 32) & 63]);
    __syncthreads();
    store_generic(&s[t], a * 1000 + b);
    __syncthreads();
    out[t] = s[t ^ 33];
}

/* The same read-modify-write operations on shared and on global memory. g[0..5] are the global
 * targets, g[8 + 8 * block ..] receive each block's shared results; exchanged[] the values each
 * thread's exchanges returned (global first, then shared). */
extern "C" __global__ void atomics(int *g, int *exchanged)
{
    __shared__ int s[6];
    int t = threadIdx.x, id = blockIdx.x * blockDim.x + t, n = gridDim.x * blockDim.x;
    if (t < 6)
        s[t] = t == 1 ? 0x7fffffff : 0;
    __syncthreads();
    int v = (t * 37 + blockIdx.x * 11) % 101;
    atomicAdd(&s[0], v);
    atomicAdd(&g[0], v);
    atomicMin(&s[1], v - 50);
    atomicMin(&g[1], v - 50);
    atomicMax(&s[2], v);
    atomicMax(&g[2], v);
    atomicInc((unsigned *)&s[3], 9u);
    atomicInc((unsigned *)&g[3], 9u);
    exchanged[id] = atomicExch(&g[4], id + 1);
    exchanged[n + id] = atomicExch(&s[4], t + 1);
    for (int *p = &s[5];; p = &g[5]) {
        int old = *(volatile int *)p, assumed;
        do {
            assumed = old;
            old = atomicCAS(p, assumed, assumed + t);
        } while (old != assumed);
        if (p == &g[5])
            break;
    }
    __syncthreads();
    if (t < 6)
        g[8 + 8 * blockIdx.x + t] = s[t];
}

/* Dynamic shared memory sized by the launch: 2 * blockDim.x ints. */
extern "C" __global__ void dynamic_shared(const int *in, int *out)
{
    extern __shared__ int dyn[];
    int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    dyn[t] = in[base + t];
    dyn[n + t] = in[base + t] * 2;
    __syncthreads();
    out[base + t] = dyn[n - 1 - t] + dyn[n + (t + 1) % n];
}

__device__ int table[5] = {3, 1, 4, 1, 5};
__constant__ int weights[4] = {2, 7, 1, 8};
__device__ int counter = 100;

/* Initialised .global and .const arrays, and a .global scalar updated atomically. */
extern "C" __global__ void module_variables(int *out)
{
    int t = threadIdx.x;
    out[t] = table[t % 5] * weights[t & 3];
    atomicAdd(&counter, t);
}

/* Each thread's 3-D indices and the launch shape, four bits per field. */
extern "C" __global__ void indices(unsigned *out)
{
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned g = block * threads + thread;
    out[2 * g] = threadIdx.x | threadIdx.y << 4 | threadIdx.z << 8 | blockIdx.x << 12 | blockIdx.y << 16 |
                 blockIdx.z << 20;
    out[2 * g + 1] = blockDim.x | blockDim.y << 4 | blockDim.z << 8 | gridDim.x << 12 | gridDim.y << 16 |
                     gridDim.z << 20;
}

/* For a block that is not a whole number of warps: lanes per warp, a ballot over the present
 * lanes, and a block sum through a shared atomic. */
extern "C" __global__ void partial_warp(const int *in, int *out)
{
    __shared__ int sum;
    int t = threadIdx.x;
    int v = in[t];
    if (t == 0)
        sum = 0;
    __syncthreads();
    unsigned present = __activemask();
    out[t] = __popc(present) * 1000 + __popc(__ballot_sync(present, v & 1));
    atomicAdd(&sum, v);
    __syncthreads();
    if (t == 0)
        out[blockDim.x] = sum;
}
