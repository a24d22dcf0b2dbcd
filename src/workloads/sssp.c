/* sssp.c — drivers of the shortest-path workloads, which share one kernel (sssp.cu):
 *   sssp: single-source shortest paths from vertex 0 of a random weighted graph;
 *   apsp: all-pairs shortest paths, one Bellman-Ford per source, all in the same launches
 *         (the seeds' APSP microbenchmark, the one that uses LdAcq/StRel inside its kernels).
 * The host relaunches until a round changes nothing; the round count depends on how soon the
 * release stores become visible, so it is reported in the check detail. The check compares every
 * distance with a host Bellman-Ford.
 */
#include "workloads/workload_support.h"

#include <stdio.h>

#define SSSP_BLOCK 128
#define SSSP_INFINITY 0xffffffffu   /* must match sssp.cu */
#define SSSP_MAX_WEIGHT 16

/* A graph with integer edge weights 1..SSSP_MAX_WEIGHT (exact sums, exact check). */
typedef struct weighted_graph {
    sc_csr csr;
    uint32_t *weights;
} weighted_graph;

static void weighted_graph_random(sc_scratch *scratch, sc_rng *rng, uint32_t vertices, weighted_graph *graph)
{
    sc_csr_random(scratch, rng, vertices, vertices, 4, 1.0f, 2.0f, &graph->csr);
    graph->weights = sc_random_u32s(scratch, rng, graph->csr.nnz, SSSP_MAX_WEIGHT);
    for (uint32_t k = 0; k < graph->csr.nnz; k++)
        graph->weights[k] += 1;
}

/* dist[s][v]: 0 where v is source s, infinite elsewhere. Sources are vertices 0..sources-1. */
static void initial_distances(uint32_t *dist, uint32_t vertices, uint32_t sources)
{
    for (uint32_t s = 0; s < sources; s++)
        for (uint32_t v = 0; v < vertices; v++)
            dist[(size_t)s * vertices + v] = v == s ? 0 : SSSP_INFINITY;
}

/* Host Bellman-Ford over every source row at once, relaxing until nothing changes. */
static void shortest_paths_reference(const weighted_graph *graph, uint32_t sources, uint32_t *dist)
{
    const sc_csr *g = &graph->csr;
    initial_distances(dist, g->rows, sources);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t s = 0; s < sources; s++) {
            uint32_t *row = dist + (size_t)s * g->rows;
            for (uint32_t v = 0; v < g->rows; v++)
                for (uint32_t k = g->row_offsets[v]; row[v] != SSSP_INFINITY && k < g->row_offsets[v + 1]; k++)
                    if (row[v] + graph->weights[k] < row[g->columns[k]]) {
                        row[g->columns[k]] = row[v] + graph->weights[k];
                        changed = true;
                    }
        }
    }
}

static int shortest_paths_on_device(sc_device *device, const weighted_graph *graph, uint32_t sources,
                                    uint32_t *dist, uint32_t *launches, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "sssp", error);
    if (module < 0)
        return -1;
    uint32_t vertices = graph->csr.rows;
    size_t bytes = (size_t)vertices * sources * sizeof *dist;
    sc_device_csr g;
    initial_distances(dist, vertices, sources);
    uint64_t weights_dev = sc_workload_upload(device, graph->weights, graph->csr.nnz * sizeof *graph->weights, error);
    uint64_t dist_dev = sc_workload_upload(device, dist, bytes, error);
    uint64_t changed_dev = sc_workload_alloc(device, sizeof(uint32_t), error);
    if (sc_csr_upload(device, &graph->csr, &g, error) < 0 || weights_dev == 0 || dist_dev == 0 || changed_dev == 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(g.row_offsets), sc_arg_ptr(g.columns), sc_arg_ptr(weights_dev),
                            sc_arg_ptr(dist_dev), sc_arg_u32(vertices), sc_arg_u32(sources), sc_arg_ptr(changed_dev)};
    uint32_t grid = sc_blocks_for((uint64_t)vertices * sources, SSSP_BLOCK);
    for (uint32_t changed = 1; changed != 0;) {
        if (sc_workload_write_u32(device, changed_dev, 0, error) < 0 ||
            sc_launch_1d(device, module, "sssp_relax", grid, SSSP_BLOCK, args, 7, error) < 0 ||
            sc_workload_read_u32(device, changed_dev, &changed, error) < 0)
            return -1;
        ++*launches;
    }
    return sc_memcpy_from_device(device, dist, dist_dev, bytes, error);
}

/* Runs `sources` shortest-path problems on a random graph of `vertices` vertices. */
static int run_shortest_paths(sc_device *device, const sc_workload_params *params, uint32_t vertices,
                              uint32_t sources, sc_check_result *check, sc_error *error)
{
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 12);
    weighted_graph graph;
    weighted_graph_random(&scratch, &rng, vertices, &graph);
    size_t cells = (size_t)vertices * sources;
    uint32_t *dist = sc_scratch_alloc(&scratch, cells * sizeof *dist);
    uint32_t launches = 0;
    int status = shortest_paths_on_device(device, &graph, sources, dist, &launches, error);
    if (status == 0) {
        uint32_t *expected = sc_scratch_alloc(&scratch, cells * sizeof *expected);
        shortest_paths_reference(&graph, sources, expected);
        if (sc_compare_u32(check, "dist", dist, expected, cells))
            snprintf(check->detail, sizeof check->detail, "ok: converged after %u launches", launches);
    }
    sc_scratch_release(&scratch);
    return status;
}

static int run_sssp(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    return run_shortest_paths(device, params, sc_size_pick(params->size, 512, 4096, 32768, 32768), 1, check, error);
}

static int run_apsp(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t vertices = sc_size_pick(params->size, 32, 80, 160, 160);
    return run_shortest_paths(device, params, vertices, vertices, check, error);
}

const sc_workload sc_workload_sssp = {
    .name = "sssp",
    .description = "single-source shortest paths: Bellman-Ford rounds publishing distances with st.release / ld.acquire",
    .behaviour = "fine-grain acquire/release inside kernels, launches until convergence",
    .run = run_sssp,
};

const sc_workload sc_workload_apsp = {
    .name = "apsp",
    .description = "all-pairs shortest paths: one Bellman-Ford per source in the same acquire/release launches",
    .behaviour = "acquire/release-heavy, run length depends on memory timing (the seeds' APSP)",
    .run = run_apsp,
};
