/* nol1.h — what the files of the nol1 module (the no-L1 baseline) share: its protocol for the
 * detailed model (nol1_protocol.c) and its analytical model (nol1_model.c). Only this folder and
 * its registry entry (nol1.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_NOL1_NOL1_H
#define SYNCSCOPE_PROTOCOLS_NOL1_NOL1_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_nol1;
extern const model_mechanism model_nol1;

#endif
