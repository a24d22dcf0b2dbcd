/* qr.h — what the files of the qr module (QuickRelease) share: its configuration (qr_config.c),
 * its protocol for the detailed model (qr_protocol.c) and its analytical model (qr_model.c). Only
 * this folder and its registry entry (qr.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_QR_QR_H
#define SYNCSCOPE_PROTOCOLS_QR_QR_H

#include "config/schema.h"
#include "model/model.h"
#include "timing/memory_internal.h"
#include "timing/protocol.h"

/* QuickRelease's own L1 vocabulary (numbered after the engine's) and messages. The L1's array
 * is the read cache (rL1), its store buffer the write cache (wL1). */
#define QR_VW ((l1_state)L1_STATE_PROTOCOL_FIRST)   /* in the rL1 with its written bit set: the wL1
                                                       holds newer bytes of it */
#define QR_LOAD_WRITE_HIT ((l1_event)L1_EVENT_PROTOCOL_FIRST)   /* a load all of whose bytes are
                                                                   dirty in the wL1 */
#define QR_LOAD_WRITE_PARTIAL ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 1))   /* the wL1 holds the line,
                                                                   but not every byte the load reads */
#define QR_WRITE_EVICT ((l1_event)(L1_EVENT_PROTOCOL_FIRST + 2))   /* the line's wL1 block leaves (wL1
                                                   replacement, or its S-FIFO entry reached the head) */
#define QR_WRITE_COMBINE ((l1_action)L1_ACTION_PROTOCOL_FIRST)   /* the store's bytes into the wL1,
                                                                    its line at the S-FIFO tail */
#define QR_FLUSH_SYNC_FIFO ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 1))   /* a release marker without
        acknowledgement: dequeue the whole S-FIFO, writing out every wL1 block an entry names, and
        send a flush marker to every L2 bank to drain the wL2 slices and the wL3 */
#define QR_HIT_WRITE_CACHE ((l1_action)(L1_ACTION_PROTOCOL_FIRST + 2))   /* deliver the wL1's dirty
                                                           bytes to the load after the L1 latency */
#define QR_MSG_RELEASE_MARKER ((message_type)MSG_PROTOCOL_FIRST)   /* CU -> L2: drain the wL2 slice,
                                                               then the wL3, then acknowledge */
#define QR_MSG_FLUSH_MARKER ((message_type)(MSG_PROTOCOL_FIRST + 1))   /* the same without
                                                       acknowledgement (the store of a StRel) */
#define QR_MSG_RELEASE_ACK ((message_type)(MSG_PROTOCOL_FIRST + 2))   /* L2 -> CU: the marker reached
                                                                  the head of the wL3 */

/* QuickRelease's configuration (its bytes of memory_config.protocol_config): each CU's wL1 and
 * S-FIFO1 (l1.write_cache_size in lines, l1.sync_fifo_entries), each L2 bank's slice of the wL2
 * and S-FIFO2 and the memory-side wL3 and S-FIFO3 (l2.* and l3.write_cache_size,
 * write_cache_associativity and sync_fifo_entries; blocks are sets x ways), the GPU cycles a
 * marker takes through a level (directory.latency), whether a CTA barrier is a release
 * (gpu.barrier_release_scope) and whose (gpu.barrier_release_granularity). */
typedef struct qr_config {
    unsigned write_cache_lines, sync_fifo_entries;
    unsigned wl2_blocks_per_bank, wl2_ways, wl2_fifo_entries_per_bank;
    unsigned wl3_blocks, wl3_ways, wl3_fifo_entries;
    unsigned marker_latency;
    bool barriers_release;     /* gpu.barrier_release_scope global: a barrier is a release */
    bool barrier_release_per_wavefront;   /* gpu.barrier_release_granularity wavefront: each wavefront's
                                             release before it arrives; else one of the work-group when
                                             its last wavefront arrives */
} qr_config;

/* The keys only qr reads (qr_config.c), added to the schema by the registry. */
extern const sc_config_key_table qr_config_keys;

/* Reads and derives `out` for `line_bytes`-byte lines and `l2_banks` banks, failing with the
 * key of a bad value named (qr_config.c). */
int qr_config_derive(const sc_config *config, unsigned line_bytes, unsigned l2_banks, qr_config *out,
                     sc_error *error);
/* The load_config hook: qr_config_derive into memory->protocol_config. */
int qr_load_config(const sc_config *config, const char *mechanism, memory_config *memory, sc_error *error);

static inline const qr_config *qr_config_of(const memory_config *memory)
{
    return (const qr_config *)memory->protocol_config;
}

extern const sc_protocol protocol_qr;
extern const model_mechanism model_qr;

#endif
