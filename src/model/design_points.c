/* design_points.c — random design points around a preset for calibration and validation
 * (calibration.h): L1 and L2 capacity scaled by 1/4..2 (kept multiples of ways x line size and,
 * for the L2, of banks), CU count from half the preset's to the preset's, DRAM clock 0.5..1.5x,
 * NoC latency 1..2x the preset's. A point the detailed model's configuration checks reject is
 * redrawn. */
#include "model/calibration.h"

#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/random.h"
#include "timing/timing_config.h"

static double uniform(uint64_t *state)
{
    return (double)(sc_splitmix64(state) >> 11) / 9007199254740992.0;
}

static long long pick_scaled(uint64_t *state, long long base, long long granule)
{
    static const double scales[] = {0.25, 0.5, 0.75, 1.0, 1.5, 2.0};
    long long value = (long long)(base * scales[sc_splitmix64(state) % 6]);
    value = value / granule * granule;
    return value < granule ? granule : value;
}

static void draw(const sc_config *base, uint64_t *state, model_design_point *point)
{
    long long line = sc_config_int(base, "l1.line_size");
    long long l1 = pick_scaled(state, sc_config_int(base, "l1.size"), sc_config_int(base, "l1.associativity") * line);
    long long l2 = pick_scaled(state, sc_config_int(base, "l2.size"),
                               sc_config_int(base, "l2.associativity") * line * sc_config_int(base, "l2.banks"));
    long long cus = sc_config_int(base, "gpu.cu_count");
    cus = cus / 2 + (long long)(sc_splitmix64(state) % (uint64_t)(cus - cus / 2 + 1));
    long long dram_mhz = (long long)(sc_config_float(base, "dram.clock") / 1e6 * (0.5 + uniform(state)));
    long long noc_latency = sc_config_int(base, "noc.latency");
    noc_latency += (long long)(sc_splitmix64(state) % (uint64_t)(noc_latency + 1));
    snprintf(point->sets[0], sizeof point->sets[0], "l1.size=%lld", l1);
    snprintf(point->sets[1], sizeof point->sets[1], "l2.size=%lld", l2);
    snprintf(point->sets[2], sizeof point->sets[2], "gpu.cu_count=%lld", cus);
    snprintf(point->sets[3], sizeof point->sets[3], "dram.clock=%lldMHz", dram_mhz);
    snprintf(point->sets[4], sizeof point->sets[4], "noc.latency=%lld", noc_latency);
    snprintf(point->json, sizeof point->json,
             "{\"l1.size\": %lld, \"l2.size\": %lld, \"gpu.cu_count\": %lld, \"dram.clock\": \"%lldMHz\", "
             "\"noc.latency\": %lld}", l1, l2, cus, dram_mhz, noc_latency);
}

sc_config *model_design_config(const char *system, const model_design_point *point, sc_error *error)
{
    const char *sets[MODEL_POINT_KEYS];
    for (int k = 0; k < MODEL_POINT_KEYS; k++)
        sets[k] = point->sets[k];
    return sc_config_load(system, NULL, sets, MODEL_POINT_KEYS, error);
}

int model_design_points(const char *system, uint64_t seed, int count, const char *const *exclude, int exclude_count,
                        model_design_point *out, sc_error *error)
{
    sc_config *base = sc_config_load(system, NULL, NULL, 0, error);
    if (!base)
        return -1;
    uint64_t state = seed;
    int made = 0;
    for (int attempt = 0; made < count && attempt < 1000 * count; attempt++) {
        model_design_point *point = &out[made];
        draw(base, &state, point);
        bool duplicate = sc_name_index(exclude, exclude_count, point->json) >= 0;
        for (int i = 0; i < made && !duplicate; i++)
            duplicate = !strcmp(out[i].json, point->json);
        if (duplicate)
            continue;
        sc_error ignored = {{0}};
        sc_config *config = model_design_config(system, point, &ignored);
        timing_config timing;
        if (config && timing_config_load(config, 0, &timing, &ignored) == 0)
            made++;
        sc_config_free(config);
    }
    sc_config_free(base);
    if (made < count)
        return sc_fail(error, "could not draw %d distinct valid design points around %s", count, system);
    return 0;
}
