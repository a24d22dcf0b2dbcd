/* rcc_study.h — the RCC reproduction's data (Ren's thesis, chapter 3; digest
 * ../shared/seeds/digests/004-ren-part1.md §3.12-§3.14): the stored runs of `reproduce rcc` read
 * back as tables per workload class, shared by its figures (rcc_figures.c) and its claims table
 * (rcc_claims.c). The mechanisms are any of Ren's (mesi first, the normalisation base); a claim
 * whose mechanism is not among them reports no data. */
#ifndef SYNCSCOPE_STUDIES_RCC_STUDY_H
#define SYNCSCOPE_STUDIES_RCC_STUDY_H

#include "export/strbuf.h"
#include "studies/study.h"
#include "timing/noc.h"

/* Ren's two workload classes (Table 3.4). */
enum { RCC_INTER, RCC_INTRA, RCC_CLASSES };

/* The study's variants (rcc_study.c): MESI with write-back L1s (mesi.stores=write_back, beside
 * the thesis's write-through baseline), and RCC without lease renewal or without the lease
 * predictor (Fig 3.7). */
enum { RCC_VARIANT_MESI_WRITE_BACK, RCC_VARIANT_NO_RENEWAL, RCC_VARIANT_NO_PREDICTOR, RCC_VARIANTS };

/* Per-run quantities read for every mechanism and variant. */
enum {
    RCC_ORDERING,       /* GSI sync/ordering stall cycles, mean per CU (Fig 3.9 top) */
    RCC_HOLD_LATENCY,   /* mean cycles from the SC core holding a warp back to letting it go (Fig 3.9 bottom) */
    RCC_LOADS,          /* L1 load accesses */
    RCC_MISSES,         /* L1 misses */
    RCC_EXPIRED,        /* loads that found their L1 copy's lease over (Fig 3.6 left) */
    RCC_PREMATURE,      /* those whose L2 line had not changed (Fig 3.6 right) */
    RCC_NOC_BYTES,      /* NoC bytes (Fig 3.7 left) */
    RCC_QUANTITIES
};

/* Fig 3.11's energy parts, in its legend's order. */
enum { RCC_LINK_DYNAMIC, RCC_ROUTER_DYNAMIC, RCC_LINK_STATIC, RCC_ROUTER_STATIC, RCC_ENERGY_PARTS };

#define RCC_CELLS (STUDY_MAX_WORKLOADS * STUDY_MAX_MECHANISMS)

/* Whole-run values at the main size per class, [w * mechanism_count + m], in the study's
 * mechanism order; NAN where no run is stored. */
typedef struct rcc_class_table {
    int workload_count;
    const char *workloads[STUDY_MAX_WORKLOADS];
    double cycles[RCC_CELLS];
    double energy[RCC_ENERGY_PARTS][RCC_CELLS];          /* nJ */
    double flits[NOC_TRAFFIC_CLASS_COUNT][RCC_CELLS];    /* Fig 3.12's classes */
    double quantity[RCC_QUANTITIES][RCC_CELLS];
    /* the variants' runs, [variant][w]; NAN where a variant does not run the workload */
    double variant_cycles[RCC_VARIANTS][STUDY_MAX_WORKLOADS];
    double variant_quantity[RCC_VARIANTS][RCC_QUANTITIES][STUDY_MAX_WORKLOADS];
} rcc_class_table;

typedef struct rcc_tables {
    const study_runs *runs;
    int mechanism_count;
    const char *labels[STUDY_MAX_MECHANISMS];   /* the thesis's names: MESI, TCS, TCW, RCC, RCC-WO */
    rcc_class_table classes[RCC_CLASSES];
} rcc_tables;

/* The index of mechanism `name` in the study's runs, -1 when it is not among them. */
int rcc_mechanism(const rcc_tables *t, const char *name);
/* a / b, NAN when either is missing or b is 0. */
double rcc_ratio(double a, double b);
/* The sum of the energy parts (or of the traffic classes) of one cell. */
double rcc_energy_total(const rcc_class_table *c, int cell);
double rcc_flits_total(const rcc_class_table *c, int cell);

int rcc_figures_write(const rcc_tables *t, const char *directory, sc_error *error);
/* Appends the claims table (markdown) to `out`. */
void rcc_claims_write(const rcc_tables *t, sc_strbuf *out);

#endif
