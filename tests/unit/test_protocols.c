/* test_protocols.c — the protocol tables are complete where the memory system needs them:
 * every state a line can be in when a CU access arrives has a row for every access event, every
 * state with a fill outstanding has fill rows, every cached state has a replacement row, no
 * (state, event) pair is listed twice, and every action is one the controllers implement. For
 * the rfo directory: every state takes requests, every state that waits for an owner takes its
 * answers and its write-backs, the waiting states that need acks complete on Done, stable
 * entries can be recalled, and every row ends where the protocol allows. For qr: the rL1 states
 * take every access, the written-bit state VW and the wL1 events have their rows. For tc-strong
 * and tc-weak: the lease L1 table is complete and has its expiry row. For rcc and rcc-wo: every
 * state of Fig 3.5a (I, V, IV, II, VI) takes every access, the misses (IV, II) their fills and
 * RENEW, the copies (V, VI) replacement and expiry, and the states a write can be in flight in
 * (I, II, VI) its acknowledgement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "protocols/common/directory.h"
#include "protocols/common/rcc_core.h"
#include "protocols/mechanism.h"
#include "protocols/qr/qr_units.h"
#include "protocols/rfo/rfo.h"
#include "timing/memory_internal.h"
#include "timing/protocol.h"

static const l1_event access_events[] = {L1_LOAD, L1_LOAD_STRONG, L1_STORE, L1_STORE_STRONG, L1_ATOMIC};

static void check_table(const sc_protocol *protocol, const l1_state *states, int state_count, bool has_fills)
{
    protocol_index index;
    protocol_build_index(protocol, &index);
    for (int s = 0; s < state_count; s++)
        for (size_t e = 0; e < sizeof access_events / sizeof access_events[0]; e++)
            if (!index.l1[states[s]][access_events[e]])
                fail_msg("%s: no row for state %s on %s", protocol->name, l1_state_name(protocol, states[s]),
                         l1_event_name(protocol, access_events[e]));
    if (has_fills) {
        assert_non_null(index.l1[L1_IV][L1_FILL]);
        assert_non_null(index.l1[L1_IV][L1_FILL_UNCACHED]);
        assert_non_null(index.l1[L1_I][L1_FILL_UNCACHED]);
        assert_non_null(index.l1[L1_V][L1_REPLACE]);
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
    assert_non_null(wt->hooks->acquire);   /* acquire drops every L1 line (test_litmus_timing: cached MP) */
}

/* The lease protocols share one L1 table (common/lease.c) with its own expiry row. */
static void test_lease_tables_are_complete(void **state)
{
    (void)state;
    const l1_state states[] = {L1_I, L1_V, L1_IV};
    const char *const names[] = {"tc-strong", "tc-weak"};
    for (int m = 0; m < 2; m++) {
        const sc_protocol *protocol = sc_protocol_find(names[m]);
        assert_non_null(protocol);
        check_table(protocol, states, 3, true);
        protocol_index index;
        protocol_build_index(protocol, &index);
        assert_non_null(index.l1[L1_V][L1_EVENT_PROTOCOL_FIRST]);   /* LeaseExpired */
    }
}

static void test_rcc_tables_are_complete(void **state)
{
    (void)state;
    const char *const names[] = {"rcc", "rcc-wo"};
    const l1_state states[] = {L1_I, L1_V, L1_IV, RCC_L1_II, RCC_L1_VI};
    for (int m = 0; m < 2; m++) {
        const sc_protocol *protocol = sc_protocol_find(names[m]);
        assert_non_null(protocol);
        protocol_index index;
        protocol_build_index(protocol, &index);
        for (int s = 0; s < 5; s++)
            for (size_t e = 0; e < sizeof access_events / sizeof access_events[0]; e++)
                if (!index.l1[states[s]][access_events[e]])
                    fail_msg("%s: no row for state %s on %s", protocol->name, l1_state_name(protocol, states[s]),
                             l1_event_name(protocol, access_events[e]));
        const l1_state misses[] = {L1_IV, RCC_L1_II}, copies[] = {L1_V, RCC_L1_VI};
        const l1_state writing[] = {L1_I, RCC_L1_II, RCC_L1_VI};
        for (int s = 0; s < 2; s++) {
            assert_non_null(index.l1[misses[s]][L1_FILL]);
            assert_non_null(index.l1[misses[s]][L1_FILL_UNCACHED]);
            assert_non_null(index.l1[misses[s]][RCC_L1_RENEW]);
            assert_non_null(index.l1[copies[s]][L1_REPLACE]);
            assert_non_null(index.l1[copies[s]][RCC_L1_EXPIRED]);
        }
        for (int s = 0; s < 3; s++)
            assert_non_null(index.l1[writing[s]][RCC_L1_ACK]);
        assert_non_null(index.l1[L1_I][L1_FILL_UNCACHED]);
    }
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
    assert_null(nol1->hooks);   /* every default: nothing cached, nothing to drop, no directory */
}

#define L1_ROW_EXISTS(protocol, table, state, event)                                                \
    do {                                                                                               \
        if (!(table)[state][event])                                                                    \
            fail_msg("no row for state %s on %s", l1_state_name(protocol, state),                     \
                     l1_event_name(protocol, event));                                                  \
    } while (0)

#define DIR_ROW_EXISTS(table, state, event)                                                         \
    do {                                                                                               \
        if (!(table)[state][event])                                                                    \
            fail_msg("no row for state %s on %s", dir_state_name(state), dir_event_name(event));     \
    } while (0)

static void test_rfo_l1_table_is_complete(void **state)
{
    (void)state;
    const sc_protocol *rfo = sc_protocol_find("rfo");
    assert_non_null(rfo);
    const l1_state states[] = {L1_I, L1_S, L1_E, L1_O, L1_M, L1_IS, L1_IM};
    check_table(rfo, states, 7, false);
    protocol_index index;
    protocol_build_index(rfo, &index);
    L1_ROW_EXISTS(rfo, index.l1, L1_IS, L1_GRANT_S);
    L1_ROW_EXISTS(rfo, index.l1, L1_IS, L1_GRANT_E);
    L1_ROW_EXISTS(rfo, index.l1, L1_IM, L1_GRANT_M);
    const l1_state cached[] = {L1_S, L1_E, L1_O, L1_M}, owned[] = {L1_E, L1_O, L1_M}, absent[] = {L1_I, L1_IS, L1_IM};
    for (int s = 0; s < 4; s++)
        L1_ROW_EXISTS(rfo, index.l1, cached[s], L1_REPLACE);
    for (int s = 0; s < 3; s++) {
        L1_ROW_EXISTS(rfo, index.l1, owned[s], L1_FWD_GETS);
        L1_ROW_EXISTS(rfo, index.l1, owned[s], L1_FWD_GETM);
        L1_ROW_EXISTS(rfo, index.l1, absent[s], L1_FWD_GETS);   /* its Put went first */
        L1_ROW_EXISTS(rfo, index.l1, absent[s], L1_FWD_GETM);
        L1_ROW_EXISTS(rfo, index.l1, absent[s], L1_INV);        /* S copies are dropped silently */
    }
    L1_ROW_EXISTS(rfo, index.l1, L1_S, L1_INV);
    /* an owned line is never dropped without a write-back */
    for (unsigned i = 0; i < rfo->l1_table_size; i++) {
        const protocol_transition *row = &rfo->l1_table[i];
        if (!l1_state_owned((l1_state)row->state))
            continue;
        bool drops = false, hands_over = false;
        for (int a = 0; a < PROTOCOL_MAX_ACTIONS; a++) {
            drops |= row->actions[a] == L1_DROP_LINE || row->actions[a] == L1_INVALIDATE_LINE;
            hands_over |= row->actions[a] == L1_WRITE_BACK || row->actions[a] == L1_SEND_DATA;
        }
        if (drops && !hands_over)
            fail_msg("rfo: %s on %s drops an owned line", l1_state_name(rfo, (l1_state)row->state),
                     l1_event_name(rfo, (l1_event)row->event));
    }
    assert_null(rfo->hooks->acquire);   /* acquire and release are local */
    assert_ptr_equal(rfo->hooks->bank_receive, directory_receive);
}

/* qr: the rL1 states take every access and the broadcast invalidation; a copy with its written
 * bit set (VW) is never read without the wL1 (its loads are always LoadWriteHit/Partial), a
 * clean copy (V) never has wL1 bytes; every state the wL1 can hold a line in can write it out. */
static void test_qr_table_is_complete(void **state)
{
    (void)state;
    const sc_protocol *qr = sc_protocol_find("qr");
    assert_non_null(qr);
    const l1_state states[] = {L1_I, L1_V, L1_IV};
    check_table(qr, states, 3, true);
    protocol_index index;
    protocol_build_index(qr, &index);
    const l1_event written_events[] = {L1_STORE, L1_STORE_STRONG, L1_ATOMIC, L1_REPLACE, L1_INV, QR_WRITE_EVICT,
                                       QR_LOAD_WRITE_HIT, QR_LOAD_WRITE_PARTIAL};
    for (size_t e = 0; e < sizeof written_events / sizeof written_events[0]; e++)
        L1_ROW_EXISTS(qr, index.l1, QR_VW, written_events[e]);
    const l1_event wl1_events[] = {QR_WRITE_EVICT, QR_LOAD_WRITE_HIT, QR_LOAD_WRITE_PARTIAL};
    for (size_t e = 0; e < sizeof wl1_events / sizeof wl1_events[0]; e++) {
        L1_ROW_EXISTS(qr, index.l1, L1_I, wl1_events[e]);
        assert_null(index.l1[L1_V][wl1_events[e]]);
        assert_null(index.l1[L1_IV][wl1_events[e]]);
    }
    assert_null(index.l1[QR_VW][L1_LOAD]);
    assert_null(index.l1[QR_VW][L1_LOAD_STRONG]);
    const l1_state all[] = {L1_I, L1_V, L1_IV, QR_VW};
    for (int s = 0; s < 4; s++)
        L1_ROW_EXISTS(qr, index.l1, all[s], L1_INV);
    assert_null(qr->hooks->acquire);   /* acquire is a plain load */
    assert_ptr_equal(qr->hooks->release, qr_l1_release);
    assert_ptr_equal(qr->hooks->atomic_performed, qr_atomic_performed);
    assert_ptr_equal(qr->hooks->bank_receive, qr_bank_receive);   /* the wL2 first, no directory */
}

static void test_rfo_directory_table_is_complete(void **state)
{
    (void)state;
    const directory_machine *rfo = &rfo_directory_machine;
    struct {
        const protocol_transition *dir[DIR_STATE_COUNT][DIR_EVENT_COUNT];
    } index = {{{0}}};
    for (unsigned i = 0; i < rfo->size; i++)
        index.dir[rfo->table[i].state][rfo->table[i].event] = &rfo->table[i];
    /* every state of a directory whose L1s write back (WaitWrite is for write-through L1s' writes) */
    for (int s = 0; s <= DIR_WAIT_RECALL; s++) {
        DIR_ROW_EXISTS(index.dir, (dir_state)s, DIR_GET_S);
        DIR_ROW_EXISTS(index.dir, (dir_state)s, DIR_GET_M);
    }
    const dir_state with_owner[] = {DIR_M, DIR_O, DIR_WAIT_OWNER_S, DIR_WAIT_M, DIR_WAIT_RECALL};
    for (int s = 0; s < 5; s++)
        DIR_ROW_EXISTS(index.dir, with_owner[s], DIR_PUT_DIRTY);
    const dir_state awaiting_owner[] = {DIR_WAIT_OWNER_S, DIR_WAIT_M, DIR_WAIT_RECALL};
    for (int s = 0; s < 3; s++) {
        DIR_ROW_EXISTS(index.dir, awaiting_owner[s], DIR_PUT_CLEAN);
        DIR_ROW_EXISTS(index.dir, awaiting_owner[s], DIR_OWNER_DIRTY);
        DIR_ROW_EXISTS(index.dir, awaiting_owner[s], DIR_OWNER_CLEAN);
        DIR_ROW_EXISTS(index.dir, awaiting_owner[s], DIR_OWNER_NO_DATA);
    }
    DIR_ROW_EXISTS(index.dir, DIR_M, DIR_PUT_CLEAN);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_HOME_E, DIR_HOME_DATA);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_HOME_S, DIR_HOME_DATA);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_M, DIR_HOME_DATA);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_M, DIR_INV_ACK);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_RECALL, DIR_INV_ACK);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_M, DIR_DONE);
    DIR_ROW_EXISTS(index.dir, DIR_WAIT_RECALL, DIR_DONE);
    const dir_state stable[] = {DIR_S, DIR_M, DIR_O};
    for (int s = 0; s < 3; s++)
        DIR_ROW_EXISTS(index.dir, stable[s], DIR_REPLACE);
    for (unsigned i = 0; i < rfo->size; i++) {
        const protocol_transition *row = &rfo->table[i];
        assert_ptr_equal(index.dir[row->state][row->event], row);   /* listed once */
        assert_true(row->next < DIR_STATE_COUNT);
        bool closes = false, frees = false;
        for (int a = 0; a < PROTOCOL_MAX_ACTIONS; a++) {
            assert_true(row->actions[a] < DIR_ACTION_COUNT);
            closes |= row->actions[a] == DIR_CLOSE;
            frees |= row->actions[a] == DIR_FREE_ENTRY;
        }
        /* a row leaving a waiting state for a stable one closes the transaction */
        if (row->state >= DIR_WAIT_HOME_E && row->next <= DIR_O && !closes)
            fail_msg("rfo: %s on %s leaves %s open", dir_state_name((dir_state)row->state),
                     dir_event_name((dir_event)row->event), dir_state_name((dir_state)row->state));
        if ((row->next == DIR_I) != frees)
            fail_msg("rfo: %s on %s ends in %s but %s the entry", dir_state_name((dir_state)row->state),
                     dir_event_name((dir_event)row->event), dir_state_name((dir_state)row->next),
                     frees ? "frees" : "keeps");
    }
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
        cmocka_unit_test(test_lease_tables_are_complete),
        cmocka_unit_test(test_rcc_tables_are_complete),
        cmocka_unit_test(test_rfo_l1_table_is_complete),
        cmocka_unit_test(test_rfo_directory_table_is_complete),
        cmocka_unit_test(test_qr_table_is_complete),
        cmocka_unit_test(test_unknown_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
