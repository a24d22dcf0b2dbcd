// bh.cu — Ren's BH: one time step of a Barnes-Hut n-body simulation in the style of Burtscher and
// Pingali's GPU implementation, five kernels whose workgroups communicate through global memory:
//   bh_bound:     bounding box; every CTA reduces its bodies in shared memory, writes its partial
//                 box, fences and counts itself in with atomicInc; the last CTA to arrive combines
//                 the partial boxes and creates the root cell.
//   bh_build:     octree insertion by every thread at once. A thread descends from the root reading
//                 child slots with ld.acquire; an empty slot (-1) is claimed with atomicCAS; a slot
//                 holding a body is locked with atomicCAS (-2), the thread builds the new cells that
//                 separate the two bodies, fences, and publishes the subtree by storing it into the
//                 slot (unlocking it; out of cells, it restores the slot, drops its body and
//                 raises `overflow`); a locked slot is read again on the next pass of the loop, so
//                 a lock holder never waits for a lane of its own warp.
//   bh_summarize: centre of mass of every cell, bottom-up: cells are allocated after their parents,
//                 so each thread takes cells from the last allocated down; a cell whose child cells
//                 are not ready (mass < 0, read with ld.acquire) is retried on the next pass of the
//                 loop; a finished cell's position is published before its mass with st.release.
//   bh_force:     every body walks the tree depth first (a per-thread stack, children in octant
//                 order) and approximates a cell by its centre of mass when size^2 < theta^2 d^2.
//   bh_advance:   leapfrog integration of velocities and positions.
// Node ids: bodies 0..n-1, cells n..n+max_cells-1 (the root is n). child[8 * (cell - n) + octant].
// The centre-of-mass sums and the opening test use explicitly rounded operations (no contraction)
// so that the host's reference builds the same approximation. bh_summarize needs every CTA of its
// grid resident at once (the host launches no more than every preset holds).

#define BH_EMPTY (-1)
#define BH_LOCKED (-2)
#define BH_STACK 256

__device__ int load_acquire(const int *address)
{
    int value;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(value) : "l"(__cvta_generic_to_global(address)) : "memory");
    return value;
}

__device__ float load_acquire_f(const float *address)
{
    float value;
    asm volatile("ld.acquire.gpu.global.f32 %0, [%1];" : "=f"(value) : "l"(__cvta_generic_to_global(address)) : "memory");
    return value;
}

__device__ void store_release_f(float *address, float value)
{
    asm volatile("st.release.gpu.global.f32 [%0], %1;" :: "l"(__cvta_generic_to_global(address)), "f"(value) : "memory");
}

// Box of the bodies: box[0..5] = min x, y, z, max x, y, z per CTA in `partial` (6 floats per CTA);
// the last CTA writes the root: its centre in x/y/z[n], half its largest extent in size[n], mass
// -1, its children empty, and *cells = 1. Expects blockDim.x a power of two <= 256.
extern "C" __global__ void bh_bound(float *x, float *y, float *z, float *size, float *mass, int *child,
                                    unsigned n, float *partial, unsigned *arrived, unsigned *cells)
{
    __shared__ float box[6][256];
    unsigned tid = threadIdx.x;
    float lo[3] = {3.0e38f, 3.0e38f, 3.0e38f}, hi[3] = {-3.0e38f, -3.0e38f, -3.0e38f};
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) {
        float p[3] = {x[i], y[i], z[i]};
        for (int d = 0; d < 3; d++) {
            lo[d] = fminf(lo[d], p[d]);
            hi[d] = fmaxf(hi[d], p[d]);
        }
    }
    for (int d = 0; d < 3; d++) {
        box[d][tid] = lo[d];
        box[3 + d][tid] = hi[d];
    }
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        __syncthreads();
        if (tid < half)
            for (int d = 0; d < 3; d++) {
                box[d][tid] = fminf(box[d][tid], box[d][tid + half]);
                box[3 + d][tid] = fmaxf(box[3 + d][tid], box[3 + d][tid + half]);
            }
    }
    if (tid == 0) {
        for (int d = 0; d < 6; d++)
            partial[blockIdx.x * 6 + d] = box[d][0];
        __threadfence();
        if (atomicInc(arrived, gridDim.x - 1) == gridDim.x - 1) {
            __threadfence();
            volatile float *all = partial;
            for (int d = 0; d < 3; d++) {
                lo[d] = 3.0e38f;
                hi[d] = -3.0e38f;
            }
            for (unsigned b = 0; b < gridDim.x; b++)
                for (int d = 0; d < 3; d++) {
                    lo[d] = fminf(lo[d], all[b * 6 + d]);
                    hi[d] = fmaxf(hi[d], all[b * 6 + 3 + d]);
                }
            float extent = fmaxf(fmaxf(__fsub_rn(hi[0], lo[0]), __fsub_rn(hi[1], lo[1])), __fsub_rn(hi[2], lo[2]));
            x[n] = __fmul_rn(__fadd_rn(lo[0], hi[0]), 0.5f);
            y[n] = __fmul_rn(__fadd_rn(lo[1], hi[1]), 0.5f);
            z[n] = __fmul_rn(__fadd_rn(lo[2], hi[2]), 0.5f);
            size[n] = __fmul_rn(extent, 0.5f);
            mass[n] = -1.0f;
            for (int o = 0; o < 8; o++)
                child[o] = BH_EMPTY;
            *cells = 1;
        }
    }
}

__device__ int octant(float px, float py, float pz, float cx, float cy, float cz)
{
    return (px > cx) << 2 | (py > cy) << 1 | (pz > cz);
}

// The centre of the child cell in `o` of a cell centred at c with half size `half`.
__device__ void child_centre(int o, float half, float *cx, float *cy, float *cz)
{
    float quarter = __fmul_rn(half, 0.5f);
    *cx = __fadd_rn(*cx, o & 4 ? quarter : -quarter);
    *cy = __fadd_rn(*cy, o & 2 ? quarter : -quarter);
    *cz = __fadd_rn(*cz, o & 1 ? quarter : -quarter);
}

extern "C" __global__ void bh_build(float *x, float *y, float *z, float *size, float *mass, int *child, unsigned n,
                                    unsigned max_cells, unsigned *cells, unsigned *overflow)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float px = x[i], py = y[i], pz = z[i];
        int node = n;
        float cx = x[n], cy = y[n], cz = z[n], half = size[n];
        bool inserted = false;
        while (!inserted) {
            int o = octant(px, py, pz, cx, cy, cz);
            int *slot = &child[8 * (node - (int)n) + o];
            int current = load_acquire(slot);
            if (current >= (int)n) {                       // a cell: descend
                node = current;
                child_centre(o, half, &cx, &cy, &cz);
                half = __fmul_rn(half, 0.5f);
            } else if (current == BH_EMPTY) {
                inserted = atomicCAS(slot, BH_EMPTY, (int)i) == BH_EMPTY;
            } else if (current >= 0 && atomicCAS(slot, current, BH_LOCKED) == current) {
                // Locked a slot holding body `current`: make cells until the two bodies part.
                int top = -1, parent = -1, parent_octant = 0;
                float qx = x[current], qy = y[current], qz = z[current];
                int po = o, qo = o;
                while (po == qo) {
                    unsigned c = atomicAdd(cells, 1u);
                    if (c >= max_cells) {   // out of cells: unlock, drop the body, report
                        atomicExch(overflow, 1u);
                        break;
                    }
                    int cell = (int)(n + c);
                    child_centre(po, half, &cx, &cy, &cz);
                    half = __fmul_rn(half, 0.5f);
                    x[cell] = cx;
                    y[cell] = cy;
                    z[cell] = cz;
                    size[cell] = half;
                    mass[cell] = -1.0f;
                    for (int k = 0; k < 8; k++)
                        child[8 * c + k] = BH_EMPTY;
                    if (parent >= 0)
                        child[8 * (parent - (int)n) + parent_octant] = cell;
                    else
                        top = cell;
                    po = octant(px, py, pz, cx, cy, cz);
                    qo = octant(qx, qy, qz, cx, cy, cz);
                    parent = cell;
                    parent_octant = po;
                }
                if (po != qo) {
                    child[8 * (parent - (int)n) + qo] = current;
                    child[8 * (parent - (int)n) + po] = (int)i;
                }
                __threadfence();
                atomicExch(slot, po != qo ? top : current);
                inserted = true;
            }
        }
    }
}

extern "C" __global__ void bh_summarize(float *x, float *y, float *z, float *mass, const int *child, unsigned n,
                                        const unsigned *cells)
{
    unsigned stride = gridDim.x * blockDim.x, count = *cells;
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    while (k < count) {
        unsigned c = count - 1 - k;
        const int *children = &child[8 * c];
        bool ready = true;
        float m = 0.0f, mx = 0.0f, my = 0.0f, mz = 0.0f;
        for (int o = 0; o < 8 && ready; o++) {
            int node = children[o];
            if (node < 0)
                continue;
            float w = node >= (int)n ? load_acquire_f(&mass[node]) : mass[node];
            if (w < 0.0f) {
                ready = false;
            } else {
                m = __fadd_rn(m, w);
                mx = __fadd_rn(mx, __fmul_rn(w, x[node]));
                my = __fadd_rn(my, __fmul_rn(w, y[node]));
                mz = __fadd_rn(mz, __fmul_rn(w, z[node]));
            }
        }
        if (ready) {
            int cell = (int)(n + c);
            x[cell] = __fdiv_rn(mx, m);
            y[cell] = __fdiv_rn(my, m);
            z[cell] = __fdiv_rn(mz, m);
            store_release_f(&mass[cell], m);
            k += stride;
        }
    }
}

extern "C" __global__ void bh_force(const float *x, const float *y, const float *z, const float *size,
                                    const float *mass, const int *child, unsigned n, float theta_squared,
                                    float softening_squared, float *ax, float *ay, float *az)
{
    int stack[BH_STACK];
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float px = x[i], py = y[i], pz = z[i], fx = 0.0f, fy = 0.0f, fz = 0.0f;
        int depth = 0;
        stack[depth++] = (int)n;
        while (depth > 0) {
            int node = stack[--depth];
            float dx = __fsub_rn(x[node], px), dy = __fsub_rn(y[node], py), dz = __fsub_rn(z[node], pz);
            float d2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
            bool far = node < (int)n;
            if (!far) {
                float s = __fmul_rn(size[node], 2.0f);
                far = __fmul_rn(s, s) < __fmul_rn(theta_squared, d2);
            }
            if (far) {
                if (node != (int)i) {
                    float r2 = d2 + softening_squared;
                    float scale = mass[node] / (r2 * sqrtf(r2));
                    fx += dx * scale;
                    fy += dy * scale;
                    fz += dz * scale;
                }
            } else {
                for (int o = 7; o >= 0; o--) {
                    int next = child[8 * (node - (int)n) + o];
                    if (next >= 0)
                        stack[depth++] = next;
                }
            }
        }
        ax[i] = fx;
        ay[i] = fy;
        az[i] = fz;
    }
}

extern "C" __global__ void bh_advance(float *x, float *y, float *z, float *vx, float *vy, float *vz, const float *ax,
                                      const float *ay, const float *az, unsigned n, float dt)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        vx[i] += ax[i] * dt;
        vy[i] += ay[i] * dt;
        vz[i] += az[i] * dt;
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
        z[i] += vz[i] * dt;
    }
}
