/* ownership_model.h — the analytical model's side of the ownership protocols that run the
 * full-map directory (directory.h): where rfo (MOESI) and mesi serve each line request. The two
 * differ only in the choices below, so each module's model file is one call of
 * ownership_serve. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_OWNERSHIP_MODEL_H
#define SYNCSCOPE_PROTOCOLS_COMMON_OWNERSHIP_MODEL_H

#include <stdbool.h>

#include "model/model_core.h"

typedef struct ownership_choices {
    /* The memory-side L3 is write-back and takes the L2's victims (rfo's build sets
     * memory_system.l3_writable); otherwise GPU writes pass it to DRAM (updating its copies in
     * place: it holds the written lines either way, ownership_model.c). */
    bool l3_takes_writes;
    /* A read of another CU's modified line writes the owner's data home and leaves both copies
     * shared (MESI's M -> S); otherwise the owner keeps the dirty line (MOESI's M -> O) and
     * answers every later read of it. */
    bool read_writes_home;
} ownership_choices;

void ownership_serve(const model_kernel_profile *k, const model_point *p, ownership_choices choices,
                     model_demand *out);

/* The point's terms these models read (ownership_load_point); a model that adds its own
 * numbers to the point puts them from OWNERSHIP_TERM_COUNT on. */
enum { OWNERSHIP_TERM_FORWARD_LATENCY, OWNERSHIP_TERM_COUNT };

/* The point's term these models add (their load_point): a read the directory forwards to the
 * owner takes directory.latency before the forward leaves, and the owner's answer (a line) comes
 * back over the NoC. */
int ownership_load_point(const sc_config *config, model_point *point, sc_error *error);

#endif
