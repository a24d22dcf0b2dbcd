/* test_home_mapping.c — a protocol module's own home mapping (the home_of hook): a toy protocol
 * sends each CU's requests to a home chosen by the requester rather than the line, and the test
 * checks where they arrive, the endpoints they travel between and the NoC ports they use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "memory_harness.h"
#include "timing/endpoint.h"

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
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_home_mapping_and_endpoints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
