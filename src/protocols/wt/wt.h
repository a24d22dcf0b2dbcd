/* wt.h — what the files of the wt module (write-through GPU coherence) share: its protocol for the
 * detailed model (wt_protocol.c) and its analytical model (wt_model.c). Only this folder and its
 * registry entry (wt.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_WT_WT_H
#define SYNCSCOPE_PROTOCOLS_WT_WT_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_wt;
extern const model_mechanism model_wt;

#endif
