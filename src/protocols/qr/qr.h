/* qr.h — what the files of the qr module (QuickRelease) share: its protocol for the detailed model
 * (qr_protocol.c) and its analytical model (qr_model.c). Only this folder and its registry entry
 * (qr.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_QR_QR_H
#define SYNCSCOPE_PROTOCOLS_QR_QR_H

#include "model/model.h"
#include "timing/protocol.h"

extern const sc_protocol protocol_qr;
extern const model_mechanism model_qr;

#endif
