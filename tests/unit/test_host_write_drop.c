/* test_host_write_drop.c — what a host write drops from the L1s of the lease and RCC mechanisms
 * (rcc.host_write_drop, tc.host_write_drop), driven access by access on a two-CU memory system:
 * both CUs read lines X and Y, the host writes X, and both read X and Y again. Every CU reads the
 * host's value of X either way; with `all` (the presets' default) Y misses again too (every L1
 * was emptied), with `written` Y is still an L1 hit and only X misses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/mechanism.h"

/* The L1 misses the second round of reads took, under mechanism `mechanism` with `drop_setting`
 * (and leases long enough that no copy expires in the test). */
static uint64_t misses_after_host_write(const char *mechanism, const char *drop_setting)
{
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2", "tc.lease_cycles=1000000", drop_setting};
    memory_harness_open(h, mechanism, sets, 3);
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t x = h->base, y = h->base + 32 * (uint64_t)h->timing.memory.line_bytes;

    memory_harness_read_then_host_write(h, x, y, 55);
    uint64_t misses = stats->l1_misses;
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), 55);
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, y, 0, NULL), 0);
    }
    misses = stats->l1_misses - misses;
    memory_harness_close(h);
    return misses;
}

static void expect_drops(const char *mechanism, const char *all, const char *written)
{
    assert_int_equal(misses_after_host_write(mechanism, all), 4);       /* X and Y in both L1s */
    assert_int_equal(misses_after_host_write(mechanism, written), 2);   /* X only */
}

static void test_rcc_drops_only_written_lines_when_asked(void **state)
{
    (void)state;
    expect_drops("rcc", "rcc.host_write_drop=all", "rcc.host_write_drop=written");
    expect_drops("rcc-wo", "rcc.host_write_drop=all", "rcc.host_write_drop=written");
}

static void test_tc_drops_only_written_lines_when_asked(void **state)
{
    (void)state;
    expect_drops("tc-strong", "tc.host_write_drop=all", "tc.host_write_drop=written");
    expect_drops("tc-weak", "tc.host_write_drop=all", "tc.host_write_drop=written");
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rcc_drops_only_written_lines_when_asked),
        cmocka_unit_test(test_tc_drops_only_written_lines_when_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
