/* test_gsi_acquire_wait.c — GSI's classification of a warp waiting for an atomic's result
 * (gsi.acquire_atomic_wait): with acquire semantics the wait is SYNC (acquire) by default and
 * MEM_DATA under mem_data, the same cycles either way; a relaxed atomic, alone or with a fence
 * after its result is used (atomicCAS then __threadfence), is a MEM_DATA wait under both. One
 * warp on one CU of the gsi preset under wt runs the kernels of tests/data/exec/acquire_wait.ptx
 * through the timing engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "base/files.h"
#include "device_test_support.h"

/* Runs `kernel` with gsi.acquire_atomic_wait=`wait` and returns its record; checks its output. */
static timing_kernel_record run_kernel(const char *kernel, const char *wait)
{
    sc_error error = {{0}};
    char wait_set[64], path[1024];
    snprintf(wait_set, sizeof wait_set, "gsi.acquire_atomic_wait=%s", wait);
    const char *sets[] = {"gpu.cu_count=1", "cpu.count=0", wait_set};
    const sc_protocol *wt = sc_protocol_find("wt");
    sc_config *config = sc_config_load("gsi", NULL, sets, 3, &error);
    if (!config)
        fail_msg("config: %s", error.message);
    void *engine = NULL;
    sc_device *device = timing_test_device(config, wt, &engine, &error);
    if (!device)
        fail_msg("%s", error.message);
    snprintf(path, sizeof path, "%s/tests/data/exec/acquire_wait.ptx", sc_data_dir());
    int module = sc_device_load_ptx(device, path, &error);
    if (module < 0)
        fail_msg("%s", error.message);
    uint64_t words = 0;
    if (launch_on_buffer(device, module, kernel, 32, 2048, &words, &error) < 0)
        fail_msg("%s: %s", kernel, error.message);
    uint32_t taken = 0, stored = 0;
    assert_int_equal(sc_memcpy_from_device(device, &taken, words + 4 * 31, 4, &error), 0);
    assert_int_equal(sc_memcpy_from_device(device, &stored, words + 1024 + 4 * 31, 4, &error), 0);
    assert_int_equal(taken, 1);
    assert_int_equal(stored, 5);   /* the old value 0 plus 5 */
    timing_report report;
    timing_engine_report(engine, &report);
    timing_kernel_record record = report.kernel_records[0];
    sc_device_destroy(device);
    sc_config_free(config);
    return record;
}

static void test_acquire_atomic_wait_is_sync_unless_mem_data(void **state)
{
    (void)state;
    timing_kernel_record sync = run_kernel("cas_acquire", "sync");
    timing_kernel_record data = run_kernel("cas_acquire", "mem_data");
    /* By default the wait for the acquiring CAS is SYNC acquire. */
    assert_true(sync.stalls.sync_kind[GSI_SYNC_ACQUIRE] > 0);
    /* mem_data charges the same wait to MEM_DATA: no acquire cycles, the same time, and the SYNC
     * acquire cycles moved to MEM_DATA, served beyond the L1. */
    assert_int_equal(data.stalls.sync_kind[GSI_SYNC_ACQUIRE], 0);
    assert_int_equal(data.cycles, sync.cycles);
    assert_int_equal(data.stalls.category[GSI_MEM_DATA],
                     sync.stalls.category[GSI_MEM_DATA] + sync.stalls.sync_kind[GSI_SYNC_ACQUIRE]);
    assert_int_equal(data.stalls.source[GSI_SOURCE_L1], sync.stalls.source[GSI_SOURCE_L1]);
    assert_int_equal(data.stalls.source[GSI_SOURCE_UNRESOLVED], 0);
}

static void test_relaxed_atomic_wait_is_mem_data(void **state)
{
    (void)state;
    const char *kernels[] = {"cas_relaxed", "cas_relaxed_fence"};
    for (unsigned k = 0; k < 2; k++) {
        timing_kernel_record sync = run_kernel(kernels[k], "sync");
        timing_kernel_record data = run_kernel(kernels[k], "mem_data");
        assert_int_equal(sync.stalls.sync_kind[GSI_SYNC_ACQUIRE], 0);
        assert_true(sync.stalls.category[GSI_MEM_DATA] > 0);
        /* The option does not touch it. */
        assert_memory_equal(&data.stalls, &sync.stalls, sizeof sync.stalls);
        assert_int_equal(data.cycles, sync.cycles);
    }
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_acquire_atomic_wait_is_sync_unless_mem_data),
        cmocka_unit_test(test_relaxed_atomic_wait_is_mem_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
