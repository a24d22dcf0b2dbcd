/* design_points.c — design points around a preset for calibration and validation
 * (calibration.h): L1 and L2 capacity scaled by 1/4..2 (kept multiples of ways x line size and,
 * for the L2, of banks), CU count from half the preset's to the preset's, DRAM clock 0.5..1.5x,
 * NoC latency 1..2x the preset's. Random points (suite-wide calibration, validation) draw each
 * key at random; a per-workload calibration's design takes the box's corners (a fractional
 * factorial; an end the configuration checks reject moved toward the preset) and a Latin
 * hypercube over the same ranges. A point the detailed model's
 * configuration checks reject is redrawn. */
#include "model/calibration.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/random.h"
#include "timing/timing_config.h"

static const double capacity_scales[] = {0.25, 0.5, 0.75, 1.0, 1.5, 2.0};
enum { CAPACITY_SCALES = sizeof capacity_scales / sizeof capacity_scales[0] };

static long long scaled(long long base, int scale, long long granule)
{
    long long value = (long long)(base * capacity_scales[scale]);
    value = value / granule * granule;
    return value < granule ? granule : value;
}

/* The point of the preset `base` at the given level of each key: capacity scale indices into
 * capacity_scales, CUs added to half the preset's, DRAM clock factor, NoC latency added. */
static void set_point(const sc_config *base, int l1_scale, int l2_scale, long long extra_cus, double dram_factor,
                      long long extra_latency, model_design_point *point)
{
    long long line = sc_config_int(base, "l1.line_size");
    long long l1 = scaled(sc_config_int(base, "l1.size"), l1_scale, sc_config_int(base, "l1.associativity") * line);
    long long l2 = scaled(sc_config_int(base, "l2.size"), l2_scale,
                          sc_config_int(base, "l2.associativity") * line * sc_config_int(base, "l2.banks"));
    long long cus = sc_config_int(base, "gpu.cu_count") / 2 + extra_cus;
    long long dram_mhz = (long long)(sc_config_float(base, "dram.clock") / 1e6 * dram_factor);
    long long noc_latency = sc_config_int(base, "noc.latency") + extra_latency;
    snprintf(point->sets[0], sizeof point->sets[0], "l1.size=%lld", l1);
    snprintf(point->sets[1], sizeof point->sets[1], "l2.size=%lld", l2);
    snprintf(point->sets[2], sizeof point->sets[2], "gpu.cu_count=%lld", cus);
    snprintf(point->sets[3], sizeof point->sets[3], "dram.clock=%lldMHz", dram_mhz);
    snprintf(point->sets[4], sizeof point->sets[4], "noc.latency=%lld", noc_latency);
    snprintf(point->json, sizeof point->json,
             "{\"l1.size\": %lld, \"l2.size\": %lld, \"gpu.cu_count\": %lld, \"dram.clock\": \"%lldMHz\", "
             "\"noc.latency\": %lld}", l1, l2, cus, dram_mhz, noc_latency);
}

/* The CUs a point may add to half the preset's, and the NoC latency it may add (inclusive). */
static long long cu_span(const sc_config *base)
{
    long long cus = sc_config_int(base, "gpu.cu_count");
    return cus - cus / 2;
}

static long long latency_span(const sc_config *base) { return sc_config_int(base, "noc.latency"); }

static void draw(const sc_config *base, uint64_t *state, model_design_point *point)
{
    int l1_scale = (int)(sc_splitmix64(state) % CAPACITY_SCALES), l2_scale = (int)(sc_splitmix64(state) % CAPACITY_SCALES);
    long long extra_cus = (long long)(sc_splitmix64(state) % (uint64_t)(cu_span(base) + 1));
    double dram_factor = 0.5 + sc_random_unit(state);
    long long extra_latency = (long long)(sc_splitmix64(state) % (uint64_t)(latency_span(base) + 1));
    set_point(base, l1_scale, l2_scale, extra_cus, dram_factor, extra_latency, point);
}

/* Whether the detailed model's configuration checks accept the point. */
static bool valid_point(const char *system, const model_design_point *point)
{
    sc_error ignored = {{0}};
    sc_config *config = model_design_config(system, point, &ignored);
    timing_config timing;
    bool valid = config && timing_config_load(config, 0, &timing, &ignored) == 0;
    sc_config_free(config);
    return valid;
}

static bool listed(const model_design_point *points, int count, const model_design_point *point)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(points[i].json, point->json))
            return true;
    return false;
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
        if (sc_name_index(exclude, exclude_count, point->json) < 0 && !listed(out, made, point) &&
            valid_point(system, point))
            made++;
    }
    sc_config_free(base);
    if (made < count)
        return sc_fail(error, "could not draw %d distinct valid design points around %s", count, system);
    return 0;
}

/* A point's level of each key, as set_point takes them: L1 and L2 capacity scale indices, CUs
 * added to half the preset's, DRAM clock factor, NoC latency added. */
enum { LEVELS = MODEL_POINT_KEYS };

static void set_levels(const sc_config *base, const double level[LEVELS], model_design_point *point)
{
    set_point(base, (int)level[0], (int)level[1], (long long)level[2], level[3], (long long)level[4], point);
}

/* The low and high end of each key's range for the corners: the range's extreme, moved toward
 * the preset's level one step at a time while the preset with that key there fails the
 * configuration checks (on qr-apu, twice the NoC latency makes l2.latency shorter than the trip
 * to an L2 bank and back). */
static void key_ends(const char *system, const sc_config *base, double ends[LEVELS][2])
{
    const double preset[LEVELS] = {3, 3, (double)cu_span(base), 1.0, 0};
    const double extreme[LEVELS][2] = {{0, CAPACITY_SCALES - 1}, {0, CAPACITY_SCALES - 1},
                                       {0, (double)cu_span(base)}, {0.5, 1.5}, {0, (double)latency_span(base)}};
    const double step[LEVELS] = {1, 1, 1, 0.05, 1};
    for (int k = 0; k < LEVELS; k++)
        for (int end = 0; end < 2; end++) {
            double level[LEVELS];
            memcpy(level, preset, sizeof level);
            level[k] = extreme[k][end];
            double toward = preset[k] > level[k] ? step[k] : -step[k];
            model_design_point point;
            for (set_levels(base, level, &point); !valid_point(system, &point) && fabs(level[k] - preset[k]) > 1e-9;
                 set_levels(base, level, &point))
                level[k] += toward;
            ends[k][end] = level[k];
        }
}

/* Corner `c` (0..7) of the 2^(5-2) fractional factorial: factors A, B, C (L1, L2, CUs) take the
 * bits of c, D (DRAM clock) = A x B and E (NoC latency) = A x C, each at its low or high end. */
static void corner(const sc_config *base, const double ends[LEVELS][2], int c, model_design_point *point)
{
    int a = c & 1, b = (c >> 1) & 1, cu = (c >> 2) & 1;
    const int side[LEVELS] = {a, b, cu, a == b, a == cu};
    double level[LEVELS];
    for (int k = 0; k < LEVELS; k++)
        level[k] = ends[k][side[k]];
    set_levels(base, level, point);
}

/* One Latin-hypercube set of `count` points: key k of point i lies in stratum perm_k(i) of
 * count equal strata of its range, at a random place inside it. */
static void latin_hypercube(const sc_config *base, uint64_t *state, int count, model_design_point *out)
{
    int32_t strata[MODEL_POINT_KEYS][MODEL_DESIGN_MAX_FILL];
    for (int k = 0; k < MODEL_POINT_KEYS; k++)
        sc_random_permutation(strata[k], count, state);
    for (int i = 0; i < count; i++) {
        double u[MODEL_POINT_KEYS];
        for (int k = 0; k < MODEL_POINT_KEYS; k++)
            u[k] = (strata[k][i] + sc_random_unit(state)) / count;
        const double level[LEVELS] = {u[0] * CAPACITY_SCALES, u[1] * CAPACITY_SCALES,
                                      u[2] * (double)(cu_span(base) + 1), 0.5 + u[3],
                                      u[4] * (double)(latency_span(base) + 1)};
        set_levels(base, level, &out[i]);
    }
}

int model_design_corners_and_fill(const char *system, uint64_t seed, int fill, model_design_point *out,
                                  sc_error *error)
{
    if (fill < 0 || fill > MODEL_DESIGN_MAX_FILL)
        return sc_fail(error, "a design's space-filling points must number 0..%d, not %d", MODEL_DESIGN_MAX_FILL, fill);
    sc_config *base = sc_config_load(system, NULL, NULL, 0, error);
    if (!base)
        return -1;
    int status = 0;
    double ends[LEVELS][2];
    key_ends(system, base, ends);
    for (int c = 0; c < MODEL_DESIGN_CORNERS && status == 0; c++) {
        corner(base, ends, c, &out[c]);
        if (!valid_point(system, &out[c]))
            status = sc_fail(error, "the corner %s of the design around %s is not a valid configuration", out[c].json,
                             system);
    }
    uint64_t state = seed;
    bool accepted = fill == 0;
    for (int attempt = 0; status == 0 && !accepted && attempt < 1000; attempt++) {
        model_design_point *filled = out + MODEL_DESIGN_CORNERS;
        latin_hypercube(base, &state, fill, filled);
        accepted = true;
        for (int i = 0; i < fill && accepted; i++)
            accepted = !listed(out, MODEL_DESIGN_CORNERS + i, &filled[i]) && valid_point(system, &filled[i]);
    }
    sc_config_free(base);
    if (status == 0 && !accepted)
        status = sc_fail(error, "could not draw %d distinct valid Latin-hypercube points around %s", fill, system);
    return status;
}
