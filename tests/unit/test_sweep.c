/* test_sweep.c — sweep specifications and designs: specs are checked against the configuration
 * schema with errors naming the key; grid points decode every combination once; Latin-hypercube
 * points fill every stratum of every parameter exactly once; random points are reproducible and
 * inside their ranges; one-at-a-time points move one parameter from the preset; Morris
 * trajectories move each parameter exactly once by the Morris step; shards partition the points;
 * the sensitivity measures recover known exponents of synthetic cycle functions; spot checks
 * where they matter choose the widest bands and the points outside the calibrated region, which
 * holds what the calibration's points varied (and the preset's value of every other key).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/calibrated_region.h"
#include "model/sensitivity.h"
#include "model/sweep_design.h"
#include "protocols/mechanism.h"
#include "studies/sweep_spot.h"

static sweep_spec *parse(const char *text)
{
    sweep_spec *spec = calloc(1, sizeof *spec);
    sc_error error = {{0}};
    if (sweep_spec_parse(text, "spec.json", spec, &error) < 0)
        fail_msg("spec: %s", error.message);
    return spec;
}

static void release(sweep_spec *spec, sweep_design *design)
{
    sweep_design_free(design);
    sweep_spec_free(spec);
    free(spec);
}

static void expect_error(const char *text, const char *fragment)
{
    sweep_spec *spec = calloc(1, sizeof *spec);
    sc_error error = {{0}};
    assert_int_equal(sweep_spec_parse(text, "spec.json", spec, &error), -1);
    if (!strstr(error.message, fragment))
        fail_msg("expected '%s' in: %s", fragment, error.message);
    free(spec);
}

static void test_spec_errors_name_the_key(void **state)
{
    (void)state;
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.sise\": {\"values\": [1]}}}",
                 "spec.json: parameters.l1.sise: unknown configuration key (did you mean l1.size?)");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"gpu.scheduler\": {\"values\": [\"fifo\"]}}}",
                 "spec.json: parameters.gpu.scheduler");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"range\": [8, 4], \"count\": 2}}}",
                 "parameters.l1.size.range: low must be below high");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [1]}}, \"colour\": 1}",
                 "spec.json: colour: unknown field");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\",\n \"parameters\": {", "spec.json:2: malformed JSON");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [1]}},"
                 " \"design\": {\"morris\": 4, \"levels\": 3}}",
                 "design.levels");
}

/* Values and range bounds of a numeric key may be written in its units, as --set takes them:
 * "16KiB", "16KB" and 16384 are one size. */
static void test_spec_values_take_units(void **state)
{
    (void)state;
    sweep_spec *spec = parse("{\"name\": \"u\", \"system\": \"gtx480\", \"parameters\": {"
                             "\"l1.size\": {\"values\": [\"16KiB\", \"32KB\", 65536]},"
                             "\"l2.size\": {\"range\": [\"256KiB\", \"1MiB\"], \"count\": 2}}}");
    assert_true(spec->axes[0].numbers[0] == 16384 && spec->axes[0].numbers[1] == 32768 &&
                spec->axes[0].numbers[2] == 65536);
    assert_true(spec->axes[1].low == 262144 && spec->axes[1].high == 1048576);
    sweep_spec_free(spec);
    free(spec);
    expect_error("{\"name\": \"u\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [\"lots\"]}}}",
                 "spec.json: parameters.l1.size.values[0]: not a size");
}

static void test_grid_decodes_every_combination_once(void **state)
{
    (void)state;
    sweep_spec *spec = parse("{\"name\": \"g\", \"system\": \"gtx480\", \"parameters\": {"
                             "\"l1.size\": {\"values\": [24576, 49152]},"
                             "\"noc.latency\": {\"range\": [2, 8], \"count\": 3},"
                             "\"gpu.scheduler\": {\"values\": [\"gto\", \"lrr\"]}}}");
    sweep_design design;
    sc_error error;
    assert_int_equal(sweep_design_init(&design, spec, &error), 0);
    assert_int_equal(design.count, 12);
    int seen[2][3][2] = {{{0}}};
    for (int64_t i = 0; i < design.count; i++) {
        double v[SWEEP_MAX_AXES];
        sweep_design_point(&design, i, v);
        int a = v[0] == 24576 ? 0 : 1, b = (int)(v[1] - 2) / 3, c = (int)v[2];
        assert_true(v[1] == 2 || v[1] == 5 || v[1] == 8);
        seen[a][b][c]++;
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 2; c++)
                assert_int_equal(seen[a][b][c], 1);
    double v[SWEEP_MAX_AXES];
    char json[256];
    sweep_design_point(&design, 11, v);
    sweep_design_params_json(&design, v, json, sizeof json);
    assert_string_equal(json, "{\"l1.size\": 49152, \"noc.latency\": 8, \"gpu.scheduler\": \"lrr\"}");
    release(spec, &design);
}

static void test_lhs_fills_every_stratum_once(void **state)
{
    (void)state;
    sweep_spec *spec = parse("{\"name\": \"l\", \"system\": \"gtx480\", \"design\": {\"lhs\": 50}, \"seed\": 9,"
                             " \"parameters\": {\"noc.latency\": {\"range\": [0, 1000], \"count\": 2},"
                             " \"gpu.branch_penalty\": {\"range\": [0, 500], \"count\": 2}}}");
    sweep_design design;
    sc_error error;
    assert_int_equal(sweep_design_init(&design, spec, &error), 0);
    assert_int_equal(design.count, 50);
    int strata[2][50] = {{0}};
    for (int64_t i = 0; i < 50; i++) {
        double v[SWEEP_MAX_AXES];
        sweep_design_point(&design, i, v);
        /* Integer rounding may put a value on the upper edge of its stratum. */
        int first = (int)fmin(49, floor(v[0] / 20.0 + 1e-9)), second = (int)fmin(49, floor(v[1] / 10.0 + 1e-9));
        strata[0][first]++;
        strata[1][second]++;
    }
    int ones = 0;
    for (int s = 0; s < 50; s++)
        ones += (strata[0][s] == 1) + (strata[1][s] == 1);
    assert_true(ones >= 96);   /* rounding may move at most a couple of values across an edge */
    release(spec, &design);
}

static void test_random_points_are_reproducible_and_in_range(void **state)
{
    (void)state;
    const char *text = "{\"name\": \"r\", \"system\": \"gtx480\", \"design\": {\"random\": 200}, \"seed\": 4,"
                       " \"parameters\": {\"l2.latency\": {\"log_range\": [150, 600], \"count\": 2}}}";
    sweep_spec *first = parse(text), *second = parse(text);
    sweep_design a, b;
    sc_error error;
    assert_int_equal(sweep_design_init(&a, first, &error), 0);
    assert_int_equal(sweep_design_init(&b, second, &error), 0);
    double low = 1e9, high = 0;
    for (int64_t i = 0; i < a.count; i++) {
        double x[SWEEP_MAX_AXES], y[SWEEP_MAX_AXES];
        sweep_design_point(&a, i, x);
        sweep_design_point(&b, i, y);
        assert_true(x[0] == y[0]);
        assert_true(x[0] == round(x[0]));
        low = fmin(low, x[0]);
        high = fmax(high, x[0]);
    }
    assert_true(low >= 150 && high <= 600 && low < 200 && high > 500);
    release(first, &a);
    release(second, &b);
}

static void test_oat_moves_one_parameter_from_the_preset(void **state)
{
    (void)state;
    sweep_spec *spec = parse("{\"name\": \"o\", \"system\": \"gtx480\", \"design\": \"oat\", \"parameters\": {"
                             "\"l1.size\": {\"values\": [24576, 49152, 98304]},"
                             "\"dram.channels\": {\"log_range\": [2, 16], \"count\": 4}}}");
    sweep_design design;
    sc_error error;
    assert_int_equal(sweep_design_init(&design, spec, &error), 0);
    assert_int_equal(design.count, 8);
    double v[SWEEP_MAX_AXES];
    sweep_design_point(&design, 0, v);
    assert_true(isnan(v[0]) && isnan(v[1]));
    sweep_design_point(&design, 2, v);
    assert_true(v[0] == 49152 && isnan(v[1]));
    sweep_design_point(&design, 5, v);
    assert_true(isnan(v[0]) && v[1] == 4);
    char json[128];
    sweep_design_params_json(&design, v, json, sizeof json);
    assert_string_equal(json, "{\"dram.channels\": 4}");

    /* cycles = c * l1.size^-0.5 * channels^2 at every point: the elasticities are -0.5 and 2. */
    double cycles[8];
    for (int64_t i = 0; i < 8; i++) {
        sweep_design_point(&design, i, v);
        double size = isnan(v[0]) ? 49152 : v[0], channels = isnan(v[1]) ? 6 : v[1];
        cycles[i] = 1e6 * pow(size, -0.5) * channels * channels;
    }
    sensitivity result[SWEEP_MAX_AXES];
    sensitivity_oat(&design, cycles, result);
    assert_true(fabs(result[0].value + 0.5) < 1e-9);
    assert_true(fabs(result[1].value - 2.0) < 1e-9);
    release(spec, &design);
}

static void test_morris_moves_each_parameter_once_per_trajectory(void **state)
{
    (void)state;
    sweep_spec *spec = parse("{\"name\": \"m\", \"system\": \"gtx480\", \"design\": {\"morris\": 20, \"levels\": 4},"
                             " \"seed\": 3, \"parameters\": {"
                             "\"noc.latency\": {\"range\": [0, 300], \"count\": 2},"
                             "\"gpu.branch_penalty\": {\"range\": [0, 300], \"count\": 2},"
                             "\"gpu.alu_latency\": {\"range\": [1, 301], \"count\": 2}}}");
    sweep_design design;
    sc_error error;
    assert_int_equal(sweep_design_init(&design, spec, &error), 0);
    assert_int_equal(design.count, 20 * 4);
    double *cycles = calloc((size_t)design.count, sizeof *cycles);
    for (int t = 0; t < 20; t++) {
        int moved[3] = {0};
        double previous[SWEEP_MAX_AXES];
        for (int step = 0; step <= 3; step++) {
            double v[SWEEP_MAX_AXES];
            int64_t index = (int64_t)t * 4 + step;
            sweep_design_point(&design, index, v);
            int trajectory, s, axis;
            sweep_design_morris_step(&design, index, &trajectory, &s, &axis);
            assert_int_equal(trajectory, t);
            assert_int_equal(s, step);
            if (step > 0) {
                for (int a = 0; a < 3; a++)
                    assert_true((a == axis) == (v[a] != previous[a]));
                assert_true(fabs(fabs(v[axis] - previous[axis]) - 200.0) < 1e-9);   /* delta 2/3 of 300 */
                moved[axis]++;
            }
            memcpy(previous, v, sizeof previous);
            /* ln cycles = 3 u_latency + 0.5 u_penalty: mu* is 3, 0.5 and 0. */
            cycles[index] = exp(3.0 * v[0] / 300.0 + 0.5 * v[1] / 300.0);
        }
        assert_true(moved[0] == 1 && moved[1] == 1 && moved[2] == 1);
    }
    sensitivity result[SWEEP_MAX_AXES];
    sensitivity_morris(&design, cycles, result);
    assert_true(fabs(result[0].value - 3.0) < 1e-9 && result[0].samples == 20);
    assert_true(fabs(result[1].value - 0.5) < 1e-9);
    assert_true(fabs(result[2].value) < 1e-12 && result[0].spread < 1e-9);
    free(cycles);
    release(spec, &design);
}

static void test_shards_partition_the_points(void **state)
{
    (void)state;
    int64_t remainder, shards;
    assert_int_equal(sweep_parse_shard("2/3", &remainder, &shards), 0);
    assert_true(remainder == 1 && shards == 3);
    assert_int_equal(sweep_parse_shard("4/3", &remainder, &shards), -1);
    assert_int_equal(sweep_parse_shard("0/3", &remainder, &shards), -1);
    assert_int_equal(sweep_parse_shard("1/3x", &remainder, &shards), -1);
    assert_int_equal(sweep_parse_shard("1", &remainder, &shards), -1);
}

/* The K widest bands (ties: the earlier point), then up to max_outside extrapolated points not
 * chosen already; positions in increasing order. */
static void test_spot_checks_take_the_widest_bands_and_the_outside_points(void **state)
{
    (void)state;
    double widths[] = {0.10, 0.30, 0.05, 0.30, 0.20, 0.01, 0.02};
    bool outside[] = {false, true, false, false, false, true, true};
    int64_t chosen[8];
    assert_int_equal(sweep_spot_select(widths, outside, 7, 2, false, 8, chosen), 2);
    assert_true(chosen[0] == 1 && chosen[1] == 3);
    assert_int_equal(sweep_spot_select(widths, outside, 7, 3, false, 8, chosen), 3);
    assert_true(chosen[0] == 1 && chosen[1] == 3 && chosen[2] == 4);
    /* point 1 is both wide and outside: chosen once; the cap takes 5 and leaves 6 */
    assert_int_equal(sweep_spot_select(widths, outside, 7, 2, true, 1, chosen), 3);
    assert_true(chosen[0] == 1 && chosen[1] == 3 && chosen[2] == 5);
    assert_int_equal(sweep_spot_select(widths, outside, 7, 0, true, 8, chosen), 3);
    assert_true(chosen[0] == 1 && chosen[1] == 5 && chosen[2] == 6);
    /* more asked for than there are points */
    assert_int_equal(sweep_spot_select(widths, outside, 7, 20, true, 8, chosen), 7);
    for (int i = 0; i < 7; i++)
        assert_int_equal(chosen[i], i);
    assert_int_equal(sweep_spot_select(widths, outside, 0, 4, true, 4, chosen), 0);
}

static void test_spot_check_band_is_two_sigma_of_log_cycles(void **state)
{
    (void)state;
    assert_false(sweep_spot_outside_band(1000, 1000 * exp(0.19), 0.1));
    assert_false(sweep_spot_outside_band(1000, 1000 * exp(-0.19), 0.1));
    assert_true(sweep_spot_outside_band(1000, 1000 * exp(0.21), 0.1));
    assert_true(sweep_spot_outside_band(1000, 1000 * exp(-0.21), 0.1));
    assert_true(sweep_spot_outside_band(1000, 1001, 0.0));
}

/* A region from residual points: the range of each key they set, the preset's value of the
 * others; words by membership. A point naming an unknown key fails naming it. */
static void test_calibrated_region_covers_what_its_points_varied(void **state)
{
    (void)state;
    const char *residuals = "[{\"point\": \"{\\\"l1.size\\\": 12288, \\\"dram.clock\\\": \\\"462MHz\\\"}\", \"log_error\": 0.1},"
                            " {\"point\": {\"l1.size\": 98304, \"dram.clock\": \"1386MHz\"}},"
                            " {\"point\": {\"gpu.scheduler\": \"lrr\"}}]";
    model_region region;
    sc_error error = {{0}};
    if (model_region_from_residuals("gtx480", residuals, &region, &error) < 0)
        fail_msg("region: %s", error.message);
    assert_int_equal(region.count, 3);
    double low, high;
    assert_true(model_region_extent(&region, "l1.size", &low, &high));
    assert_true(low == 12288 && high == 98304);
    assert_true(model_region_extent(&region, "dram.clock", &low, &high));
    assert_true(low == 462e6 && high == 1386e6);
    sc_config *point = sc_config_load("gtx480", NULL, NULL, 0, &error);
    assert_non_null(point);
    assert_true(model_region_covers(&region, point, "l1.size", SC_KEY_SIZE));   /* the preset's, inside */
    assert_true(model_region_covers(&region, point, "noc.latency", SC_KEY_INT)); /* not varied: the preset's */
    assert_int_equal(sc_config_set(point, "l1.size", "196608", &error), 0);
    assert_false(model_region_covers(&region, point, "l1.size", SC_KEY_SIZE));
    assert_int_equal(sc_config_set(point, "noc.latency", "3", &error), 0);
    assert_false(model_region_covers(&region, point, "noc.latency", SC_KEY_INT));
    assert_int_equal(sc_config_set(point, "gpu.scheduler", "lrr", &error), 0);
    assert_true(model_region_covers(&region, point, "gpu.scheduler", SC_KEY_ENUM));
    sc_config_free(point);
    model_region_free(&region);
    assert_int_equal(model_region_from_residuals("gtx480", "[{\"point\": {\"l1.sise\": 1}}]", &region, &error), -1);
    if (!strstr(error.message, "l1.sise"))
        fail_msg("expected the key named in: %s", error.message);
}

/* The object form of spot_check: its fields checked, and only in a model sweep. */
static void test_targeted_spot_check_spec(void **state)
{
    (void)state;
    sweep_spec *spec = parse("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [16384]}},"
                             " \"spot_check\": {\"widest\": 3, \"outside\": true}}");
    assert_true(spec->spot_targeted && spec->spot_widest == 3 && spec->spot_outside);
    assert_int_equal(spec->spot_max_outside, SWEEP_DEFAULT_MAX_OUTSIDE);
    assert_string_equal(spec->spot_mode, "sampled");
    assert_true(spec->spot_check == 0.0);
    sweep_spec_free(spec);
    free(spec);
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [16384]}},"
                 " \"spot_check\": {\"widest\": 2, \"wide\": 1}}", "spec.json: spot_check.wide: unknown field");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [16384]}},"
                 " \"spot_check\": {\"widest\": -1}}", "spot_check.widest: expected a whole number");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"parameters\": {\"l1.size\": {\"values\": [16384]}},"
                 " \"spot_check\": {\"mode\": \"model\"}}", "spot_check.mode: expected sampled or detailed");
    expect_error("{\"name\": \"s\", \"system\": \"gtx480\", \"mode\": \"detailed\","
                 " \"parameters\": {\"l1.size\": {\"values\": [16384]}}, \"spot_check\": {\"widest\": 1}}",
                 "spot_check: spot checks where the band is widest are for a model sweep");
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_errors_name_the_key),
        cmocka_unit_test(test_spec_values_take_units),
        cmocka_unit_test(test_grid_decodes_every_combination_once),
        cmocka_unit_test(test_lhs_fills_every_stratum_once),
        cmocka_unit_test(test_random_points_are_reproducible_and_in_range),
        cmocka_unit_test(test_oat_moves_one_parameter_from_the_preset),
        cmocka_unit_test(test_morris_moves_each_parameter_once_per_trajectory),
        cmocka_unit_test(test_shards_partition_the_points),
        cmocka_unit_test(test_spot_checks_take_the_widest_bands_and_the_outside_points),
        cmocka_unit_test(test_spot_check_band_is_two_sigma_of_log_cycles),
        cmocka_unit_test(test_calibrated_region_covers_what_its_points_varied),
        cmocka_unit_test(test_targeted_spot_check_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
