/* rcc_wo.h — what the files of the rcc-wo module (Relativistic Cache Coherence, weakly ordered)
 * share: its protocol for the detailed model (rcc_wo_protocol.c) and its analytical model
 * (rcc_wo_model.c). Only this folder and its registry entry (rcc_wo.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_RCC_WO_RCC_WO_H
#define SYNCSCOPE_PROTOCOLS_RCC_WO_RCC_WO_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_rcc_wo;
extern const model_mechanism model_rcc_wo;

#endif
