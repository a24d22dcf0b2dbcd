/* qr_units.h — QuickRelease's own state in the memory system and what its files share
 * (qr_l1.c: the wL1 and S-FIFO1 at each CU; qr_write_path.c: the wL2 slices, the wL3 and release
 * markers; qr_protocol.c: the tables and hooks). The engine holds this state only as the
 * protocol_state pointers of its L1s, L2 banks and memory system. */
#ifndef SYNCSCOPE_PROTOCOLS_QR_QR_UNITS_H
#define SYNCSCOPE_PROTOCOLS_QR_QR_UNITS_H

#include "protocols/common/sync_fifo.h"
#include "protocols/common/write_cache_level.h"
#include "protocols/qr/qr.h"
#include "timing/memory_internal.h"

/* Per warp slot, or per CTA slot, the marker batch a release waits for (0: none begun), growing
 * as slots are named. */
typedef struct qr_batch_table {
    uint64_t *batch;
    uint32_t capacity;
} qr_batch_table;

/* A CU's wL1 side: the store buffer is the wL1; S-FIFO1 names its blocks. Blocks written out are
 * not acknowledged one by one; a release sends a batch of markers, one to every L2 bank, and
 * counts each marker as an outstanding write until acknowledged. Batches are numbered from 1 in
 * the order they leave; a warp's release, or a work-group's barrier, waits for the batch that
 * follows its writes (and every earlier one). */
typedef struct qr_cu {
    sync_fifo *sync;             /* S-FIFO1 */
    bool writes_unreleased;      /* blocks written out since the last release marker */
    uint32_t markers_outstanding;
    sc_time release_started;     /* when the outstanding markers left */
    uint64_t batches_sent;       /* marker batches sent */
    uint64_t batches_done;       /* every batch up to this one is acknowledged by every bank */
    uint32_t *acks_missing;      /* per batch after batches_done: banks yet to acknowledge it */
    uint32_t acks_capacity;
    qr_batch_table warp_batch;   /* per warp slot: the batch its release waits for */
    qr_batch_table cta_batch;    /* per CTA slot: the batch its barrier waits for (work_group granularity) */
} qr_cu;

/* What a bank's wL2 slice keeps per CU so that the CU's markers never overtake its writes
 * (qr_write_path.c step 4). */
typedef struct qr_bank_cu {
    uint32_t writes_waiting;        /* the CU's writes and atomics at the bank that wait for an rL2 fill */
    uint32_t held_first, held_last; /* the CU's markers held meanwhile, in arrival order (`next`) */
} qr_bank_cu;

/* A write's or atomic's flag (message.protocol_bits): counted in its bank's writes_waiting for its CU. */
#define QR_WRITE_WAITING 1u

/* A release or flush marker waiting at a level (a bank's wL2 slice, or the wL3) until the level's
 * S-FIFO has dequeued every entry it held when the marker arrived (qr_write_path.c step 4). */
typedef struct qr_marker {
    uint64_t through_after;   /* the S-FIFO's dequeue count at which it is through */
    sc_time ready;            /* when it reaches the level */
    uint32_t handle;          /* the release marker, acknowledged once through; MESSAGE_NONE: a flush */
    unsigned bank;            /* the bank it came from, which the acknowledgement leaves */
} qr_marker;

/* The markers waiting at one level, in arrival order, and the level's drain event. */
typedef struct qr_marker_queue {
    qr_marker *items;
    uint32_t first, count, capacity;
    sc_time wake;             /* time of the scheduled MEMORY_EVENT_PROTOCOL, SC_TIME_NEVER if none */
} qr_marker_queue;

/* A bank's slice of the wL2 and S-FIFO2. */
typedef struct qr_bank {
    write_cache_level *wl2;
    qr_marker_queue wl2_markers; /* markers draining S-FIFO2, one block per GPU cycle */
    sc_time invalidations_arrive_by;  /* arrival of the last rL1 invalidation the bank sent */
    bool refusing_writes;        /* a write waits at the head of the queue: the wL2 cannot evict */
    qr_bank_cu *cus;             /* per CU */
} qr_bank;

/* QuickRelease's statistics (its counters, qr_protocol.c; the engine's store_buffer_drains
 * counts the wL1 blocks written out). */
typedef struct qr_stats {
    uint64_t sync_fifo_dequeues;       /* S-FIFO1 entries dequeued (full FIFO, release, strong store) */
    uint64_t sync_fifo_full_dequeues;  /* of those, dequeued because the FIFO was full */
    uint64_t release_flushes;          /* releases whose marker had S-FIFO entries ahead of it */
    uint64_t store_flushes;            /* S-FIFO flushes by strong stores (no acknowledgement) */
    uint64_t write_cache_read_hits;    /* loads served by the wL1's dirty bytes */
    uint64_t invalidations_broadcast;  /* rL1 invalidations sent by the L2 (wL2 evictions, atomics) */
    uint64_t wl2_evictions, wl3_evictions;   /* blocks written out of the wL2 slices / the wL3 */
    uint64_t wl2_read_hits;            /* L1 fills served by dirty bytes covering the whole line in a wL2 */
    uint64_t sync_fifo2_full_dequeues, sync_fifo3_full_dequeues;  /* S-FIFO heads dequeued because full */
    uint64_t wl2_refused_writes;       /* bank cycles a write waited: S-FIFO2 full and the wL3 refusing */
    uint64_t wl2_drain_waits;          /* cycles a marker's wL2 drain waited for the wL3 to take a block */
    uint64_t wl3_drain_waits;          /* cycles a marker's wL3 drain waited for memory's write queue */
    uint64_t write_out_waits;          /* cycles a read or atomic waited at a bank to write a wL2/wL3
                                          block out (qr_write_path.c step 7) */
    uint64_t markers_held;             /* markers a bank held behind their CU's writes waiting for an
                                          rL2 fill (qr_write_path.c step 4) */
    uint64_t wl1_refused_stores;       /* store accesses refused (retried each cycle): the wL1 block they
                                          would evict is bound for a bank that refuses writes */
    uint64_t release_markers_acked;    /* releases whose markers were all acknowledged */
    uint64_t release_marker_cycles;    /* GPU cycles from their markers leaving to the last acknowledgement */
} qr_stats;

/* The memory-side wL3 and S-FIFO3, and the statistics. */
typedef struct qr_memory {
    write_cache_level *wl3;
    qr_marker_queue wl3_markers; /* markers waiting for the wL3's drain */
    qr_stats stats;
} qr_memory;

static inline qr_cu *qr_cu_of(const memory_system *memory, unsigned cu) { return memory->l1[cu].protocol_state; }
static inline qr_bank *qr_bank_of(const memory_system *memory, unsigned bank)
{
    return memory->banks[bank].protocol_state;
}
static inline qr_memory *qr_memory_of(const memory_system *memory) { return memory->protocol_state; }
static inline qr_stats *qr_stats_of(const memory_system *memory) { return &qr_memory_of(memory)->stats; }

/* ---- the wL1 (qr_l1.c) ---- */
/* build and destroy of the CU side: each store buffer becomes a wL1 of l1.write_cache_size
 * blocks, with its S-FIFO1. */
void qr_l1_build(memory_system *memory);
void qr_l1_destroy(memory_system *memory);
/* Hooks: a release dequeues the whole S-FIFO1 and sends a batch of release markers; a warp's
 * release waits for its batch only; an exiting warp sends its batch without waiting; the wL1 makes its own
 * room before a store (so a full store buffer needs nothing more) and serves loads of its dirty
 * bytes; a write-out is not acknowledged; the actions WriteCombine, FlushSyncFifo and
 * HitWriteCache; the release acknowledgement. */
void qr_l1_release(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now);
release_wait qr_l1_warp_release(memory_system *memory, unsigned cu, unsigned warp, ptx_scope scope, bool begun,
                                int queued_writer, sc_time now);
void qr_l1_warp_exit(memory_system *memory, unsigned cu, unsigned warp, sc_time now);
release_wait qr_l1_cta_barrier_release(memory_system *memory, unsigned cu, unsigned cta, bool begun,
                                       bool write_queued, sc_time now);
void qr_l1_store_buffer_full(memory_system *memory, unsigned cu, sc_time now);
void qr_l1_write_sent(memory_system *memory, unsigned cu);
l1_verdict qr_l1_before_access(memory_system *memory, unsigned cu, const coalesced_line *line, uint32_t op,
                               l1_event *event, sc_time now, sc_error *error);
int qr_l1_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error);
int qr_l1_message(memory_system *memory, uint32_t handle, sc_time now, sc_error *error);

/* ---- below the wL1 (qr_write_path.c) ---- */
/* build and destroy of the wL2 slices and the wL3 (the L2 array writes atomics through). */
void qr_write_path_build(memory_system *memory);
void qr_write_path_destroy(memory_system *memory);
/* Hooks: the wL2 takes a bank's head message before the rL2 does; every atomic performed (and
 * written through) at the rL2 broadcasts an rL1 invalidation; a fill from memory takes the wL3's dirty bytes; a request
 * that waited for that fill is taken afresh when the wL2/wL3 now hold its line; the drain events. */
int qr_bank_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error);
sc_time qr_atomic_performed(memory_system *memory, unsigned bank, uint32_t handle, sc_time when);
void qr_overlay_memory_side(memory_system *memory, uint64_t line_address, uint8_t *data);
bool qr_bank_must_retake(memory_system *memory, unsigned bank, uint32_t handle);
int qr_handle_event(memory_system *memory, const timing_event *event, sc_error *error);
/* Whether a wL1 block of this line written out now would wait at its bank (back-pressure). */
bool qr_bank_refuses_writes(const memory_system *memory, uint64_t line_address);

#endif
