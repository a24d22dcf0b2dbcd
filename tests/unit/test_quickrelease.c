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

#include "config/config.h"
#include "protocols/protocol.h"
#include "timing/memory_internal.h"
#include "timing/timing_config.h"

typedef struct harness {
    sc_config *config;
    sc_device *device;
    event_queue events;
    memory_system *memory;
    uint64_t base;               /* lines X, X + 64, X + 128, ... */
    uint32_t done_op;            /* the last operation reported done */
} harness;

static void op_done(void *context, uint32_t op, sc_time when)
{
    (void)when;
    ((harness *)context)->done_op = op;
}

static void write_performed(void *context, unsigned cu, sc_time when)
{
    (void)context, (void)cu, (void)when;
}

static int setup(void **state)
{
    static harness h;
    sc_error error = {{0}};
    const char *sets[] = {"gpu.cu_count=2", "l1.sync_fifo_entries=2"};
    h.config = sc_config_load("qr-apu", NULL, sets, 2, &error);
    assert_non_null(h.config);
    timing_config timing;
    assert_int_equal(timing_config_load(h.config, 0, &timing, &error), 0);
    const sc_protocol *qr = sc_protocol_find("qr");
    assert_non_null(qr);
    assert_int_equal(timing_config_check_protocol(&timing, qr, &error), 0);
    h.device = sc_device_create(timing.core.warp_size, &error);
    event_queue_init(&h.events);
    h.memory = memory_system_create(&timing.memory, qr, h.device, &h.events,
                                    (memory_callbacks){&h, op_done, write_performed});
    h.base = sc_device_malloc(h.device, 64 * 64);
    h.base = (h.base + 63) & ~63ull;
    uint32_t zeros[32 * 16] = {0};
    assert_int_equal(sc_memcpy_to_device(h.device, h.base, zeros, sizeof zeros, &error), 0);
    *state = &h;
    return 0;
}

static int teardown(void **state)
{
    harness *h = *state;
    memory_system_destroy(h->memory);
    event_queue_release(&h->events);
    sc_device_destroy(h->device);
    sc_config_free(h->config);
    return 0;
}

static sc_time now(const harness *h)
{
    return h->events.count ? event_queue_next_time(&h->events) : 0;
}

/* Runs every pending event. */
static void settle(harness *h)
{
    sc_error error = {{0}};
    timing_event event;
    while (event_queue_pop(&h->events, &event))
        if (memory_handle_event(h->memory, &event, &error) < 0)
            fail_msg("%s", error.message);
}

/* One lane of CU `cu` accesses the 32-bit word at `address` (event: L1_LOAD, L1_STORE or
 * L1_ATOMIC, an add); returns the value loaded (or the atomic's old value). */
static uint32_t access_word(harness *h, unsigned cu, l1_event event, uint64_t address, uint32_t value)
{
    sc_error error = {{0}};
    uint32_t handle = memory_op_allocate(h->memory);
    memory_op *op = memory_op_get(h->memory, handle);
    memset(&op->request, 0, sizeof op->request);
    op->request.kind = (uint8_t)(event == L1_LOAD ? EXEC_ACCESS_LOAD : event == L1_STORE ? EXEC_ACCESS_STORE
                                                                                          : EXEC_ACCESS_ATOMIC);
    op->request.atom_op = PTX_ATOM_ADD;
    op->request.type = PTX_TYPE_U32;
    op->request.element_bytes = 4;
    op->request.vector = 1;
    op->request.lane_mask = 1;
    op->request.address[0] = address;
    op->request.data[0][0] = value;
    op->cu = cu;
    op->lines_pending = 1;
    op->event = (uint8_t)event;
    coalesced_line line = {.line_address = address & ~63ull, .lanes = 1};
    h->done_op = MEMORY_OP_NONE;
    assert_int_equal(l1_access(h->memory, cu, event, &line, handle, now(h), &error), L1_ACCEPTED);
    settle(h);
    assert_int_equal(h->done_op, handle);
    uint32_t result = (uint32_t)op->request.data[0][0];
    memory_op_free(h->memory, handle);
    return result;
}

/* A release of CU `cu`: its marker drains the S-FIFO; done once every write is performed. */
static void release(harness *h, unsigned cu)
{
    l1_drain_store_buffer(h->memory, cu, now(h));
    settle(h);
    assert_true(l1_store_buffer_empty(h->memory, cu));
    assert_int_equal(l1_writes_outstanding(h->memory, cu), 0);
}

static void test_read_after_write_in_the_same_cu(void **state)
{
    harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t x = h->base;

    access_word(h, 0, L1_STORE, x, 7);
    assert_int_equal(stats->l2_writes, 0);                        /* the store stays in the wL1 */
    assert_int_equal(access_word(h, 0, L1_LOAD, x, 0), 7);        /* every byte dirty: wL1 hit */
    assert_int_equal(stats->write_cache_read_hits, 1);
    assert_int_equal(stats->l1_misses, 0);

    assert_int_equal(access_word(h, 0, L1_LOAD, x + 4, 0), 0);    /* partial: write out, then miss */
    assert_int_equal(stats->store_buffer_drains, 1);
    assert_int_equal(stats->l1_misses, 1);
    assert_true(l1_store_buffer_empty(h->memory, 0));
    assert_int_equal(access_word(h, 0, L1_LOAD, x, 0), 7);        /* the fill holds the written bytes */
    assert_int_equal(stats->l1_misses, 1);                        /* (an rL1 hit) */

    access_word(h, 0, L1_STORE, x, 8);                            /* rL1 copy: written bit set */
    assert_int_equal(access_word(h, 0, L1_LOAD, x, 0), 8);        /* so the load checks the wL1 */
    assert_int_equal(stats->write_cache_read_hits, 2);
    assert_int_equal(access_word(h, 0, L1_LOAD, x + 8, 0), 0);    /* partial with the written bit set */
    assert_int_equal(access_word(h, 0, L1_LOAD, x, 0), 8);
    release(h, 0);
}

static void test_release_invalidates_stale_copies(void **state)
{
    harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t y = h->base + 64;

    assert_int_equal(access_word(h, 1, L1_LOAD, y, 0), 0);        /* CU1 caches Y */
    uint64_t broadcast = stats->invalidations_broadcast;
    access_word(h, 0, L1_STORE, y, 5);
    assert_int_equal(access_word(h, 1, L1_LOAD, y, 0), 0);        /* not released: CU1 still hits 0 */
    release(h, 0);
    assert_int_equal(stats->invalidations_broadcast, broadcast + 1);   /* one other CU */
    uint64_t misses = stats->l1_misses;
    assert_int_equal(access_word(h, 1, L1_LOAD, y, 0), 5);        /* its copy was invalidated */
    assert_int_equal(stats->l1_misses, misses + 1);
    assert_int_equal(stats->release_flushes, 2);                  /* this test's and the first test's */
}

static void test_full_sync_fifo_forces_write_out(void **state)
{
    harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    uint64_t a = h->base + 128, b = h->base + 192, c = h->base + 256;

    access_word(h, 0, L1_STORE, a, 1);
    access_word(h, 0, L1_STORE, b, 2);                            /* the two-entry S-FIFO is full */
    uint64_t writes = stats->l2_writes;
    access_word(h, 0, L1_STORE, c, 3);                            /* dequeues A: A leaves the wL1 */
    assert_int_equal(stats->sync_fifo_full_dequeues, 1);
    assert_int_equal(stats->l2_writes, writes + 1);
    assert_int_equal(access_word(h, 1, L1_LOAD, a, 0), 1);        /* visible without a release */
    assert_int_equal(access_word(h, 1, L1_LOAD, b, 0), 0);        /* B still only in CU0's wL1 */
    assert_false(l1_store_buffer_empty(h->memory, 0));
    release(h, 0);
    assert_int_equal(access_word(h, 1, L1_LOAD, b, 0), 2);        /* invalidated, refetched */
    assert_int_equal(access_word(h, 1, L1_LOAD, c, 0), 3);
}

static void test_atomic_takes_the_written_bytes_along(void **state)
{
    harness *h = *state;
    uint64_t z = h->base + 320;

    access_word(h, 0, L1_STORE, z, 40);
    assert_int_equal(access_word(h, 0, L1_ATOMIC, z, 2), 40);     /* wL1 bytes written out first */
    assert_true(l1_store_buffer_empty(h->memory, 0));
    assert_int_equal(access_word(h, 1, L1_ATOMIC, z, 1), 42);
    assert_int_equal(access_word(h, 0, L1_LOAD, z, 0), 43);
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
