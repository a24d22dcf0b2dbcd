/* rfo.h — what the files of the rfo module (read-for-ownership MOESI coherence) share: its
 * protocol for the detailed model (rfo_protocol.c), its own configuration key and its analytical
 * model (rfo_model.c). Only this folder and its registry entry (rfo.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_RFO_RFO_H
#define SYNCSCOPE_PROTOCOLS_RFO_RFO_H

#include "model/model.h"
#include "protocols/common/directory.h"
#include "timing/protocol.h"

/* rfo's configuration (its bytes of memory_config.protocol_config): the directory's, then
 * l1.rfo_cross_kernel. */
typedef struct rfo_config {
    directory_config directory;   /* first: the directory's code reads it as its own */
    bool drop_at_kernel_start;    /* l1.rfo_cross_kernel drop: each L1 writes back and drops every
                                     line when a kernel starts */
} rfo_config;

/* The key only rfo reads (rfo_protocol.c), added to the schema by the registry. */
extern const sc_config_key_table rfo_config_keys;

extern const sc_protocol protocol_rfo;
extern const directory_machine rfo_directory_machine;   /* the directory's table */
extern const model_mechanism model_rfo;

#endif
