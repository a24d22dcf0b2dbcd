// bfs.cu — one level of a level-synchronous breadth-first search. Each thread takes one vertex
// of the current frontier and claims its unvisited neighbours with atomicCAS on their level;
// the winner appends the neighbour to the next frontier through an atomic tail counter. The host
// relaunches with the frontiers swapped until the next frontier is empty.

#define BFS_UNVISITED 0xffffffffu

extern "C" __global__ void bfs_expand(const unsigned *row_offsets, const unsigned *columns,
                                      unsigned *levels, const unsigned *frontier,
                                      unsigned frontier_size, unsigned *next_frontier,
                                      unsigned *next_size, unsigned level)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= frontier_size)
        return;
    unsigned vertex = frontier[i];
    for (unsigned k = row_offsets[vertex]; k < row_offsets[vertex + 1]; k++) {
        unsigned neighbour = columns[k];
        if (atomicCAS(&levels[neighbour], BFS_UNVISITED, level + 1) == BFS_UNVISITED)
            next_frontier[atomicAdd(next_size, 1u)] = neighbour;
    }
}
