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

#include "config/config.h"
#include "protocols/protocol.h"
#include "timing/memory_internal.h"
#include "timing/timing_config.h"

typedef struct harness {
    sc_config *config;
    sc_device *device;
    event_queue events;
    memory_system *memory;
    uint64_t base;               /* line X; line Y = X + banks lines, same bank */
    uint64_t line_y;
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
    const char *sets[] = {"gpu.cu_count=2", "directory.full_map_size=128", "directory.full_map_associativity=1"};
    h.config = sc_config_load("qr-apu", NULL, sets, 3, &error);
    assert_non_null(h.config);
    timing_config timing;
    assert_int_equal(timing_config_load(h.config, 0, &timing, &error), 0);
    const sc_protocol *rfo = sc_protocol_find("rfo");
    assert_int_equal(timing_config_check_protocol(&timing, rfo, &error), 0);
    assert_int_equal(timing.memory.directory_entries, 1);
    h.device = sc_device_create(timing.core.warp_size, &error);
    event_queue_init(&h.events);
    h.memory = memory_system_create(&timing.memory, rfo, h.device, &h.events,
                                    (memory_callbacks){&h, op_done, write_performed});
    h.base = sc_device_malloc(h.device, 64 * 64);
    h.base = (h.base + 63) & ~63ull;
    h.line_y = h.base + 64ull * timing.memory.l2_banks;
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

/* Runs every pending event. */
static void settle(harness *h)
{
    sc_error error = {{0}};
    timing_event event;
    while (event_queue_pop(&h->events, &event))
        if (memory_handle_event(h->memory, &event, &error) < 0)
            fail_msg("%s", error.message);
}

/* One lane of CU `cu` accesses the 32-bit word at `address`; returns the value loaded (or the
 * atomic's old value) and the level that served it. */
static uint32_t access_word(harness *h, unsigned cu, exec_access_kind kind, uint64_t address, uint32_t value,
                            gsi_source *source)
{
    sc_error error = {{0}};
    uint32_t handle = memory_op_allocate(h->memory);
    memory_op *op = memory_op_get(h->memory, handle);
    memset(&op->request, 0, sizeof op->request);
    op->request.kind = (uint8_t)kind;
    op->request.atom_op = PTX_ATOM_ADD;
    op->request.type = PTX_TYPE_U32;
    op->request.element_bytes = 4;
    op->request.vector = 1;
    op->request.lane_mask = 1;
    op->request.address[0] = address;
    op->request.data[0][0] = value;
    op->cu = cu;
    op->lines_pending = 1;
    op->event = kind == EXEC_ACCESS_LOAD ? L1_LOAD : kind == EXEC_ACCESS_STORE ? L1_STORE : L1_ATOMIC;
    coalesced_line line = {.line_address = address & ~63ull, .lanes = 1};
    h->done_op = MEMORY_OP_NONE;
    sc_time now = h->events.count ? event_queue_next_time(&h->events) : 0;
    assert_int_equal(l1_access(h->memory, cu, (l1_event)op->event, &line, handle, now, &error), L1_ACCEPTED);
    settle(h);
    assert_int_equal(h->done_op, handle);
    if (source)
        *source = (gsi_source)op->source;
    uint32_t result = (uint32_t)op->request.data[0][0];
    memory_op_free(h->memory, handle);
    return result;
}

static uint32_t image_word(harness *h, uint64_t address)
{
    memory_host_access(h->memory, address, 4, false);
    uint32_t word;
    memcpy(&word, sc_device_global_pointer(h->device, address, 4), 4);
    return word;
}

static void test_ownership_forwarding_invalidation_and_recall(void **state)
{
    harness *h = *state;
    const memory_stats *stats = memory_statistics(h->memory);
    gsi_source source;

    access_word(h, 0, EXEC_ACCESS_STORE, h->base, 1, NULL);            /* CU0: I -> M (GetM, home) */
    assert_int_equal(stats->dir_lookups, 1);
    assert_int_equal(image_word(h, h->base), 1);                       /* host read sees the L1's M data */

    assert_int_equal(access_word(h, 1, EXEC_ACCESS_LOAD, h->base, 0, &source), 1);   /* forwarded to CU0 */
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);
    assert_int_equal(stats->dir_forwards, 1);
    assert_int_equal(access_word(h, 1, EXEC_ACCESS_LOAD, h->base, 0, &source), 1);   /* CU1 now hits in S */
    assert_int_equal(source, GSI_SOURCE_L1);

    access_word(h, 0, EXEC_ACCESS_STORE, h->base + 4, 2, NULL);        /* CU0 in O: Put, GetM, Inv CU1 */
    assert_int_equal(stats->l1_writebacks, 1);
    assert_int_equal(stats->dir_invalidations, 1);
    assert_int_equal(access_word(h, 1, EXEC_ACCESS_LOAD, h->base + 4, 0, &source), 2);   /* miss again */
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);

    assert_int_equal(access_word(h, 1, EXEC_ACCESS_ATOMIC, h->base, 10, NULL), 1);   /* CU1 gets M, adds */
    assert_int_equal(access_word(h, 0, EXEC_ACCESS_LOAD, h->base, 0, NULL), 11);

    uint64_t recalls = stats->dir_recalls;
    access_word(h, 1, EXEC_ACCESS_STORE, h->line_y, 7, NULL);          /* Y's entry recalls X's */
    assert_int_equal(stats->dir_recalls, recalls + 1);
    assert_int_equal(access_word(h, 0, EXEC_ACCESS_LOAD, h->base, 0, &source), 11);  /* recalls Y; X from home */
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(access_word(h, 0, EXEC_ACCESS_LOAD, h->line_y, 0, &source), 7);  /* Y's dirty data was recalled */
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(stats->dir_recalls, recalls + 3);
    assert_int_equal(image_word(h, h->base), 11);
    assert_int_equal(image_word(h, h->base + 4), 2);
    assert_int_equal(image_word(h, h->line_y), 7);
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(l1_writes_outstanding(h->memory, cu), 0);
        assert_int_equal(l1_writebacks_outstanding(h->memory, cu), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ownership_forwarding_invalidation_and_recall),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
