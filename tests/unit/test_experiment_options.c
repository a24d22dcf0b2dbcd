/* test_experiment_options.c — the experiment options of Ren's chapter 3 reproduction on a PTX
 * kernel run by the timing engine on a one-CU rcc-gpu: each warp loads two words of different
 * lines and stores their sum.
 * - rcc.wo_issue (rcc-wo) and tc.weak_issue (tc-weak): with weak (the presets' default) the
 *   second load issues while the first is in flight; with one_at_a_time (the SC core's order) it
 *   waits until the first one's data arrives, which takes longer and adds GSI sync cycles. The
 *   values are the same either way.
 * - sim.access_latencies: off, the report has no latencies; on, it has one per load and store,
 *   each at least the L1's latency and a store's at least an L2 round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "device_test_support.h"

static const char two_loads_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry two_loads(.param .u64 p_words)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd0, [p_words];\n"
    "mov.u32 %r0, %tid.x;\n"
    "mul.wide.u32 %rd1, %r0, 4;\n"
    "add.s64 %rd2, %rd0, %rd1;\n"
    "ld.global.u32 %r1, [%rd2];\n"
    "ld.global.u32 %r2, [%rd2+1024];\n"
    "add.u32 %r3, %r1, %r2;\n"
    "st.global.u32 [%rd2+2048], %r3;\n"
    "ret;\n}\n";

/* What a run of the kernel measured. */
typedef struct two_loads_run {
    timing_kernel_record record;
    bool has_latencies;
    access_latency_summary loads, stores;
} two_loads_run;

/* Runs the kernel (two warps) under `mechanism` with the setting `set` on words the host set
 * (i and 100 i). */
static two_loads_run run_two_loads(const char *mechanism, const char *set)
{
    sc_error error = {{0}};
    const char *sets[] = {"gpu.cu_count=1", set};
    sc_config *config = sc_config_load("rcc-gpu", NULL, sets, 2, &error);
    assert_non_null(config);
    const sc_protocol *protocol = sc_protocol_find(mechanism);
    void *engine = NULL;
    sc_device *device = timing_test_device(config, protocol, &engine, &error);
    if (!device)
        fail_msg("%s", error.message);
    int module = load_ptx_text(device, two_loads_kernel, &error);
    if (module < 0)
        fail_msg("%s", error.message);
    uint64_t words = sc_device_malloc(device, 4096);
    uint32_t first[64], second[64], sums[64];
    for (uint32_t t = 0; t < 64; t++) {
        first[t] = t;
        second[t] = 100 * t;
    }
    assert_int_equal(sc_memcpy_to_device(device, words, first, sizeof first, &error), 0);
    assert_int_equal(sc_memcpy_to_device(device, words + 1024, second, sizeof second, &error), 0);
    sc_kernel_arg argument = sc_arg_u64(words);
    sc_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    if (sc_launch_kernel(device, module, "two_loads", grid, block, 0, &argument, 1, &error) < 0)
        fail_msg("%s", error.message);
    timing_report report;
    timing_engine_report(engine, &report);
    two_loads_run run = {.record = report.kernel_records[0], .has_latencies = report.access_latencies != NULL};
    if (run.has_latencies) {
        run.loads = access_latencies_summary(report.access_latencies, ACCESS_LATENCY_LOAD);
        run.stores = access_latencies_summary(report.access_latencies, ACCESS_LATENCY_STORE);
    }
    assert_int_equal(sc_memcpy_from_device(device, sums, words + 2048, sizeof sums, &error), 0);
    for (uint32_t t = 0; t < 64; t++)
        assert_int_equal(sums[t], 101 * t);
    sc_device_destroy(device);
    sc_config_free(config);
    return run;
}

/* Under `mechanism`, `key`=one_at_a_time takes longer than `key`=weak, in sync stalls. */
static void assert_one_at_a_time_orders(const char *mechanism, const char *key)
{
    char weak_set[64], ordered_set[64];
    snprintf(weak_set, sizeof weak_set, "%s=weak", key);
    snprintf(ordered_set, sizeof ordered_set, "%s=one_at_a_time", key);
    timing_kernel_record weak = run_two_loads(mechanism, weak_set).record;
    timing_kernel_record ordered = run_two_loads(mechanism, ordered_set).record;
    assert_true(ordered.cycles > weak.cycles);
    assert_true(ordered.stalls.category[GSI_SYNC] > weak.stalls.category[GSI_SYNC]);
}

static void test_rcc_wo_one_at_a_time_orders_a_warps_loads(void **state)
{
    (void)state;
    assert_one_at_a_time_orders("rcc-wo", "rcc.wo_issue");
}

static void test_tc_weak_one_at_a_time_orders_a_warps_loads(void **state)
{
    (void)state;
    assert_one_at_a_time_orders("tc-weak", "tc.weak_issue");
}

static void test_access_latencies_only_when_asked(void **state)
{
    (void)state;
    assert_false(run_two_loads("rcc", "sim.access_latencies=false").has_latencies);
    two_loads_run run = run_two_loads("rcc", "sim.access_latencies=true");
    assert_true(run.has_latencies);
    assert_int_equal(run.loads.count, 4);   /* two warps, two loads each, one line apiece */
    assert_int_equal(run.stores.count, 2);
    assert_true(run.loads.p10 >= 1 && run.loads.max >= run.loads.p90 && run.loads.p90 >= run.loads.p50);
    assert_true(run.stores.p10 >= 340);     /* rcc-gpu's L2 latency: a store is done when the L2 acknowledges it */
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rcc_wo_one_at_a_time_orders_a_warps_loads),
        cmocka_unit_test(test_tc_weak_one_at_a_time_orders_a_warps_loads),
        cmocka_unit_test(test_access_latencies_only_when_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
