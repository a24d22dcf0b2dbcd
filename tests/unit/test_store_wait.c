/* test_store_wait.c — gpu.store_wait on a PTX kernel run by the timing engine under nol1 on a
 * one-CU gtx480: each warp stores a word, loads another and stores what it loaded. With none (the
 * presets' default) the load issues right after the store; with performed the warp waits until
 * its store is performed (acknowledged by the L2) before the load issues, which takes longer and
 * is charged to GSI memory data. The values are the same either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "device_test_support.h"

static const char store_then_load_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry store_then_load(.param .u64 p_words)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd0, [p_words];\n"
    "mov.u32 %r0, %tid.x;\n"
    "mul.wide.u32 %rd1, %r0, 4;\n"
    "add.s64 %rd2, %rd0, %rd1;\n"
    "st.global.u32 [%rd2], %r0;\n"
    "ld.global.u32 %r1, [%rd2+1024];\n"
    "add.u32 %r2, %r1, 7;\n"
    "st.global.u32 [%rd2+2048], %r2;\n"
    "ret;\n}\n";

/* Runs the kernel (two warps) with gpu.store_wait `wait`; returns its record. */
static timing_kernel_record run_store_then_load(const char *wait)
{
    sc_error error = {{0}};
    char set[64];
    snprintf(set, sizeof set, "gpu.store_wait=%s", wait);
    const char *sets[] = {"gpu.cu_count=1", "cpu.count=0", set};
    sc_config *config = sc_config_load("gtx480", NULL, sets, 3, &error);
    assert_non_null(config);
    const sc_protocol *nol1 = sc_protocol_find("nol1");
    void *engine = NULL;
    sc_device *device = timing_test_device(config, nol1, &engine, &error);
    if (!device)
        fail_msg("%s", error.message);
    int module = load_ptx_text(device, store_then_load_kernel, &error);
    if (module < 0)
        fail_msg("%s", error.message);
    uint64_t words = 0;
    if (launch_on_buffer(device, module, "store_then_load", 64, 4096, &words, &error) < 0)
        fail_msg("%s", error.message);
    timing_report report;
    timing_engine_report(engine, &report);
    timing_kernel_record record = report.kernel_records[0];
    uint32_t stored[64], answered[64];
    assert_int_equal(sc_memcpy_from_device(device, stored, words, sizeof stored, &error), 0);
    assert_int_equal(sc_memcpy_from_device(device, answered, words + 2048, sizeof answered, &error), 0);
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(stored[t], t);
        assert_int_equal(answered[t], 7);   /* the zero loaded plus seven */
    }
    sc_device_destroy(device);
    sc_config_free(config);
    return record;
}

static void test_a_warp_waits_for_its_store_only_when_asked(void **state)
{
    (void)state;
    timing_kernel_record none = run_store_then_load("none");
    timing_kernel_record performed = run_store_then_load("performed");
    assert_true(performed.cycles > none.cycles);
    assert_true(performed.stalls.category[GSI_MEM_DATA] > none.stalls.category[GSI_MEM_DATA]);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_warp_waits_for_its_store_only_when_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
