/* tc_weak.h — what the files of the tc-weak module (TC-Weak, physical-time lease coherence) share:
 * its configuration and protocol for the detailed model (tc_weak_protocol.c) and its analytical
 * model (tc_weak_model.c). Only this folder and its registry entry (tc_weak.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_TC_WEAK_TC_WEAK_H
#define SYNCSCOPE_PROTOCOLS_TC_WEAK_TC_WEAK_H

#include "model/model.h"
#include "protocols/common/lease.h"
#include "timing/protocol.h"

/* Its configuration (memory_config.protocol_config): the lease building block's, then tc.weak_issue. */
typedef struct tc_weak_config {
    lease_config lease;           /* first: the lease building block reads it */
    bool one_at_a_time;           /* tc.weak_issue one_at_a_time: the SC core's order, fences kept */
} tc_weak_config;

/* tc.weak_issue, the key only tc-weak reads. */
extern const sc_config_key_table tc_weak_config_keys;

extern const sc_protocol protocol_tc_weak;
extern const model_mechanism model_tc_weak;

#endif
