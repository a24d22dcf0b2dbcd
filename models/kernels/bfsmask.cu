// bfsmask.cu — breadth-first search in the style of the GPGPU-Sim suite's BFS (Harish and
// Narayanan), Ren's inter-workgroup BFS: one thread per vertex, and every thread shares three
// byte vectors over all vertices — `mask` (the current frontier), `updating` (the next one) and
// `visited`. Two launches per level:
//   bfsmask_expand: a frontier vertex leaves the mask and gives every unvisited neighbour the
//                   cost of the next level and a byte in `updating`. Threads of different CTAs
//                   write the same bytes and the same costs, and neighbouring bytes share cache
//                   blocks; no atomics are needed because every writer writes the same value.
//   bfsmask_update: a vertex in `updating` joins the mask and `visited` and sets *more.
// The host relaunches while *more is set.

extern "C" __global__ void bfsmask_expand(const unsigned *row_offsets, const unsigned *columns, unsigned char *mask,
                                          unsigned char *updating, const unsigned char *visited, unsigned *cost,
                                          unsigned vertices)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vertices || !mask[v])
        return;
    mask[v] = 0;
    for (unsigned k = row_offsets[v]; k < row_offsets[v + 1]; k++) {
        unsigned w = columns[k];
        if (!visited[w]) {
            cost[w] = cost[v] + 1;
            updating[w] = 1;
        }
    }
}

extern "C" __global__ void bfsmask_update(unsigned char *mask, unsigned char *updating, unsigned char *visited,
                                          unsigned vertices, unsigned *more)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vertices || !updating[v])
        return;
    mask[v] = 1;
    visited[v] = 1;
    *more = 1;
    updating[v] = 0;
}
