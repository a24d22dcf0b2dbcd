/* protocol.h — how a coherence mechanism plugs into the timing model.
 *
 * A protocol is a set of controllers, each an explicit state x event table in the style of
 * gem5 Ruby's SLICC protocols: for every (state, event) pair the table lists the actions to
 * perform, in order, and the state that results. The memory system (timing/) owns the caches,
 * MSHRs, store buffers, network and DRAM and implements the table actions; a protocol module
 * (src/protocols/NAME/) chooses which actions happen when, and does the rest of its behaviour in
 * its hooks (protocol_hooks.h). A reader can check a table row by row against the seed's
 * description (../shared/seeds/digests). A pair missing from a table is a protocol bug and
 * stops the run with a message naming the controller, state and event.
 *
 * The states, events and actions below are the engine's: those of an L1 that caches clean copies
 * or none (write-through, uncached). A protocol adds its own states, events and actions after them
 * (sc_protocol.own_*; an ownership protocol's S, E, O, M come from protocols/common/ownership.h),
 * raises its own events from its hooks and carries out its own actions in its l1_action hook.
 */
#ifndef SYNCSCOPE_TIMING_PROTOCOL_H
#define SYNCSCOPE_TIMING_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ptx_ir.h"
#include "stalls/gsi.h"

#define PROTOCOL_MAX_ACTIONS 6

/* ---- the per-CU L1 controller ---- */

typedef enum l1_state {
    L1_I = 0,      /* not present, no miss outstanding */
    L1_V,          /* valid, clean (write-through keeps L1 lines clean) */
    L1_IV,         /* not present, a fill is outstanding (an MSHR is open and still merging) */
    L1_STATE_PROTOCOL_FIRST,   /* a protocol's own states follow (sc_protocol.own_states) */
    L1_STATE_COUNT = 16        /* room for the engine's states and a protocol's own */
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
    L1_REPLACE,         /* the line is the victim of a fill */
    L1_INV,             /* the L2 or a directory invalidates the L1's copy (MSG_INV) */
    L1_EVENT_PROTOCOL_FIRST,    /* a protocol's own events follow, raised by its hooks
                                   (l1_before_access, l1_run_event; sc_protocol.own_events) */
    L1_EVENT_COUNT = 24
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
    L1_INSTALL_FILL,     /* cache the fill (in the table's next state), replacing a victim */
    L1_DELIVER_FILL,     /* serve every request waiting in the MSHR in arrival order (loads read,
                            stores and atomics write the line) and close it */
    L1_DROP_LINE,        /* forget the line without telling anyone (replacement of a clean copy) */
    L1_STALL,            /* the line is busy: refuse the access, the CU retries it after a message */
    L1_ACTION_PROTOCOL_FIRST,   /* a protocol's own actions follow, carried out by its l1_action
                                   hook (sc_protocol.own_actions) */
    L1_ACTION_COUNT = 48
} l1_action;

/* One row of a table. A row with a guard (a protocol-defined number, 0 for none) applies only
 * when the protocol's l1_guard hook says the guard holds for the line; the rows of one (state,
 * event) pair stand together in the table, guarded ones first, and the first that applies is
 * taken ("MSHR empty ? I : II" is two rows, the first guarded). */
typedef struct protocol_transition {
    uint8_t state, event;
    uint8_t actions[PROTOCOL_MAX_ACTIONS];
    uint8_t next;
    uint8_t guard;
} protocol_transition;

/* A row without and with a guard, for tables: PROTOCOL_ROW(state, event, next, actions...). */
#define PROTOCOL_ROW(state, event, next, ...) {(state), (event), {__VA_ARGS__}, (next), 0}
#define PROTOCOL_GUARDED_ROW(state, event, guard, next, ...) {(state), (event), {__VA_ARGS__}, (next), (guard)}

/* A protocol as the engine sees it: its L1 controller's table, the hooks where its behaviour
 * differs from the shared engine's defaults (protocol_hooks.h), and the named counters its runs
 * report (protocol_counter, protocol_hooks.h). A release always waits until every write of the
 * CU is performed (at the L2, or in the L1 once it owns the line); while it waits, the CU's
 * other writes are held back (GSI: pending release). */
struct protocol_hooks;
struct protocol_counter;

/* One of a protocol's own L1 states: its name, and whether a line in it is in the L1's array
 * (else the state is a transient of a line the array does not hold). */
typedef struct protocol_own_state {
    const char *name;
    bool in_array;
} protocol_own_state;

/* One of a protocol's own L1 actions: its name, and whether it opens an MSHR (the access is then
 * refused while none is free, as for L1_OPEN_MISS). */
typedef struct protocol_own_action {
    const char *name;
    bool opens_miss;
} protocol_own_action;

/* One of a protocol's own message types: its name, whether it carries a line of data on the
 * NoC, whether a bank takes it before any request (a response that frees what requests wait
 * for), whether its bytes to a CU count as coherence traffic rather than data, and its traffic
 * class on the NoC (noc_traffic_class, timing/noc.h: LD, ST, ATO, REQ, INV, RCL; sent as a miss's
 * request it takes its access's class instead; docs/noc-energy.md lists every mechanism's). */
typedef struct protocol_own_message {
    const char *name;
    bool carries_line, response, coherence;
    uint8_t traffic;
} protocol_own_message;

/* Bytes of a protocol's own state beyond the 64-bit protocol word that cache lines, MSHR entries
 * and messages carry, for state that does not fit in it (per-word owners at the L2, a
 * transaction's signatures): per L1 line, L2 line, L1 MSHR entry, L2 MSHR entry and message. The
 * engine allocates them, zeroes them when a line is installed, an entry allocated or a message
 * allocated, and points each one's `extension` at them (NULL where the size is 0). */
typedef struct protocol_extension_bytes {
    uint16_t l1_line, l2_line, l1_mshr, l2_mshr, message;
} protocol_extension_bytes;

typedef struct sc_protocol {
    const char *name;                     /* CLI name */
    const protocol_transition *l1_table;
    unsigned l1_table_size;
    /* its own L1 states, events and actions, numbered from L1_*_PROTOCOL_FIRST in order */
    const protocol_own_state *own_states;
    unsigned own_state_count;
    const char *const *own_events;
    unsigned own_event_count;
    const protocol_own_action *own_actions;
    unsigned own_action_count;
    const protocol_own_message *own_messages;   /* numbered from MSG_PROTOCOL_FIRST */
    unsigned own_message_count;
    const struct protocol_hooks *hooks;   /* NULL: every default */
    const struct protocol_counter *counters;  /* the mechanism's own metrics, beyond the shared ones */
    unsigned counter_count;
    protocol_extension_bytes extension;   /* its own state per line, entry and message; {0}: none */
} sc_protocol;

/* The first L1 row for (state, event), or NULL if the table has none. Tables are small, so the
 * memory system compiles them into a direct index once per run (protocol_index); `l1_end` ends
 * the table (the alternatives of a guarded pair follow its first row). */
typedef struct protocol_index {
    const protocol_transition *l1[L1_STATE_COUNT][L1_EVENT_COUNT];
    const protocol_transition *l1_end;
} protocol_index;

void protocol_build_index(const sc_protocol *protocol, protocol_index *index);

/* The generic table-driven machine, for any controller with a table of rows (the L1's, a
 * directory's): `first[state * event_count + event]` gets the first row of each (state, event)
 * pair of the table, NULL where it has none (the caller zeroes `first`). */
void protocol_index_table(const protocol_transition *table, unsigned size, unsigned event_count,
                          const protocol_transition **first);

/* The alternative after `row` of a guarded pair: the next row of the table (which ends at `end`)
 * if it is of the same state and event, else NULL. */
static inline const protocol_transition *protocol_next_alternative(const protocol_transition *row,
                                                                   const protocol_transition *end)
{
    const protocol_transition *next = row + 1;
    return next != end && next->state == row->state && next->event == row->event ? next : NULL;
}

/* Names for messages: the engine's, or the protocol's own. */
const char *l1_state_name(const sc_protocol *protocol, l1_state state);
const char *l1_event_name(const sc_protocol *protocol, l1_event event);
const char *l1_action_name(const sc_protocol *protocol, l1_action action);

/* Whether an access with these semantics and scope must bypass a non-coherent L1: strong
 * (relaxed, volatile, acquire, release, sc) accesses at GPU or system scope. Volatile counts as
 * system scope, as in the PTX memory model. */
static inline bool protocol_is_strong(ptx_semantics semantics, ptx_scope scope)
{
    if (semantics == PTX_SEM_WEAK)
        return false;
    return semantics == PTX_SEM_VOLATILE || scope == PTX_SCOPE_GPU || scope == PTX_SCOPE_SYS;
}

/* The scope an acquire or release at GPU or system scope is performed at: system scope stays,
 * anything else is GPU scope (an atom or red without a scope is GPU scope). */
static inline ptx_scope protocol_sync_scope(ptx_scope scope)
{
    return scope == PTX_SCOPE_SYS ? PTX_SCOPE_SYS : PTX_SCOPE_GPU;
}

/* Whether an access or fence with these semantics and scope is an acquire the L1 must honour:
 * acquire, acq_rel or sc semantics at GPU or system scope (CTA scope shares the L1). */
static inline bool protocol_has_acquire(ptx_semantics semantics, ptx_scope scope)
{
    bool acquiring = semantics == PTX_SEM_ACQUIRE || semantics == PTX_SEM_ACQ_REL || semantics == PTX_SEM_SC;
    return acquiring && scope != PTX_SCOPE_CTA;
}

/* ---- what a protocol's issue filter sees and says (protocol_hooks.h: issue_filter) ---- */

/* What a warp's next instruction does to memory, decoded once per launch (decode.c). A generic
 * address may turn out global, shared or local, so an access in the generic space has the GLOBAL
 * flag of its kind and both SHARED and LOCAL. */
enum {
    ISSUE_GLOBAL_LOAD = 1,     /* ld that may read global memory */
    ISSUE_GLOBAL_STORE = 2,    /* st that may write global memory */
    ISSUE_GLOBAL_ATOMIC = 4,   /* atom or red that may reach global memory */
    ISSUE_SHARED_ACCESS = 8,   /* ld/st/atom/red that may reach the CTA's shared memory */
    ISSUE_LOCAL_ACCESS = 16,   /* ld/st that may reach the thread's local memory */
    ISSUE_FENCE = 32,          /* fence or membar */
    ISSUE_ACQUIRE = 64,        /* a fence, or a load or atomic that may be global, with acquire
                                  semantics the L1 must honour (protocol_has_acquire) */
    ISSUE_RELEASE = 128,       /* a release the engine waits for (decode.h: releases) */
};

typedef struct issue_traits {
    uint8_t flags;       /* ISSUE_* */
    uint8_t semantics;   /* ptx_semantics as written */
    uint8_t scope;       /* ptx_scope as written */
} issue_traits;

/* The filter's answer. An instruction it holds back is charged to GSI like the engine's own
 * stalls: `sync` as a SYNC stall of that sub-category, `mem_struct` as a MEM_STRUCT stall. With
 * `ordering_waived` the instruction issues without its acquire and release actions: no wait for
 * the CU's writes before a release, no acquire hook and no acquire wait of the warp after it (a
 * core whose filter orders every global access itself runs fences as no-ops). */
typedef struct issue_verdict {
    int8_t sync;           /* gsi_sync_kind holding it back, or GSI_NONE */
    int8_t mem_struct;     /* gsi_struct_cause holding it back, or GSI_NONE */
    bool ordering_waived;
} issue_verdict;

#define ISSUE_ALLOWED ((issue_verdict){.sync = GSI_NONE, .mem_struct = GSI_NONE, .ordering_waived = false})

/* The answer to a warp's release (the warp_release hook): it is complete (the warp may issue), it
 * waits while the CU's other warps go on, or it waits and holds back the other warps' global
 * writes (GSI memory-structural, pending release) so that none joins what it waits for. */
typedef enum release_wait {
    RELEASE_DONE,
    RELEASE_WAITS,
    RELEASE_WAITS_HOLDING,
} release_wait;

#endif
