/* rfo.h — what the files of the rfo module (read-for-ownership MOESI coherence) share: its
 * protocol for the detailed model (rfo_protocol.c) and its analytical model (rfo_model.c). Only
 * this folder and its registry entry (rfo.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_RFO_RFO_H
#define SYNCSCOPE_PROTOCOLS_RFO_RFO_H

#include "model/model.h"
#include "protocols/common/directory.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_rfo;
extern const directory_machine rfo_directory_machine;   /* the directory's table */
extern const model_mechanism model_rfo;

#endif
