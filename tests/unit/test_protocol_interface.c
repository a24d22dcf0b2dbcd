/* test_protocol_interface.c — the points of the engine a protocol module plugs into, exercised
 * by toy protocols defined here rather than by a mechanism: guarded rows (the first row whose
 * guard holds is taken), the module's own actions and per-L1 state, the protocol words of cache
 * lines, MSHR entries and messages (zero when installed or allocated), and a home mapping of the
 * module's own (home_of) with the endpoints and NoC ports its messages travel between. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "memory_harness.h"
#include "timing/cache_array.h"
#include "timing/endpoint.h"
#include "timing/mshr.h"

/* The toy: an uncached L1 whose loads from odd CUs take a guarded row that also counts them. */
enum { GUARD_ODD_CU = 1 };
#define TOY_COUNT ((l1_action)L1_ACTION_PROTOCOL_FIRST)

static const protocol_transition toy_l1[] = {
    PROTOCOL_GUARDED_ROW(L1_I, L1_LOAD, GUARD_ODD_CU, L1_I, L1_READ_AROUND, TOY_COUNT),
    PROTOCOL_ROW(L1_I, L1_LOAD, L1_I, L1_READ_AROUND),
    PROTOCOL_ROW(L1_I, L1_STORE, L1_I, L1_WRITE_THROUGH),
};

static void toy_build(memory_system *memory)
{
    uint64_t *counts = calloc(memory->config.cu_count, sizeof *counts);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        memory->l1[cu].protocol_state = &counts[cu];
}

static void toy_destroy(memory_system *memory) { free(memory->l1[0].protocol_state); }

static bool toy_guard(memory_system *memory, const l1_context *context, unsigned guard)
{
    return guard == GUARD_ODD_CU && context->cu % 2 == 1;
}

static int toy_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    if (action != TOY_COUNT)
        return sc_fail(error, "toy: unknown action %d", (int)action);
    ++*(uint64_t *)memory->l1[context->cu].protocol_state;
    return 0;
}

static const protocol_hooks toy_hooks = {
    .build = toy_build, .destroy = toy_destroy, .l1_guard = toy_guard, .l1_action = toy_action,
};
static const protocol_own_action toy_actions[] = {{"count", false}};
static const sc_protocol toy = {
    .name = "toy",
    .l1_table = toy_l1,
    .l1_table_size = sizeof toy_l1 / sizeof toy_l1[0],
    .own_actions = toy_actions,
    .own_action_count = 1,
    .hooks = &toy_hooks,
};

static void test_guarded_rows_and_own_actions(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "gpu.cu_count=2"};
    memory_harness_open_protocol(h, &toy, sets, 2);
    uint64_t x = h->base;
    memory_harness_access(h, 0, L1_STORE, x, 7, NULL);
    for (unsigned cu = 0; cu < 2; cu++)
        for (int k = 0; k < 3; k++)   /* both rows read around the L1 */
            assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), 7);
    assert_int_equal(*(uint64_t *)h->memory->l1[0].protocol_state, 0);   /* the guard fails: second row */
    assert_int_equal(*(uint64_t *)h->memory->l1[1].protocol_state, 3);   /* the guard holds: first row */
    assert_string_equal(l1_action_name(&toy, TOY_COUNT), "count");
    memory_harness_close(h);
}

static void test_protocol_words_start_at_zero(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(2 * 64, 2, 64);
    cache_line *line = cache_array_victim(cache, 0);
    cache_array_install(cache, line, 0, 1);
    line->protocol_word = 99;
    cache_array_invalidate(cache, line);
    line = cache_array_victim(cache, 0);
    cache_array_install(cache, line, 0, 1);
    assert_int_equal(line->protocol_word, 0);
    cache_array_destroy(cache);

    mshr_table *mshrs = mshr_create(1);
    mshr_entry *entry = mshr_allocate(mshrs, 64);
    entry->protocol_word = 5;
    mshr_release(mshrs, entry);
    assert_int_equal(mshr_allocate(mshrs, 128)->protocol_word, 0);
    mshr_destroy(mshrs);

    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0"};
    memory_harness_open(h, "nol1", sets, 1);
    uint32_t handle = message_allocate_request(h->memory, MSG_READ, 0, h->base);
    message_get(h->memory, handle)->protocol_word = 11;
    message_get(h->memory, handle)->protocol_bits = 3;
    message_free(h->memory, handle);
    handle = message_allocate_request(h->memory, MSG_READ, 0, h->base);   /* the same slot, reused */
    assert_int_equal(message_get(h->memory, handle)->protocol_word, 0);
    assert_int_equal(message_get(h->memory, handle)->protocol_bits, 0);
    message_free(h->memory, handle);
    memory_harness_close(h);
}

/* The second toy: requests go to a home chosen by their requester, not by the line (CU c's to L2
 * bank c), which answers reads from the device image itself and counts what reached it. */
static const protocol_transition homed_l1[] = {
    PROTOCOL_ROW(L1_I, L1_LOAD, L1_I, L1_READ_AROUND),
};

typedef struct homed_state {
    unsigned requests_at[16];       /* per L2 bank: requests that reached it */
    bool sources_were_requesters;   /* every request came from the CU whose home the bank is */
} homed_state;

static void homed_build(memory_system *memory)
{
    homed_state *state = calloc(1, sizeof *state);
    state->sources_were_requesters = true;
    memory->protocol_state = state;
}

static void homed_destroy(memory_system *memory) { free(memory->protocol_state); }

static endpoint homed_home_of(memory_system *memory, endpoint requester, uint64_t line_address)
{
    return endpoint_l2_bank(requester.index % memory->config.l2_banks);
}

static int homed_bank_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    homed_state *state = memory->protocol_state;
    message *m = message_get(memory, handle);
    state->requests_at[bank]++;
    state->sources_were_requesters &= m->source.kind == ENDPOINT_CU && m->source.index == bank &&
                                      message_cu(m) == bank && m->destination.kind == ENDPOINT_L2_BANK;
    uint64_t inside = memory->config.line_bytes;
    const uint8_t *image = sc_device_global_span(memory->device, m->line_address, &inside);
    memcpy(m->data, image, inside);
    m->type = MSG_DATA;
    memory_reply(memory, handle, now);
    return 1;
}

static const protocol_hooks homed_hooks = {
    .build = homed_build, .destroy = homed_destroy, .home_of = homed_home_of, .bank_receive = homed_bank_receive,
};
static const sc_protocol homed = {
    .name = "homed",
    .l1_table = homed_l1,
    .l1_table_size = sizeof homed_l1 / sizeof homed_l1[0],
    .hooks = &homed_hooks,
};

static void test_home_mapping_and_endpoints(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "gpu.cu_count=2", "l2.banks=16"};
    memory_harness_open_protocol(h, &homed, sets, 3);
    memory_system *memory = h->memory;
    unsigned line = memory->config.line_bytes, cus = memory->config.cu_count;
    uint64_t x = h->base;
    while (memory_bank_of(memory, x) < 2)   /* a line whose own bank is neither CU's home */
        x += line;
    uint32_t value = 0x5eed;
    sc_error error = {{0}};
    assert_int_equal(sc_memcpy_to_device(h->device, x, &value, sizeof value, &error), 0);

    uint32_t request = message_allocate_request(memory, MSG_READ, 1, x);   /* addressed by home_of */
    assert_int_equal(message_get(memory, request)->destination.kind, ENDPOINT_L2_BANK);
    assert_int_equal(message_get(memory, request)->destination.index, 1);
    message_free(memory, request);
    for (unsigned cu = 0; cu < cus; cu++)
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), value);
    const homed_state *homes = memory->protocol_state;
    assert_int_equal(homes->requests_at[0], 1);
    assert_int_equal(homes->requests_at[1], 1);
    assert_int_equal(homes->requests_at[memory_bank_of(memory, x)], 0);
    assert_true(homes->sources_were_requesters);

    /* NoC ports: the CUs first, then the L2 banks; each read crossed its CU's and its home's. */
    assert_int_equal(endpoint_port(endpoint_cu(1), cus), 1);
    assert_int_equal(endpoint_port(endpoint_l2_bank(1), cus), cus + 1);
    const noc_stats *traffic = memory_noc_statistics(memory);
    for (unsigned cu = 0; cu < cus; cu++) {
        unsigned home = endpoint_port(endpoint_l2_bank(cu), cus);
        assert_int_equal(traffic->bytes_out[cu], MEMORY_MESSAGE_HEADER_BYTES);
        assert_int_equal(traffic->bytes_in[home], MEMORY_MESSAGE_HEADER_BYTES);
        assert_int_equal(traffic->bytes_out[home], MEMORY_MESSAGE_HEADER_BYTES + line);
        assert_int_equal(traffic->bytes_in[cu], MEMORY_MESSAGE_HEADER_BYTES + line);
    }
    assert_int_equal(traffic->bytes_in[endpoint_port(endpoint_l2_bank(memory_bank_of(memory, x)), cus)], 0);
    memory_harness_close(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_rows_and_own_actions),
        cmocka_unit_test(test_protocol_words_start_at_zero),
        cmocka_unit_test(test_home_mapping_and_endpoints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
