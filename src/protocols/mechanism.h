/* mechanism.h — the registry of coherence/synchronization mechanisms the CLI can name: the one
 * list of them, each with the protocol tables the detailed model runs it with. Each mechanism
 * of the seeds gets an entry when its protocol lands in src/protocols/. */
#ifndef SYNCSCOPE_PROTOCOLS_MECHANISM_H
#define SYNCSCOPE_PROTOCOLS_MECHANISM_H

#include <stdbool.h>

#include "protocols/protocol.h"

typedef struct sc_mechanism {
    const char *name;          /* CLI name: "wt", "nol1", "rfo" */
    const char *description;   /* one line */
    const char *seed;          /* where it is specified */
    const sc_protocol *protocol;  /* its controllers in the detailed model */
} sc_mechanism;

const sc_mechanism *const *sc_mechanism_list(int *count);
const sc_mechanism *sc_mechanism_find(const char *name);

#endif
