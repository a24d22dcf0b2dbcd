/* test_quickrelease.c — the qr protocol, driven access by access on a two-CU qr-apu memory system
 * with a two-entry S-FIFO: a CU reads its own write from the wL1 (whole cover) and through a
 * write-out and a miss (partial cover), also with the written bit set on its rL1 copy; a store
 * stays invisible to the other CU until a release writes it out, after which the other CU's
 * stale rL1 copy has been invalidated and its load returns the new value; a full S-FIFO forces
 * the block at its head out of the wL1 without any release; an atomic takes the wL1's bytes
 * along. Below the wL1: a block written out to the wL2 invalidates no rL1 until a release drains
 * it; a release is acknowledged only once its marker has drained the wL2 and the wL3 (the bytes
 * are in memory); a read of a line the wL2 holds whole is served by the wL2, and one it holds in
 * part gets the dirty bytes through the wL3; a release marker does not overtake a write waiting
 * at its bank for an rL2 fill (issue 6). A warp's release waits for its own marker batch only: a
 * later store of another warp of the CU is not held back and stays in the wL1 behind the marker
 * (issue 22); a warp's exit sends its marker batch without waiting; a host write invalidates the
 * matching rL1 lines only; an atomic's result goes on to memory at once and leaves the rL2
 * clean. Every value read is what the modelled hierarchy holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/qr/qr_units.h"

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
    l1_release(h->memory, cu, PTX_SCOPE_GPU, memory_harness_now(h));
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
    assert_int_equal(qr_stats_of(h->memory)->write_cache_read_hits, 1);
    assert_int_equal(stats->l1_misses, 0);

    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x + 4, 0, NULL), 0);    /* partial: write out, then miss */
    assert_int_equal(stats->store_buffer_drains, 1);
    assert_int_equal(stats->l1_misses, 1);
    assert_true(l1_store_buffer_empty(h->memory, 0));
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x, 0, NULL), 7);        /* the fill holds the written bytes */
    assert_int_equal(stats->l1_misses, 1);                        /* (an rL1 hit) */

    memory_harness_access(h, 0, L1_STORE, x, 8, NULL);                            /* rL1 copy: written bit set */
    assert_int_equal(memory_harness_access(h, 0, L1_LOAD, x, 0, NULL), 8);        /* so the load checks the wL1 */
    assert_int_equal(qr_stats_of(h->memory)->write_cache_read_hits, 2);
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
    uint64_t broadcast = qr_stats_of(h->memory)->invalidations_broadcast;
    memory_harness_access(h, 0, L1_STORE, y, 5, NULL);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, y, 0, NULL), 0);        /* not released: CU1 still hits 0 */
    release(h, 0);
    assert_int_equal(qr_stats_of(h->memory)->invalidations_broadcast, broadcast + 2);   /* the wL2 eviction: every rL1 */
    uint64_t misses = stats->l1_misses;
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, y, 0, NULL), 5);        /* its copy was invalidated */
    assert_int_equal(stats->l1_misses, misses + 1);
    assert_int_equal(qr_stats_of(h->memory)->release_flushes, 2);                  /* this test's and the first test's */
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
    assert_int_equal(qr_stats_of(h->memory)->sync_fifo_full_dequeues, 1);
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

/* Stores `value` at `address` in CU 0, then two stores to other lines fill the two-entry S-FIFO1
 * and a third dequeues the first: its block leaves the wL1 for the wL2 without any release. */
static void write_out_without_release(memory_harness *h, uint64_t address, uint32_t value, uint64_t spare)
{
    memory_harness_access(h, 0, L1_STORE, address, value, NULL);
    memory_harness_access(h, 0, L1_STORE, spare, 1, NULL);
    memory_harness_access(h, 0, L1_STORE, spare + 64, 1, NULL);
    assert_null(store_buffer_find(h->memory->l1[0].stores, address & ~(uint64_t)63));
}

static unsigned dirty_blocks_below_l1(const memory_harness *h)
{
    unsigned blocks = write_cache_level_blocks(qr_memory_of(h->memory)->wl3);
    for (unsigned b = 0; b < h->timing.memory.l2_banks; b++)
        blocks += write_cache_level_blocks(qr_bank_of(h->memory, b)->wl2);
    return blocks;
}

static void test_wl2_block_invalidates_nothing_until_released(void **state)
{
    memory_harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t w = h->base + 384;

    release(h, 0);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, w, 0, NULL), 0);        /* CU1 caches W */
    uint64_t broadcast = qr_stats_of(h->memory)->invalidations_broadcast, evictions = qr_stats_of(h->memory)->wl2_evictions;
    write_out_without_release(h, w, 9, h->base + 448);
    assert_true(write_cache_level_find(qr_bank_of(h->memory, memory_bank_of(h->memory, w))->wl2,
                                       memory_bank_local_address(h->memory, w)) != NULL);
    assert_int_equal(qr_stats_of(h->memory)->invalidations_broadcast, broadcast);  /* in the wL2: no rL1 invalidated */
    assert_int_equal(qr_stats_of(h->memory)->wl2_evictions, evictions);
    uint64_t hits = stats->l1_hits;
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, w, 0, NULL), 0);        /* CU1's copy survives */
    assert_int_equal(stats->l1_hits, hits + 1);
    release(h, 0);                                                /* the marker drains the wL2 */
    assert_true(qr_stats_of(h->memory)->invalidations_broadcast >= broadcast + 2);
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, w, 0, NULL), 9);
    assert_int_equal(dirty_blocks_below_l1(h), 0);
}

static void test_release_acknowledged_after_the_wl3_drains(void **state)
{
    memory_harness *h = *state;
    uint64_t v = h->base + 576;
    sc_error error = {{0}};

    memory_harness_access(h, 0, L1_STORE, v, 11, NULL);
    uint64_t acknowledged = qr_stats_of(h->memory)->release_markers_acked;
    l1_release(h->memory, 0, PTX_SCOPE_GPU, memory_harness_now(h));
    assert_int_equal(l1_writes_outstanding(h->memory, 0), h->timing.memory.l2_banks);   /* one marker per bank */
    timing_event event;
    sc_time sent = memory_harness_now(h), acknowledged_at = 0;
    while (event_queue_pop(&h->events, &event)) {
        assert_int_equal(memory_handle_event(h->memory, &event, &error), 0);
        if (l1_writes_outstanding(h->memory, 0) > 0 || acknowledged_at)
            continue;
        acknowledged_at = event.time;
        assert_int_equal(dirty_blocks_below_l1(h), 0);            /* the wL2 and the wL3 drained */
        uint32_t in_memory = 0;
        assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, v, 4, &error), 0);
        assert_int_equal(in_memory, 11);                          /* the bytes reached memory first */
    }
    assert_true(acknowledged_at > 0);
    sc_time round_trip = sc_clock_span(h->timing.memory.gpu_clock, 2ull * qr_config_of(&h->timing.memory)->marker_latency);
    assert_true(acknowledged_at - sent > round_trip);             /* to the wL3 and back */
    assert_int_equal(qr_stats_of(h->memory)->release_markers_acked, acknowledged + 1);
}

/* Its own memory system: a one-block wL1 and a 32-entry S-FIFO1, so a whole line leaves the wL1
 * in one block when another line needs the wL1. */
static void test_read_of_a_line_dirty_in_the_wl2(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2", "l1.sync_fifo_entries=32", "l1.write_cache_size=64B"};
    memory_harness_open(h, "qr", sets, 3);
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t u = h->base;

    for (uint32_t word = 0; word < 16; word++)                    /* the whole line, in the wL1 */
        memory_harness_access(h, 0, L1_STORE, u + 4 * word, 100 + word, NULL);
    memory_harness_access(h, 0, L1_STORE, h->base + 64, 1, NULL);  /* replaces it: the block goes whole */
    uint64_t wl2_hits = qr_stats_of(h->memory)->wl2_read_hits, l2_misses = stats->l2_misses;
    gsi_source source;
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, u + 20, 0, &source), 105);  /* from the wL2 */
    assert_int_equal(qr_stats_of(h->memory)->wl2_read_hits, wl2_hits + 1);
    assert_int_equal(stats->l2_misses, l2_misses);
    assert_int_equal(source, GSI_SOURCE_L2);

    uint64_t t = h->base + 128;                                   /* one word only: a partial block */
    memory_harness_access(h, 0, L1_STORE, t, 77, NULL);
    memory_harness_access(h, 0, L1_STORE, h->base + 192, 1, NULL);
    uint64_t evictions = qr_stats_of(h->memory)->wl2_evictions;
    assert_int_equal(memory_harness_access(h, 1, L1_LOAD, t, 0, NULL), 77);      /* written out, then read */
    assert_int_equal(qr_stats_of(h->memory)->wl2_evictions, evictions + 1);
    assert_int_equal(qr_stats_of(h->memory)->wl2_read_hits, wl2_hits + 1);
    release(h, 0);
    assert_int_equal(dirty_blocks_below_l1(h), 0);
    memory_harness_close(h);
}

/* Issue 6, on its own memory system: CU 1's load of X misses in the rL2, and CU 0's write of X
 * reaches the bank while that fill is outstanding, so the write waits in the fill's MSHR. CU 0's
 * release marker arrives behind it and must not drain the wL2 without it: the release is
 * acknowledged only once X is in memory, and the invalidation its drain sends closes CU 1's miss,
 * so a load CU 1 starts after the acknowledgement (as after acquiring a lock CU 0 then frees)
 * does not merge into the fill of old data. */
static void test_release_waits_for_a_write_behind_an_rl2_fill(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2"};
    memory_harness_open(h, "qr", sets, 1);
    uint64_t x = h->base + 640;
    uint64_t local = memory_bank_local_address(h->memory, x);
    cache_array *rl2 = h->memory->banks[memory_bank_of(h->memory, x)].cache;

    uint32_t early = memory_harness_start(h, 1, L1_LOAD, x, 0);
    while (!cache_array_lookup(rl2, local))                       /* the read reaches the bank: rL2 fill */
        assert_true(memory_harness_step(h));
    assert_int_equal(cache_array_lookup(rl2, local)->state, L2_IV);
    uint32_t store = memory_harness_start(h, 0, L1_STORE, x, 5);
    assert_int_equal(h->done_op, store);                          /* a store is done in the wL1 */
    memory_op_free(h->memory, store);
    l1_release(h->memory, 0, PTX_SCOPE_GPU, memory_harness_now(h));
    while (l1_writes_outstanding(h->memory, 0) > 0)
        assert_true(memory_harness_step(h));
    sc_error error = {{0}};
    uint32_t in_memory = 0;
    assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, x, 4, &error), 0);
    assert_int_equal(in_memory, 5);                               /* acknowledged after the write */
    uint32_t late = memory_harness_start(h, 1, L1_LOAD, x, 0);
    memory_harness_settle(h);
    assert_int_equal(memory_harness_value(h, early), 0);
    assert_int_equal(memory_harness_value(h, late), 5);
    assert_true(qr_stats_of(h->memory)->markers_held > 0);
    memory_harness_close(h);
}

/* Issue 22 item 2, on its own memory system: warp 0 of CU 0 stores X and releases; while its
 * marker batch is on its way, warp 1 stores Y. The release completes when the batch is
 * acknowledged (X in memory) with Y still in the wL1, behind the marker; warp 1's own release
 * then sends a batch of its own, and a release of warp 2 with nothing written out since waits for
 * nothing more. */
static void test_release_does_not_hold_back_a_later_store(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2"};
    memory_harness_open(h, "qr", sets, 1);
    uint64_t x = h->base + 704, y = h->base + 768;
    unsigned banks = h->timing.memory.l2_banks;
    sc_error error = {{0}};
    uint32_t in_memory = 0;

    memory_harness_access(h, 0, L1_STORE, x, 21, NULL);
    assert_int_equal(l1_warp_release(h->memory, 0, 0, PTX_SCOPE_GPU, false, -1, memory_harness_now(h)), RELEASE_WAITS);
    assert_int_equal(l1_writes_outstanding(h->memory, 0), banks);   /* one batch: a marker per bank */
    h->done_op = MEMORY_OP_NONE;
    uint32_t later = memory_harness_start(h, 0, L1_STORE, y, 22);  /* warp 1's store goes on */
    assert_int_equal(h->done_op, later);
    memory_op_free(h->memory, later);
    assert_non_null(store_buffer_find(h->memory->l1[0].stores, y));
    while (l1_warp_release(h->memory, 0, 0, PTX_SCOPE_GPU, true, -1, memory_harness_now(h)) != RELEASE_DONE)
        assert_true(memory_harness_step(h));
    assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, x, 4, &error), 0);
    assert_int_equal(in_memory, 21);                              /* X reached memory */
    assert_non_null(store_buffer_find(h->memory->l1[0].stores, y));   /* Y waits behind the marker */
    assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, y, 4, &error), 0);
    assert_int_equal(in_memory, 0);

    assert_int_equal(l1_warp_release(h->memory, 0, 1, PTX_SCOPE_GPU, false, -1, memory_harness_now(h)), RELEASE_WAITS);
    while (l1_warp_release(h->memory, 0, 1, PTX_SCOPE_GPU, true, -1, memory_harness_now(h)) != RELEASE_DONE)
        assert_true(memory_harness_step(h));
    assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, y, 4, &error), 0);
    assert_int_equal(in_memory, 22);
    assert_int_equal(qr_cu_of(h->memory, 0)->batches_done, 2);
    assert_int_equal(l1_warp_release(h->memory, 0, 2, PTX_SCOPE_GPU, false, -1, memory_harness_now(h)), RELEASE_DONE);
    assert_int_equal(l1_warp_release(h->memory, 0, 3, PTX_SCOPE_GPU, false, 3, memory_harness_now(h)), RELEASE_WAITS);
    memory_harness_close(h);
}

/* Issue 22 item 5 (U9): a warp's exit inserts its release marker; nobody waits for it, and the
 * batch's acknowledgements are all that keeps the L1 undrained. */
static void test_warp_exit_sends_its_marker(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2"};
    memory_harness_open(h, "qr", sets, 1);
    uint64_t x = h->base + 832;
    sc_error error = {{0}};
    uint32_t in_memory = 0;

    memory_harness_access(h, 0, L1_STORE, x, 31, NULL);
    l1_warp_exit(h->memory, 0, 5, memory_harness_now(h));
    assert_true(l1_store_buffer_empty(h->memory, 0));             /* S-FIFO1 dequeued ahead of the marker */
    assert_int_equal(l1_writes_outstanding(h->memory, 0), h->timing.memory.l2_banks);
    assert_int_equal(qr_cu_of(h->memory, 0)->batches_sent, 1);
    assert_false(l1_drained(h->memory, 0));
    memory_harness_settle(h);
    assert_true(l1_drained(h->memory, 0));
    assert_int_equal(qr_cu_of(h->memory, 0)->batches_done, 1);
    assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, x, 4, &error), 0);
    assert_int_equal(in_memory, 31);
    l1_warp_exit(h->memory, 0, 6, memory_harness_now(h));          /* nothing written out since: no batch */
    assert_int_equal(qr_cu_of(h->memory, 0)->batches_sent, 1);
    memory_harness_close(h);
}

/* Issue 22 item 4 (§2.10): a host write invalidates the rL2 line and, through it, the matching
 * rL1 lines; the other lines of every rL1 stay. */
static void test_host_write_invalidates_only_the_matching_lines(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2"};
    memory_harness_open(h, "qr", sets, 1);
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t x = h->base + 896, y = h->base + 960;

    memory_harness_read_then_host_write(h, x, y, 55);
    uint64_t misses = stats->l1_misses;
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, y, 0, NULL), 0);   /* Y stays: an rL1 hit */
        assert_int_equal(stats->l1_misses, misses);
    }
    for (unsigned cu = 0; cu < 2; cu++)
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), 55);  /* X was invalidated */
    assert_int_equal(stats->l1_misses, misses + 2);
    memory_harness_close(h);
}

/* Issue 22 item 3 (§2.6, U7): an atomic is forwarded to the point of system coherence: once it
 * is done its result is in memory, with no release, and the rL2 copy is clean (S-INV2). */
static void test_atomic_reaches_the_point_of_coherence(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"gpu.cu_count=2"};
    memory_harness_open(h, "qr", sets, 1);
    uint64_t z = h->base + 1024;
    sc_error error = {{0}};
    uint32_t in_memory = 0;

    assert_int_equal(memory_harness_access(h, 0, L1_ATOMIC, z, 3, NULL), 0);
    assert_int_equal(memory_harness_access(h, 1, L1_ATOMIC, z, 4, NULL), 3);
    assert_int_equal(sc_memcpy_from_device(h->device, &in_memory, z, 4, &error), 0);
    assert_int_equal(in_memory, 7);
    const cache_line *copy =
        cache_array_lookup(h->memory->banks[memory_bank_of(h->memory, z)].cache, memory_bank_local_address(h->memory, z));
    assert_non_null(copy);
    assert_int_equal(copy->state, L2_V);
    assert_int_equal(l1_writes_outstanding(h->memory, 0), 0);
    memory_harness_close(h);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_after_write_in_the_same_cu),
        cmocka_unit_test(test_release_invalidates_stale_copies),
        cmocka_unit_test(test_full_sync_fifo_forces_write_out),
        cmocka_unit_test(test_atomic_takes_the_written_bytes_along),
        cmocka_unit_test(test_wl2_block_invalidates_nothing_until_released),
        cmocka_unit_test(test_release_acknowledged_after_the_wl3_drains),
        cmocka_unit_test(test_read_of_a_line_dirty_in_the_wl2),
        cmocka_unit_test(test_release_waits_for_a_write_behind_an_rl2_fill),
        cmocka_unit_test(test_release_does_not_hold_back_a_later_store),
        cmocka_unit_test(test_warp_exit_sends_its_marker),
        cmocka_unit_test(test_host_write_invalidates_only_the_matching_lines),
        cmocka_unit_test(test_atomic_reaches_the_point_of_coherence),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
