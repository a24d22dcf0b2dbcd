/* fresh.cu — plain CUDA written for the "fresh CUDA" end-to-end check
 * (tests/integration/fresh_manifests.sh): each kernel is run through a workload manifest and
 * its dump compared with an independent python3 reference.
 *
 * Regenerate: nvcc -ptx -O3 -arch=sm_80 fresh.cu -o fresh.ptx
 */

#define SCAN_BLOCK 256

/* Inclusive prefix sum of each 256-element tile (Hillis-Steele, double-buffered in shared
 * memory). */
extern "C" __global__ void block_scan(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned buffer[2][SCAN_BLOCK];
    unsigned t = threadIdx.x, i = blockIdx.x * SCAN_BLOCK + t;
    int current = 0;
    buffer[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned offset = 1; offset < SCAN_BLOCK; offset *= 2) {
        unsigned value = buffer[current][t];
        if (t >= offset)
            value += buffer[current][t - offset];
        buffer[1 - current][t] = value;
        current = 1 - current;
        __syncthreads();
    }
    if (i < n)
        out[i] = buffer[current][t];
}

/* Sum of all elements: a grid-stride loop, a shuffle tree per warp, one atomic per warp. */
extern "C" __global__ void warp_sum(const float *in, float *total, unsigned n)
{
    float sum = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, sum);
}

/* Collatz-style work per element: an outer loop whose trip count is data-dependent and an inner
 * loop that depends on the outer index, so lanes of a warp diverge at both levels. */
extern "C" __global__ void nested_work(const unsigned *in, unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i], steps = 0, digest = 0;
    while (x != 1 && steps < 200) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        for (unsigned k = 0; k < (x & 3); k++)
            digest = digest * 31 + (x ^ k);
        steps++;
    }
    out[i] = digest ^ (steps << 24);
}

/* Maximum of floats by a compare-and-swap loop on the bit pattern. */
extern "C" __global__ void cas_max(const float *in, float *result, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float value = in[i];
    int *target = (int *)result;
    int old = *target;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(target, assumed, __float_as_int(value));
        if (old == assumed)
            break;
    }
}

/* One step of a label-propagation fixed point: each element takes the minimum label of itself
 * and its two neighbours, raising *changed when it moves. The host repeats it until *changed
 * stays 0. */
extern "C" __global__ void relax_min(unsigned *labels, unsigned *changed, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned best = labels[i];
    if (i > 0 && labels[i - 1] < best)
        best = labels[i - 1];
    if (i + 1 < n && labels[i + 1] < best)
        best = labels[i + 1];
    if (best < labels[i]) {
        atomicMin(&labels[i], best);
        *changed = 1;
    }
}
