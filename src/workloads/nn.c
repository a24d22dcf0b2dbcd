/* nn.c — driver of the Rodinia-style nearest-neighbour workload: one kernel computes the
 * distance of every (latitude, longitude) record to a target and the host picks the nearest
 * records from the distances it reads back. A pure stream with full-line, write-once output —
 * the QuickRelease paper's nn, used with reduction in its problem-size scaling study.
 */
#include <math.h>

#include "workloads/workload_support.h"

#define NN_BLOCK 256
#define NN_NEAREST 8
#define NN_TARGET_LAT 30.0f
#define NN_TARGET_LNG 90.0f

/* Runs the distance kernel over `records` (n interleaved lat/lng pairs) into `distances`. */
static int nn_on_device(sc_device *device, const float *records, float *distances, uint32_t n, sc_error *error)
{
    int module = sc_device_load_builtin_ptx(device, "nn", error);
    if (module < 0)
        return -1;
    uint64_t records_dev = sc_workload_upload(device, records, 2 * (size_t)n * sizeof *records, error);
    uint64_t distances_dev = sc_workload_alloc(device, n * sizeof *distances, error);
    if (records_dev == 0 || distances_dev == 0)
        return -1;
    sc_kernel_arg args[] = {sc_arg_ptr(records_dev), sc_arg_ptr(distances_dev), sc_arg_u32(n),
                            sc_arg_f32(NN_TARGET_LAT), sc_arg_f32(NN_TARGET_LNG)};
    if (sc_launch_1d(device, module, "nn_distances", sc_blocks_for(n, NN_BLOCK), NN_BLOCK, args, 5, error) < 0)
        return -1;
    return sc_memcpy_from_device(device, distances, distances_dev, n * sizeof *distances, error);
}

/* Indices of the `k` smallest distances, nearest first (selection; k is small). */
static void nearest(const float *distances, uint32_t n, uint32_t *chosen, uint32_t k)
{
    for (uint32_t slot = 0; slot < k; slot++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++) {
            bool taken = false;
            for (uint32_t s = 0; s < slot && !taken; s++)
                taken = chosen[s] == i;
            if (!taken && (best == UINT32_MAX || distances[i] < distances[best]))
                best = i;
        }
        chosen[slot] = best;
    }
}

static int run_nn(sc_device *device, const sc_workload_params *params, sc_check_result *check, sc_error *error)
{
    uint32_t n = sc_size_pick(params->size, 1000, 65536, 1u << 20, 1u << 23);
    sc_scratch scratch = {0};
    sc_rng rng;
    sc_rng_seed(&rng, params->seed, 1);
    float *records = sc_scratch_alloc(&scratch, 2 * (size_t)n * sizeof *records);
    for (uint32_t i = 0; i < n; i++) {
        records[2 * i] = sc_rng_float(&rng, -90.0f, 90.0f);
        records[2 * i + 1] = sc_rng_float(&rng, -180.0f, 180.0f);
    }
    float *distances = sc_scratch_alloc(&scratch, n * sizeof *distances);
    int status = nn_on_device(device, records, distances, n, error);
    if (status == 0) {
        float *expected = sc_scratch_alloc(&scratch, n * sizeof *expected);
        for (uint32_t i = 0; i < n; i++) {
            float dlat = NN_TARGET_LAT - records[2 * i], dlng = NN_TARGET_LNG - records[2 * i + 1];
            expected[i] = sqrtf(dlat * dlat + dlng * dlng);
        }
        uint32_t got_nearest[NN_NEAREST], expected_nearest[NN_NEAREST];
        nearest(distances, n, got_nearest, NN_NEAREST);
        nearest(expected, n, expected_nearest, NN_NEAREST);
        if (sc_compare_f32(check, "distances", distances, expected, n, 1e-6f))
            sc_compare_u32(check, "nearest", got_nearest, expected_nearest, NN_NEAREST);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_nn = {
    .name = "nn",
    .description = "nearest neighbour: distance of every lat/lng record to a target, host picks the nearest",
    .behaviour = "streaming, full-line write-once output",
    .run = run_nn,
};
