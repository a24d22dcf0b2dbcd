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
 * The states, events and actions below are still one vocabulary for every mechanism; a module
 * adds its own here and their implementations in the controllers.
 */
#ifndef SYNCSCOPE_TIMING_PROTOCOL_H
#define SYNCSCOPE_TIMING_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ptx_ir.h"

#define PROTOCOL_MAX_ACTIONS 6

/* ---- the per-CU L1 controller ---- */

typedef enum l1_state {
    L1_I = 0,      /* not present, no miss outstanding */
    L1_V,          /* valid, clean (write-through keeps L1 lines clean) */
    L1_IV,         /* not present, a fill is outstanding (an MSHR is open and still merging) */
    /* ownership (directory) protocols: MOESI stable states and the transients of a miss */
    L1_S,          /* shared: clean, read-only, other L1s may hold it */
    L1_E,          /* exclusive: clean, the only copy; a store makes it M without asking */
    L1_O,          /* owned: dirty, read-only, other L1s may hold it; this L1 answers for it */
    L1_M,          /* modified: dirty, the only copy */
    L1_IS,         /* not present, a read (GetS) is outstanding */
    L1_IM,         /* not present, an ownership request (GetM) is outstanding */
    /* split read/write caches (QuickRelease): the array is the read cache (rL1), the store buffer
       the write cache (wL1) */
    L1_VW,         /* valid in the rL1 with its written bit set: the wL1 holds newer bytes of it */
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
    L1_REPLACE,         /* the line is the victim of a fill */
    L1_INV,             /* the directory invalidates a shared copy (another CU's GetM, or a recall) */
    L1_FWD_GETS,        /* the directory asks the owner for the data of another CU's read */
    L1_FWD_GETM,        /* the directory takes the line from its owner (another CU's GetM, or a recall) */
    L1_GRANT_S,         /* the directory's data answering a GetS: shared copy */
    L1_GRANT_E,         /* the same, no other copy exists: exclusive copy */
    L1_GRANT_M,         /* the directory's data answering a GetM: ownership, every other copy gone */
    /* split read/write caches (QuickRelease): a load of a line the wL1 holds is one of these */
    L1_LOAD_WRITE_HIT,      /* every byte the load reads is dirty in the wL1 */
    L1_LOAD_WRITE_PARTIAL,  /* the wL1 holds the line, but not every byte the load reads */
    L1_WRITE_EVICT,         /* the line's wL1 block leaves (wL1 replacement, or its S-FIFO entry
                               reached the head) */
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
    L1_INSTALL_FILL,     /* cache the fill (in the table's next state), replacing a victim */
    L1_DELIVER_FILL,     /* serve every request waiting in the MSHR in arrival order (loads read,
                            stores and atomics write the line) and close it */
    L1_DROP_LINE,        /* forget the line without telling anyone (replacement of a clean copy) */
    L1_REQUEST_SHARED,   /* open an MSHR (state IS) and send a GetS to the directory */
    L1_REQUEST_OWNERSHIP,/* open an MSHR (state IM) and send a GetM to the directory */
    L1_STALL,            /* the line is busy: refuse the access, the CU retries it after a message */
    L1_PERFORM_ATOMIC,   /* perform the atomic on the owned line; values return after the L1 latency */
    L1_WRITE_BACK,       /* send the line to the directory (Put; dirty in M and O) */
    L1_SEND_INV_ACK,     /* acknowledge an invalidation to the directory */
    L1_SEND_DATA,        /* send the line to the directory for a forwarded request (dirty in M and O) */
    L1_SEND_NO_DATA,     /* answer a forwarded request for a line this L1 no longer holds */
    L1_WRITE_COMBINE,    /* put the store's bytes into the wL1 and its line at the S-FIFO tail */
    L1_FLUSH_SYNC_FIFO,  /* a release marker without acknowledgement: dequeue the whole S-FIFO,
                            writing out every wL1 block an entry names, and send a flush marker
                            to every L2 bank to drain the wL2 slices and the wL3 */
    L1_HIT_WRITE_CACHE,  /* deliver the wL1's dirty bytes to the load after the L1 latency */
    L1_ACTION_COUNT
} l1_action;

typedef struct protocol_transition {
    uint8_t state, event;
    uint8_t actions[PROTOCOL_MAX_ACTIONS];
    uint8_t next;
} protocol_transition;

/* ---- the directory controller at each L2 bank (ownership protocols only) ----
 *
 * A full-map directory entry records a line's state, its owner and its sharers (one bit per CU).
 * A request for a line whose transaction is open waits in that transaction (blocking directory);
 * the data of every grant passes through the directory (the owner answers a forwarded request to
 * the directory, which collects invalidation acknowledgements before granting ownership). */

typedef enum dir_state {
    DIR_I = 0,           /* no L1 holds the line: no entry */
    DIR_S,               /* sharers hold clean copies; the home (L2/DRAM) is up to date */
    DIR_M,               /* one owner holds it in E or M; the home may be stale */
    DIR_O,               /* an owner holds it dirty (O) and sharers hold copies; the home is stale */
    DIR_WAIT_HOME_E,     /* GetS in I: reading the home, will grant E */
    DIR_WAIT_HOME_S,     /* GetS in S: reading the home, will grant S */
    DIR_WAIT_OWNER_S,    /* GetS in M/O: waiting for the owner's data */
    DIR_WAIT_M,          /* GetM: waiting for the data (home or owner) and every invalidation ack */
    DIR_WAIT_RECALL,     /* the entry is being replaced: waiting for the L1 copies to be given up */
    DIR_STATE_COUNT
} dir_state;

typedef enum dir_event {
    DIR_GET_S = 0,       /* an L1 asks for a readable copy */
    DIR_GET_M,           /* an L1 asks for ownership */
    DIR_PUT_DIRTY,       /* the owner writes the line back (evicted from M/O, or before upgrading O) */
    DIR_PUT_CLEAN,       /* the owner gives up a clean exclusive copy (evicted from E) */
    DIR_INV_ACK,         /* a sharer dropped its copy */
    DIR_OWNER_DIRTY,     /* the owner's data for a forwarded request: dirty (it was M or O) */
    DIR_OWNER_CLEAN,     /* the same, clean (it was E) */
    DIR_OWNER_NO_DATA,   /* the owner had already written the line back (its Put came first) */
    DIR_HOME_DATA,       /* the home's data is ready (L2 hit, or DRAM fill) */
    DIR_DONE,            /* everything the transaction waits for has arrived */
    DIR_REPLACE,         /* the entry is the victim of a new line's entry */
    DIR_EVENT_COUNT
} dir_event;

typedef enum dir_action {
    DIR_NONE = 0,
    DIR_DEFER,               /* the request waits in the line's open transaction */
    DIR_OPEN,                /* open a transaction for the requester (allocating the entry) */
    DIR_OPEN_RECALL,         /* open a transaction that takes every L1 copy back */
    DIR_READ_HOME,           /* read the line from the L2 (fetching it from DRAM on a miss) */
    DIR_FORWARD_GET_S,       /* ask the owner for its data; it keeps a copy */
    DIR_FORWARD_GET_M,       /* ask the owner for its data; it gives the line up */
    DIR_INVALIDATE_SHARERS,  /* invalidate every sharer but the requester, counting the acks */
    DIR_COUNT_ACK,           /* one invalidation ack arrived */
    DIR_TAKE_DATA,           /* keep the message's (or home's) data for the grant */
    DIR_OWNER_ANSWERED,      /* the owner answered the forwarded request */
    DIR_WRITE_HOME,          /* write the message's data to the home (L2, write-back) */
    DIR_ACK_PUT,             /* acknowledge a write-back to its L1 */
    DIR_CLEAR_OWNER,         /* the owner no longer holds the line */
    DIR_OWNER_TO_SHARER,     /* the owner keeps a clean shared copy */
    DIR_ADD_REQUESTER,       /* the requester becomes a sharer */
    DIR_SET_OWNER,           /* the requester becomes the only holder (owner) */
    DIR_GRANT_S,             /* send the data to the requester as a shared copy */
    DIR_GRANT_E,             /* send the data as an exclusive copy */
    DIR_GRANT_M,             /* send the data with ownership */
    DIR_CLOSE,               /* close the transaction; requests that waited in it go again */
    DIR_FREE_ENTRY,          /* drop the entry (no L1 holds the line) */
    DIR_ACTION_COUNT
} dir_action;

/* A protocol as the engine sees it: its controllers' tables, the hooks where its behaviour
 * differs from the shared engine's defaults (protocol_hooks.h), and the named counters its runs
 * report (protocol_counter, protocol_hooks.h). A release always waits until every write of the
 * CU is performed (at the L2, or in the L1 once it owns the line); while it waits, the CU's
 * other writes are held back (GSI: pending release). */
struct protocol_hooks;
struct protocol_counter;

typedef struct sc_protocol {
    const char *name;                     /* CLI name */
    const protocol_transition *l1_table;
    unsigned l1_table_size;
    const protocol_transition *dir_table; /* NULL: no directory table */
    unsigned dir_table_size;
    const struct protocol_hooks *hooks;   /* NULL: every default */
    const struct protocol_counter *counters;  /* the mechanism's own metrics, beyond the shared ones */
    unsigned counter_count;
} sc_protocol;

/* The L1 row for (state, event), or NULL if the table has none. Tables are small, so the
 * memory system compiles them into a direct index once per run (protocol_index). */
typedef struct protocol_index {
    const protocol_transition *l1[L1_STATE_COUNT][L1_EVENT_COUNT];
    const protocol_transition *dir[DIR_STATE_COUNT][DIR_EVENT_COUNT];
} protocol_index;

void protocol_build_index(const sc_protocol *protocol, protocol_index *index);

const char *l1_state_name(l1_state state);
const char *l1_event_name(l1_event event);
const char *l1_action_name(l1_action action);
const char *dir_state_name(dir_state state);
const char *dir_event_name(dir_event event);
const char *dir_action_name(dir_action action);

/* Whether an L1 line in `state` is the CU's to answer for (E, O, M): it must be written back or
 * handed over, never dropped silently. */
static inline bool l1_state_owned(l1_state state)
{
    return state == L1_E || state == L1_O || state == L1_M;
}

/* Whether an owned line's data is newer than the home's (M, O). */
static inline bool l1_state_dirty(l1_state state)
{
    return state == L1_O || state == L1_M;
}

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
