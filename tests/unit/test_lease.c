/* test_lease.c — the physical-time lease protocols (common/lease.h) driven access by access on a
 * two-CU qr-apu memory system with 1000-cycle leases, and the SC core's issue filter
 * (common/sc_core.h):
 *  - tc-strong: CU1 reads X (a lease); CU0's store to X waits at the L2 until that lease has
 *    expired, and is done only then; CU1's copy still reads the old value before the expiry, and
 *    after the store is done CU1's access finds its copy expired, misses, and reads the new value;
 *  - tc-weak: the same store is done after an L2 round trip, but CU0 counts it outstanding (so its
 *    fences and releases wait) until the lease on X has expired;
 *  - a load that finds its copy in V counts as a reuse by the time since the copy's lease began
 *    (within the lease, one to two leases, two to four), the instrument of tc_l1_reuses*;
 *  - the SC core holds a global or shared access while the warp has a global access in flight,
 *    as a SYNC ordering stall, and waives every acquire and release. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/common/lease.h"
#include "protocols/common/sc_core.h"

#define LEASE_CYCLES 1000

static void open_lease(memory_harness *h, const char *mechanism)
{
    const char *sets[] = {"gpu.cu_count=2", "tc.lease_cycles=1000"};
    memory_harness_open(h, mechanism, sets, 2);
}

static sc_time lease_time(const memory_harness *h) { return sc_clock_span(h->timing.memory.gpu_clock, LEASE_CYCLES); }

static const lease_stats *stats(const memory_harness *h) { return h->memory->protocol_stats; }

/* Runs events until `handle` is done; returns when. */
static sc_time run_until_done(memory_harness *h, uint32_t handle)
{
    h->done_op = MEMORY_OP_NONE;
    while (h->done_op != handle)
        assert_true(memory_harness_step(h));
    return h->done_time;
}

static void test_tc_strong_store_waits_for_the_lease(void **state)
{
    (void)state;
    memory_harness h;
    open_lease(&h, "tc-strong");
    uint64_t x = h.base;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 0);
    sc_time loaded = h.done_time;
    uint32_t store = memory_harness_start_at(&h, 0, L1_STORE, x, 1, loaded);
    sc_time stored = run_until_done(&h, store);
    memory_op_free(h.memory, store);
    assert_true(stored >= lease_time(&h));   /* the lease began after time 0 */
    assert_int_equal(stats(&h)->write_lease_waits, 1);
    memory_harness_settle(&h);
    /* Before the expiry CU1's copy holds the old value (logically before the store). */
    uint32_t early = memory_harness_start_at(&h, 1, L1_LOAD, x, 0, loaded + 1);
    memory_harness_settle(&h);
    assert_int_equal(memory_harness_value(&h, early), 0);
    assert_int_equal(stats(&h)->l1_expired_loads, 0);
    /* Once the store is done the copy has expired: a miss reads the new value. */
    uint32_t late = memory_harness_start_at(&h, 1, L1_LOAD, x, 0, stored);
    memory_harness_settle(&h);
    assert_int_equal(memory_harness_value(&h, late), 1);
    assert_int_equal(stats(&h)->l1_expired_loads, 1);
    memory_harness_close(&h);
}

static void test_tc_weak_store_proceeds_until_its_gwct(void **state)
{
    (void)state;
    memory_harness h;
    open_lease(&h, "tc-weak");
    uint64_t x = h.base;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 0);
    sc_time loaded = h.done_time;
    uint32_t store = memory_harness_start_at(&h, 0, L1_STORE, x, 1, loaded);
    sc_time stored = run_until_done(&h, store);
    memory_op_free(h.memory, store);
    assert_true(stored < loaded + lease_time(&h) / 2);   /* an L2 round trip, no wait */
    assert_int_equal(l1_writes_outstanding(h.memory, 0), 1);   /* not globally visible yet */
    assert_int_equal(stats(&h)->gwct_waits, 1);
    memory_harness_settle(&h);
    assert_int_equal(l1_writes_outstanding(h.memory, 0), 0);
    assert_int_equal(stats(&h)->write_lease_waits, 0);
    memory_harness_close(&h);
}

/* When CU `cu`'s copy of `x` began its lease: its expiry less the lease length. */
static sc_time copy_lease_began(memory_harness *h, unsigned cu, uint64_t x)
{
    const cache_line *copy = cache_array_lookup(h->memory->l1[cu].cache, x);
    assert_non_null(copy);
    return copy->protocol_word - lease_time(h);
}

static void load_at(memory_harness *h, unsigned cu, uint64_t x, sc_time when)
{
    uint32_t load = memory_harness_start_at(h, cu, L1_LOAD, x, 0, when);
    memory_harness_settle(h);
    memory_harness_value(h, load);
}

/* A load that finds its copy in V is a reuse, counted by the time since the copy's lease began:
 * within the lease a hit; at one lease exactly, and before two, an expired load within two leases;
 * from two to before four, within four; at four leases or later, neither. Each expired load
 * refills the copy with a new lease. */
static void test_reuses_counted_by_their_lease_age(void **state)
{
    (void)state;
    memory_harness h;
    open_lease(&h, "tc-weak");
    uint64_t x = h.base;
    sc_time lease = lease_time(&h);
    load_at(&h, 1, x, memory_harness_now(&h));                        /* a miss, not a reuse */
    assert_int_equal(stats(&h)->l1_reuses, 0);
    load_at(&h, 1, x, copy_lease_began(&h, 1, x) + lease / 2);        /* a hit */
    assert_int_equal(stats(&h)->l1_reuses, 1);
    assert_int_equal(stats(&h)->l1_expired_loads, 0);
    load_at(&h, 1, x, copy_lease_began(&h, 1, x) + lease);            /* expired at one lease */
    assert_int_equal(stats(&h)->l1_expired_loads, 1);
    assert_int_equal(stats(&h)->l1_reuses_within_2_leases, 1);
    load_at(&h, 1, x, copy_lease_began(&h, 1, x) + 3 * lease);        /* within four */
    assert_int_equal(stats(&h)->l1_reuses_within_4_leases, 1);
    load_at(&h, 1, x, copy_lease_began(&h, 1, x) + 4 * lease);        /* neither */
    assert_int_equal(stats(&h)->l1_reuses, 4);
    assert_int_equal(stats(&h)->l1_expired_loads, 3);
    assert_int_equal(stats(&h)->l1_reuses_within_2_leases, 1);
    assert_int_equal(stats(&h)->l1_reuses_within_4_leases, 1);
    memory_harness_close(&h);
}

static void test_sc_core_orders_accesses_and_waives_fences(void **state)
{
    (void)state;
    issue_traits load = {.flags = ISSUE_GLOBAL_LOAD}, shared = {.flags = ISSUE_SHARED_ACCESS},
                 fence = {.flags = ISSUE_FENCE | ISSUE_ACQUIRE | ISSUE_RELEASE}, alu = {.flags = 0};
    issue_verdict v = sc_core_issue_filter(NULL, 0, 0, &load, 0);
    assert_int_equal(v.sync, GSI_NONE);
    assert_true(v.ordering_waived);
    v = sc_core_issue_filter(NULL, 0, 0, &load, 1);
    assert_int_equal(v.sync, GSI_SYNC_ORDERING);
    assert_int_equal(v.mem_struct, GSI_NONE);
    assert_int_equal(sc_core_issue_filter(NULL, 0, 0, &shared, 2).sync, GSI_SYNC_ORDERING);
    v = sc_core_issue_filter(NULL, 0, 0, &fence, 3);
    assert_int_equal(v.sync, GSI_NONE);
    assert_true(v.ordering_waived);
    assert_int_equal(sc_core_issue_filter(NULL, 0, 0, &alu, 3).sync, GSI_NONE);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tc_strong_store_waits_for_the_lease),
        cmocka_unit_test(test_tc_weak_store_proceeds_until_its_gwct),
        cmocka_unit_test(test_reuses_counted_by_their_lease_age),
        cmocka_unit_test(test_sc_core_orders_accesses_and_waives_fences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
