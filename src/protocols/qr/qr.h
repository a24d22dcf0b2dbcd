/* qr.h — what the files of the qr module (QuickRelease) share: its protocol for the detailed model
 * (qr_protocol.c) and its analytical model (qr_model.c). Only this folder and its registry entry
 * (qr.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_QR_QR_H
#define SYNCSCOPE_PROTOCOLS_QR_QR_H

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

extern const sc_protocol protocol_qr;
extern const model_mechanism model_qr;

#endif
