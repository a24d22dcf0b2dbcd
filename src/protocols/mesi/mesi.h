/* mesi.h — what the files of the mesi module (directory MESI coherence with write-through or
 * write-back L1s) share: its configuration and controllers' tables for the detailed model
 * (mesi_protocol.c) and its analytical model (mesi_model.c). Only this folder and its registry
 * entry (mesi.c) include it. */
#ifndef SYNCSCOPE_PROTOCOLS_MESI_MESI_H
#define SYNCSCOPE_PROTOCOLS_MESI_MESI_H

#include "model/model.h"
#include "protocols/common/directory.h"
#include "timing/protocol.h"

/* Its configuration (memory_config.protocol_config): the directory's, then mesi.stores,
 * mesi.ideal_permissions and mesi.dir_reads. */
typedef struct mesi_config {
    directory_config directory;   /* first: directory_config_of reads it */
    bool write_through;           /* mesi.stores write_through: stores and atomics go to the L2 */
    bool ideal_permissions;       /* mesi.ideal_permissions: a write drops the other copies at once */
    bool concurrent_reads;        /* mesi.dir_reads concurrent: a read joins the line's open read */
} mesi_config;

/* mesi.stores, mesi.ideal_permissions and mesi.dir_reads, the keys only mesi reads. */
extern const sc_config_key_table mesi_config_keys;

extern const sc_protocol protocol_mesi;
extern const model_mechanism model_mesi;

#endif
