/* mesi.h — what the files of the mesi module (write-back L1s with directory MESI coherence)
 * share: its controllers' tables for the detailed model (mesi_protocol.c) and its analytical
 * model (mesi_model.c). Only this folder and its registry entry (mesi.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_MESI_MESI_H
#define SYNCSCOPE_PROTOCOLS_MESI_MESI_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_mesi;
extern const model_mechanism model_mesi;

#endif
