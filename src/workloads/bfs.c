/* bfs.c — drivers of the breadth-first search workloads, level-synchronous BFS from vertex 0 of
 * a random directed graph:
 *   bfs:      each level is one launch over the current frontier queue (bfs.cu); the host reads
 *             the next frontier's size, clears the counter and relaunches with the frontiers
 *             swapped until the frontier is empty.
 *   bfsmask:  the GPGPU-Sim suite's BFS (Ren's Table 3.4 BFS, bfsmask.cu): a thread per vertex
 *             and shared byte vectors for the frontier, the next frontier and the visited set,
 *             two launches per level while the device reports a new frontier.
 * Both checks compare every vertex's level with a host BFS.
 */
#include "workloads/workload_support.h"

#define BFS_BLOCK 128
#define BFS_UNVISITED 0xffffffffu   /* must match bfs.cu */

static void bfs_reference(const sc_csr *graph, uint32_t *levels, uint32_t *queue)
{
    for (uint32_t v = 0; v < graph->rows; v++)
        levels[v] = BFS_UNVISITED;
    uint32_t head = 0, tail = 0;
    levels[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t k = graph->row_offsets[v]; k < graph->row_offsets[v + 1]; k++)
            if (levels[graph->columns[k]] == BFS_UNVISITED) {
                levels[graph->columns[k]] = levels[v] + 1;
                queue[tail++] = graph->columns[k];
            }
    }
}

/* Device state of the search: the graph, the levels and two frontiers with their sizes. */
typedef struct bfs_buffers {
    sc_device_csr graph;
    uint64_t levels, frontier[2], next_size;
} bfs_buffers;

static int bfs_allocate(sc_device *device, const sc_csr *graph, const uint32_t *initial_levels,
                        bfs_buffers *b, sc_error *error)
{
    size_t bytes = graph->rows * sizeof(uint32_t);
    if (sc_csr_upload(device, graph, &b->graph, error) < 0)
        return -1;
    b->levels = sc_workload_upload(device, initial_levels, bytes, error);
    b->frontier[0] = sc_workload_alloc(device, bytes, error);
    b->frontier[1] = sc_workload_alloc(device, bytes, error);
    b->next_size = sc_workload_alloc(device, sizeof(uint32_t), error);
    return b->levels && b->frontier[0] && b->frontier[1] && b->next_size ? 0 : -1;
}

static int bfs_on_device(sc_device *device, const sc_csr *graph, uint32_t *levels, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "bfs", error);
    if (module < 0)
        return -1;
    for (uint32_t v = 0; v < graph->rows; v++)
        levels[v] = v == 0 ? 0 : BFS_UNVISITED;
    bfs_buffers b;
    if (bfs_allocate(device, graph, levels, &b, error) < 0 || sc_workload_write_u32(device, b.frontier[0], 0, error) < 0)
        return -1;
    uint32_t frontier_size = 1;
    for (uint32_t level = 0; frontier_size > 0; level++) {
        uint64_t current = b.frontier[level % 2], next = b.frontier[(level + 1) % 2];
        sc_kernel_arg args[] = {sc_arg_ptr(b.graph.row_offsets), sc_arg_ptr(b.graph.columns), sc_arg_ptr(b.levels),
                                sc_arg_ptr(current), sc_arg_u32(frontier_size), sc_arg_ptr(next),
                                sc_arg_ptr(b.next_size), sc_arg_u32(level)};
        if (sc_workload_write_u32(device, b.next_size, 0, error) < 0 ||
            sc_launch_1d(device, module, "bfs_expand", sc_blocks_for(frontier_size, BFS_BLOCK), BFS_BLOCK, args, 8,
                         error) < 0 ||
            sc_workload_read_u32(device, b.next_size, &frontier_size, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, levels, b.levels, graph->rows * sizeof *levels, error);
}

/* The mask-vector search; levels receives each vertex's cost. */
static int bfsmask_on_device(sc_device *device, const sc_csr *graph, uint32_t *levels, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "bfsmask", error);
    if (module < 0)
        return -1;
    uint32_t n = graph->rows;
    for (uint32_t v = 0; v < n; v++)
        levels[v] = v == 0 ? 0 : BFS_UNVISITED;
    sc_device_csr g;
    uint64_t cost = sc_workload_upload(device, levels, n * sizeof(uint32_t), error);
    uint64_t mask = sc_workload_alloc(device, n, error), updating = sc_workload_alloc(device, n, error);
    uint64_t visited = sc_workload_alloc(device, n, error), more = sc_workload_alloc(device, sizeof(uint32_t), error);
    static const uint8_t one = 1;
    if (sc_csr_upload(device, graph, &g, error) < 0 || !cost || !mask || !updating || !visited || !more ||
        sc_memcpy_to_device(device, mask, &one, 1, error) < 0 || sc_memcpy_to_device(device, visited, &one, 1, error) < 0)
        return -1;
    sc_kernel_arg expand[] = {sc_arg_ptr(g.row_offsets), sc_arg_ptr(g.columns), sc_arg_ptr(mask), sc_arg_ptr(updating),
                              sc_arg_ptr(visited),       sc_arg_ptr(cost),      sc_arg_u32(n)};
    sc_kernel_arg update[] = {sc_arg_ptr(mask), sc_arg_ptr(updating), sc_arg_ptr(visited), sc_arg_u32(n), sc_arg_ptr(more)};
    uint32_t again = 1, blocks = sc_blocks_for(n, BFS_BLOCK);
    while (again) {
        if (sc_workload_write_u32(device, more, 0, error) < 0 ||
            sc_launch_1d(device, module, "bfsmask_expand", blocks, BFS_BLOCK, expand, 7, error) < 0 ||
            sc_launch_1d(device, module, "bfsmask_update", blocks, BFS_BLOCK, update, 5, error) < 0 ||
            sc_workload_read_u32(device, more, &again, error) < 0)
            return -1;
    }
    return sc_memcpy_from_device(device, levels, cost, n * sizeof *levels, error);
}

/* Runs `search` on the size's random graph and compares its levels with the host's. */
static int run_bfs_with(sc_device *device, const sc_workload_params *params,
                        int (*search)(sc_device *, const sc_csr *, uint32_t *, sc_error *), sc_check_result *check,
                        sc_error *error)
{
    uint32_t vertices = sc_size_pick(params->size, 512, 16384, 262144, 262144);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 5);
    sc_csr graph;
    sc_csr_random(&scratch, &rng, vertices, vertices, 4, 1.0f, 2.0f, &graph);
    uint32_t *levels = sc_scratch_alloc(&scratch, vertices * sizeof *levels);
    int status = search(device, &graph, levels, error);
    if (status == 0) {
        uint32_t *expected = sc_scratch_alloc(&scratch, vertices * sizeof *expected);
        uint32_t *queue = sc_scratch_alloc(&scratch, vertices * sizeof *queue);
        bfs_reference(&graph, expected, queue);
        sc_compare_u32(check, "level", levels, expected, vertices);
    }
    sc_scratch_release(&scratch);
    return status;
}

static int run_bfs(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    return run_bfs_with(device, params, bfs_on_device, check, error);
}

static int run_bfsmask(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    return run_bfs_with(device, params, bfsmask_on_device, check, error);
}

const sc_workload sc_workload_bfs = {
    .name = "bfs",
    .description = "level-synchronous breadth-first search with an atomic frontier queue, one launch per level",
    .behaviour = "irregular, atomics, many launches driven by a host loop",
    .run = run_bfs,
};

const sc_workload sc_workload_bfsmask = {
    .name = "bfsmask",
    .description = "GPGPU-Sim suite BFS: a thread per vertex, shared frontier/next/visited byte masks, two launches per level",
    .behaviour = "inter-workgroup: CTAs write the same bytes of shared mask vectors, false sharing (Ren's BFS)",
    .run = run_bfsmask,
};
