/* test_sample_estimate.c — the statistics of sampled runs: the ratio and regression estimators
 * of kernel-level sampling (exact when nothing was skipped, hand-computed otherwise, no interval
 * from a single launch), the window estimator (its rate at least the DRAM bound, from the windows
 * with a steady part), the combined Student-t interval, and the GSI breakdown scaled
 * to an estimate summing exactly with its invariants kept (base/sample_estimate.c, gsi_scale). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "base/sample_estimate.h"
#include "stalls/gsi.h"

static void every_launch_detailed_is_exact(void **state)
{
    sample_unit units[] = {{.cycles = 100, .warp_instructions = 50}, {.cycles = 300, .warp_instructions = 100}};
    sample_stratum stratum = {.kind = SAMPLE_LAUNCHES, .units = units, .unit_count = 2, .launches = 2,
                              .warp_instructions = 150, .sampled_fraction = 1.0};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(estimate.variance_known);
    assert_true(fabs(estimate.cycles - 400.0) < 1e-9);
    sample_total total;
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_true(total.has_ci);
    assert_true(total.ci_low == total.cycles && total.ci_high == total.cycles);
}

static void ratio_estimator_extrapolates_skipped_launches(void **state)
{
    /* R = 400 / 150; 300 skipped instructions -> 400 + 800 cycles. Residuals 100 - 50R and
     * 300 - 100R: e = (-33.3, 33.3), s^2 = 2222.2; Var(R) = (1 - 0.5) s^2 / (2 * 75^2). */
    sample_unit units[] = {{.cycles = 100, .warp_instructions = 50}, {.cycles = 300, .warp_instructions = 100}};
    sample_stratum stratum = {.kind = SAMPLE_LAUNCHES, .units = units, .unit_count = 2, .launches = 4,
                              .warp_instructions = 450, .fast_forwarded_warp_instructions = 300,
                              .sampled_fraction = 0.5};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(fabs(estimate.cycles - 1200.0) < 1e-9);
    double residual = 100.0 - 50.0 * 400.0 / 150.0;
    double variance_rate = 0.5 * (2 * residual * residual) / (2.0 * 75.0 * 75.0);
    assert_true(fabs(estimate.variance - 300.0 * 300.0 * variance_rate) < 1e-6);
    sample_total total;
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_true(total.has_ci);
    /* One degree of freedom: t(0.975, 1) = 12.706. */
    assert_true(fabs((total.ci_high - total.cycles) - 12.7062 * sqrt(estimate.variance)) < 0.01);
    assert_true(total.ci_low < total.cycles && total.cycles < total.ci_high);
}

static void regression_estimator_charges_each_skipped_launch_its_fixed_cost(void **state)
{
    /* Detailed launches on cycles = 1000 + 0.5 * instructions; two skipped launches of 3000
     * instructions in all: 15000 + 2 * 1000 + 0.5 * 3000. Exact fit: zero-width interval. */
    sample_unit units[] = {{.cycles = 1500, .warp_instructions = 1000}, {.cycles = 2000, .warp_instructions = 2000},
                           {.cycles = 2500, .warp_instructions = 3000}, {.cycles = 4000, .warp_instructions = 6000},
                           {.cycles = 5000, .warp_instructions = 8000}};
    sample_stratum stratum = {.kind = SAMPLE_LAUNCHES, .units = units, .unit_count = 5, .launches = 7,
                              .warp_instructions = 23000, .fast_forwarded_warp_instructions = 3000,
                              .sampled_fraction = 5.0 / 7.0};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(fabs(estimate.cycles - 18500.0) < 1e-6);
    assert_true(fabs(estimate.launch_overhead - 1000.0) < 1e-6 && fabs(estimate.rate - 0.5) < 1e-9);
    assert_true(estimate.variance_known && estimate.variance < 1e-6);
}

static void single_sample_has_no_interval(void **state)
{
    sample_unit unit = {.cycles = 100, .warp_instructions = 50};
    sample_stratum stratum = {.kind = SAMPLE_LAUNCHES, .units = &unit, .unit_count = 1, .launches = 3,
                              .warp_instructions = 150, .fast_forwarded_warp_instructions = 100,
                              .sampled_fraction = 1.0 / 3.0};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(fabs(estimate.cycles - 300.0) < 1e-9);
    sample_total total;
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_false(total.has_ci);
}

static void window_estimator_adds_overhead_once_per_launch(void **state)
{
    /* Two windows of 1000 instructions, 600 and 640 cycles, steady parts at 0.5 cycles per
     * instruction; one launch of 10000 instructions: 620 + 0.5 * (10000 - 1000) = 5120. */
    sample_unit units[] = {
        {.cycles = 600, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400},
        {.cycles = 640, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400},
    };
    sample_stratum stratum = {.kind = SAMPLE_WINDOWS, .units = units, .unit_count = 2, .launches = 1,
                              .warp_instructions = 10000, .sampled_fraction = 0.2};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(fabs(estimate.rate - 0.5) < 1e-12);
    assert_true(fabs(estimate.cycles - 5120.0) < 1e-9);
    assert_true(fabs(estimate.launch_overhead + estimate.rate * 10000.0 - estimate.cycles) < 1e-9);
    assert_true(estimate.variance_known && estimate.variance > 0);
}

static void window_rate_is_at_least_the_dram_bound(void **state)
{
    /* The same windows with their DRAM buses busy 600 cycles per 1000 instructions: the steady
     * parts' 0.5 is below that bound, so the rate is 0.6 (620 + 0.6 * 9000 = 6020) and the
     * interval reaches up to the windows' whole rate: 620 + 0.62 * 9000 = 6200. */
    sample_unit units[] = {
        {.cycles = 600, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400,
         .dram_busy_cycles = 600},
        {.cycles = 640, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400,
         .dram_busy_cycles = 600},
    };
    sample_stratum stratum = {.kind = SAMPLE_WINDOWS, .units = units, .unit_count = 2, .launches = 1,
                              .warp_instructions = 10000, .sampled_fraction = 0.2};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(estimate.dram_bound);
    assert_true(fabs(estimate.rate - 0.6) < 1e-12);
    assert_true(fabs(estimate.cycles - 6020.0) < 1e-9);
    assert_true(fabs(estimate.whole_rate_cycles - 6200.0) < 1e-9);
    sample_total total;
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_true(total.has_ci && total.ci_high >= 6200.0 - 1e-9 && total.ci_low < total.cycles);

    /* Below the steady parts' rate the bound changes nothing. */
    units[0].dram_busy_cycles = units[1].dram_busy_cycles = 400;
    sample_estimate_stratum(&stratum, &estimate);
    assert_false(estimate.dram_bound);
    assert_true(fabs(estimate.cycles - 5120.0) < 1e-9);
}

static void steady_parts_in_the_first_turnover_reach_to_the_whole_rate(void **state)
{
    /* Steady parts of 0.5 cycles per instruction (estimate 620 + 0.5 * 9000 = 5120) measured in
     * their windows' first L2 turnover: the estimate stays, but the interval reaches as far as
     * the windows' whole rate, 620 + 0.62 * 9000 = 6200, to each side (4040 to 6200), whatever
     * the windows' spread. */
    sample_unit units[] = {
        {.cycles = 600, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400,
         .steady_before_turnover = true},
        {.cycles = 640, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400,
         .steady_before_turnover = true},
    };
    sample_stratum stratum = {.kind = SAMPLE_WINDOWS, .units = units, .unit_count = 2, .launches = 1,
                              .warp_instructions = 10000, .sampled_fraction = 0.2};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(estimate.steady_before_turnover && !estimate.dram_bound);
    assert_true(fabs(estimate.cycles - 5120.0) < 1e-9);
    assert_true(fabs(estimate.whole_rate_cycles - 6200.0) < 1e-9);
    sample_total total;
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_true(total.has_ci && total.ci_high >= 6200.0 - 1e-9 && total.ci_low <= 4040.0 + 1e-9);

    /* Measured after the turnover, the interval is the windows' spread alone. */
    units[0].steady_before_turnover = units[1].steady_before_turnover = false;
    sample_estimate_stratum(&stratum, &estimate);
    assert_false(estimate.steady_before_turnover);
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_true(total.has_ci && total.ci_high < 6200.0);

    /* A stratum whose whole rate lies below its estimate (here 0.45 against steady parts of
     * 0.5: 4500 against 4950) reaches as far to both sides. */
    units[0].steady_before_turnover = true;
    units[0].cycles = units[1].cycles = 450;
    sample_estimate_stratum(&stratum, &estimate);
    sample_estimate_total(&estimate, 1, 0.95, &total);
    assert_true(fabs(estimate.whole_rate_cycles - 4500.0) < 1e-9);
    assert_true(total.has_ci && total.ci_low <= 4500.0 + 1e-9 && total.ci_high >= 5400.0 - 1e-9);
}

static void windows_without_a_steady_part_leave_the_rate_alone(void **state)
{
    /* A third window that never opened its steady part: the rate and its degrees of freedom
     * come from the two that did. */
    sample_unit units[] = {
        {.cycles = 600, .warp_instructions = 1000, .steady_cycles = 200, .steady_warp_instructions = 400},
        {.cycles = 640, .warp_instructions = 1000, .steady_cycles = 210, .steady_warp_instructions = 400},
        {.cycles = 1400, .warp_instructions = 2000},
    };
    sample_stratum stratum = {.kind = SAMPLE_WINDOWS, .units = units, .unit_count = 3, .launches = 1,
                              .warp_instructions = 20000, .sampled_fraction = 0.2};
    sample_stratum_estimate estimate;
    sample_estimate_stratum(&stratum, &estimate);
    assert_true(fabs(estimate.rate - 410.0 / 800.0) < 1e-12);
    assert_true(estimate.variance_known && estimate.variance > 0);
    assert_true(fabs(estimate.degrees_of_freedom - 1.0) < 1e-12);
}

static void scaled_stalls_sum_exactly(void **state)
{
    gsi_counters detailed = {0};
    detailed.category[GSI_NO_STALL] = 333;
    detailed.category[GSI_IDLE] = 333;
    detailed.category[GSI_MEM_DATA] = 334;
    detailed.source[GSI_SOURCE_L2] = 100;
    detailed.source[GSI_SOURCE_DRAM] = 234;
    gsi_counters scaled;
    gsi_scale(&detailed, 12345, &scaled);
    assert_int_equal(gsi_check(&scaled, 12345, NULL), 0);
    assert_int_equal(scaled.category[GSI_MEM_STRUCT], 0);
    assert_true(scaled.source[GSI_SOURCE_DRAM] > scaled.source[GSI_SOURCE_L2]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_launch_detailed_is_exact),
        cmocka_unit_test(ratio_estimator_extrapolates_skipped_launches),
        cmocka_unit_test(regression_estimator_charges_each_skipped_launch_its_fixed_cost),
        cmocka_unit_test(single_sample_has_no_interval),
        cmocka_unit_test(window_estimator_adds_overhead_once_per_launch),
        cmocka_unit_test(window_rate_is_at_least_the_dram_bound),
        cmocka_unit_test(steady_parts_in_the_first_turnover_reach_to_the_whole_rate),
        cmocka_unit_test(windows_without_a_steady_part_leave_the_rate_alone),
        cmocka_unit_test(scaled_stalls_sum_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
