/* mechanism.h — the registry of coherence/synchronization mechanisms the CLI can name.
 * Each mechanism of the seeds gets an entry when its protocol lands in src/protocols/. */
#ifndef SYNCSCOPE_PROTOCOLS_MECHANISM_H
#define SYNCSCOPE_PROTOCOLS_MECHANISM_H

#include <stdbool.h>

typedef struct sc_mechanism {
    const char *name;          /* CLI name: "wt", "nol1" */
    const char *description;   /* one line */
    const char *seed;          /* where it is specified */
} sc_mechanism;

const sc_mechanism *const *sc_mechanism_list(int *count);
const sc_mechanism *sc_mechanism_find(const char *name);

#endif
