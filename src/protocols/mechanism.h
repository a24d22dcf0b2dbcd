/* mechanism.h — the registry of coherence/synchronization mechanisms: the one list of them.
 * Every command (list, run, litmus, tester, calibrate, validate, sweep, compare, reproduce)
 * takes its mechanisms from here. Each mechanism is a module in its own folder,
 * src/protocols/NAME/, whose NAME.c defines its entry `mechanism_NAME` (and whose NAME_params.json
 * holds its model's free parameters); mechanism.c lists it in one line. The configuration keys
 * only a mechanism reads are declared in its folder (or common/) and named by its entry. */
#ifndef SYNCSCOPE_PROTOCOLS_MECHANISM_H
#define SYNCSCOPE_PROTOCOLS_MECHANISM_H

#include <stdbool.h>
#include <stddef.h>

#include "config/schema.h"
#include "model/model.h"
#include "timing/protocol.h"

/* The memory model a mechanism promises, which the litmus tests check it against. */
typedef enum sc_memory_model {
    SC_MODEL_SCOPED = 0,     /* the PTX scoped model: weak and relaxed accesses may be reordered and
                                seen out of order; fences and acquire/release order them at their
                                scope (workloads/litmus.h: a test's ptx_forbids) */
    SC_MODEL_SEQUENTIAL,     /* sequential consistency for every access, fences or not (an SC core,
                                protocols/common/sc_core.h, on a coherent hierarchy) */
    SC_MODEL_COUNT
} sc_memory_model;

/* "ptx" or "sc". */
const char *sc_memory_model_name(sc_memory_model model);

typedef struct sc_mechanism {
    const char *name;          /* CLI name: "wt", "nol1", "rfo" */
    const char *description;   /* one line */
    const char *seed;          /* where it is specified */
    const sc_protocol *protocol;  /* its controllers in the detailed model */
    const model_mechanism *model; /* its analytical model */
    const char *params_file;      /* its model's free parameters (model_param_spec_load), in its folder */
    const sc_config_key_table *config_keys; /* the keys only it reads, declared in its folder or
                                               common/; NULL when it reads only the engine's */
    const sc_config_key_table *block_config_keys; /* the keys of a building block of common/ it
                                                     reads besides its own (NULL: none) */
    sc_memory_model memory_model;  /* what it promises (unset: the PTX scoped model) */
    unsigned virtual_networks;     /* the NoC's virtual networks its messages need to be free of
                                      deadlock, which every router input buffers (noc_energy.h;
                                      unset: the two of a request/response protocol, as Ren's
                                      Table 3.3 has for every mechanism but MESI) */
} sc_mechanism;

/* The virtual networks of a mechanism (its entry's, or two when it leaves them unset). */
unsigned sc_mechanism_virtual_networks(const sc_mechanism *mechanism);

const sc_mechanism *const *sc_mechanism_list(int *count);
const sc_mechanism *sc_mechanism_find(const char *name);

/* Adds every mechanism's own configuration keys to the schema (sc_schema_add_keys), owned by
 * the mechanism. Whoever starts a program that reads configurations calls it first; calling it
 * again does nothing. */
void sc_mechanism_add_config_keys(void);

/* The first mechanism of the registry: what a command runs when none is named. */
const sc_mechanism *sc_mechanism_default(void);

/* Every mechanism's name in registry order, comma-separated ("wt,nol1,..."), into `buffer`
 * (truncated to `size` - 1 characters): the default list of the commands that run several. */
void sc_mechanism_names(char *buffer, size_t size);

/* The protocol of the mechanism named `name` ("wt", "nol1"), or NULL. */
const sc_protocol *sc_protocol_find(const char *name);

/* The analytical model of the mechanism named `name`, or NULL. */
const model_mechanism *model_mechanism_find(const char *name);

#endif
