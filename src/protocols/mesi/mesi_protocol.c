/* mesi_protocol.c — directory MESI on the GPU, the CPU-like coherence protocol Ren's thesis uses
 * as its SC baseline (§3.11: "CPU-like directory MESI ... A store completes only after other
 * sharers' invalidations"). The seed gives no transition tables, so these are a documented
 * reading: the standard 4-hop blocking-directory MESI (gem5 Ruby's MESI_Two_Level, Sorin, Hill
 * and Wood's primer, chapter 8) in the engine's action vocabulary, on the same full-map directory
 * building block as rfo (common/directory.c). The CUs are SC cores (common/sc_core.h; §3.3,
 * §3.12: every SC configuration issues a warp's global accesses one at a time and stalls its
 * local-memory accesses while one is outstanding; fences are no-ops). (rfo is the same directory
 * family, write-back, with the engine's weak core.)
 *
 * Two ways for the L1 to take stores and atomics, chosen by mesi.stores (mesi_config):
 *
 * write_through — the thesis's MESI (§3.2: "an SC implementation similar to prior work [94, 220]
 * but with GPU-style write-through L1 caches"; each store's latency is "the round-trip to L2,
 * unavoidable with the write-through L1 caches found in GPUs", plus "in our MESI-based
 * experiment the write waits until other sharers have invalidated their copies"). L1 lines are S
 * or I; a load miss sends a GetS (IS) and the directory grants S, never E. A store or atomic drops
 * the L1's own copy (write-no-allocate, as the chapter's other write-through L1s: TC's and RCC's
 * V -> I) and goes to the directory (MSG_WRITE, MSG_ATOMIC), which invalidates every other
 * sharer and, once their acks are in, has the L2 perform it and acknowledge it; the warp's access
 * is done at that ack. A store or atomic to a line whose read is in flight closes the miss (its
 * fill answers the loads already waiting, uncached: row I + GrantS). The rows of this reading
 * are the guarded ones (MESI_WRITES_THROUGH); E, M and IM never occur.
 *
 * write_back — ownership, as CPU MESI and the SC studies the thesis cites ([94, 220]: "MOESI and
 * MESI with write-back L1 caches"): a warp's store is done once it is performed in its L1 in M,
 * after every other copy was invalidated, so later stores to the line hit it.
 *
 * Write-back L1: write-allocate; lines in M, E, S or I. A load hits in S/E/M, otherwise sends a
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
 * reads the home and grants E (S under write_through, where no L1 owns a line); in S reads the
 * home and grants S; in M forwards to the owner and
 * grants S once it answers, writing a dirty answer home (the line becomes S with the old owner
 * as a sharer). GetM reads the home (I, S) or takes the owner's data (M), invalidates every other
 * sharer, and grants M once the data and every ack are in. Puts are never deferred: a Put from
 * the owner a transaction waits for serves as the owner's data. Replacing an entry (the directory
 * is inclusive of the L1s) recalls the line: sharers are invalidated and the owner's data
 * written home. The L2 is the home's write-back cache of DRAM; the memory-side L3 keeps the
 * engine's default (not writable: only the RFO system's L3 takes writes, QuickRelease §4.2).
 * Under write_through a Write (a store's bytes or an atomic) in I is performed by the L2 at once;
 * in S it invalidates every sharer but the writer (whose copy is gone already) and waits in
 * WaitWrite, deferring reads and writes of the line, until the acks are in; then it goes back to
 * the head of the bank's queue, ahead of what waited, and is performed with the line in I.
 *
 * mesi.ideal_permissions (an experiment, write_through only; default false) is the thesis's SC-ideal
 * (§3.2, Fig 3.1d: "instant read/write permission"): a Write in S drops every other sharer's copy
 * at once (DIR_DROP_SHARERS raises L1_DROP_NOW at each sharer's L1, with no message or ack; a
 * sharer's read in flight is closed, as a store closes one, since its grant may carry the line
 * from before the write) and the L2 performs it as in I. Recalls still invalidate by message.
 *
 * mesi.dir_reads (an experiment; default blocking) concurrent lets a GetS that finds the line's read
 * of the home open (WaitHomeS) join it (DIR_JOIN_READ) instead of waiting for it to close and
 * reading the home again: the joined read is due one L2 access after it arrived (ReadDue), as if
 * it had read the home alongside, and is granted S once it is due and the home's data is in
 * (DIR_GRANT_JOINED); the transaction closes (Done) when the last joined read is granted, so
 * writes and GetMs still wait behind every read. A read joins only while no request waits in the
 * transaction: once a write waits, later reads wait behind it (a CU's read after its own write
 * must see it), which also bounds the write's wait by the reads that joined before it: a steady
 * stream of joining reads cannot starve it (test_directory). Reads of a line in I under write_back open
 * WaitHomeE (an exclusive grant) and still wait. This is the non-blocking read path whose absence
 * makes kmeans's shared centroid loads wait in turn (docs/rcc-reproduction.md §2c).
 *
 * Rows identical to rfo's (rfo_protocol.c) are copied: the tables are the specification.
 */
#include "protocols/mesi/mesi.h"

#include <string.h>

#include "protocols/common/sc_core.h"

#define ROW PROTOCOL_ROW
#define GUARDED PROTOCOL_GUARDED_ROW

/* The rows of the write-through reading come first in their pairs, guarded by MESI_WRITES_THROUGH;
 * the instant-permission row comes before the write-through write it replaces. */
enum { MESI_WRITES_THROUGH = 1, MESI_IDEAL_PERMISSIONS, MESI_CONCURRENT_READS, MESI_READ_JOINS };

static const protocol_transition mesi_l1[] = {
    ROW(L1_I,  L1_LOAD,         L1_IS, L1_REQUEST_SHARED),
    ROW(L1_I,  L1_LOAD_STRONG,  L1_IS, L1_REQUEST_SHARED),
    GUARDED(L1_I, L1_STORE,        MESI_WRITES_THROUGH, L1_I, L1_WRITE_THROUGH),
    ROW(L1_I,  L1_STORE,        L1_IM, L1_REQUEST_OWNERSHIP),
    GUARDED(L1_I, L1_STORE_STRONG, MESI_WRITES_THROUGH, L1_I, L1_WRITE_THROUGH),
    ROW(L1_I,  L1_STORE_STRONG, L1_IM, L1_REQUEST_OWNERSHIP),
    GUARDED(L1_I, L1_ATOMIC,       MESI_WRITES_THROUGH, L1_I, L1_SEND_ATOMIC),
    ROW(L1_I,  L1_ATOMIC,       L1_IM, L1_REQUEST_OWNERSHIP),

    ROW(L1_S,  L1_LOAD,         L1_S,  L1_HIT),
    ROW(L1_S,  L1_LOAD_STRONG,  L1_S,  L1_HIT),
    GUARDED(L1_S, L1_STORE,        MESI_WRITES_THROUGH, L1_I, L1_DROP_LINE, L1_WRITE_THROUGH),
    ROW(L1_S,  L1_STORE,        L1_IM, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),
    GUARDED(L1_S, L1_STORE_STRONG, MESI_WRITES_THROUGH, L1_I, L1_DROP_LINE, L1_WRITE_THROUGH),
    ROW(L1_S,  L1_STORE_STRONG, L1_IM, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),
    GUARDED(L1_S, L1_ATOMIC,       MESI_WRITES_THROUGH, L1_I, L1_DROP_LINE, L1_SEND_ATOMIC),
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
    GUARDED(L1_IS, L1_STORE,        MESI_WRITES_THROUGH, L1_I, L1_CLOSE_MISS, L1_WRITE_THROUGH),
    ROW(L1_IS, L1_STORE,        L1_IS, L1_STALL),
    GUARDED(L1_IS, L1_STORE_STRONG, MESI_WRITES_THROUGH, L1_I, L1_CLOSE_MISS, L1_WRITE_THROUGH),
    ROW(L1_IS, L1_STORE_STRONG, L1_IS, L1_STALL),
    GUARDED(L1_IS, L1_ATOMIC,       MESI_WRITES_THROUGH, L1_I, L1_CLOSE_MISS, L1_SEND_ATOMIC),
    ROW(L1_IS, L1_ATOMIC,       L1_IS, L1_STALL),

    ROW(L1_IM, L1_LOAD,         L1_IM, L1_MERGE),
    ROW(L1_IM, L1_LOAD_STRONG,  L1_IM, L1_MERGE),
    ROW(L1_IM, L1_STORE,        L1_IM, L1_MERGE),
    ROW(L1_IM, L1_STORE_STRONG, L1_IM, L1_MERGE),
    ROW(L1_IM, L1_ATOMIC,       L1_IM, L1_MERGE),

    ROW(L1_IS, L1_GRANT_S,      L1_S,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IS, L1_GRANT_E,      L1_E,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_IM, L1_GRANT_M,      L1_M,  L1_INSTALL_FILL, L1_DELIVER_FILL),
    ROW(L1_I,  L1_GRANT_S,      L1_I,  L1_DELIVER_FILL),   /* a miss a write-through closed */

    ROW(L1_S,  L1_REPLACE,      L1_I,  L1_DROP_LINE),
    ROW(L1_E,  L1_REPLACE,      L1_I,  L1_WRITE_BACK, L1_DROP_LINE),
    ROW(L1_M,  L1_REPLACE,      L1_I,  L1_WRITE_BACK, L1_DROP_LINE),

    ROW(L1_I,  L1_INV,          L1_I,  L1_SEND_INV_ACK),
    ROW(L1_IS, L1_INV,          L1_IS, L1_SEND_INV_ACK),
    ROW(L1_IM, L1_INV,          L1_IM, L1_SEND_INV_ACK),
    ROW(L1_S,  L1_INV,          L1_I,  L1_INVALIDATE_LINE, L1_SEND_INV_ACK),

    /* mesi.ideal_permissions: the directory drops a sharer's copy at once; a read in flight is
     * closed (its fill answers the loads that wait for it, uncached), since its grant may carry
     * the data from before the write */
    ROW(L1_I,  L1_DROP_NOW,     L1_I,  L1_NONE),
    ROW(L1_S,  L1_DROP_NOW,     L1_I,  L1_INVALIDATE_LINE),
    ROW(L1_IS, L1_DROP_NOW,     L1_I,  L1_CLOSE_MISS),

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
    GUARDED(DIR_I, DIR_GET_S, MESI_WRITES_THROUGH, DIR_WAIT_HOME_S, DIR_OPEN, DIR_READ_HOME),
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

    GUARDED(DIR_WAIT_HOME_S, DIR_GET_S, MESI_READ_JOINS, DIR_WAIT_HOME_S, DIR_JOIN_READ),
    ROW(DIR_WAIT_HOME_S, DIR_GET_S,     DIR_WAIT_HOME_S, DIR_DEFER),
    ROW(DIR_WAIT_HOME_S, DIR_GET_M,     DIR_WAIT_HOME_S, DIR_DEFER),
    GUARDED(DIR_WAIT_HOME_S, DIR_HOME_DATA, MESI_CONCURRENT_READS, DIR_WAIT_HOME_S,
            DIR_TAKE_DATA, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_GRANT_JOINED),
    ROW(DIR_WAIT_HOME_S, DIR_HOME_DATA, DIR_S, DIR_TAKE_DATA, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),
    ROW(DIR_WAIT_HOME_S, DIR_READ_DUE,  DIR_WAIT_HOME_S, DIR_MARK_READ_DUE, DIR_GRANT_JOINED),
    ROW(DIR_WAIT_HOME_S, DIR_DONE,      DIR_S, DIR_CLOSE),

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

    /* write-through stores and atomics (only write-through L1s send them) */
    ROW(DIR_I, DIR_WRITE,               DIR_I, DIR_PERFORM_WRITE),
    GUARDED(DIR_S, DIR_WRITE, MESI_IDEAL_PERMISSIONS, DIR_I, DIR_DROP_SHARERS, DIR_FREE_ENTRY, DIR_PERFORM_WRITE),
    ROW(DIR_S, DIR_WRITE,               DIR_WAIT_WRITE, DIR_OPEN_WRITE, DIR_INVALIDATE_SHARERS),
    ROW(DIR_WAIT_HOME_S, DIR_WRITE,     DIR_WAIT_HOME_S, DIR_DEFER),
    ROW(DIR_WAIT_RECALL, DIR_WRITE,     DIR_WAIT_RECALL, DIR_DEFER),
    ROW(DIR_WAIT_WRITE, DIR_GET_S,      DIR_WAIT_WRITE, DIR_DEFER),
    ROW(DIR_WAIT_WRITE, DIR_WRITE,      DIR_WAIT_WRITE, DIR_DEFER),
    ROW(DIR_WAIT_WRITE, DIR_INV_ACK,    DIR_WAIT_WRITE, DIR_COUNT_ACK),
    ROW(DIR_WAIT_WRITE, DIR_DONE,       DIR_I, DIR_RETAKE_WRITE, DIR_CLOSE, DIR_FREE_ENTRY),
};

static const mesi_config *config_of(const memory_system *memory)
{
    return (const mesi_config *)memory->config.protocol_config;
}

static bool writes_through(const memory_system *memory) { return config_of(memory)->write_through; }

/* MESI_WRITES_THROUGH: mesi.stores is write_through; MESI_IDEAL_PERMISSIONS: mesi.ideal_permissions;
 * MESI_CONCURRENT_READS: mesi.dir_reads is concurrent; MESI_READ_JOINS: that, and no request (a
 * write) waits in the line's transaction, which a read that joined would overtake. */
static bool mesi_directory_guard(memory_system *memory, const directory_guard_view *line, unsigned guard)
{
    switch (guard) {
    case MESI_IDEAL_PERMISSIONS: return config_of(memory)->ideal_permissions;
    case MESI_CONCURRENT_READS: return config_of(memory)->concurrent_reads;
    case MESI_READ_JOINS: return config_of(memory)->concurrent_reads && !line->requests_waiting;
    default: return writes_through(memory);
    }
}

static bool mesi_l1_guard(memory_system *memory, const l1_context *context, unsigned guard)
{
    (void)context, (void)guard;
    return writes_through(memory);
}

static const directory_machine mesi_directory_machine = {
    .table = mesi_directory, .size = sizeof mesi_directory / sizeof mesi_directory[0], .guard = mesi_directory_guard};

static const sc_config_key mesi_keys[] = {
    {"mesi.stores", SC_KEY_ENUM, "", 0, 0, "write_through|write_back", 0,
     "how mesi's L1s take stores and atomics: write_through (Ren's SC baseline, §3.2: GPU-style write-through "
     "L1s; the L2 performs each store once every other copy is invalidated) or write_back (ownership: a store "
     "takes the line in M and later stores hit it, as the CPU-like MESI of prior SC studies)"},
    {"mesi.ideal_permissions", SC_KEY_BOOL, "", 0, 0, NULL, 0,
     "an experiment (Ren §3.2, Fig 3.1d: SC with \"instant read/write permission\"): a write-through store or "
     "atomic drops the other sharers' copies at once, with no invalidation message or ack, and the L2 performs "
     "it without waiting; needs mesi.stores write_through"},
    {"mesi.dir_reads", SC_KEY_ENUM, "", 0, 0, "blocking|concurrent", 0,
     "an experiment on mesi's directory: blocking (a read of a line whose read of the home is open waits until "
     "that transaction closes, then reads the home itself) or concurrent (it joins the open read and is granted "
     "the line one L2 access after it arrived, as if it had read the home alongside; writes still wait)"},
};

const sc_config_key_table mesi_config_keys = {mesi_keys, sizeof mesi_keys / sizeof mesi_keys[0]};

_Static_assert(sizeof(mesi_config) <= PROTOCOL_CONFIG_BYTES, "mesi_config outgrows protocol_config");

/* The directory's keys, then mesi.stores, mesi.ideal_permissions and mesi.dir_reads. */
static int load_mesi_config(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    if (directory_load_config(c, mechanism, m, error) < 0)
        return -1;
    mesi_config *config = (mesi_config *)m->protocol_config;
    config->write_through = !strcmp(sc_config_string(c, "mesi.stores"), "write_through");
    config->ideal_permissions = sc_config_bool(c, "mesi.ideal_permissions");
    config->concurrent_reads = !strcmp(sc_config_string(c, "mesi.dir_reads"), "concurrent");
    if (config->ideal_permissions && !config->write_through)
        return sc_fail_input(error, "mesi.ideal_permissions: true needs mesi.stores write_through (the "
                             "instant permissions are those of a write-through store or atomic)");
    return 0;
}

/* The directory at the L2 banks runs the table above (the L3 keeps the engine's default, not
 * writable). */
static void build_mesi(memory_system *memory)
{
    directory_build(memory, &mesi_directory_machine);
    memory->l1s_write_back = !writes_through(memory);   /* write_back: a store takes its line in M */
}

/* SC cores: acquires and releases are waived (a kernel's end still waits until the CU's stores
 * are performed: in its own L1 in M, or acknowledged by the L2). */
static const protocol_hooks mesi_hooks = {DIRECTORY_HOOK_FIELDS(build_mesi, load_mesi_config),
                                          .l1_guard = mesi_l1_guard, SC_CORE_HOOKS};

const sc_protocol protocol_mesi = {
    .name = "mesi",
    .l1_table = mesi_l1,
    .l1_table_size = sizeof mesi_l1 / sizeof mesi_l1[0],
    OWNERSHIP_VOCABULARY,
    .hooks = &mesi_hooks,
    .counters = directory_counters,
    .counter_count = DIRECTORY_COUNTER_COUNT,
};
