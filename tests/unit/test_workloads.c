/* test_workloads.c — the built-in workload suite: every workload runs on the functional engine
 * at the tiny and small sizes and passes its reference check; the registry and size names work;
 * and the comparison helpers the checks are built on do report corrupted results.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/workload.h"
#include "workloads/workload_support.h"

static void run_workload_at(const sc_workload *workload, sc_workload_size size)
{
    sc_error error = {{0}};
    sc_device *device = sc_device_create(32, &error);
    if (!device)
        fail_msg("device: %s", error.message);
    sc_workload_params params = {.size = size, .seed = 42};
    sc_check_result check = {0};
    int status = workload->run(device, &params, &check, &error);
    if (status != 0)
        fail_msg("%s (%s): %s", workload->name, sc_workload_size_name(size), error.message);
    if (!check.passed)
        fail_msg("%s (%s) check failed: %s", workload->name, sc_workload_size_name(size), check.detail);
    sc_device_destroy(device);
}

/* One cmocka test per workload and size; the workload travels in the test's state. */
static void test_workload_tiny(void **state)
{
    run_workload_at(*state, SC_SIZE_TINY);
}

static void test_workload_small(void **state)
{
    run_workload_at(*state, SC_SIZE_SMALL);
}

static void test_registry(void **state)
{
    (void)state;
    int count = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    assert_true(count > 0);
    for (int i = 0; i < count; i++) {
        assert_ptr_equal(sc_workload_find(suite[i]->name), suite[i]);
        assert_non_null(suite[i]->description);
        assert_non_null(suite[i]->behaviour);
    }
    assert_null(sc_workload_find("no-such-workload"));
    sc_workload_size size;
    assert_int_equal(sc_workload_size_parse("large", &size), 0);
    assert_int_equal(size, SC_SIZE_LARGE);
    assert_string_equal(sc_workload_size_name(SC_SIZE_TINY), "tiny");
    assert_int_equal(sc_workload_size_parse("huge", &size), 0);
    assert_int_equal(size, SC_SIZE_HUGE);
    assert_string_equal(sc_workload_size_name(SC_SIZE_HUGE), "huge");
    assert_int_equal(sc_workload_size_parse("giant", &size), -1);
}

static void test_corrupted_results_fail(void **state)
{
    (void)state;
    sc_check_result check;
    float expected_f[4] = {1.0f, 2.0f, 3.0f, 1000.0f};
    float got_f[4] = {1.0f, 2.0f, 3.0f, 1000.0f};
    assert_true(sc_compare_f32(&check, "y", got_f, expected_f, 4, 1e-5f));
    got_f[2] = 3.001f;
    assert_false(sc_compare_f32(&check, "y", got_f, expected_f, 4, 1e-5f));
    assert_false(check.passed);
    assert_string_equal(check.detail, "y[2] = 3.00099993, expected 3");
    got_f[2] = 0.0f / 0.0f;
    assert_false(sc_compare_f32(&check, "y", got_f, expected_f, 4, 1e-5f));

    uint32_t expected_u[3] = {7, 8, 9}, got_u[3] = {7, 8, 10};
    assert_false(sc_compare_u32(&check, "level", got_u, expected_u, 3));
    assert_string_equal(check.detail, "level[2] = 10, expected 9");
    int32_t expected_i[2] = {-1, 5}, got_i[2] = {1, 5};
    assert_false(sc_compare_i32(&check, "score", got_i, expected_i, 2));
    assert_string_equal(check.detail, "score[0] = 1, expected -1");
}

static void test_rng_is_deterministic(void **state)
{
    (void)state;
    sc_rng a, b, c;
    sc_rng_seed(&a, 7, 1);
    sc_rng_seed(&b, 7, 1);
    sc_rng_seed(&c, 7, 2);
    uint64_t first = sc_rng_next(&a);
    assert_true(first == sc_rng_next(&b));
    assert_true(first != sc_rng_next(&c));
    for (int i = 0; i < 1000; i++)
        assert_true(sc_rng_below(&a, 10) < 10);
}

int main(void)
{
    int count = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    enum { MOST_WORKLOADS = 64 };
    static struct CMUnitTest tests[2 * MOST_WORKLOADS + 3];
    static char names[2 * MOST_WORKLOADS][64];
    int n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_registry);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_corrupted_results_fail);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_rng_is_deterministic);
    for (int i = 0; i < count && i < MOST_WORKLOADS; i++) {
        snprintf(names[2 * i], sizeof names[0], "%s/tiny", suite[i]->name);
        snprintf(names[2 * i + 1], sizeof names[0], "%s/small", suite[i]->name);
        tests[n++] = (struct CMUnitTest){names[2 * i], test_workload_tiny, NULL, NULL, (void *)suite[i]};
        tests[n++] = (struct CMUnitTest){names[2 * i + 1], test_workload_small, NULL, NULL, (void *)suite[i]};
    }
    return _cmocka_run_group_tests("workloads", tests, (size_t)n, NULL, NULL);
}
