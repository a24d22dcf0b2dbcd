/* sweep_report.h — what a sweep's stored runs say: for each mechanism and workload the
 * sensitivity of cycles to each parameter (sensitivity.h), printed as a table and drawn as SVG.
 * Reads only the database, so it works the same on a merged set of shard databases; runs that
 * repeat a mechanism x workload of their point (sweep_check.h) fail it rather than skew it. */
#ifndef SYNCSCOPE_STUDIES_SWEEP_REPORT_H
#define SYNCSCOPE_STUDIES_SWEEP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "model/sweep_design.h"
#include "store/store.h"

typedef struct sweep_report_input {
    const sweep_design *design;
    int64_t sweep_id;
    const char *const *mechanisms;
    int mechanism_count;
    const char *const *workloads;
    int workload_count;
} sweep_report_input;

/* Prints the report to `out` and writes the figures into `directory`. */
int sweep_report(sc_store *store, const sweep_report_input *input, const char *directory, FILE *out,
                 sc_error *error);

#endif
