/* rfo_protocol.c — the RFO baseline of QuickRelease (§2.4.2, §3.3, U14): a CPU-style read-for-ownership
 * MOESI protocol on the GPU. Write-back, write-allocate L1s hold lines in M, O, E, S or I; a
 * full-map directory at the L2 banks (one entry per line any L1 holds, with the owner and a
 * sharer bit per CU) keeps a single writer or many readers; the L2 is the home's write-back
 * cache of DRAM.
 *
 * L1: a load hits in S/E/O/M, otherwise sends a GetS (IS) and is granted S, or E when no other L1
 * holds the line. A store or atomic needs ownership first: in M it is performed at once (E turns
 * into M silently); in S the copy is dropped and a GetM sent (IM); in O the dirty line is written
 * back first (Put), then a GetM sent, so the directory always has the data to grant. Requests
 * to a line in IM wait in its MSHR and are performed in arrival order when ownership arrives;
 * a store or atomic to a line in IS waits until the read is answered (L1_STALL). Atomics are
 * performed in the L1 once it owns the line (digest §3.0: "at L1 once M is held"). Replacing S
 * is silent; replacing E, O or M sends a Put carrying the line (a dirty one is written home).
 * A forwarded request or invalidation for a line the L1 no longer holds is answered as such:
 * its Put went first on the same ordered path, so the directory already has the data.
 *
 * Directory (blocking, every grant's data passes through it): GetS in I reads the home and
 * grants E; in S reads the home and grants S; in M/O forwards to the owner (M -> O keeping a
 * dirty copy, E -> S) and grants S. GetM reads the home (I, S) or takes the owner's data (M, O),
 * invalidates every other sharer, and grants M once the data and every ack are in. Puts are
 * never deferred: a Put from the owner a transaction waits for serves as the owner's data.
 * Replacing an entry (the directory is inclusive of the L1s) recalls the line: sharers are
 * invalidated and the owner's data written home.
 *
 * Acquire and release are local (no L1 invalidation, no flush): a release waits only until the
 * CU's earlier stores and atomics are performed in its L1; dirty data stays cached across
 * kernels (kernel end waits only for write-backs in flight, so the host reads a settled image).
 * With rfo.cross_kernel drop (an experiment, not the paper's RFO: §4.3 keeps dirty data across
 * kernel bounds) every L1 replaces each line it holds when a kernel starts: the dirty and
 * exclusive ones are written back (Put), the shared ones dropped, so no kernel finds the previous
 * kernels' data in its L1s.
 *
 * Decisions the seed leaves open (U14), and what "idealized" is taken to mean here: the
 * directory tracks the L1s only; the L2 is the home's data (not a tracked cache), written back
 * to DRAM on eviction; there is no memory-side L3 (qr-apu's 4 MB L3 is not modelled, so DRAM
 * writes are the L2's write-backs); invalidation acks are collected at the directory (4-hop, no
 * cache-to-cache transfer); the directory is banked with the L2 and sized by
 * directory.full_map_size (256 kB, 8 B per entry) with directory.mshrs transactions.
 */
#include "protocols/rfo/rfo.h"

#include "protocols/common/directory.h"

#include <string.h>

#define ROW PROTOCOL_ROW

static const protocol_transition rfo_l1[] = {
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

    ROW(L1_O,  L1_LOAD,         L1_O,  L1_HIT),
    ROW(L1_O,  L1_LOAD_STRONG,  L1_O,  L1_HIT),
    ROW(L1_O,  L1_STORE,        L1_IM, L1_WRITE_BACK, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),
    ROW(L1_O,  L1_STORE_STRONG, L1_IM, L1_WRITE_BACK, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),
    ROW(L1_O,  L1_ATOMIC,       L1_IM, L1_WRITE_BACK, L1_DROP_LINE, L1_REQUEST_OWNERSHIP),

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
    ROW(L1_O,  L1_REPLACE,      L1_I,  L1_WRITE_BACK, L1_DROP_LINE),
    ROW(L1_M,  L1_REPLACE,      L1_I,  L1_WRITE_BACK, L1_DROP_LINE),

    ROW(L1_I,  L1_INV,          L1_I,  L1_SEND_INV_ACK),
    ROW(L1_IS, L1_INV,          L1_IS, L1_SEND_INV_ACK),
    ROW(L1_IM, L1_INV,          L1_IM, L1_SEND_INV_ACK),
    ROW(L1_S,  L1_INV,          L1_I,  L1_INVALIDATE_LINE, L1_SEND_INV_ACK),

    ROW(L1_E,  L1_FWD_GETS,     L1_S,  L1_SEND_DATA),
    ROW(L1_O,  L1_FWD_GETS,     L1_O,  L1_SEND_DATA),
    ROW(L1_M,  L1_FWD_GETS,     L1_O,  L1_SEND_DATA),
    ROW(L1_I,  L1_FWD_GETS,     L1_I,  L1_SEND_NO_DATA),
    ROW(L1_IS, L1_FWD_GETS,     L1_IS, L1_SEND_NO_DATA),
    ROW(L1_IM, L1_FWD_GETS,     L1_IM, L1_SEND_NO_DATA),

    ROW(L1_E,  L1_FWD_GETM,     L1_I,  L1_SEND_DATA, L1_INVALIDATE_LINE),
    ROW(L1_O,  L1_FWD_GETM,     L1_I,  L1_SEND_DATA, L1_INVALIDATE_LINE),
    ROW(L1_M,  L1_FWD_GETM,     L1_I,  L1_SEND_DATA, L1_INVALIDATE_LINE),
    ROW(L1_I,  L1_FWD_GETM,     L1_I,  L1_SEND_NO_DATA),
    ROW(L1_IS, L1_FWD_GETM,     L1_IS, L1_SEND_NO_DATA),
    ROW(L1_IM, L1_FWD_GETM,     L1_IM, L1_SEND_NO_DATA),
};

static const protocol_transition rfo_directory[] = {
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

    ROW(DIR_O, DIR_GET_S,  DIR_WAIT_OWNER_S, DIR_OPEN, DIR_FORWARD_GET_S),
    ROW(DIR_O, DIR_GET_M,  DIR_WAIT_M,       DIR_OPEN, DIR_FORWARD_GET_M, DIR_INVALIDATE_SHARERS),
    ROW(DIR_O, DIR_PUT_DIRTY, DIR_S,         DIR_WRITE_HOME, DIR_ACK_PUT, DIR_CLEAR_OWNER),
    ROW(DIR_O, DIR_REPLACE, DIR_WAIT_RECALL, DIR_OPEN_RECALL, DIR_FORWARD_GET_M, DIR_INVALIDATE_SHARERS),

    ROW(DIR_WAIT_HOME_E, DIR_GET_S,     DIR_WAIT_HOME_E, DIR_DEFER),
    ROW(DIR_WAIT_HOME_E, DIR_GET_M,     DIR_WAIT_HOME_E, DIR_DEFER),
    ROW(DIR_WAIT_HOME_E, DIR_HOME_DATA, DIR_M, DIR_TAKE_DATA, DIR_SET_OWNER, DIR_GRANT_E, DIR_CLOSE),

    ROW(DIR_WAIT_HOME_S, DIR_GET_S,     DIR_WAIT_HOME_S, DIR_DEFER),
    ROW(DIR_WAIT_HOME_S, DIR_GET_M,     DIR_WAIT_HOME_S, DIR_DEFER),
    ROW(DIR_WAIT_HOME_S, DIR_HOME_DATA, DIR_S, DIR_TAKE_DATA, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),

    ROW(DIR_WAIT_OWNER_S, DIR_GET_S,    DIR_WAIT_OWNER_S, DIR_DEFER),
    ROW(DIR_WAIT_OWNER_S, DIR_GET_M,    DIR_WAIT_OWNER_S, DIR_DEFER),
    ROW(DIR_WAIT_OWNER_S, DIR_OWNER_DIRTY, DIR_O,
        DIR_TAKE_DATA, DIR_OWNER_ANSWERED, DIR_ADD_REQUESTER, DIR_GRANT_S, DIR_CLOSE),
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

const directory_machine rfo_directory_machine = {.table = rfo_directory,
                                                 .size = sizeof rfo_directory / sizeof rfo_directory[0]};

static const sc_config_key rfo_keys[] = {
    {"rfo.cross_kernel", SC_KEY_ENUM, "", 0, 0, "keep|drop", 0,
     "what rfo's L1s keep across kernels: keep (QuickRelease §4.3, dirty data is cached across kernel bounds) or "
     "drop (an experiment: when a kernel starts each L1 writes back its dirty and exclusive lines and drops every "
     "line)"},
};

const sc_config_key_table rfo_config_keys = {rfo_keys, sizeof rfo_keys / sizeof rfo_keys[0]};

_Static_assert(sizeof(rfo_config) <= PROTOCOL_CONFIG_BYTES, "rfo_config outgrows protocol_config");

/* The directory's keys, then rfo.cross_kernel. */
static int load_rfo_config(const sc_config *c, const char *mechanism, memory_config *m, sc_error *error)
{
    if (directory_load_config(c, mechanism, m, error) < 0)
        return -1;
    ((rfo_config *)m->protocol_config)->drop_at_kernel_start = !strcmp(sc_config_string(c, "rfo.cross_kernel"), "drop");
    return 0;
}

static void build_rfo(memory_system *memory)
{
    directory_build(memory, &rfo_directory_machine);
    memory->l3_writable = true;   /* QR §4.2: the L3 is "writeable only in the RFO system" */
    memory->l1s_write_back = true;   /* an L1 owns the lines it writes (O, M) */
}

/* A kernel starts: nothing to acquire (acquires are local); with rfo.cross_kernel drop each L1
 * replaces every line it holds (each is stable: the previous kernel's end waited for every
 * request and write-back in flight). */
static void kernel_begin_rfo(memory_system *memory, sc_time now)
{
    if (!((const rfo_config *)memory->config.protocol_config)->drop_at_kernel_start)
        return;
    for (unsigned cu = 0; cu < memory->config.cu_count && !memory->failed; cu++)
        l1_replace_lines(memory, cu, NULL, now);
}

/* The directory at the L2 banks runs the table above; acquire and release are local (a release
 * waits until the CU's stores are performed in its own L1). */
static const protocol_hooks rfo_hooks = {DIRECTORY_HOOK_FIELDS(build_rfo, load_rfo_config),
                                         .kernel_begin = kernel_begin_rfo};

const sc_protocol protocol_rfo = {
    .name = "rfo",
    .l1_table = rfo_l1,
    .l1_table_size = sizeof rfo_l1 / sizeof rfo_l1[0],
    OWNERSHIP_VOCABULARY,
    .hooks = &rfo_hooks,
    .counters = directory_counters,
    .counter_count = DIRECTORY_COUNTER_COUNT,
};
