/* test_rcc_wo_issue.c — rcc.wo_issue on a PTX kernel run by the timing engine under rcc-wo on a
 * one-CU rcc-gpu: each warp loads two words of different lines and stores their sum. With weak
 * (the presets' default) the second load issues while the first is in flight; with one_at_a_time
 * (the SC core's order) it waits until the first one's data arrives, which takes longer and adds
 * GSI sync cycles. The values are the same either way. */
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

/* Runs the kernel (two warps) with rcc.wo_issue `issue` on words the host set (i and 100 i);
 * returns its record. */
static timing_kernel_record run_two_loads(const char *issue)
{
    sc_error error = {{0}};
    char set[64];
    snprintf(set, sizeof set, "rcc.wo_issue=%s", issue);
    const char *sets[] = {"gpu.cu_count=1", set};
    sc_config *config = sc_config_load("rcc-gpu", NULL, sets, 2, &error);
    assert_non_null(config);
    const sc_protocol *rcc_wo = sc_protocol_find("rcc-wo");
    void *engine = NULL;
    sc_device *device = timing_test_device(config, rcc_wo, &engine, &error);
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
    timing_kernel_record record = report.kernel_records[0];
    assert_int_equal(sc_memcpy_from_device(device, sums, words + 2048, sizeof sums, &error), 0);
    for (uint32_t t = 0; t < 64; t++)
        assert_int_equal(sums[t], 101 * t);
    sc_device_destroy(device);
    sc_config_free(config);
    return record;
}

static void test_one_at_a_time_orders_a_warps_loads(void **state)
{
    (void)state;
    timing_kernel_record weak = run_two_loads("weak");
    timing_kernel_record ordered = run_two_loads("one_at_a_time");
    assert_true(ordered.cycles > weak.cycles);
    assert_true(ordered.stalls.category[GSI_SYNC] > weak.stalls.category[GSI_SYNC]);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_at_a_time_orders_a_warps_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
