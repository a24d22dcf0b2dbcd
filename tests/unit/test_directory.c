/* test_directory.c — the rfo directory, driven access by access on a two-CU qr-apu memory system
 * whose directory has one entry per L2 bank: a store gets ownership, a read from the other CU is
 * forwarded to the owner (data from a remote L1, both keep copies), a store by the O owner writes
 * the line back and invalidates the sharer, an atomic is performed in the L1 that owns the line,
 * a second line in the same bank recalls the first one's entry (the owner's dirty data reaches
 * the home), and every value read, and the image after a host read, is what the program wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/common/directory.h"

static int setup(void **state)
{
    static memory_harness h;
    const char *sets[] = {"gpu.cu_count=2", "directory.full_map_size=128", "directory.full_map_associativity=1"};
    memory_harness_open(&h, "rfo", sets, 3);
    assert_int_equal(directory_config_of(&h.timing.memory)->entries, 1);
    *state = &h;
    return 0;
}

static int teardown(void **state)
{
    memory_harness_close(*state);
    return 0;
}

/* Line Y: in the same L2 bank (and directory set) as line X = h->base. */
static uint64_t line_y(const memory_harness *h)
{
    return h->base + (uint64_t)h->timing.memory.line_bytes * h->timing.memory.l2_banks;
}

static uint32_t image_word(memory_harness *h, uint64_t address)
{
    memory_host_access(h->memory, address, 4, false);
    uint32_t word;
    memcpy(&word, sc_device_global_pointer(h->device, address, 4), 4);
    return word;
}

static void test_ownership_forwarding_invalidation_and_recall(void **state)
{
    memory_harness *h = *state;
    gsi_source source;

    memory_harness_access(h, 0, L1_STORE, h->base, 1, NULL);            /* CU0: I -> M (GetM, home) */
    assert_int_equal(ownership_stats_of(h->memory)->dir_lookups, 1);
    assert_int_equal(image_word(h, h->base), 1);                       /* host read sees the L1's M data */

    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 1);   /* forwarded to CU0 */
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);
    assert_int_equal(ownership_stats_of(h->memory)->dir_forwards, 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base, 0, &source), 1);   /* CU1 now hits in S */
    assert_int_equal(source, GSI_SOURCE_L1);

    memory_harness_access(h, 0, L1_STORE, h->base + 4, 2, NULL);        /* CU0 in O: Put, GetM, Inv CU1 */
    assert_int_equal(ownership_stats_of(h->memory)->l1_writebacks, 1);
    assert_int_equal(ownership_stats_of(h->memory)->dir_invalidations, 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, h->base + 4, 0, &source), 2);   /* miss again */
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);

    assert_int_equal(memory_harness_access(h, 1, L1_ATOMIC, h->base, 10, NULL), 1);   /* CU1 gets M, adds */
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL), 11);

    uint64_t recalls = ownership_stats_of(h->memory)->dir_recalls;
    memory_harness_access(h, 1, L1_STORE, line_y(h), 7, NULL);          /* Y's entry recalls X's */
    assert_int_equal(ownership_stats_of(h->memory)->dir_recalls, recalls + 1);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, h->base, 0, &source), 11);  /* recalls Y; X from home */
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, line_y(h), 0, &source), 7);  /* Y's dirty data was recalled */
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(ownership_stats_of(h->memory)->dir_recalls, recalls + 3);
    assert_int_equal(image_word(h, h->base), 11);
    assert_int_equal(image_word(h, h->base + 4), 2);
    assert_int_equal(image_word(h, line_y(h)), 7);
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(l1_writes_outstanding(h->memory, cu), 0);
        assert_true(l1_drained(h->memory, cu));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ownership_forwarding_invalidation_and_recall),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
