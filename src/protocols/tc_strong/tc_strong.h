/* tc_strong.h — what the files of the tc-strong module (TC-Strong, physical-time lease coherence) share:
 * its protocol for the detailed model (tc_strong_protocol.c) and its analytical model
 * (tc_strong_model.c). Only this folder and its registry entry (tc_strong.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_TC_STRONG_TC_STRONG_H
#define SYNCSCOPE_PROTOCOLS_TC_STRONG_TC_STRONG_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_tc_strong;
extern const model_mechanism model_tc_strong;

#endif
