/* protocol.c — table indexing and the names used in messages (protocols are found through the
 * mechanism registry, mechanism.c). */
#include "timing/protocol.h"

#include <string.h>

void protocol_index_table(const protocol_transition *table, unsigned size, unsigned event_count,
                          const protocol_transition **first)
{
    for (unsigned i = 0; i < size; i++) {
        const protocol_transition **slot = &first[table[i].state * event_count + table[i].event];
        if (!*slot)
            *slot = &table[i];
    }
}

void protocol_build_index(const sc_protocol *protocol, protocol_index *index)
{
    memset(index, 0, sizeof *index);
    protocol_index_table(protocol->l1_table, protocol->l1_table_size, L1_EVENT_COUNT, &index->l1[0][0]);
    index->l1_end = protocol->l1_table + protocol->l1_table_size;
}

const char *l1_state_name(const sc_protocol *protocol, l1_state state)
{
    static const char *const names[L1_STATE_PROTOCOL_FIRST] = {"I", "V", "IV"};
    if (state < L1_STATE_PROTOCOL_FIRST)
        return names[state];
    unsigned own = state - L1_STATE_PROTOCOL_FIRST;
    return own < protocol->own_state_count ? protocol->own_states[own].name : "?";
}

const char *l1_event_name(const sc_protocol *protocol, l1_event event)
{
    static const char *const names[L1_EVENT_PROTOCOL_FIRST] = {
        "Load", "LoadStrong", "Store", "StoreStrong", "Atomic", "Fill", "FillUncached", "Replace", "Inv",
    };
    if (event < L1_EVENT_PROTOCOL_FIRST)
        return names[event];
    unsigned own = event - L1_EVENT_PROTOCOL_FIRST;
    return own < protocol->own_event_count ? protocol->own_events[own] : "?";
}

const char *l1_action_name(const sc_protocol *protocol, l1_action action)
{
    static const char *const names[L1_ACTION_PROTOCOL_FIRST] = {
        "none", "hit", "merge", "open_miss", "read_around", "update_line", "buffer_store",
        "write_through", "drain_line", "invalidate_line", "close_miss", "send_atomic", "install_fill",
        "deliver_fill", "drop_line", "stall",
    };
    if (action < L1_ACTION_PROTOCOL_FIRST)
        return names[action];
    unsigned own = action - L1_ACTION_PROTOCOL_FIRST;
    return own < protocol->own_action_count ? protocol->own_actions[own].name : "?";
}
