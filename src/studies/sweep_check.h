/* sweep_check.h — `db check` and `db repair` for sweeps: every stored design sweep (a
 * reproduction's sweep rows are left alone) checked against its own stored specification. A
 * problem is a point outside the design, a partial point (missing runs of some mechanism x
 * workload pair), a point with duplicated runs, a model sweep's point whose detailed spot checks
 * disagree with the specification, runs in another mode, and a sweep with fewer whole points
 * than its design (interrupted, or one shard's database). */
#ifndef SYNCSCOPE_STUDIES_SWEEP_CHECK_H
#define SYNCSCOPE_STUDIES_SWEEP_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

/* Prints one line per problem to `out` and returns how many, or -1. With `repair` (a writable
 * store) the faulty points are removed with all their runs, one transaction per sweep, and
 * *removed says how many; evaluating the sweep again then stores them whole. */
int sweep_check_store(sc_store *store, FILE *out, bool repair, int64_t *removed, sc_error *error);

#endif
