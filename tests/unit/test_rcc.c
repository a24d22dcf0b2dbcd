/* test_rcc.c — Relativistic Cache Coherence (common/rcc_core.h) driven access by access on a
 * three-CU qr-apu memory system:
 *  - the walkthrough of Ren's Fig 3.3 (digest 004-ren-part1.md §3.4) with a fixed lease of 10 and
 *    Fig 3.5's fill time (mnow): every timestamp (20, 40, 41, 51, 41, 52) and every value read;
 *  - the L1's transient states: a store while the CU's load miss is out makes it II, the fill is
 *    cached in VI (readable until the store's acknowledgement), and the acknowledgement drops it;
 *  - renewal: an expired copy whose L2 line is unchanged gets RENEW (no data), a changed one DATA;
 *  - the lease predictor: a line starts at rcc.lease_max, drops to rcc.lease_min on a write and
 *    doubles on a renewal; with rcc.lease_predictor false every lease is lease_max;
 *  - rollover with 6-bit timestamps: many rollovers, and message passing keeps its values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/common/rcc_core.h"

static void open_rcc(memory_harness *h, const char *mechanism, const char *const *extra, int extra_count)
{
    const char *sets[12] = {"gpu.cu_count=3", "rcc.livelock_cycles=0"};
    int count = 2;
    for (int i = 0; i < extra_count; i++)
        sets[count++] = extra[i];
    memory_harness_open(h, mechanism, sets, count);
}

static const rcc_stats *stats(const memory_harness *h) { return h->memory->protocol_stats; }

static uint64_t l2_exp(memory_harness *h, uint64_t address)
{
    uint64_t exp, ver, lease;
    rcc_l2_times(h->memory, address, &exp, &ver, &lease);
    return exp;
}

static uint64_t l2_ver(memory_harness *h, uint64_t address)
{
    uint64_t exp, ver, lease;
    rcc_l2_times(h->memory, address, &exp, &ver, &lease);
    return ver;
}

static uint64_t l2_lease(memory_harness *h, uint64_t address)
{
    uint64_t exp, ver, lease;
    rcc_l2_times(h->memory, address, &exp, &ver, &lease);
    return lease;
}

static l1_state l1_state_of(memory_harness *h, unsigned cu, uint64_t address)
{
    const cache_line *line = cache_array_lookup(h->memory->l1[cu].cache, address);
    return line ? (l1_state)line->state : L1_I;
}

static void test_walkthrough_of_fig_3_3(void **state)
{
    (void)state;
    memory_harness h;
    const char *sets[] = {"rcc.lease_predictor=false", "rcc.lease_max=10", "rcc.lease_min=8", "rcc.fill_time=mnow"};
    open_rcc(&h, "rcc", sets, 4);
    unsigned line = h.timing.memory.line_bytes;
    uint64_t a = h.base, b = h.base + line;
    /* Initial state: C1 (now 0) and C0 hold A and B with exp 10; a third core (C2, now 30) wrote B. */
    memory_harness_access(&h, 1, L1_LOAD, a, 0, NULL);
    memory_harness_access(&h, 1, L1_LOAD, b, 0, NULL);
    memory_harness_access(&h, 0, L1_LOAD, a, 0, NULL);
    memory_harness_access(&h, 0, L1_LOAD, b, 0, NULL);
    assert_int_equal(l2_exp(&h, a), 10);
    assert_int_equal(l2_exp(&h, b), 10);
    rcc_set_time(h.memory, 2, 30);
    memory_harness_access(&h, 2, L1_STORE, b, 3, NULL);
    assert_int_equal(l2_ver(&h, b), 30);
    rcc_set_time(h.memory, 0, 20);

    /* 1: C0 ST A: A.ver = max(20, 0, 10 + 1) = 20. */
    memory_harness_access(&h, 0, L1_STORE, a, 1, NULL);
    assert_int_equal(l2_ver(&h, a), 20);
    assert_int_equal(rcc_read_time(h.memory, 0), 20);
    /* 2: C0 LD B: its copy (exp 10) has expired; B.exp = max(10, 30 + 10, 20 + 10) = 40, C0.now = 30. */
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, b, 0, NULL), 3);
    assert_int_equal(l2_exp(&h, b), 40);
    assert_int_equal(rcc_read_time(h.memory, 0), 30);
    /* 3: C1 ST B: B.ver = max(0, 30, 40 + 1) = 41 = C1.now. */
    memory_harness_access(&h, 1, L1_STORE, b, 4, NULL);
    assert_int_equal(l2_ver(&h, b), 41);
    assert_int_equal(rcc_read_time(h.memory, 1), 41);
    /* 4: C1 LD A: its copy (exp 10 < 41) has expired; A.exp = max(10, 20 + 10, 41 + 10) = 51; the new A. */
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, a, 0, NULL), 1);
    assert_int_equal(l2_exp(&h, a), 51);
    assert_int_equal(rcc_read_time(h.memory, 1), 41);
    /* 5: C0 ST B: B.ver = max(30, 41, 40 + 1) = 41, an unobserved store sharing version 41. */
    memory_harness_access(&h, 0, L1_STORE, b, 5, NULL);
    assert_int_equal(l2_ver(&h, b), 41);
    assert_int_equal(rcc_read_time(h.memory, 0), 41);
    /* 6: C0 ST A: A.ver = max(41, 20, 51 + 1) = 52 = C0.now. */
    memory_harness_access(&h, 0, L1_STORE, a, 6, NULL);
    assert_int_equal(l2_ver(&h, a), 52);
    assert_int_equal(rcc_read_time(h.memory, 0), 52);
    /* 7: C1 LD A hits (41 <= 51) and reads step 1's value, logically before C0's write at 52. */
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, a, 0, &source), 1);
    assert_int_equal(source, GSI_SOURCE_L1);
    assert_int_equal(stats(&h)->expired_loads, 2);
    memory_harness_close(&h);
}

/* Runs events until `handle` is done. */
static void run_until_done(memory_harness *h, uint32_t handle)
{
    while (h->done_op != handle)
        assert_true(memory_harness_step(h));
}

static void test_store_during_a_miss_goes_through_II_and_VI(void **state)
{
    (void)state;
    memory_harness h;
    open_rcc(&h, "rcc-wo", NULL, 0);
    uint64_t x = h.base;
    memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL);   /* the L2 holds X: CU0's miss hits there */
    h.done_op = MEMORY_OP_NONE;
    uint32_t load = memory_harness_start(&h, 0, L1_LOAD, x, 0);
    uint32_t store = memory_harness_start_warp_at(&h, 0, 1, L1_STORE, x, 7, memory_harness_now(&h));
    assert_int_equal(mshr_find(h.memory->l1[0].mshrs, x)->state, RCC_L1_II);
    run_until_done(&h, load);
    assert_int_equal(l1_state_of(&h, 0, x), RCC_L1_VI);   /* the fill came before the store's ACK */
    run_until_done(&h, store);
    memory_harness_settle(&h);
    assert_int_equal(l1_state_of(&h, 0, x), L1_I);        /* the ACK dropped the copy */
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, x, 0, NULL), 7);
    memory_harness_close(&h);
}

static void test_renewal_and_the_lease_predictor(void **state)
{
    (void)state;
    memory_harness h;
    open_rcc(&h, "rcc", NULL, 0);
    unsigned line = h.timing.memory.line_bytes;
    uint64_t x = h.base, y = h.base + line;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 0);
    assert_int_equal(l2_lease(&h, x), 2048);               /* every line starts at lease_max */
    memory_harness_access(&h, 0, L1_STORE, x, 9, NULL);
    assert_int_equal(l2_lease(&h, x), 8);                  /* a write drops it to lease_min */
    /* CU1's copy is logically before the write until CU1's clock passes its exp. */
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 0);
    memory_harness_access(&h, 2, L1_LOAD, y, 0, NULL);     /* a lease on Y, then CU1 writes Y past it */
    memory_harness_access(&h, 1, L1_STORE, y, 1, NULL);
    assert_true(rcc_read_time(h.memory, 1) > l2_exp(&h, x));
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 9);   /* expired, changed: DATA */
    assert_int_equal(stats(&h)->renewals, 0);
    /* CU1 moves past its new copy's lease again without X changing: RENEW, and the lease doubles. */
    memory_harness_access(&h, 0, L1_LOAD, y, 0, NULL);     /* CU2's copy of Y is still valid: CU0 reads */
    memory_harness_access(&h, 1, L1_STORE, y, 2, NULL);
    assert_true(rcc_read_time(h.memory, 1) > l2_exp(&h, x));
    uint64_t data_before = stats(&h)->data_responses;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 9);
    assert_int_equal(stats(&h)->renewals, 1);
    assert_int_equal(stats(&h)->premature_expiries, 1);
    assert_int_equal(stats(&h)->data_responses, data_before);
    assert_int_equal(l2_lease(&h, x), 16);
    assert_int_equal(stats(&h)->expired_loads, 2);
    memory_harness_close(&h);

    const char *fixed[] = {"rcc.lease_predictor=false"};
    open_rcc(&h, "rcc", fixed, 1);
    memory_harness_access(&h, 1, L1_LOAD, h.base, 0, NULL);
    memory_harness_access(&h, 0, L1_STORE, h.base, 9, NULL);
    assert_int_equal(l2_lease(&h, h.base), 2048);
    memory_harness_close(&h);
}

static void test_rollover_keeps_values(void **state)
{
    (void)state;
    memory_harness h;
    const char *sets[] = {"rcc.timestamp_bits=6", "rcc.lease_max=10", "rcc.lease_predictor=false"};
    open_rcc(&h, "rcc", sets, 3);
    unsigned line = h.timing.memory.line_bytes;
    uint64_t data = h.base, flag = h.base + line;
    uint32_t last_data = 0;
    for (uint32_t i = 1; i <= 60; i++) {
        memory_harness_access(&h, 0, L1_STORE, data, i, NULL);
        memory_harness_access(&h, 0, L1_STORE, flag, i, NULL);
        uint32_t seen_flag = memory_harness_access(&h, 1, L1_LOAD, flag, 0, NULL);
        uint32_t seen_data = memory_harness_access(&h, 1, L1_LOAD, data, 0, NULL);
        assert_true(seen_data >= seen_flag);      /* message passing */
        assert_true(seen_data >= last_data);      /* coherence */
        last_data = seen_data;
        assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, data, 0, NULL), i);   /* own write */
        assert_true(rcc_read_time(h.memory, 0) <= 63);
    }
    assert_true(stats(&h)->rollovers >= 3);
    memory_harness_close(&h);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walkthrough_of_fig_3_3),
        cmocka_unit_test(test_store_during_a_miss_goes_through_II_and_VI),
        cmocka_unit_test(test_renewal_and_the_lease_predictor),
        cmocka_unit_test(test_rollover_keeps_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
