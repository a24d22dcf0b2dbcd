/* ownership.h — the vocabulary and the L1 side of ownership (MOESI-family) protocols, a building
 * block of rfo and mesi: the L1 states S, E, O, M and the transients IS, IM; the events of a
 * directory's forwards and grants; the L1 actions that request, perform on, hand over and write
 * back owned lines; and the messages between the L1s and the directory (directory.h).
 *
 * A protocol takes them as its own L1 vocabulary (numbered from L1_*_PROTOCOL_FIRST and
 * MSG_PROTOCOL_FIRST: OWNERSHIP_VOCABULARY in its sc_protocol) and the L1 side as its hooks:
 * ownership_l1_action carries out the actions (counting load hits on modified lines among them),
 * ownership_l1_message takes forwards and write-back acknowledgements. A grant is a fill
 * (MSG_DATA) whose `grant` is the event it raises (L1_GRANT_S, _E, _M). */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_OWNERSHIP_H
#define SYNCSCOPE_PROTOCOLS_COMMON_OWNERSHIP_H

#include "timing/memory_internal.h"

/* L1 states */
#define L1_S ((l1_state)(L1_STATE_PROTOCOL_FIRST + 0))    /* shared: clean, read-only, others may hold it */
#define L1_E ((l1_state)(L1_STATE_PROTOCOL_FIRST + 1))    /* exclusive: clean, the only copy; a store
                                                             makes it M without asking */
#define L1_O ((l1_state)(L1_STATE_PROTOCOL_FIRST + 2))    /* owned: dirty, read-only, others may hold
                                                             it; this L1 answers for it */
#define L1_M ((l1_state)(L1_STATE_PROTOCOL_FIRST + 3))    /* modified: dirty, the only copy */
#define L1_IS ((l1_state)(L1_STATE_PROTOCOL_FIRST + 4))   /* not present, a read (GetS) is outstanding */
#define L1_IM ((l1_state)(L1_STATE_PROTOCOL_FIRST + 5))   /* not present, a GetM is outstanding */

/* L1 events (besides the engine's L1_INV: the directory invalidates a shared copy) */
#define L1_FWD_GETS ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 0))  /* the directory asks the owner for
                                                                  the data of another CU's read */
#define L1_FWD_GETM ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 1))  /* the directory takes the line from
                                                                  its owner (a GetM or a recall) */
#define L1_GRANT_S ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 2))   /* the data answering a GetS: shared */
#define L1_GRANT_E ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 3))   /* the same, no other copy: exclusive */
#define L1_GRANT_M ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 4))   /* the data answering a GetM: ownership,
                                                                  every other copy gone */
#define L1_DROP_NOW ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 5))  /* the directory drops a shared copy at
                                                                  once, no message or ack (DIR_DROP_SHARERS) */

/* L1 actions */
#define L1_REQUEST_SHARED ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 0))     /* open an MSHR (IS), send GetS */
#define L1_REQUEST_OWNERSHIP ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 1))  /* open an MSHR (IM), send GetM */
#define L1_PERFORM_ATOMIC ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 2))     /* perform the atomic on the
                                                       owned line; values return after the L1 latency */
#define L1_WRITE_BACK ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 3))         /* send the line to the
                                                       directory (Put; dirty in M and O) */
#define L1_SEND_INV_ACK ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 4))       /* acknowledge an invalidation */
#define L1_SEND_DATA ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 5))          /* send the line to the
                                                       directory for a forwarded request (dirty in M, O) */
#define L1_SEND_NO_DATA ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 6))       /* answer a forward for a line
                                                       this L1 no longer holds */
#define L1_COUNT_MODIFIED_HIT ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 7)) /* count a load hit on a line in
                                                       M (read-after-write re-use) */

/* Messages */
#define MSG_GET_S ((message_type)(MSG_PROTOCOL_FIRST + 0))      /* CU -> directory: a readable copy */
#define MSG_GET_M ((message_type)(MSG_PROTOCOL_FIRST + 1))      /* CU -> directory: ownership */
#define MSG_PUT ((message_type)(MSG_PROTOCOL_FIRST + 2))        /* CU -> directory: the owner gives the
                                                                   line up, with its data (OWNERSHIP_DIRTY) */
#define MSG_PUT_ACK ((message_type)(MSG_PROTOCOL_FIRST + 3))    /* directory -> CU: the write-back is home */
#define MSG_FWD_GET_S ((message_type)(MSG_PROTOCOL_FIRST + 4))  /* directory -> owner: send the data,
                                                                   keep a copy */
#define MSG_FWD_GET_M ((message_type)(MSG_PROTOCOL_FIRST + 5))  /* directory -> owner: send the data,
                                                                   give the line up */
#define MSG_INV_ACK ((message_type)(MSG_PROTOCOL_FIRST + 6))    /* CU -> directory: the copy is gone */
#define MSG_OWNER_DATA ((message_type)(MSG_PROTOCOL_FIRST + 7)) /* CU -> directory: the owner's data for
                                                                   a forward (OWNERSHIP_DIRTY) */
#define MSG_OWNER_NO_DATA ((message_type)(MSG_PROTOCOL_FIRST + 8))  /* CU -> directory: no copy any
                                                                       more (its Put went first) */

/* A Put's or an owner's data flag (message.protocol_bits): the data is newer than the home's. */
#define OWNERSHIP_DIRTY 1u

enum { OWNERSHIP_STATES = 6, OWNERSHIP_EVENTS = 6, OWNERSHIP_ACTIONS = 8, OWNERSHIP_MESSAGES = 9 };
extern const protocol_own_state ownership_states[OWNERSHIP_STATES];
extern const char *const ownership_events[OWNERSHIP_EVENTS];
extern const protocol_own_action ownership_actions[OWNERSHIP_ACTIONS];
extern const protocol_own_message ownership_messages[OWNERSHIP_MESSAGES];

/* The vocabulary's part of an ownership protocol's sc_protocol initializer. */
#define OWNERSHIP_VOCABULARY                                                                         \
    .own_states = ownership_states, .own_state_count = OWNERSHIP_STATES, .own_events = ownership_events, \
    .own_event_count = OWNERSHIP_EVENTS, .own_actions = ownership_actions,                          \
    .own_action_count = OWNERSHIP_ACTIONS, .own_messages = ownership_messages,                      \
    .own_message_count = OWNERSHIP_MESSAGES

/* The statistics of an ownership protocol's L1s and directory (directory_counters read them);
 * directory_build makes them the memory system's protocol statistics. */
typedef struct ownership_stats {
    uint64_t l1_read_hits_modified;   /* load hits on lines the L1 holds in M (read-after-write re-use) */
    uint64_t l1_ownership_requests;   /* misses that asked for ownership (GetM); the rest of l1_misses are reads */
    uint64_t l1_writebacks;           /* Puts: owned lines an L1 gave back to the directory */
    uint64_t dir_lookups, dir_forwards, dir_invalidations, dir_recalls, dir_home_writes;
    uint64_t dir_deferrals;           /* requests that found their line's transaction open and waited in it
                                         (the blocking directory; once per transaction waited behind) */
} ownership_stats;

static inline ownership_stats *ownership_stats_of(const memory_system *memory) { return memory->protocol_stats; }

/* Whether an L1 line in `state` is the CU's to answer for (E, O, M): it must be written back or
 * handed over, never dropped silently. */
static inline bool l1_state_owned(l1_state state)
{
    return state == L1_E || state == L1_O || state == L1_M;
}

/* Whether an owned line's data is newer than the home's (M, O). */
bool l1_state_dirty(l1_state state);

/* The block's state of one L1 (its l1_controller.protocol_state). */
typedef struct ownership_l1 {
    uint64_t writebacks_outstanding;   /* Puts sent and not yet acknowledged by the directory */
} ownership_l1;

static inline ownership_l1 *ownership_l1_of(const memory_system *memory, unsigned cu)
{
    return memory->l1[cu].protocol_state;
}

/* Gives every L1 its ownership_l1 (from the protocol's build; ownership_l1_destroy frees them). */
void ownership_l1_build(memory_system *memory);
void ownership_l1_destroy(memory_system *memory);

/* The L1 side's hooks (protocol_hooks.h); an L1 is drained once no write and no Put of it is
 * outstanding. */
int ownership_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error);
int ownership_l1_message(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);
bool ownership_l1_drained(const memory_system *memory, unsigned cu);

#endif
