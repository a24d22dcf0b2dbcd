// stn.cu — Ren's STN: a 2-D finite-difference (Jacobi) solver of the heat equation whose
// iterations are separated by a fast inter-workgroup barrier inside ONE kernel launch (Xiao and
// Feng's lock-free GPU barrier, with the fences Ren's version adds). Every CTA owns a band of
// consecutive rows; each iteration reads one grid and writes the other:
//   out = in + alpha * (north + south + east + west - 4 in)   (interior cells)
//   out = in                                                   (boundary cells, held fixed)
// The barrier: each CTA's thread 0 fences and writes the goal (iteration number) into its slot of
// `arrive`; in CTA 0, thread j waits for slot j, fences, and after a CTA barrier fences again and
// writes slot j of `release`; each CTA's thread 0 waits for its `release` slot and fences. Every
// CTA of the grid must be resident at once (the host launches no more than every preset holds),
// and blockDim.x >= gridDim.x.

__device__ void grid_barrier(unsigned goal, volatile unsigned *arrive, volatile unsigned *release)
{
    unsigned tid = threadIdx.x;
    __syncthreads();
    if (tid == 0) {
        __threadfence();
        arrive[blockIdx.x] = goal;
    }
    if (blockIdx.x == 0) {
        if (tid < gridDim.x) {
            while (arrive[tid] != goal)
                ;
            __threadfence();
        }
        __syncthreads();
        if (tid < gridDim.x) {
            __threadfence();
            release[tid] = goal;
        }
    }
    if (tid == 0) {
        while (release[blockIdx.x] != goal)
            ;
        __threadfence();
    }
    __syncthreads();
}

extern "C" __global__ void stn_solve(float *grid0, float *grid1, unsigned rows, unsigned cols, unsigned iterations,
                                     float alpha, unsigned *arrive, unsigned *release)
{
    unsigned band = (rows + gridDim.x - 1) / gridDim.x;
    unsigned first = blockIdx.x * band;
    unsigned last = min(first + band, rows);
    unsigned cells = first < last ? (last - first) * cols : 0;
    for (unsigned it = 0; it < iterations; it++) {
        const float *in = it % 2 ? grid1 : grid0;
        float *out = it % 2 ? grid0 : grid1;
        for (unsigned k = threadIdx.x; k < cells; k += blockDim.x) {
            unsigned r = first + k / cols, c = k % cols, i = r * cols + c;
            float centre = in[i];
            if (r == 0 || c == 0 || r + 1 == rows || c + 1 == cols)
                out[i] = centre;
            else
                out[i] = centre + alpha * (in[i - cols] + in[i + cols] + in[i + 1] + in[i - 1] - 4.0f * centre);
        }
        grid_barrier(it + 1, arrive, release);
    }
}
