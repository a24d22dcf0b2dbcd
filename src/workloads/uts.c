/* uts.c — drivers of the Unbalanced Tree Search workloads (the GSI thesis's case study 1), which
 * share one kernel source (uts.cu):
 *   uts:  every warp pulls batches of nodes from one global queue behind one spin lock;
 *   utsd: each CTA has its own locked queue and uses the global one only to balance load.
 * The tree is implicit and deterministic (hashes of node ids, as in uts.cu); the host seeds the
 * global queue with the root's children and counts the tree itself. The check compares the
 * number of nodes visited and the sum of their ids with the host's.
 */
#include "workloads/workload_support.h"

#define UTS_BLOCK 128               /* 32 * UTS_WARPS_PER_CTA in uts.cu */
#define UTS_BRANCH 4                /* the constants below must match uts.cu */
#define UTS_BRANCH_PERMILLE 220     /* expected children 0.88: a finite, bushy tree */
#define STATE_LOCK 0
#define STATE_TOP 1
#define STATE_OUTSTANDING 32
#define STATE_VISITED 64
#define STATE_CHECKSUM 65
#define STATE_WORDS 96
#define LOCAL_HEADER_WORDS 32

static uint32_t child_count(uint32_t node)
{
    return sc_hash32(node ^ 0x5bd1e995u) % 1000u < UTS_BRANCH_PERMILLE ? UTS_BRANCH : 0;
}

static uint32_t child_id(uint32_t node, uint32_t index)
{
    return sc_hash32(node + 0x9e3779b9u * (index + 1));
}

/* Counts the subtree of `node` and adds its ids to *checksum. */
static uint64_t count_subtree(uint32_t node, uint32_t *checksum)
{
    uint64_t count = 1;
    *checksum += node;
    for (uint32_t c = 0; c < child_count(node); c++)
        count += count_subtree(child_id(node, c), checksum);
    return count;
}

/* The work description: the root's children, and the tree's size and id checksum. */
typedef struct uts_tree {
    uint32_t *roots;
    uint32_t root_count;
    uint64_t nodes;
    uint32_t checksum;
} uts_tree;

static void uts_tree_build(sc_scratch *scratch, uint64_t seed, uint32_t root_count, uts_tree *tree)
{
    sc_rng rng;
    sc_rng_seed(&rng, seed, 13);
    tree->roots = sc_random_u32s(scratch, &rng, root_count, UINT32_MAX);
    tree->root_count = root_count;
    tree->nodes = 0;
    tree->checksum = 0;
    for (uint32_t r = 0; r < root_count; r++)
        tree->nodes += count_subtree(tree->roots[r], &tree->checksum);
}

/* How the queues are laid out for one run. */
typedef struct uts_layout {
    uint32_t ctas;
    uint32_t local_capacity;   /* 0: the centralised uts */
} uts_layout;

/* Runs the search; visited/checksum receive the device's counters. */
static int uts_on_device(sc_device *device, const uts_tree *tree, uts_layout layout, uint32_t *visited,
                         uint32_t *checksum, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "uts", error);
    if (module < 0)
        return -1;
    uint32_t state[STATE_WORDS] = {0};
    state[STATE_TOP] = tree->root_count;
    state[STATE_OUTSTANDING] = tree->root_count;
    uint32_t capacity = (uint32_t)tree->nodes;
    uint64_t state_dev = sc_workload_upload(device, state, sizeof state, error);
    uint64_t items_dev = sc_workload_alloc(device, (size_t)capacity * sizeof(uint32_t), error);
    if (state_dev == 0 || items_dev == 0 ||
        sc_memcpy_to_device(device, items_dev, tree->roots, tree->root_count * sizeof(uint32_t), error) < 0)
        return -1;
    int status;
    if (layout.local_capacity == 0) {
        sc_kernel_arg args[] = {sc_arg_ptr(state_dev), sc_arg_ptr(items_dev), sc_arg_u32(capacity),
                                sc_arg_u32(UTS_BRANCH_PERMILLE)};
        status = sc_launch_1d(device, module, "uts_global", layout.ctas, UTS_BLOCK, args, 4, error);
    } else {
        uint64_t headers = sc_workload_alloc(device, (size_t)layout.ctas * LOCAL_HEADER_WORDS * sizeof(uint32_t), error);
        uint64_t local_items = sc_workload_alloc(device, (size_t)layout.ctas * layout.local_capacity * sizeof(uint32_t),
                                               error);
        if (headers == 0 || local_items == 0)
            return -1;
        sc_kernel_arg args[] = {sc_arg_ptr(state_dev), sc_arg_ptr(items_dev), sc_arg_u32(capacity),
                                sc_arg_u32(UTS_BRANCH_PERMILLE), sc_arg_ptr(headers), sc_arg_ptr(local_items),
                                sc_arg_u32(layout.local_capacity)};
        status = sc_launch_1d(device, module, "utsd_local", layout.ctas, UTS_BLOCK, args, 7, error);
    }
    if (status < 0 || sc_workload_read_u32(device, state_dev + STATE_VISITED * sizeof(uint32_t), visited, error) < 0)
        return -1;
    return sc_workload_read_u32(device, state_dev + STATE_CHECKSUM * sizeof(uint32_t), checksum, error);
}

static int run_uts_with(sc_device *device, const sc_workload_params *params, uint32_t local_capacity,
                        sc_check_result *check, sc_error *error)
{
    sc_scratch scratch = {0};
    uts_tree tree;
    uts_tree_build(&scratch, params->seed, sc_size_pick(params->size, 48, 1024, 16384, 16384), &tree);
    uts_layout layout = {sc_size_pick(params->size, 2, 8, 15, 15), local_capacity};
    uint32_t visited = 0, checksum = 0;
    int status = -1;
    if (tree.nodes > UINT32_MAX / 2)
        sc_fail(error, "uts: the generated tree has %llu nodes, too many", (unsigned long long)tree.nodes);
    else
        status = uts_on_device(device, &tree, layout, &visited, &checksum, error);
    if (status == 0 && visited != tree.nodes)
        sc_check_fail(check, "visited %u nodes, expected %llu", visited, (unsigned long long)tree.nodes);
    else if (status == 0 && checksum != tree.checksum)
        sc_check_fail(check, "node id checksum %#x, expected %#x", checksum, tree.checksum);
    else if (status == 0)
        sc_check_pass(check);
    sc_scratch_release(&scratch);
    return status;
}

static int run_uts(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    return run_uts_with(device, params, 0, check, error);
}

static int run_utsd(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    return run_uts_with(device, params, sc_size_pick(params->size, 64, 256, 1024, 1024), check, error);
}

const sc_workload sc_workload_uts = {
    .name = "uts",
    .description = "unbalanced tree search from one global task queue behind one spin lock",
    .behaviour = "heavy irregular synchronisation: lock acquire/release by one lane per warp",
    .run = run_uts,
};

const sc_workload sc_workload_utsd = {
    .name = "utsd",
    .description = "unbalanced tree search with a locked queue per CTA, the global queue only for load balance",
    .behaviour = "decentralised locking with local reuse, occasional global spills and steals",
    .run = run_utsd,
};
