/* memory_internal.h — the parts of the memory system shared by its files (memory_system.c,
 * l1_controller.c, l2_bank.c, memory_side.c) and by the protocol modules' hooks
 * (src/protocols/): messages between endpoints (endpoint.h), controller state, the home of a
 * line, and the helpers that move messages. */
#ifndef SYNCSCOPE_TIMING_MEMORY_INTERNAL_H
#define SYNCSCOPE_TIMING_MEMORY_INTERNAL_H

#include "timing/cache_array.h"
#include "timing/cpu_cluster.h"
#include "timing/endpoint.h"
#include "timing/memory_system.h"
#include "timing/mshr.h"
#include "timing/protocol_hooks.h"
#include "timing/store_buffer.h"

#define MESSAGE_NONE UINT32_MAX


typedef enum message_type {
    MSG_READ = 0,       /* CU -> L2: read a line (around: for one operation, no L1 fill) */
    MSG_WRITE,          /* CU -> L2: masked bytes of a line */
    MSG_ATOMIC,         /* CU -> L2: the lanes of `op` on this line */
    MSG_DATA,           /* L2 -> CU (or L1 -> itself on a hit): a line's bytes */
    MSG_ATOMIC_DONE,    /* L2 -> CU: the atomic was performed, old values are in the operation */
    MSG_WRITE_ACK,      /* L2 -> CU: the write was performed */
    MSG_INV,            /* L2 or directory -> CU: drop the copy (raises L1_INV) */
    MSG_PROTOCOL_FIRST, /* a protocol's own messages follow (sc_protocol.own_messages) */
} message_type;


typedef struct message {
    uint8_t type;           /* message_type */
    uint8_t data_source;    /* MSG_DATA, MSG_ATOMIC_DONE: the level that served it (gsi_source) */
    uint8_t around;         /* MSG_READ/MSG_DATA: belongs to `op` alone, not to an MSHR */
    uint8_t grant;          /* MSG_DATA: the protocol's L1 event it raises instead of Fill (a grant),
                               0 for a plain fill */
    uint8_t protocol_bits;  /* the protocol's own flags for the message (0 when allocated) */
    uint8_t traffic;        /* noc_traffic_class: its type's when allocated (message_traffic_class); a
                               miss's request takes its access's (l1_open_miss); an answer made of
                               its request (memory_reply) keeps the request's */
    uint64_t protocol_word; /* the protocol's extension: what it carries (a timestamp); 0 when allocated */
    uint8_t *extension;     /* sc_protocol.extension.message bytes of its own, zeroed when allocated;
                               NULL without */
    endpoint source;        /* where it was sent from (message_cu: the CU it is from or to) */
    endpoint destination;   /* where it goes */
    uint32_t op;            /* the operation, or MEMORY_OP_NONE for L1 fills and buffered writes
                               (a written-through store's: done at its MSG_WRITE_ACK) */
    uint32_t next;          /* free list / bank queue link */
    uint64_t line_address;
    byte_mask mask;         /* MSG_WRITE: the bytes written */
    uint8_t data[TIMING_MAX_LINE_BYTES];
} message;

/* MSHR flag of the L1: closed by a write of the CU (no more merging, fill not cached). */
#define L1_MSHR_CLOSED 1u
/* MSHR waiter tokens of the L1: an operation handle, with this bit if it merged (secondary). */
#define L1_WAITER_MERGED 0x80000000u

typedef struct l1_controller {
    cache_array *cache;
    mshr_table *mshrs;
    store_buffer *stores;        /* the write-combining store buffer (a protocol may make it a write cache) */
    void *protocol_state;        /* the protocol's own state for the L1 (set by its build hook) */
    uint32_t epoch;              /* acquires so far: MSHRs opened in an older epoch are stale */
    uint32_t reads_around;       /* read-around requests in flight (share the MSHR budget) */
    uint64_t writes_outstanding; /* writes/atomics sent (or waiting for ownership) and not yet performed */
    sc_time atomic_unit_free;    /* when the L1's atomic unit takes its next atomic (one per GPU cycle) */
} l1_controller;

/* L2 line states (cache_line.state). */
enum { L2_I = 0, L2_V, L2_D, L2_IV };

typedef struct l2_bank {
    cache_array *cache;          /* indexed by bank-local line addresses */
    mshr_table *mshrs;           /* waiters: message handles */
    void *protocol_state;        /* the protocol's own state for the bank (a directory slice...) */
    uint32_t queue_head, queue_tail;         /* requests */
    uint32_t response_head, response_tail;   /* message_is_response messages */
    sc_time free_at;             /* when the tag pipeline takes its next message */
    bool step_scheduled;
} l2_bank;

/* One bank of the memory-side L3: tags only (states L3_CLEAN, L3_DIRTY), indexed by bank-local
 * line addresses; one lookup starts per GPU cycle. */
enum { L3_INVALID = 0, L3_CLEAN, L3_DIRTY };

typedef struct l3_bank {
    cache_array *tags;
    sc_time free_at;             /* when the bank starts its next lookup */
} l3_bank;


/* A DRAM request that found its channel queue full. */
typedef struct dram_backlog_entry {
    uint64_t line_address;
    bool is_write;
} dram_backlog_entry;

struct memory_system {
    memory_config config;
    const sc_protocol *protocol;
    protocol_index table;
    protocol_hooks hooks;         /* the protocol's hooks, the engine's defaults where it has none */
    bool l2_writes_through;       /* the L2 banks send writes and atomics on to memory (l2.write_policy,
                                     unless the protocol's build makes them write-back) */
    bool l3_writable;             /* the memory-side L3 is write-back (set by the protocol's build) */
    bool barriers_release;        /* a CTA barrier is a release at GPU scope (set by the protocol's build;
                                     memory_barriers_release) */
    bool l1s_write_back;          /* the L1s keep written data newer than the home until they evict it
                                     (set by the protocol's build; memory_l1s_write_back) */
    sc_device *device;
    event_queue *events;
    memory_callbacks callbacks;
    l1_controller *l1;
    l2_bank *banks;
    noc *network;
    l3_bank *l3;                  /* l3_banks banks, NULL without an L3 */
    cpu_cluster *cpu;             /* NULL without a CPU cluster */
    dram *memory;
    sc_time dram_wake;            /* time of the scheduled DRAM event, SC_TIME_NEVER if none */
    dram_backlog_entry *backlog;
    uint32_t backlog_count, backlog_capacity;
    uint32_t *backlog_requests, *backlog_writes;   /* per DRAM channel: backlogged requests, writes */
    message **message_chunks;     /* stable storage, 256 messages per chunk */
    uint32_t message_chunk_count, free_messages;
    memory_op **op_chunks;
    uint32_t op_chunk_count, free_ops;
    uint64_t jitter_state;
    memory_stats stats;
    void *protocol_state;         /* the protocol's own state for the whole system (set by its build) */
    void *protocol_stats;         /* the protocol's own statistics, which its counters read (set by its build) */
    bool failed;                  /* a protocol error in a path that cannot report it (a release
                                     hook): the next access or event reports `failure` */
    sc_error failure;
};

/* The protocol's description of one of its own message types (type >= MSG_PROTOCOL_FIRST). */
static inline const protocol_own_message *own_message(const memory_system *memory, message_type type)
{
    return &memory->protocol->own_messages[type - MSG_PROTOCOL_FIRST];
}

/* Messages a bank handles before any request, so requests waiting for a busy line or a full
 * structure never hold up the answers that free them (a separate virtual network): a protocol's
 * own messages that say so. */
static inline bool message_is_response(const memory_system *memory, message_type type)
{
    return type >= MSG_PROTOCOL_FIRST && own_message(memory, type)->response;
}

message *message_get(memory_system *memory, uint32_t handle);
/* The traffic class (noc.h) of a message of `type`: the engine's (MSG_READ and MSG_DATA: LD,
 * MSG_WRITE and MSG_WRITE_ACK: ST, MSG_ATOMIC and MSG_ATOMIC_DONE: ATO, MSG_INV: INV), or what a
 * protocol's own type declares (protocol_own_message.traffic). */
noc_traffic_class message_traffic_class(const memory_system *memory, message_type type);
/* A message of `type` about the line from `source` to `destination`, in its type's traffic
 * class, its other fields zero (or none, and data_source GSI_SOURCE_L2). */
uint32_t message_allocate(memory_system *memory, message_type type, endpoint source, endpoint destination,
                          uint64_t line_address);
void message_free(memory_system *memory, uint32_t handle);

/* The CU a message is from or to: its destination when that is a CU (the message reaches an L1),
 * else its source (a CU's request at its home). */
static inline unsigned message_cu(const message *m)
{
    return m->destination.kind == ENDPOINT_CU ? m->destination.index : m->source.index;
}

/* The home of a line for a request of `requester`: the endpoint every request about the line is
 * sent to. The protocol's home_of hook; by default the L2 bank memory_bank_of. */
static inline endpoint memory_home_of(memory_system *memory, endpoint requester, uint64_t line_address)
{
    return memory->hooks.home_of(memory, requester, line_address);
}

/* A request of CU `cu` about the line: from the CU to the line's home for it. */
static inline uint32_t message_allocate_request(memory_system *memory, message_type type, unsigned cu,
                                                uint64_t line_address)
{
    endpoint requester = endpoint_cu(cu);
    return message_allocate(memory, type, requester, memory_home_of(memory, requester, line_address), line_address);
}

/* The L2 bank whose array caches the line: line index mod l2.banks. */
unsigned memory_bank_of(const memory_system *memory, uint64_t line_address);
/* An L2 bank indexes its array by bank-local line addresses (the bank digit removed), so every
 * set of every bank is used; these convert between the two. */
uint64_t memory_bank_local_address(const memory_system *memory, uint64_t line_address);
uint64_t memory_bank_global_address(const memory_system *memory, unsigned bank, uint64_t local_address);
/* Sends the message over the NoC from its source to its destination, leaving at `now` (plus the
 * --jitter delay); it arrives as MEMORY_EVENT_AT_CU (l1_receive) at a CU, MEMORY_EVENT_AT_L2
 * (l2_receive) at an L2 bank. Returns the arrival time. */
sc_time memory_send(memory_system *memory, uint32_t handle, sc_time now);
/* Sends the message back to where it came from (its source and destination swap): a request
 * turned into its answer. */
sc_time memory_reply(memory_system *memory, uint32_t handle, sc_time now);
/* The same, but the answer is taken no earlier than `not_before` (after messages it must follow
 * that travel other paths; the NoC itself is used as by memory_reply). */
sc_time memory_reply_after(memory_system *memory, uint32_t handle, sc_time now, sc_time not_before);
#define MEMORY_CU_NONE UINT32_MAX
/* One message of `type` for the line to every CU but `except_cu` (MEMORY_CU_NONE: every CU),
 * multicast from `source` at `now` (noc_multicast_*: the source's injection port is held once).
 * Returns the last arrival. */
sc_time memory_broadcast_to_cus(memory_system *memory, message_type type, uint64_t line_address, endpoint source,
                                unsigned except_cu, sc_time now);

/* Copies the lanes of `op` that fall in the line out of `line_data` (loads), counts the line
 * complete, and reports the operation done when it was its last line. */
void memory_op_line_done(memory_system *memory, uint32_t op, uint64_t line_address, const uint8_t *line_data,
                         gsi_source source, sc_time now);

/* The lanes of `op` whose access falls in the line. */
uint64_t memory_op_lanes_in_line(const memory_system *memory, const memory_op *op, uint64_t line_address);
/* Performs the lanes of atomic `op` that fall in the line on `line_data` (old values land in the
 * operation), in lane order. */
void memory_perform_atomic(memory_system *memory, uint32_t op, uint64_t line_address, uint8_t *line_data);

/* The L1 side of a host access to [start, end) for L1s that hold lines newer than the home
 * (`l1_dirty` says which states): the image gets their data (the L1s keep the lines after a read);
 * a host write drops every copy. For a protocol module's host_access hook. */
void memory_host_access_dirty_l1s(memory_system *memory, uint64_t start, uint64_t end, bool is_write,
                                  bool (*l1_dirty)(l1_state state));
/* The L1 side of a host access to [start, end) for L1s that never hold data newer than the home:
 * after a host write every L1 drops its copies of the written lines (`written_only`) or every
 * line it holds (the engine's default host_access hook); a host read needs nothing. */
void memory_host_write_drop_l1s(memory_system *memory, uint64_t start, uint64_t end, bool is_write,
                                bool written_only);

/* The engine's release and store-room defaults: send every buffered store; send the oldest. */
void l1_send_buffered_stores(memory_system *memory, unsigned cu, sc_time now);
void l1_send_oldest_store(memory_system *memory, unsigned cu, sc_time now);
/* Drops every line of the CU's L1 (misses in flight become stale: their fills are not cached). */
void l1_flash_invalidate(memory_system *memory, unsigned cu);

/* What the actions of one L1 row work on (l1_controller.c, and a protocol's l1_action hook).
 * Access events have `lanes` and `op`; message events have `message`. */
typedef struct l1_context {
    unsigned cu;
    uint64_t line_address;
    const coalesced_line *lanes;
    uint32_t op;
    message *message;
    cache_line *cached;          /* the line in the array, or NULL */
    mshr_entry *entry;           /* its MSHR, or NULL */
    bool parked;                 /* the access now waits in an MSHR */
    bool awaits_ack;             /* the store was written through: its line is done at the ack */
} l1_context;

/* Actions and events a protocol's hooks compose with (l1_controller.c): put the store's bytes
 * into the store buffer; deliver `data` to load `op` after the L1 latency (an L1 hit); raise
 * `event` on the CU's line outside any access or message (e.g. its write-cache block leaves)
 * and run the table's row; count a write of the CU performed (release bookkeeping). */
void l1_buffer_store(memory_system *memory, unsigned cu, const coalesced_line *line, const memory_op *op);
/* Writes the store data of `op`'s lanes in `line` into `data` (a line buffer), in lane order, and
 * marks the bytes written in `written` (NULL: not marked). */
void l1_write_lanes(const memory_op *op, const coalesced_line *line, uint8_t *data, byte_mask *written);
void l1_deliver_hit(memory_system *memory, unsigned cu, uint64_t line_address, const uint8_t *data, uint32_t op,
                    sc_time now);
int l1_run_event(memory_system *memory, unsigned cu, uint64_t line_address, l1_event event, sc_time now,
                 sc_error *error);
/* Runs L1_REPLACE on every line of CU `cu`'s L1 that `chosen` picks (NULL: every line), the lines
 * gathered before any is replaced; a table error marks the memory system failed (`failure`), as
 * the hooks that call it cannot report one. */
void l1_replace_lines(memory_system *memory, unsigned cu, bool (*chosen)(const cache_line *line), sc_time now);
/* The same for a message of the protocol's own that raises `event` on its line (a forwarded
 * request), with the message as the row's context. */
int l1_run_message_event(memory_system *memory, uint32_t handle, l1_event event, sc_time now, sc_error *error);
/* Opens an MSHR in transient state `state` for the context's access and sends `request` for the
 * line (L1_OPEN_MISS: MSG_READ in IV; a protocol's own: its request in its transient), in the
 * access's traffic class (a load's LD, a store's ST, an atomic's ATO). */
void l1_open_miss(memory_system *memory, l1_context *context, message_type request, l1_state state, sc_time now);
void l1_write_performed(memory_system *memory, unsigned cu, sc_time now);
/* Performs atomic `op` on a line the L1 holds, through the CU's atomic unit: one atomic per GPU
 * cycle, in arrival order. The line's bytes change now; the answer reaches the warp `latency`
 * after the unit takes it (an MSG_ATOMIC_DONE event; the atomic counts as an outstanding write
 * until then). */
void l1_perform_atomic(memory_system *memory, unsigned cu, uint32_t op, uint64_t line_address, uint8_t *line_data,
                       sc_time latency, sc_time now);
/* When the CU's atomic unit has performed every atomic it has taken: a line it holds can leave
 * the L1 (answer a forward) no earlier. */
sc_time l1_atomics_done(const memory_system *memory, unsigned cu, sc_time now);
/* The engine's defaults for the l1_action and l1_message hooks, which a protocol's own hooks
 * also fall back to: an action or a message type nobody implements is a protocol error. */
int l1_action_unknown(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error);
int l1_message_unknown(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);

/* The CU side of a message arriving from the L2 (or from the CU's own L1 hit path). */
int l1_receive(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);

/* The L2 side. */
void l2_receive(memory_system *memory, uint32_t handle, sc_time now);
/* The bank's array serves the request at the head of the bank (reads, writes, atomics; a miss
 * fetches the line from the memory side): the engine's bank_receive hook. 1 when handled, 0 when
 * it must wait (no MSHR, no way, memory's write queue full). */
int l2_process(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
int l2_step(memory_system *memory, unsigned bank, sc_time now, sc_error *error);
/* Puts the requests first..last (linked by `next`) back at the head of the bank's request queue,
 * ahead of newer ones, and lets the bank take them from `when`. */
void l2_requeue_front(memory_system *memory, unsigned bank, uint32_t first, uint32_t last, sc_time when);
/* The memory side's answer to a read of the bank's line (memory_backing_read) reached the L2 at
 * `when`, served by `source` (L3, a CPU cache, DRAM): the line takes the image's bytes. */
void l2_fill(memory_system *memory, uint64_t line_address, gsi_source source, sc_time when);

/* The home of a line for a directory: whether reading it from the bank now needs an L2 MSHR and
 * one cannot be had (the request must wait); reading it (an L2 hit copies the data into `data`
 * and returns true; a miss fetches it from the memory side and later hands `handle`, the request, to
 * the protocol's home_data hook); and writing a whole line to it (into the L2, allocating, or to the
 * memory side when no way can be freed). */
bool l2_home_blocked(memory_system *memory, unsigned bank, uint64_t line_address);
bool l2_home_read(memory_system *memory, unsigned bank, uint32_t handle, uint8_t *data, sc_time now);
void l2_home_write(memory_system *memory, unsigned bank, uint64_t line_address, const uint8_t *data, sc_time now);

/* ---- the memory side below the L2 banks (memory_side.c) ----
 * The L2 banks (and a directory's home reads and writes through them) reach the L3, the CPU
 * cluster and DRAM only through these two calls. A read is answered by l2_fill. A write puts the
 * bytes of `data` that `mask` names (NULL: the whole line) into the device image, which holds
 * every value below the L2, and posts the timed write. Without an L3 and a CPU cluster both go
 * straight to DRAM. */
void memory_backing_read(memory_system *memory, uint64_t line_address, sc_time now);
void memory_backing_write(memory_system *memory, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                          sc_time now);
/* Whether the memory controller's write queue of the line's channel has room (dram.write_queue):
 * every writer that can wait asks first (a write-through or dirty victim of an L2 bank, the head of
 * a protocol's write cache), so all mechanisms see the same bounded back-pressure from memory. */
bool memory_accepts_write(const memory_system *memory, uint64_t line_address);

/* Building and tearing down the L3 banks, the CPU cluster and the DRAM channels. */
void memory_side_create(memory_system *memory);
void memory_side_destroy(memory_system *memory);
/* MEMORY_EVENT_DRAM, MEMORY_EVENT_BACKING_DATA and MEMORY_EVENT_BACKING_MISS. */
void memory_side_handle_event(memory_system *memory, const timing_event *event);
/* A host access to the lines of [start, end) between kernels: the CPU cluster holds them
 * (dirty after a write); a write drops the L3's copies. Untimed. */
void memory_side_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write);
/* Functional warming: the L3 sees a fill of the line (`is_write` false) or the write-back of a
 * dirty L2 victim, as in a timed run but without time, traffic or statistics. */
void memory_side_warm(memory_system *memory, uint64_t line_address, bool is_write);

#endif
