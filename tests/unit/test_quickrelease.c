/* test_quickrelease.c — the qr protocol, driven access by access on a two-CU qr-apu memory system
 * with a two-entry S-FIFO: a CU reads its own write from the wL1 (whole cover) and through a
 * write-out and a miss (partial cover), also with the written bit set on its rL1 copy; a store
 * stays invisible to the other CU until a release writes it out, after which the other CU's
 * stale rL1 copy has been invalidated and its load returns the new value; a full S-FIFO forces
 * the block at its head out of the wL1 without any release; an atomic takes the wL1's bytes
 * along. Every value read is what the modelled hierarchy holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"

static int setup(void **state)
{
    static memory_harness h;
    const char *sets[] = {"gpu.cu_count=2", "l1.sync_fifo_entries=2"};
    memory_harness_open(&h, "qr", sets, 2);
    *state = &h;
    return 0;
}

static int teardown(void **state)
{
    memory_harness_close(*state);
    return 0;
}

/* A release of CU `cu`: its marker drains the S-FIFO; done once every write is performed. */
static void release(memory_harness *h, unsigned cu)
{
    l1_drain_store_buffer(h->memory, cu, memory_harness_now(h));
    memory_harness_settle(h);
    assert_true(l1_store_buffer_empty(h->memory, cu));
    assert_int_equal(l1_writes_outstanding(h->memory, cu), 0);
}

static void test_read_after_write_in_the_same_cu(void **state)
{
    memory_harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t x = h->base;

    memory_harness_access(h, 0, L1_STORE, x, 7, NULL);
    assert_int_equal(stats->l2_writes, 0);                        /* the store stays in the wL1 */
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x, 0, NULL), 7);        /* every byte dirty: wL1 hit */
    assert_int_equal(stats->write_cache_read_hits, 1);
    assert_int_equal(stats->l1_misses, 0);

    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x + 4, 0, NULL), 0);    /* partial: write out, then miss */
    assert_int_equal(stats->store_buffer_drains, 1);
    assert_int_equal(stats->l1_misses, 1);
    assert_true(l1_store_buffer_empty(h->memory, 0));
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x, 0, NULL), 7);        /* the fill holds the written bytes */
    assert_int_equal(stats->l1_misses, 1);                        /* (an rL1 hit) */

    memory_harness_access(h, 0, L1_STORE, x, 8, NULL);                            /* rL1 copy: written bit set */
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x, 0, NULL), 8);        /* so the load checks the wL1 */
    assert_int_equal(stats->write_cache_read_hits, 2);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x + 8, 0, NULL), 0);    /* partial with the written bit set */
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x, 0, NULL), 8);
    release(h, 0);
}

static void test_release_invalidates_stale_copies(void **state)
{
    memory_harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t y = h->base + 64;

    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, y, 0, NULL), 0);        /* CU1 caches Y */
    uint64_t broadcast = stats->invalidations_broadcast;
    memory_harness_access(h, 0, L1_STORE, y, 5, NULL);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, y, 0, NULL), 0);        /* not released: CU1 still hits 0 */
    release(h, 0);
    assert_int_equal(stats->invalidations_broadcast, broadcast + 2);   /* the wL2 eviction: every rL1 */
    uint64_t misses = stats->l1_misses;
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, y, 0, NULL), 5);        /* its copy was invalidated */
    assert_int_equal(stats->l1_misses, misses + 1);
    assert_int_equal(stats->release_flushes, 2);                  /* this test's and the first test's */
}

static void test_full_sync_fifo_forces_write_out(void **state)
{
    memory_harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t a = h->base + 128, b = h->base + 192, c = h->base + 256;

    memory_harness_access(h, 0, L1_STORE, a, 1, NULL);
    memory_harness_access(h, 0, L1_STORE, b, 2, NULL);                            /* the two-entry S-FIFO is full */
    uint64_t writes = stats->l2_writes;
    memory_harness_access(h, 0, L1_STORE, c, 3, NULL);                            /* dequeues A: A leaves the wL1 */
    assert_int_equal(stats->sync_fifo_full_dequeues, 1);
    assert_int_equal(stats->l2_writes, writes + 1);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, a, 0, NULL), 1);        /* visible without a release */
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, b, 0, NULL), 0);        /* B still only in CU0's wL1 */
    assert_false(l1_store_buffer_empty(h->memory, 0));
    release(h, 0);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, b, 0, NULL), 2);        /* invalidated, refetched */
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, c, 0, NULL), 3);
}

static void test_atomic_takes_the_written_bytes_along(void **state)
{
    memory_harness *h = *state;
    uint64_t z = h->base + 320;

    memory_harness_access(h, 0, L1_STORE, z, 40, NULL);
    assert_int_equal(memory_harness_access(h, 0, L1_ATOMIC, z, 2, NULL), 40);     /* wL1 bytes written out first */
    assert_true(l1_store_buffer_empty(h->memory, 0));
    assert_int_equal(memory_harness_access(h, 1, L1_ATOMIC, z, 1, NULL), 42);
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, z, 0, NULL), 43);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_after_write_in_the_same_cu),
        cmocka_unit_test(test_release_invalidates_stale_copies),
        cmocka_unit_test(test_full_sync_fifo_forces_write_out),
        cmocka_unit_test(test_atomic_takes_the_written_bytes_along),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
