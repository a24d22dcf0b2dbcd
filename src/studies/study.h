/* study.h — reproductions of a seed paper's results (`syncscope reproduce STUDY`).
 *
 * A study names a system preset, the mechanisms and workloads of the paper's main figures, and
 * the workloads of its problem-size scaling figure. Running it stores every run in the database
 * tied to a sweep named "reproduce-STUDY" with one point per size class, so the figures, the
 * claims table and any later SQL read the same rows; the study's report function draws the
 * figures and prints the paper's claims next to the measured values.
 */
#ifndef SYNCSCOPE_STUDIES_STUDY_H
#define SYNCSCOPE_STUDIES_STUDY_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "store/store.h"

#define STUDY_MAX_WORKLOADS 32
#define STUDY_MAX_MECHANISMS 8
#define STUDY_MAX_SIZES 3

/* The runs a report reads: workloads x mechanisms at the main size, the scaling workloads x
 * mechanisms at each scaling size, and the variants' runs of the workloads and the variant
 * workloads. */
typedef struct study_runs {
    sc_store *store;
    int64_t sweep_id;
    const char *size;                                  /* main size class */
    const char *workloads[STUDY_MAX_WORKLOADS];
    int workload_count;
    const char *mechanisms[STUDY_MAX_MECHANISMS];
    int mechanism_count;
    const char *scaling_workloads[STUDY_MAX_WORKLOADS];
    int scaling_workload_count;
    const char *scaling_sizes[STUDY_MAX_SIZES];
    int scaling_size_count;
    const char *variant_workloads[STUDY_MAX_WORKLOADS];   /* run only by the variants */
    int variant_workload_count;
} study_runs;

/* A variant of the study: one of its mechanisms under configuration overrides, run at the main
 * size on those of `workloads` the reproduction runs, and stored at a sweep point of its own
 * (params {"size": ..., "variant": label}), so that the main figures never read it. */
typedef struct study_variant {
    const char *label;                 /* e.g. "rcc-no-renewal" */
    const char *mechanism;
    const char *const *sets;           /* NULL-terminated "key=value" overrides */
    const char *const *workloads;      /* NULL-terminated */
} study_variant;

typedef struct reproduction_study {
    const char *name;                  /* CLI name */
    const char *title;                 /* the paper */
    const char *system;                /* preset */
    const char *size;                  /* the main figures' default input size */
    const char *const *mechanisms;     /* NULL-terminated; the first is the normalisation base */
    const char *const *workloads;      /* NULL-terminated, main figures */
    const char *const *scaling_workloads;  /* NULL-terminated, scaling figure */
    const char *const *variant_workloads;  /* NULL-terminated workloads only variants run; NULL: none */
    const study_variant *variants;     /* ended by one with a NULL label; NULL: none */
    /* Writes the figures and the claims table (claims.md) into `directory`, prints the claims. */
    int (*report)(const study_runs *runs, const char *directory, FILE *out, sc_error *error);
} reproduction_study;

/* The studies (quickrelease_study.c, rcc_study.c, gsi_study.c). */
extern const reproduction_study study_quickrelease, study_rcc, study_gsi;

const reproduction_study *study_find(const char *name);
/* "name — title" lines of every study, for --help. */
void study_print_list(FILE *out);

/* values[w * mechanism_count + m]: `metric` of the latest ok run of workloads[w] under
 * mechanisms[m] at `size` in the study's sweep (not a variant's); NAN when there is none. A
 * metric is "cycles", a whole-run metric name, "stalls.CATEGORY.SUBCATEGORY": the GSI stall
 * cycles of that row, the mean over CUs ("stalls.sync.ordering"), or "stalls.CATEGORY": the sum
 * of the category's rows ("stalls.no_stall", "stalls.mem_data"). */
int study_fetch(const study_runs *runs, const char *size, const char *const *workloads, int workload_count,
                const char *metric, double *values, sc_error *error);

/* values[w]: the same for the variant labelled `variant` at the main size. */
int study_fetch_variant(const study_runs *runs, const char *variant, const char *const *workloads,
                        int workload_count, const char *metric, double *values, sc_error *error);

/* a / b, NAN when either is missing or b is 0. */
double study_ratio(double a, double b);

/* The verdict on a measured change of `measured` percent against a paper's `paper` percent:
 * "agrees" with the same sign and within 5 percentage points, "direction agrees" with the same
 * sign, "disagrees" otherwise, "no data" when measured is NAN. */
const char *study_percent_verdict(double measured, double paper);

/* Writes DIRECTORY/claims.md: `heading`, a line naming the study's preset, size and sweep, then
 * `claims` (the table of claims), and prints it to `out` with where the files went. */
int study_write_claims(const reproduction_study *study, const study_runs *runs, const char *heading,
                       const char *claims, const char *directory, FILE *out, sc_error *error);

#endif
