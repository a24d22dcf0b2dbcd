/* rcc_wo.h — what the files of the rcc-wo module (Relativistic Cache Coherence, weakly ordered)
 * share: its configuration and protocol for the detailed model (rcc_wo_protocol.c) and its
 * analytical model (rcc_wo_model.c). Only this folder and its registry entry (rcc_wo.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_RCC_WO_RCC_WO_H
#define SYNCSCOPE_PROTOCOLS_RCC_WO_RCC_WO_H

#include "model/model.h"
#include "protocols/common/rcc_core.h"
#include "timing/protocol.h"

/* Its configuration (memory_config.protocol_config): RCC's, then rcc.wo_issue. */
typedef struct rcc_wo_config {
    rcc_config rcc;               /* first: the RCC building block reads it */
    bool one_at_a_time;           /* rcc.wo_issue one_at_a_time: the SC core's order, fences kept */
} rcc_wo_config;

/* rcc.wo_issue, the key only rcc-wo reads. */
extern const sc_config_key_table rcc_wo_config_keys;

extern const sc_protocol protocol_rcc_wo;
extern const model_mechanism model_rcc_wo;

#endif
