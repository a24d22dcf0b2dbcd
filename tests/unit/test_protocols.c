/* test_protocols.c — the protocol tables are complete where the memory system needs them:
 * every state a line can be in when a CU access arrives has a row for every access event, every
 * state with a fill outstanding has fill rows, no (state, event) pair is listed twice, and every
 * action is one the L1 controller implements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "protocols/protocol.h"

static const l1_event access_events[] = {L1_LOAD, L1_LOAD_STRONG, L1_STORE, L1_STORE_STRONG, L1_ATOMIC};

static void check_table(const sc_protocol *protocol, const l1_state *states, int state_count, bool has_fills)
{
    protocol_index index;
    protocol_build_index(protocol, &index);
    for (int s = 0; s < state_count; s++)
        for (size_t e = 0; e < sizeof access_events / sizeof access_events[0]; e++)
            if (!index.l1[states[s]][access_events[e]])
                fail_msg("%s: no row for state %s on %s", protocol->name, l1_state_name(states[s]),
                         l1_event_name(access_events[e]));
    if (has_fills) {
        assert_non_null(index.l1[L1_IV][L1_FILL]);
        assert_non_null(index.l1[L1_IV][L1_FILL_UNCACHED]);
        assert_non_null(index.l1[L1_I][L1_FILL_UNCACHED]);
    }
    for (unsigned i = 0; i < protocol->l1_table_size; i++) {
        const protocol_transition *row = &protocol->l1_table[i];
        assert_ptr_equal(index.l1[row->state][row->event], row);  /* listed once */
        assert_true(row->next < L1_STATE_COUNT);
        for (int a = 0; a < PROTOCOL_MAX_ACTIONS; a++)
            assert_true(row->actions[a] < L1_ACTION_COUNT);
    }
}

static void test_wt_table_is_complete(void **state)
{
    (void)state;
    const sc_protocol *wt = sc_protocol_find("wt");
    assert_non_null(wt);
    const l1_state states[] = {L1_I, L1_V, L1_IV};
    check_table(wt, states, 3, true);
    assert_true(wt->acquire_invalidates_l1);
}

static void test_nol1_never_caches(void **state)
{
    (void)state;
    const sc_protocol *nol1 = sc_protocol_find("nol1");
    assert_non_null(nol1);
    const l1_state states[] = {L1_I};
    check_table(nol1, states, 1, false);
    for (unsigned i = 0; i < nol1->l1_table_size; i++) {
        assert_int_equal(nol1->l1_table[i].next, L1_I);
        for (int a = 0; a < PROTOCOL_MAX_ACTIONS; a++) {
            uint8_t action = nol1->l1_table[i].actions[a];
            assert_true(action != L1_HIT && action != L1_OPEN_MISS && action != L1_BUFFER_STORE);
        }
    }
    assert_false(nol1->acquire_invalidates_l1);
}

static void test_unknown_protocol(void **state)
{
    (void)state;
    assert_null(sc_protocol_find("moesi-typo"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wt_table_is_complete),
        cmocka_unit_test(test_nol1_never_caches),
        cmocka_unit_test(test_unknown_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
