/* dlb.c — driver of the DLB workload (Ren's Table 3.4: dynamic load balancing by work stealing,
 * after Cederman & Tsigas's octree partitioning): one launch of dlb_partition (dlb.cu) splits a
 * clustered cloud of particles into an octree, every CTA working from its own lock-free deque and
 * stealing from a random other CTA's when its own is empty. Which CTA processes which node, and
 * the order of ids inside a node's range, depend on timing; the octree does not. The check
 * verifies the invariants of a correct run: no deque overflowed, every node was processed
 * exactly once (the device's task and leaf counts equal the host octree's), and every leaf of the
 * host octree was produced once, at the same place in the id array, holding exactly the ids of
 * the particles inside it.
 */
#include <stdlib.h>

#include "workloads/workload_support.h"

#define DLB_TASK_WORDS 4   /* the constants below must match dlb.cu */
#define DLB_HEADER_WORDS 64
#define DLB_COORD_BITS 10
#define STATE_OUTSTANDING 0
#define STATE_LEAVES 32
#define STATE_TASKS 64
#define STATE_OVERFLOW 96
#define STATE_WORDS 128
#define DLB_CAPACITY 128   /* tasks per deque: depth-first pushes keep at most 7 per level + 1 */
#define DLB_MAX_DEPTH 8
#define DLB_CLUSTERS 6

/* One octree leaf (or, for the host walk, a node): a range of the id array and its cube. */
typedef struct dlb_leaf {
    uint32_t begin, count, depth, code;
} dlb_leaf;

/* The host octree: its leaves in creation order, its node count, and the ids in leaf order. */
typedef struct dlb_tree {
    dlb_leaf *leaves;
    uint32_t leaf_count, node_count;
    uint32_t *ids;
} dlb_tree;

static uint32_t octant_of(const uint32_t *const coords[3], uint32_t id, uint32_t depth)
{
    uint32_t bit = DLB_COORD_BITS - 1 - depth;
    return ((coords[0][id] >> bit) & 1u) << 2 | ((coords[1][id] >> bit) & 1u) << 1 | ((coords[2][id] >> bit) & 1u);
}

/* Partitions ids[begin, begin+count) like the kernel (a stable split here; the device's order
 * inside an octant may differ) and recurses into the non-empty octants. */
static void dlb_reference(const uint32_t *const coords[3], uint32_t *ids, uint32_t *spare, dlb_leaf node,
                          uint32_t leaf_limit, dlb_tree *tree)
{
    tree->node_count++;
    if (node.count <= leaf_limit || node.depth >= DLB_MAX_DEPTH) {
        tree->leaves[tree->leaf_count++] = node;
        return;
    }
    uint32_t counts[8] = {0}, starts[8];
    for (uint32_t i = 0; i < node.count; i++)
        counts[octant_of(coords, ids[node.begin + i], node.depth)]++;
    for (uint32_t o = 0, start = 0; o < 8; o++) {
        starts[o] = start;
        start += counts[o];
    }
    uint32_t cursors[8];
    for (uint32_t o = 0; o < 8; o++)
        cursors[o] = starts[o];
    for (uint32_t i = 0; i < node.count; i++) {
        uint32_t id = ids[node.begin + i];
        spare[node.begin + cursors[octant_of(coords, id, node.depth)]++] = id;
    }
    for (uint32_t i = 0; i < node.count; i++)
        ids[node.begin + i] = spare[node.begin + i];
    for (uint32_t o = 0; o < 8; o++)
        if (counts[o] > 0)
            dlb_reference(coords, ids, spare,
                          (dlb_leaf){node.begin + starts[o], counts[o], node.depth + 1, node.code << 3 | o}, leaf_limit,
                          tree);
}

static int compare_leaves(const void *a, const void *b)
{
    const dlb_leaf *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Particles in DLB_CLUSTERS tight clusters (a sum of three uniform offsets around each centre),
 * so the octree is deep where the clusters are and the work is unbalanced. */
static void dlb_particles(sc_rng *rng, uint32_t n, uint32_t *coords[3])
{
    uint32_t centres[DLB_CLUSTERS][3];
    for (int c = 0; c < DLB_CLUSTERS; c++)
        for (int d = 0; d < 3; d++)
            centres[c][d] = 128 + sc_rng_below(rng, 768);
    for (uint32_t p = 0; p < n; p++) {
        uint32_t c = sc_rng_below(rng, DLB_CLUSTERS);
        for (int d = 0; d < 3; d++) {
            int32_t v = (int32_t)centres[c][d] - 96;
            for (int k = 0; k < 3; k++)
                v += (int32_t)sc_rng_below(rng, 65);
            coords[d][p] = (uint32_t)(v < 0 ? 0 : v > 1023 ? 1023 : v);
        }
    }
}

/* Device results of one run. */
typedef struct dlb_result {
    uint32_t state[STATE_WORDS];
    dlb_leaf *leaves;
    uint32_t *placed;
} dlb_result;

static int dlb_on_device(sc_device *device, uint32_t *const coords[3], uint32_t n, uint32_t ctas, uint32_t block,
                         uint32_t leaf_limit, uint32_t max_leaves, dlb_result *result, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "dlb", error);
    if (module < 0)
        return -1;
    size_t id_bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *ids = malloc(id_bytes);
    if (!ids)
        return sc_fail(error, "dlb: out of host memory");
    for (uint32_t p = 0; p < n; p++)
        ids[p] = p;
    uint32_t state[STATE_WORDS] = {0};
    state[STATE_OUTSTANDING] = 1;
    uint32_t root_header[DLB_HEADER_WORDS] = {0};
    root_header[32] = 1;   /* CTA 0's bottom: the root task in slot 0 */
    uint32_t root[DLB_TASK_WORDS] = {0, n, 0, 0};
    uint64_t x = sc_workload_upload(device, coords[0], id_bytes, error);
    uint64_t y = sc_workload_upload(device, coords[1], id_bytes, error);
    uint64_t z = sc_workload_upload(device, coords[2], id_bytes, error);
    uint64_t ids0 = sc_workload_upload(device, ids, id_bytes, error);
    free(ids);
    uint64_t ids1 = sc_workload_alloc(device, id_bytes, error);
    uint64_t placed = sc_workload_alloc(device, id_bytes, error);
    uint64_t headers = sc_workload_alloc(device, (size_t)ctas * DLB_HEADER_WORDS * sizeof(uint32_t), error);
    uint64_t items = sc_workload_alloc(device, (size_t)ctas * DLB_CAPACITY * DLB_TASK_WORDS * sizeof(uint32_t), error);
    uint64_t leaves = sc_workload_alloc(device, (size_t)max_leaves * sizeof(dlb_leaf), error);
    uint64_t state_dev = sc_workload_upload(device, state, sizeof state, error);
    if (!x || !y || !z || !ids0 || !ids1 || !placed || !headers || !items || !leaves || !state_dev ||
        sc_memcpy_to_device(device, headers, root_header, sizeof root_header, error) < 0 ||
        sc_memcpy_to_device(device, items, root, sizeof root, error) < 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(x), sc_arg_ptr(y), sc_arg_ptr(z), sc_arg_ptr(ids0), sc_arg_ptr(ids1),
                            sc_arg_ptr(placed), sc_arg_ptr(headers), sc_arg_ptr(items), sc_arg_u32(DLB_CAPACITY),
                            sc_arg_u32(leaf_limit), sc_arg_u32(DLB_MAX_DEPTH), sc_arg_ptr(leaves),
                            sc_arg_ptr(state_dev)};
    if (sc_launch_1d(device, module, "dlb_partition", ctas, block, args, 13, error) < 0 ||
        sc_memcpy_from_device(device, result->state, state_dev, sizeof result->state, error) < 0 ||
        sc_memcpy_from_device(device, result->placed, placed, id_bytes, error) < 0)
        return -1;
    uint32_t leaf_count = result->state[STATE_LEAVES] < max_leaves ? result->state[STATE_LEAVES] : max_leaves;
    return sc_memcpy_from_device(device, result->leaves, leaves, leaf_count * sizeof(dlb_leaf), error);
}

/* The device's counters against the host octree: no overflow, nothing outstanding, every node
 * processed once, every leaf made once. */
static void dlb_check_counts(const uint32_t *state, const dlb_tree *tree, sc_check_result *check)
{
    if (state[STATE_OVERFLOW])
        sc_check_fail(check, "a deque overflowed its %u tasks", DLB_CAPACITY);
    else if (state[STATE_OUTSTANDING] != 0)
        sc_check_fail(check, "%u tasks outstanding at the end", state[STATE_OUTSTANDING]);
    else if (state[STATE_TASKS] != tree->node_count)
        sc_check_fail(check, "processed %u tasks, the octree has %u nodes", state[STATE_TASKS], tree->node_count);
    else if (state[STATE_LEAVES] != tree->leaf_count)
        sc_check_fail(check, "made %u leaves, the octree has %u", state[STATE_LEAVES], tree->leaf_count);
    else
        sc_check_pass(check);
}

/* The invariants of a correct run against the host octree (see the file comment). */
static void dlb_check(const dlb_result *result, dlb_tree *tree, uint32_t n, sc_check_result *check)
{
    dlb_check_counts(result->state, tree, check);
    if (!check->passed)
        return;
    qsort(result->leaves, tree->leaf_count, sizeof(dlb_leaf), compare_leaves);
    qsort(tree->leaves, tree->leaf_count, sizeof(dlb_leaf), compare_leaves);
    for (uint32_t l = 0; l < tree->leaf_count; l++) {
        dlb_leaf got = result->leaves[l], want = tree->leaves[l];
        if (got.begin != want.begin || got.count != want.count || got.depth != want.depth || got.code != want.code) {
            sc_check_fail(check, "leaf %u: begin %u count %u depth %u code %#x, expected %u %u %u %#x", l, got.begin,
                          got.count, got.depth, got.code, want.begin, want.count, want.depth, want.code);
            return;
        }
        qsort(result->placed + got.begin, got.count, sizeof(uint32_t), compare_u32);
        qsort(tree->ids + want.begin, want.count, sizeof(uint32_t), compare_u32);
    }
    sc_compare_u32(check, "placed id (sorted within its leaf)", result->placed, tree->ids, n);
}

static int run_dlb(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 1024, 16384, 131072, 524288);
    uint32_t ctas = sc_size_pick(params->size, 8, 16, 32, 64);
    uint32_t block = sc_size_pick(params->size, 64, 128, 128, 128);
    uint32_t leaf_limit = sc_size_pick(params->size, 32, 64, 64, 64);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 31);
    uint32_t *coords[3];
    for (int d = 0; d < 3; d++)
        coords[d] = sc_scratch_alloc(&scratch, n * sizeof(uint32_t));
    dlb_particles(&rng, n, coords);
    dlb_tree tree = {.leaves = sc_scratch_alloc(&scratch, n * sizeof(dlb_leaf)),
                     .ids = sc_scratch_alloc(&scratch, n * sizeof(uint32_t))};
    for (uint32_t p = 0; p < n; p++)
        tree.ids[p] = p;
    const uint32_t *const host_coords[3] = {coords[0], coords[1], coords[2]};
    dlb_reference(host_coords, tree.ids, sc_scratch_alloc(&scratch, n * sizeof(uint32_t)), (dlb_leaf){0, n, 0, 0},
                  leaf_limit, &tree);
    dlb_result result = {.leaves = sc_scratch_alloc(&scratch, n * sizeof(dlb_leaf)),
                         .placed = sc_scratch_alloc(&scratch, n * sizeof(uint32_t))};
    int status = dlb_on_device(device, coords, n, ctas, block, leaf_limit, n, &result, error);
    if (status == 0)
        dlb_check(&result, &tree, n, check);
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_dlb = {
    .name = "dlb",
    .description = "octree partitioning with a lock-free work-stealing deque per CTA, every queue access fenced",
    .behaviour = "inter-workgroup: mostly private queues, rare fenced steals from a random other CTA (Ren's DLB)",
    .run = run_dlb,
};
