/* mesi_protocol.c — directory MESI on the GPU, the CPU-like coherence protocol Ren's thesis uses
 * as its SC baseline (§3.11: "CPU-like directory MESI ... A store completes only after other
 * sharers' invalidations"). The seed gives no transition tables, so these are a documented
 * reading: the standard 4-hop blocking-directory MESI (gem5 Ruby's MESI_Two_Level, Sorin, Hill
 * and Wood's primer, chapter 8) in the engine's action vocabulary, on the same full-map directory
 * building block as rfo (common/directory.c). The CUs are SC cores (common/sc_core.h; §3.3,
 * §3.12: every SC configuration issues a warp's global accesses one at a time and stalls its
 * local-memory accesses while one is outstanding; fences are no-ops): a warp's store is done once
 * it is performed in its L1 in M, after every other copy was invalidated, so the next access of
 * the warp sees a coherent, SC order. (rfo is the same directory family with the engine's weak
 * core.)
 *
 * L1: write-back, write-allocate; lines in M, E, S or I. A load hits in S/E/M, otherwise sends a
 * GetS (IS) and is granted S, or E when no other L1 holds the line. A store or atomic needs M:
 * E turns into M silently; in S the copy is dropped and a GetM sent (IM), as from I. Requests to
 * a line in IM wait in its MSHR and are performed in arrival order when ownership arrives; a
 * store or atomic to a line in IS waits until the read is answered (L1_STALL). Atomics are
 * performed in the L1 once it holds M. Replacing S is silent; replacing E or M sends a Put
 * carrying the line (dirty from M). An owner asked for the data of another CU's read (FwdGetS)
 * sends it and keeps a clean shared copy (E -> S clean, M -> S dirty: there is no O, so the
 * directory writes the data home); one asked to give the line up (FwdGetM) sends it and
 * invalidates. A forwarded request or invalidation for a line the L1 no longer holds is answered
 * as such: its Put went first on the same ordered path, so the directory already has the data.
 *
 * Directory (blocking, every grant's data passes through it; rfo's table without O): GetS in I
 * reads the home and grants E; in S reads the home and grants S; in M forwards to the owner and
 * grants S once it answers, writing a dirty answer home (the line becomes S with the old owner
 * as a sharer). GetM reads the home (I, S) or takes the owner's data (M), invalidates every other
 * sharer, and grants M once the data and every ack are in. Puts are never deferred: a Put from
 * the owner a transaction waits for serves as the owner's data. Replacing an entry (the directory
 * is inclusive of the L1s) recalls the line: sharers are invalidated and the owner's data
 * written home. The L2 is the home's write-back cache of DRAM; the memory-side L3 keeps the
 * engine's default (not writable: only the RFO system's L3 takes writes, QuickRelease §4.2).
 *
 * Rows identical to rfo's (rfo_protocol.c) are copied: the tables are the specification.
 */
#include "protocols/mesi/mesi.h"

#include "protocols/common/directory.h"
#include "protocols/common/sc_core.h"

#define ROW PROTOCOL_ROW

static const protocol_transition mesi_l1[] = {
    ROW(L1_I,  L1_LOAD,         L1_IS, L1_REQUEST_SHARED),
    ROW(L1_I,  L1_LOAD_STRONG,  L1_IS, L1_REQUEST_SHARED),
    ROW(L1_I,  L1_STORE,        L1_IM, L1_REQUEST_OWNERSHIP),
    ROW(L1_I,  L1_STORE_STRONG, L1_IM, L1_REQUEST_OWNERSHIP),
    ROW(L1_I,  L1_ATOMIC,       L1_IM, L1_REQUEST_OWNERSHIP),

    ROW(L1_S,  L1_LOAD,         L1_S,  L1_HIT),
    ROW(L1_S,  L1_LOAD_STRONG,  L1_S,  L1_HIT),
    ROW(L1_S,  L1_STORE,        L1_IM, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),
    ROW(L1_S,  L1_STORE_STRONG, L1_IM, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),
    ROW(L1_S,  L1_ATOMIC,       L1_IM, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),

    ROW(L1_E,  L1_LOAD,         L1_E,  L1_HIT),
    ROW(L1_E,  L1_LOAD_STRONG,  L1_E,  L1_HIT),
    ROW(L1_E,  L1_STORE,        L1_M,  L1_UPDATE_LINE),
    ROW(L1_E,  L1_STORE_STRONG, L1_M,  L1_UPDATE_LINE),
    ROW(L1_E,  L1_ATOMIC,       L1_M,  L1_PERFORM_ATOMIC),

    ROW(L1_M,  L1_LOAD,         L1_M,  L1_HIT, L1_COUNT_MODIFIED_HIT),
    ROW(L1_M,  L1_LOAD_STRONG,  L1_M,  L1_HIT, L1_COUNT_MODIFIED_HIT),
    ROW(L1_M,  L1_STORE,        L1_M,  L1_UPDATE_LINE),
    ROW(L1_M,  L1_STORE_STRONG, L1_M,  L1_UPDATE_LINE),
    ROW(L1_M,  L1_ATOMIC,       L1_M,  L1_PERFORM_ATOMIC),

    ROW(L1_IS, L1_LOAD,         L1_IS, L1_MERGE),
    ROW(L1_IS, L1_LOAD_STRONG,  L1_IS, L1_MERGE),
    ROW(L1_IS, L1_STORE,        L1_IS, L1_STALL),
    ROW(L1_IS, L1_STORE_STRONG, L1_IS, L1_STALL),
    ROW(L1_IS, L1_ATOMIC,       L1_IS, L1_STALL),

    ROW(L1_IM, L1_LOAD,         L1_IM, L1_MERGE),
    ROW(L1_IM, L1_LOAD_STRONG,  L1_IM, L1_MERGE),
    ROW(L1_IM, L1_STORE,        L1_IM, L1_MERGE),
    ROW(L1_IM, L1_STORE_STRONG, L1_IM, L1_MERGE),
    ROW(L1_IM, L1_ATOMIC,       L1_IM, L1_MERGE),

    ROW(L1_IS, L1_GRANT_S,      L1_S,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IS, L1_GRANT_E,      L1_E,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IM, L1_GRANT_M,      L1_M,  L1_INSTALL_FILL, L1_DELIVER_FILL),

    ROW(L1_S,  L1_REPLACE,      L1_I,  L1_DROP_LINE),
    ROW(L1_E,  L1_REPLACE,      L1_I,  L1_WRITE_BACK, L1_DROP_LINE),
    ROW(L1_M,  L1_REPLACE,      L1_I,  L1_WRITE_BACK, L1_DROP_LINE),

    ROW(L1_I,  L1_INV,          L1_I,  L1_SEND_INV_ACK),
    ROW(L1_IS, L1_INV,          L1_IS, L1_SEND_INV_ACK),
    ROW(L1_IM, L1_INV,          L1_IM, L1_SEND_INV_ACK),
    ROW(L1_S,  L1_INV,          L1_I,  L1_INVALIDATE_LINE, L1_SEND_INV_ACK),

    ROW(L1_E,  L1_FWD_GETS,     L1_S,  L1_SEND_DATA),
    ROW(L1_M,  L1_FWD_GETS,     L1_S,  L1_SEND_DATA),
    ROW(L1_I,  L1_FWD_GETS,     L1_I,  L1_SEND_NO_DATA),
    ROW(L1_IS, L1_FWD_GETS,     L1_IS, L1_SEND_NO_DATA),
    ROW(L1_IM, L1_FWD_GETS,     L1_IM, L1_SEND_NO_DATA),

    ROW(L1_E,  L1_FWD_GETM,     L1_I,  L1_SEND_DATA, L1_INVALIDATE_LINE),
    ROW(L1_M,  L1_FWD_GETM,     L1_I,  L1_SEND_DATA, L1_INVALIDATE_LINE),
    ROW(L1_I,  L1_FWD_GETM,     L1_I,  L1_SEND_NO_DATA),
    ROW(L1_IS, L1_FWD_GETM,     L1_IS, L1_SEND_NO_DATA),
    ROW(L1_IM, L1_FWD_GETM,     L1_IM, L1_SEND_NO_DATA),
};

/* WAIT_OWNER_S on a dirty answer has no room for OWNER_ANSWERED (six actions at most) and needs
 * none: the row closes the transaction, and the next one opens with nothing pending. */
static const protocol_transition mesi_directory[] = {
    ROW(DIR_I, DIR_GET_S,  DIR_WAIT_HOME_E,  DIR_OPEN, DIR_READ_HOME),
    ROW(DIR_I, DIR_GET_M,  DIR_WAIT_M,       DIR_OPEN, DIR_READ_HOME),

    ROW(DIR_S, DIR_GET_S,  DIR_WAIT_HOME_S,  DIR_OPEN, DIR_READ_HOME),
    ROW(DIR_S, DIR_GET_M,  DIR_WAIT_M,       DIR_OPEN, DIR_READ_HOME, DIR_INVALIDATE_SHARERS),
    ROW(DIR_S, DIR_REPLACE, DIR_WAIT_RECALL, DIR_OPEN_RECALL, DIR_INVALIDATE_SHARERS),

    ROW(DIR_M, DIR_GET_S,  DIR_WAIT_OWNER_S, DIR_OPEN, DIR_FORWARD_GET_S),
    ROW(DIR_M, DIR_GET_M,  DIR_WAIT_M,       DIR_OPEN, DIR_FORWARD_GET_M),
    ROW(DIR_M, DIR_PUT_DIRTY, DIR_I,         DIR_WRITE_HOME, DIR_ACK_PUT, DIR_CLEAR_OWNER, DIR_FREE_ENTRY),
    ROW(DIR_M, DIR_PUT_CLEAN, DIR_I,         DIR_ACK_PUT, DIR_CLEAR_OWNER, DIR_FREE_ENTRY),
    ROW(DIR_M, DIR_REPLACE, DIR_WAIT_RECALL, DIR_OPEN_RECALL, DIR_FORWARD_GET_M),

    ROW(DIR_WAIT_HOME_E, DIR_GET_S,     DIR_WAIT_HOME_E, DIR_DEFER),
    ROW(DIR_WAIT_HOME_E, DIR_GET_M,     DIR_WAIT_HOME_E, DIR_DEFER),
    ROW(DIR_WAIT_HOME_E, DIR_HOME_DATA, DIR_M, DIR_TAKE_DATA, DIR_SET_OWNER, DIR_GRANT_E, DIR_CLOSE),

    ROW(DIR_WAIT_HOME_S, DIR_GET_S,     DIR_WAIT_HOME_S, DIR_DEFER),
    ROW(DIR_WAIT_HOME_S, DIR_GET_M,     DIR_WAIT_HOME_S, DIR_DEFER),
    ROW(DIR_WAIT_HOME_S, DIR_HOME_DATA, DIR_S, DIR_TAKE_DATA, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),

    ROW(DIR_WAIT_OWNER_S, DIR_GET_S,    DIR_WAIT_OWNER_S, DIR_DEFER),
    ROW(DIR_WAIT_OWNER_S, DIR_GET_M,    DIR_WAIT_OWNER_S, DIR_DEFER),
    ROW(DIR_WAIT_OWNER_S, DIR_OWNER_DIRTY, DIR_S,
        DIR_TAKE_DATA, DIR_WRITE_HOME, DIR_OWNER_TO_SHARER, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),
    ROW(DIR_WAIT_OWNER_S, DIR_OWNER_CLEAN, DIR_S,
        DIR_TAKE_DATA, DIR_OWNER_ANSWERED, DIR_OWNER_TO_SHARER, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),
    ROW(DIR_WAIT_OWNER_S, DIR_OWNER_NO_DATA, DIR_S, DIR_OWNER_ANSWERED, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),
    ROW(DIR_WAIT_OWNER_S, DIR_PUT_DIRTY, DIR_WAIT_OWNER_S, DIR_TAKE_DATA, DIR_WRITE_HOME, DIR_ACK_PUT, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_OWNER_S, DIR_PUT_CLEAN, DIR_WAIT_OWNER_S, DIR_TAKE_DATA, DIR_ACK_PUT, DIR_CLEAR_OWNER),

    ROW(DIR_WAIT_M, DIR_GET_S,          DIR_WAIT_M, DIR_DEFER),
    ROW(DIR_WAIT_M, DIR_GET_M,          DIR_WAIT_M, DIR_DEFER),
    ROW(DIR_WAIT_M, DIR_HOME_DATA,      DIR_WAIT_M, DIR_TAKE_DATA),
    ROW(DIR_WAIT_M, DIR_INV_ACK,        DIR_WAIT_M, DIR_COUNT_ACK),
    ROW(DIR_WAIT_M, DIR_OWNER_DIRTY,    DIR_WAIT_M, DIR_TAKE_DATA, DIR_OWNER_ANSWERED, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_M, DIR_OWNER_CLEAN,    DIR_WAIT_M, DIR_TAKE_DATA, DIR_OWNER_ANSWERED, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_M, DIR_OWNER_NO_DATA,  DIR_WAIT_M, DIR_OWNER_ANSWERED),
    ROW(DIR_WAIT_M, DIR_PUT_DIRTY,      DIR_WAIT_M, DIR_TAKE_DATA, DIR_WRITE_HOME, DIR_ACK_PUT, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_M, DIR_PUT_CLEAN,      DIR_WAIT_M, DIR_TAKE_DATA, DIR_ACK_PUT, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_M, DIR_DONE,           DIR_M, DIR_SET_OWNER, DIR_GRANT_M, DIR_CLOSE),

    ROW(DIR_WAIT_RECALL, DIR_GET_S,         DIR_WAIT_RECALL, DIR_DEFER),
    ROW(DIR_WAIT_RECALL, DIR_GET_M,         DIR_WAIT_RECALL, DIR_DEFER),
    ROW(DIR_WAIT_RECALL, DIR_INV_ACK,       DIR_WAIT_RECALL, DIR_COUNT_ACK),
    ROW(DIR_WAIT_RECALL, DIR_OWNER_DIRTY,   DIR_WAIT_RECALL, DIR_WRITE_HOME, DIR_OWNER_ANSWERED, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_RECALL, DIR_OWNER_CLEAN,   DIR_WAIT_RECALL, DIR_OWNER_ANSWERED, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_RECALL, DIR_OWNER_NO_DATA, DIR_WAIT_RECALL, DIR_OWNER_ANSWERED),
    ROW(DIR_WAIT_RECALL, DIR_PUT_DIRTY,     DIR_WAIT_RECALL, DIR_WRITE_HOME, DIR_ACK_PUT, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_RECALL, DIR_PUT_CLEAN,     DIR_WAIT_RECALL, DIR_ACK_PUT, DIR_CLEAR_OWNER),
    ROW(DIR_WAIT_RECALL, DIR_DONE,          DIR_I, DIR_FREE_ENTRY, DIR_CLOSE),
};

static const directory_machine mesi_directory_machine = {
    .table = mesi_directory, .size = sizeof mesi_directory / sizeof mesi_directory[0]};

/* The directory at the L2 banks runs the table above (the L3 keeps the engine's default, not
 * writable). */
static void build_mesi(memory_system *memory)
{
    directory_build(memory, &mesi_directory_machine);
}

/* SC cores: acquires and releases are waived (a kernel's end still waits until the CU's stores
 * are performed in its own L1). */
static const protocol_hooks mesi_hooks = {DIRECTORY_HOOK_FIELDS(build_mesi), SC_CORE_HOOKS};

const sc_protocol protocol_mesi = {
    .name = "mesi",
    .l1_table = mesi_l1,
    .l1_table_size = sizeof mesi_l1 / sizeof mesi_l1[0],
    OWNERSHIP_VOCABULARY,
    .hooks = &mesi_hooks,
    .counters = directory_counters,
    .counter_count = DIRECTORY_COUNTER_COUNT,
};
