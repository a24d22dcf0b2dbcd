/* rcc.h — what the files of the rcc module (Relativistic Cache Coherence with SC cores) share: its
 * protocol for the detailed model (rcc_protocol.c) and its analytical model (rcc_model.c). Only
 * this folder and its registry entry (rcc.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_RCC_RCC_H
#define SYNCSCOPE_PROTOCOLS_RCC_RCC_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_rcc;
extern const model_mechanism model_rcc;

#endif
