/* protocol.h — how a coherence mechanism plugs into the timing model.
 *
 * A protocol is a set of controllers, each an explicit state x event table in the style of
 * gem5 Ruby's SLICC protocols: for every (state, event) pair the table lists the actions to
 * perform, in order, and the state that results. The memory system (timing/) owns the caches,
 * MSHRs, store buffers, network and DRAM and implements every action once; a protocol only
 * chooses which actions happen when. A reader can check a table row by row against the seed's
 * description (../shared/seeds/digests). A pair missing from a table is a protocol bug and
 * stops the run with a message naming the controller, state and event.
 *
 * The same tables serve every later mechanism: new protocols add states, events and actions
 * here and their implementations in the controllers.
 */
#ifndef SYNCSCOPE_PROTOCOLS_PROTOCOL_H
#define SYNCSCOPE_PROTOCOLS_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ptx_ir.h"

#define PROTOCOL_MAX_ACTIONS 5

/* ---- the per-CU L1 controller ---- */

typedef enum l1_state {
    L1_I = 0,      /* not present, no miss outstanding */
    L1_V,          /* valid, clean (write-through keeps L1 lines clean) */
    L1_IV,         /* not present, a fill is outstanding (an MSHR is open and still merging) */
    L1_STATE_COUNT
} l1_state;

typedef enum l1_event {
    L1_LOAD = 0,        /* weak load: may use the L1 copy */
    L1_LOAD_STRONG,     /* relaxed/volatile/acquire load at GPU or system scope */
    L1_STORE,           /* weak store */
    L1_STORE_STRONG,    /* relaxed/volatile/release store at GPU or system scope */
    L1_ATOMIC,          /* atom/red: performed at the L2 */
    L1_FILL,            /* the L2's data response to an L1 miss */
    L1_FILL_UNCACHED,   /* the same, for a miss that must not be cached (closed by a write of the
                           CU, or opened before the latest acquire) */
    L1_EVENT_COUNT
} l1_event;

typedef enum l1_action {
    L1_NONE = 0,
    L1_HIT,              /* deliver the line's bytes to the request after the L1 latency */
    L1_MERGE,            /* add the request to the open MSHR (secondary miss) */
    L1_OPEN_MISS,        /* open an MSHR and send a read for the line */
    L1_READ_AROUND,      /* send a read to the L2 that does not touch or fill the L1 */
    L1_UPDATE_LINE,      /* write the store's bytes into the valid line */
    L1_BUFFER_STORE,     /* put the store's bytes into the write-combining store buffer */
    L1_WRITE_THROUGH,    /* send the store's bytes to the L2 now (after any buffered bytes of the line) */
    L1_DRAIN_LINE,       /* send the store buffer's entry for the line, if any */
    L1_INVALIDATE_LINE,  /* drop the valid line */
    L1_CLOSE_MISS,       /* the open miss serves only the requests already waiting: its fill
                            (older than this write) is delivered to them but never cached, and
                            later loads of the line wait for it, then miss afresh */
    L1_SEND_ATOMIC,      /* send the atomic to the L2 */
    L1_INSTALL_FILL,     /* cache the fill, overlaid with the CU's writes */
    L1_DELIVER_FILL,     /* deliver the fill to every request waiting in the MSHR and close it */
    L1_ACTION_COUNT
} l1_action;

typedef struct protocol_transition {
    uint8_t state, event;
    uint8_t actions[PROTOCOL_MAX_ACTIONS];
    uint8_t next;
} protocol_transition;

/* A release (st.release, fence, kernel end) always drains the CU's store buffer and waits until
 * every write of the CU is performed at the L2; while it waits, the CU's other writes are held
 * back (GSI: pending release). What an acquire does is the protocol's choice. */
typedef struct sc_protocol {
    const char *name;                     /* CLI name */
    const protocol_transition *l1_table;
    unsigned l1_table_size;
    bool acquire_invalidates_l1;          /* acquire (ld.acquire, fence, kernel start): flash-invalidate */
} sc_protocol;

/* The protocol of the mechanism named `name` ("wt", "nol1"), or NULL (mechanism.c). */
const sc_protocol *sc_protocol_find(const char *name);

/* The L1 row for (state, event), or NULL if the table has none. Tables are small, so the
 * memory system compiles them into a direct index once per run (protocol_index). */
typedef struct protocol_index {
    const protocol_transition *l1[L1_STATE_COUNT][L1_EVENT_COUNT];
} protocol_index;

void protocol_build_index(const sc_protocol *protocol, protocol_index *index);

const char *l1_state_name(l1_state state);
const char *l1_event_name(l1_event event);
const char *l1_action_name(l1_action action);

/* Whether an access with these semantics and scope must bypass a non-coherent L1: strong
 * (relaxed, volatile, acquire, release, sc) accesses at GPU or system scope. Volatile counts as
 * system scope, as in the PTX memory model. */
static inline bool protocol_is_strong(ptx_semantics semantics, ptx_scope scope)
{
    if (semantics == PTX_SEM_WEAK)
        return false;
    return semantics == PTX_SEM_VOLATILE || scope == PTX_SCOPE_GPU || scope == PTX_SCOPE_SYS;
}

/* Whether an access or fence with these semantics and scope is an acquire the L1 must honour:
 * acquire, acq_rel or sc semantics at GPU or system scope (CTA scope shares the L1). */
static inline bool protocol_has_acquire(ptx_semantics semantics, ptx_scope scope)
{
    bool acquiring = semantics == PTX_SEM_ACQUIRE || semantics == PTX_SEM_ACQ_REL || semantics == PTX_SEM_SC;
    return acquiring && scope != PTX_SCOPE_CTA;
}

#endif
