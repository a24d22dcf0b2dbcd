// sort.cu — one pass of a least-significant-digit radix sort of 32-bit unsigned keys, one byte
// (digit) per pass, in the three steps QuickRelease's sort microbenchmark describes: count the
// keys of each digit, find where each digit's keys go, move every key to its place. The host
// runs four passes (bytes 0..3) and swaps the input and output arrays after each one.
//
// Counts are laid out digit-major: counts[digit * blocks + block] is how many keys of `digit`
// block `block` holds, so that an exclusive scan of the whole array in index order gives each
// (digit, block) pair the first output position of its keys (a stable sort).

#define RADIX_DIGITS 256
#define RADIX_BLOCK 256   // threads per block of radix_count and radix_move

// Step 1: every block histograms the digit of its RADIX_BLOCK keys in shared memory and writes
// its column of counts.
extern "C" __global__ void radix_count(const unsigned *keys, unsigned *counts, unsigned n, unsigned shift)
{
    __shared__ unsigned histogram[RADIX_DIGITS];
    for (unsigned d = threadIdx.x; d < RADIX_DIGITS; d += blockDim.x)
        histogram[d] = 0;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&histogram[(keys[i] >> shift) & (RADIX_DIGITS - 1)], 1u);
    __syncthreads();
    for (unsigned d = threadIdx.x; d < RADIX_DIGITS; d += blockDim.x)
        counts[d * gridDim.x + blockIdx.x] = histogram[d];
}

// Step 2 (one block of RADIX_DIGITS threads): thread d traverses its digit's counts over every
// block, the block scans the per-digit totals, and thread d rewrites its counts as the first
// output position of each block's keys of digit d.
extern "C" __global__ void radix_offsets(unsigned *counts, unsigned blocks)
{
    __shared__ unsigned base[RADIX_DIGITS];
    unsigned d = threadIdx.x;
    unsigned total = 0;
    for (unsigned b = 0; b < blocks; b++)
        total += counts[d * blocks + b];
    base[d] = total;
    __syncthreads();
    for (unsigned step = 1; step < RADIX_DIGITS; step *= 2) {
        unsigned left = d >= step ? base[d - step] : 0;
        __syncthreads();
        base[d] += left;
        __syncthreads();
    }
    unsigned position = base[d] - total;   // exclusive: the keys of smaller digits come first
    for (unsigned b = 0; b < blocks; b++) {
        unsigned count = counts[d * blocks + b];
        counts[d * blocks + b] = position;
        position += count;
    }
}

// Step 3: every key goes to its block's first position for its digit plus the number of keys
// of the same digit before it in the block (so equal digits keep their order); the host then
// swaps `keys` and `sorted`.
extern "C" __global__ void radix_move(const unsigned *keys, unsigned *sorted, const unsigned *offsets, unsigned n,
                                      unsigned shift)
{
    __shared__ unsigned digits[RADIX_BLOCK];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned key = i < n ? keys[i] : 0;
    unsigned digit = (key >> shift) & (RADIX_DIGITS - 1);
    digits[threadIdx.x] = i < n ? digit : RADIX_DIGITS;
    __syncthreads();
    if (i >= n)
        return;
    unsigned rank = 0;
    for (unsigned t = 0; t < threadIdx.x; t++)
        rank += digits[t] == digit;
    sorted[offsets[digit * gridDim.x + blockIdx.x] + rank] = key;
}
