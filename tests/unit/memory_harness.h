/* memory_harness.h — a memory system of the timing model driven access by access, for the
 * protocol unit tests (test_directory.c, test_quickrelease.c, test_memory_side.c, test_lease.c): a qr-apu
 * configuration with the test's overrides, a device whose first 64 lines (from h->base,
 * line-aligned) are zero, and one-lane 32-bit accesses that run every event they cause before
 * returning, or only start, for tests that run the events one by one. Header-only, so each test
 * includes it once. */
#ifndef SYNCSCOPE_TESTS_MEMORY_HARNESS_H
#define SYNCSCOPE_TESTS_MEMORY_HARNESS_H

#include <string.h>

#include "config/config.h"
#include "protocols/mechanism.h"
#include "timing/memory_internal.h"
#include "timing/timing_config.h"

typedef struct memory_harness {
    sc_config *config;
    timing_config timing;
    sc_device *device;
    event_queue events;
    memory_system *memory;
    uint64_t base;               /* the first of 64 zeroed lines */
    uint32_t done_op;            /* the last operation reported done */
    sc_time done_time;           /* and when */
} memory_harness;

static inline void memory_harness_op_done(void *context, uint32_t op, sc_time when)
{
    ((memory_harness *)context)->done_op = op;
    ((memory_harness *)context)->done_time = when;
}

static inline void memory_harness_write_performed(void *context, unsigned cu, sc_time when)
{
    (void)context, (void)cu, (void)when;
}

/* Builds the memory system of the protocol descriptor `chosen` on qr-apu with the "key=value"
 * overrides `sets`. */
static inline void memory_harness_open_protocol(memory_harness *h, const sc_protocol *chosen, const char *const *sets,
                                         int set_count)
{
    sc_error error = {{0}};
    h->config = sc_config_load("qr-apu", NULL, sets, set_count, &error);
    if (!h->config)
        fail_msg("config: %s", error.message);
    assert_int_equal(timing_config_load(h->config, 0, &h->timing, &error), 0);
    assert_int_equal(timing_config_load_protocol(h->config, chosen, &h->timing, &error), 0);
    h->device = sc_device_create(h->timing.core.warp_size, &error);
    event_queue_init(&h->events);
    h->memory = memory_system_create(&h->timing.memory, chosen, h->device, &h->events,
                                     (memory_callbacks){h, memory_harness_op_done, memory_harness_write_performed});
    unsigned line = h->timing.memory.line_bytes;
    h->base = sc_device_malloc(h->device, 65ull * line);
    h->base = (h->base + line - 1) & ~(uint64_t)(line - 1);
    static const uint8_t zeros[64 * 1024];
    assert_true(64ull * line <= sizeof zeros);
    assert_int_equal(sc_memcpy_to_device(h->device, h->base, zeros, 64ull * line, &error), 0);
}

/* The same for the mechanism named `protocol`. */
static inline void memory_harness_open(memory_harness *h, const char *protocol, const char *const *sets, int set_count)
{
    const sc_protocol *chosen = sc_protocol_find(protocol);
    assert_non_null(chosen);
    memory_harness_open_protocol(h, chosen, sets, set_count);
}

static inline void memory_harness_close(memory_harness *h)
{
    memory_system_destroy(h->memory);
    event_queue_release(&h->events);
    sc_device_destroy(h->device);
    sc_config_free(h->config);
}

/* The time of the next pending event (0 when none). */
static inline sc_time memory_harness_now(const memory_harness *h)
{
    return h->events.count ? event_queue_next_time(&h->events) : 0;
}

/* Runs the next pending event; false when there is none. */
static inline bool memory_harness_step(memory_harness *h)
{
    sc_error error = {{0}};
    timing_event event;
    if (!event_queue_pop(&h->events, &event))
        return false;
    if (memory_handle_event(h->memory, &event, &error) < 0)
        fail_msg("%s", error.message);
    return true;
}

/* Runs every pending event. */
static inline void memory_harness_settle(memory_harness *h)
{
    while (memory_harness_step(h))
        ;
}

/* One lane of warp slot `warp` of CU `cu` starts an access to the `bytes` (1, 2 or 4) at `address`
 * (event L1_LOAD, L1_STORE or L1_ATOMIC, an add of `value`) at time `now`, and no event runs;
 * returns the operation, whose value (memory_harness_value) is there once it is done. */
static inline uint32_t memory_harness_start_sized_at(memory_harness *h, unsigned cu, unsigned warp, l1_event event,
                                                     uint64_t address, uint32_t value, unsigned bytes, sc_time now)
{
    sc_error error = {{0}};
    uint32_t handle = memory_op_allocate(h->memory);
    memory_op *op = memory_op_get(h->memory, handle);
    memset(&op->request, 0, sizeof op->request);
    op->request.kind = (uint8_t)(event == L1_LOAD    ? EXEC_ACCESS_LOAD
                                 : event == L1_STORE ? EXEC_ACCESS_STORE
                                                     : EXEC_ACCESS_ATOMIC);
    op->request.atom_op = PTX_ATOM_ADD;
    op->request.type = (uint8_t)(bytes == 1 ? PTX_TYPE_U8 : bytes == 2 ? PTX_TYPE_U16 : PTX_TYPE_U32);
    op->request.element_bytes = (uint8_t)bytes;
    op->request.vector = 1;
    op->request.lane_mask = 1;
    op->request.address[0] = address;
    op->request.data[0][0] = value;
    op->cu = cu;
    op->warp = warp;
    op->lines_pending = 1;
    op->event = (uint8_t)event;
    coalesced_line line = {.line_address = address & ~(uint64_t)(h->timing.memory.line_bytes - 1), .lanes = 1};
    assert_int_equal(l1_access(h->memory, cu, event, &line, handle, now, &error), L1_ACCEPTED);
    return handle;
}

/* The same for the 32-bit word at `address`. */
static inline uint32_t memory_harness_start_warp_at(memory_harness *h, unsigned cu, unsigned warp, l1_event event,
                                                    uint64_t address, uint32_t value, sc_time now)
{
    return memory_harness_start_sized_at(h, cu, warp, event, address, value, 4, now);
}

/* The same for warp slot 0. */
static inline uint32_t memory_harness_start_at(memory_harness *h, unsigned cu, l1_event event, uint64_t address,
                                               uint32_t value, sc_time now)
{
    return memory_harness_start_warp_at(h, cu, 0, event, address, value, now);
}

/* The same at the time of the next pending event. */
static inline uint32_t memory_harness_start(memory_harness *h, unsigned cu, l1_event event, uint64_t address,
                                     uint32_t value)
{
    return memory_harness_start_at(h, cu, event, address, value, memory_harness_now(h));
}

/* The value a done operation loaded (or its atomic's old value); frees the operation. */
static inline uint32_t memory_harness_value(memory_harness *h, uint32_t handle)
{
    uint32_t result = (uint32_t)memory_op_get(h->memory, handle)->request.data[0][0];
    memory_op_free(h->memory, handle);
    return result;
}

/* memory_harness_start, then every event it causes; returns the value loaded (or the atomic's
 * old value) and, if `source` is not NULL, the level that served it. */
static inline uint32_t memory_harness_access(memory_harness *h, unsigned cu, l1_event event, uint64_t address,
                                      uint32_t value, gsi_source *source)
{
    h->done_op = MEMORY_OP_NONE;
    uint32_t handle = memory_harness_start(h, cu, event, address, value);
    memory_harness_settle(h);
    assert_int_equal(h->done_op, handle);
    if (source)
        *source = (gsi_source)memory_op_get(h->memory, handle)->source;
    return memory_harness_value(h, handle);
}

/* CUs 0 and 1 each read the words at x and y (both zero), then the host writes `value` to the word
 * at x: the device image, then the memory system's host-write action. */
static inline void memory_harness_read_then_host_write(memory_harness *h, uint64_t x, uint64_t y, uint32_t value)
{
    sc_error error = {{0}};
    for (unsigned cu = 0; cu < 2; cu++) {
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), 0);
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, y, 0, NULL), 0);
    }
    assert_int_equal(sc_memcpy_to_device(h->device, x, &value, sizeof value, &error), 0);
    memory_host_access(h->memory, x, sizeof value, true);
}

#endif
