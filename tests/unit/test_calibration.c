/* test_calibration.c — the per-workload calibration's pieces: the Gaussian prior of
 * model_fit_parameters (with no data the fit is the prior's center; strong data moves it to what
 * the data say, a tight prior holds it; a down-weighted sample counts less), and the design of
 * corners plus a Latin hypercube (model_design_corners_and_fill). The mechanism fitted here is a
 * two-parameter line written for the test, so the answer is known exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/calibration.h"
#include "protocols/mechanism.h"

/* cycles = launch_overhead + 1000 x latency_exposure x l2_latency; all of it no_stall. */
static void line_evaluate(const model_profile *profile, const model_point *point, const model_params *params,
                          model_prediction *out)
{
    (void)profile;
    memset(out, 0, sizeof *out);
    out->cycles = params->value[MODEL_LAUNCH_OVERHEAD] + 1000 * params->value[MODEL_LATENCY_EXPOSURE] * point->l2_latency;
    out->stalls[GSI_NO_STALL] = out->cycles;
}

static const model_mechanism line = {.name = "line", .evaluate = line_evaluate};

static model_param_spec line_spec(void)
{
    model_param_spec spec;
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++) {
        spec.initial.value[p] = 1;
        spec.lower.value[p] = 0;
        spec.upper.value[p] = 10;
    }
    spec.initial.value[MODEL_LAUNCH_OVERHEAD] = 100;
    spec.upper.value[MODEL_LAUNCH_OVERHEAD] = 1000;
    return spec;
}

/* Samples the line gives exactly with latency_exposure `exposure` and launch_overhead `overhead`,
 * at l2 latencies 1..count. */
static void line_samples(double exposure, double overhead, int count, model_sample *samples)
{
    for (int s = 0; s < count; s++) {
        samples[s] = (model_sample){.weight = 1.0};
        samples[s].point.l2_latency = s + 1;
        samples[s].cycles = overhead + 1000 * exposure * (s + 1);
        samples[s].stall_fraction[GSI_NO_STALL] = 1.0;
    }
}

static model_prior line_prior(double sigma)
{
    model_prior prior = {.data_sigma = 0.05};
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++) {
        prior.center.value[p] = 2;
        prior.sigma[p] = sigma;
    }
    prior.center.value[MODEL_LAUNCH_OVERHEAD] = 300;
    prior.sigma[MODEL_LAUNCH_OVERHEAD] = 100 * sigma;
    return prior;
}

static void no_data_gives_the_prior(void **state)
{
    (void)state;
    model_param_spec spec = line_spec();
    model_prior prior = line_prior(0.5);
    model_fit fit;
    sc_error error = {{0}};
    assert_int_equal(model_fit_parameters(&line, &spec, NULL, 0, &prior, &fit, &error), 0);
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
        assert_true(fabs(fit.params.value[p] - prior.center.value[p]) < 1e-6 * prior.center.value[p]);
    /* the posterior's spread is the prior's where no data constrain a parameter */
    assert_true(fabs(sqrt(fit.covariance[MODEL_LATENCY_EXPOSURE][MODEL_LATENCY_EXPOSURE]) - 0.5) < 1e-3);
    model_fit_release(&fit);
    /* without a prior, no data is not enough */
    assert_int_equal(model_fit_parameters(&line, &spec, NULL, 0, NULL, &fit, &error), -1);
}

static void strong_data_moves_away_from_a_loose_prior(void **state)
{
    (void)state;
    model_param_spec spec = line_spec();
    model_sample samples[8];
    line_samples(0.7, 50, 8, samples);
    model_prior loose = line_prior(10.0);
    model_fit fit;
    sc_error error = {{0}};
    assert_int_equal(model_fit_parameters(&line, &spec, samples, 8, &loose, &fit, &error), 0);
    assert_true(fabs(fit.params.value[MODEL_LATENCY_EXPOSURE] - 0.7) < 0.01);
    assert_true(fabs(fit.params.value[MODEL_LAUNCH_OVERHEAD] - 50) < 5);
    /* a parameter the line does not use stays at the prior's center */
    assert_true(fabs(fit.params.value[MODEL_DEPENDENCE_EXPOSURE] - 2) < 1e-6);
    model_fit_release(&fit);

    /* the same data against a prior ten thousand times tighter: the fit stays at the prior */
    model_prior tight = line_prior(1e-4);
    assert_int_equal(model_fit_parameters(&line, &spec, samples, 8, &tight, &fit, &error), 0);
    assert_true(fabs(fit.params.value[MODEL_LATENCY_EXPOSURE] - 2) < 0.01);
    model_fit_release(&fit);
}

static void a_down_weighted_sample_counts_less(void **state)
{
    (void)state;
    model_param_spec spec = line_spec();
    model_prior prior = line_prior(1.0);
    prior.sigma[MODEL_LAUNCH_OVERHEAD] = 1e-3;   /* launch_overhead held at 300: one free parameter */
    model_sample samples[2];
    line_samples(1.0, 300, 2, samples);
    samples[1].cycles *= 2;                      /* the second disagrees: it says exposure ~2.3 */
    double exposure[2];
    for (int weighted = 0; weighted < 2; weighted++) {
        samples[1].weight = weighted ? 0.25 : 1.0;
        model_fit fit;
        sc_error error = {{0}};
        assert_int_equal(model_fit_parameters(&line, &spec, samples, 2, &prior, &fit, &error), 0);
        exposure[weighted] = fit.params.value[MODEL_LATENCY_EXPOSURE];
        model_fit_release(&fit);
    }
    /* down-weighted, the fit lies nearer the first sample's answer (exposure 1) */
    assert_true(fabs(exposure[1] - 1.0) < fabs(exposure[0] - 1.0));
}

static long long json_number(const char *json, const char *key)
{
    const char *at = strstr(json, key);
    assert_non_null(at);
    return atoll(at + strlen(key) + 2);   /* past `": "` */
}

static void corners_and_fill_cover_the_box(void **state)
{
    (void)state;
    model_design_point points[MODEL_DESIGN_CORNERS + 4];
    sc_error error = {{0}};
    assert_int_equal(model_design_corners_and_fill("gtx480", 7, 4, points, &error), 0);
    for (int i = 0; i < MODEL_DESIGN_CORNERS + 4; i++)
        for (int j = 0; j < i; j++)
            assert_string_not_equal(points[i].json, points[j].json);
    /* every key of the corners at its low end in half of them, at its high end in the other half */
    const char *keys[] = {"\"l1.size\"", "\"l2.size\"", "\"gpu.cu_count\"", "\"noc.latency\""};
    for (int k = 0; k < 4; k++) {
        long long low = json_number(points[0].json, keys[k]), high = low;
        for (int c = 0; c < MODEL_DESIGN_CORNERS; c++) {
            long long value = json_number(points[c].json, keys[k]);
            low = value < low ? value : low;
            high = value > high ? value : high;
        }
        int at_low = 0;
        for (int c = 0; c < MODEL_DESIGN_CORNERS; c++)
            at_low += json_number(points[c].json, keys[k]) == low;
        assert_true(high > low);
        assert_int_equal(at_low, MODEL_DESIGN_CORNERS / 2);
    }
    /* the same seed gives the same design; no fill is allowed; too much fill is refused */
    model_design_point again[MODEL_DESIGN_CORNERS + 4];
    assert_int_equal(model_design_corners_and_fill("gtx480", 7, 4, again, &error), 0);
    for (int i = 0; i < MODEL_DESIGN_CORNERS + 4; i++)
        assert_string_equal(points[i].json, again[i].json);
    assert_int_equal(model_design_corners_and_fill("gtx480", 7, 0, again, &error), 0);
    assert_int_equal(model_design_corners_and_fill("gtx480", 7, MODEL_DESIGN_MAX_FILL + 1, again, &error), -1);
    /* on qr-apu twice the NoC latency fails the checks: that end moves toward the preset */
    assert_int_equal(model_design_corners_and_fill("qr-apu", 7, 4, again, &error), 0);
    assert_true(json_number(again[0].json, "\"noc.latency\"") < 2 * json_number(again[1].json, "\"noc.latency\""));
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_data_gives_the_prior),
        cmocka_unit_test(strong_data_moves_away_from_a_loose_prior),
        cmocka_unit_test(a_down_weighted_sample_counts_less),
        cmocka_unit_test(corners_and_fill_cover_the_box),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
