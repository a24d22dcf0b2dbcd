/* kmeans.c — driver of the k-means workload: each iteration the host writes the centroids, the
 * GPU assigns every point to its nearest centroid, and the host reads the memberships back and
 * recomputes the centroids — the CPU-GPU sharing through the same buffers that the seeds
 * describe. The check verifies each iteration's memberships: every point's centroid is a nearest
 * one (ties within float rounding accepted).
 */
#include "workloads/workload_support.h"

#define KMEANS_BLOCK 128
#define KMEANS_FEATURES 8
#define KMEANS_CLUSTERS 5

static float squared_distance(const float *x, const float *y)
{
    float sum = 0.0f;
    for (int f = 0; f < KMEANS_FEATURES; f++)
        sum += (x[f] - y[f]) * (x[f] - y[f]);
    return sum;
}

/* Checks that every point's cluster is one of its nearest centroids. */
static bool memberships_nearest(sc_check_result *check, int iteration, const float *points, uint32_t n,
                                const float *centroids, const uint32_t *membership)
{
    for (uint32_t p = 0; p < n; p++) {
        const float *point = points + (size_t)p * KMEANS_FEATURES;
        if (membership[p] >= KMEANS_CLUSTERS) {
            sc_check_fail(check, "iteration %d: membership[%u] = %u is not a cluster", iteration, p, membership[p]);
            return false;
        }
        float chosen = squared_distance(point, centroids + membership[p] * KMEANS_FEATURES);
        for (uint32_t c = 0; c < KMEANS_CLUSTERS; c++) {
            float distance = squared_distance(point, centroids + c * KMEANS_FEATURES);
            if (chosen > distance + 1e-4f * (distance > 1.0f ? distance : 1.0f)) {
                sc_check_fail(check, "iteration %d: membership[%u] = %u, but cluster %u is nearer", iteration, p,
                              membership[p], c);
                return false;
            }
        }
    }
    sc_check_pass(check);
    return true;
}

/* The host phase: each centroid becomes the mean of its points (an empty cluster stays put). */
static void update_centroids(const float *points, uint32_t n, const uint32_t *membership, float *centroids)
{
    float sums[KMEANS_CLUSTERS][KMEANS_FEATURES] = {{0}};
    uint32_t counts[KMEANS_CLUSTERS] = {0};
    for (uint32_t p = 0; p < n; p++) {
        counts[membership[p]]++;
        for (int f = 0; f < KMEANS_FEATURES; f++)
            sums[membership[p]][f] += points[(size_t)p * KMEANS_FEATURES + f];
    }
    for (int c = 0; c < KMEANS_CLUSTERS; c++)
        for (int f = 0; f < KMEANS_FEATURES && counts[c] > 0; f++)
            centroids[c * KMEANS_FEATURES + f] = sums[c][f] / (float)counts[c];
}

/* Runs the iterations; returns -1 only if the device failed. A failed check stops early. */
static int kmeans_iterate(sc_device *device, const float *points, uint32_t n, int iterations, float *centroids,
                          uint32_t *membership, sc_check_result *check, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "kmeans", error);
    if (module < 0)
        return -1;
    size_t centroid_bytes = KMEANS_CLUSTERS * KMEANS_FEATURES * sizeof *centroids;
    uint64_t points_dev = sc_workload_upload(device, points, (size_t)n * KMEANS_FEATURES * sizeof *points, error);
    uint64_t centroids_dev = sc_workload_alloc(device, centroid_bytes, error);
    uint64_t membership_dev = sc_workload_alloc(device, n * sizeof *membership, error);
    if (points_dev == 0 || centroids_dev == 0 || membership_dev == 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(points_dev), sc_arg_ptr(centroids_dev), sc_arg_ptr(membership_dev),
                            sc_arg_u32(n), sc_arg_u32(KMEANS_CLUSTERS), sc_arg_u32(KMEANS_FEATURES)};
    for (int iteration = 0; iteration < iterations; iteration++) {
        if (sc_memcpy_to_device(device, centroids_dev, centroids, centroid_bytes, error) < 0 ||
            sc_launch_1d(device, module, "kmeans_assign", sc_blocks_for(n, KMEANS_BLOCK), KMEANS_BLOCK, args, 6,
                         error) < 0 ||
            sc_memcpy_from_device(device, membership, membership_dev, n * sizeof *membership, error) < 0)
            return -1;
        if (!memberships_nearest(check, iteration, points, n, centroids, membership))
            return 0;
        update_centroids(points, n, membership, centroids);
    }
    return 0;
}

static int run_kmeans(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                      sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 512, 2048, 16384, 8192);
    int iterations = (int)sc_size_pick(params->size, 3, 5, 5, 400);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 9);
    float *points = sc_random_floats(&scratch, &rng, (size_t)n * KMEANS_FEATURES, 0.0f, 10.0f);
    float *centroids = sc_scratch_alloc(&scratch, KMEANS_CLUSTERS * KMEANS_FEATURES * sizeof *centroids);
    for (int c = 0; c < KMEANS_CLUSTERS; c++)   /* the first points seed the clusters */
        for (int f = 0; f < KMEANS_FEATURES; f++)
            centroids[c * KMEANS_FEATURES + f] = points[c * KMEANS_FEATURES + f];
    uint32_t *membership = sc_scratch_alloc(&scratch, n * sizeof *membership);
    int status = kmeans_iterate(device, points, n, iterations, centroids, membership, check, error);
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_kmeans = {
    .name = "kmeans",
    .description = "k-means: GPU nearest-centroid assignment, host centroid update, repeated on the same buffers",
    .behaviour = "many launches with CPU reads and writes of shared buffers between them",
    .run = run_kmeans,
};
