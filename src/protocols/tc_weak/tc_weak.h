/* tc_weak.h — what the files of the tc-weak module (TC-Weak, physical-time lease coherence) share:
 * its protocol for the detailed model (tc_weak_protocol.c) and its analytical model
 * (tc_weak_model.c). Only this folder and its registry entry (tc_weak.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_TC_WEAK_TC_WEAK_H
#define SYNCSCOPE_PROTOCOLS_TC_WEAK_TC_WEAK_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_tc_weak;
extern const model_mechanism model_tc_weak;

#endif
