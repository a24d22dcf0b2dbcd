// sssp.cu — one round of Bellman-Ford relaxations for one or many sources (single-source and
// all-pairs shortest paths). dist holds one row of vertex distances per source. Each thread owns
// one (source, vertex) pair: it reads the vertex's distance with ld.acquire and, for each edge
// that shortens a neighbour's distance, publishes the new distance with st.release, so updates
// become visible to other threads during the same launch and speed convergence. A lost update
// (two threads improving one vertex at once) is repaired by a later round: the host relaunches
// until a round changes nothing, so the number of launches depends on memory timing.

#define SSSP_INFINITY 0xffffffffu

__device__ unsigned load_acquire(const unsigned *address)
{
    unsigned value;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                 : "=r"(value) : "l"(__cvta_generic_to_global(address)) : "memory");
    return value;
}

__device__ void store_release(unsigned *address, unsigned value)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;"
                 :: "l"(__cvta_generic_to_global(address)), "r"(value) : "memory");
}

extern "C" __global__ void sssp_relax(const unsigned *row_offsets, const unsigned *columns,
                                      const unsigned *weights, unsigned *dist, unsigned vertices,
                                      unsigned sources, volatile unsigned *changed)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= vertices * sources)
        return;
    unsigned *row = dist + (t / vertices) * vertices;
    unsigned vertex = t % vertices;
    unsigned distance = load_acquire(&row[vertex]);
    if (distance == SSSP_INFINITY)
        return;
    for (unsigned k = row_offsets[vertex]; k < row_offsets[vertex + 1]; k++) {
        unsigned neighbour = columns[k], candidate = distance + weights[k];
        if (candidate < load_acquire(&row[neighbour])) {
            store_release(&row[neighbour], candidate);
            *changed = 1;
        }
    }
}
