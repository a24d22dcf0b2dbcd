/* quickrelease_study.h — the QuickRelease reproduction's data (Hechtman et al., HPCA 2014; digest
 * ../shared/seeds/digests/000-quickrelease.md §6): the stored runs of `reproduce quickrelease`
 * read back as tables, shared by its figures and its claims table. */
#ifndef SYNCSCOPE_STUDIES_QUICKRELEASE_STUDY_H
#define SYNCSCOPE_STUDIES_QUICKRELEASE_STUDY_H

#include "studies/study.h"
#include "export/strbuf.h"

/* The study's mechanisms, in this order (no-L1 is the paper's normalisation base). */
enum { QR_NOL1, QR_WT, QR_RFO, QR_QR, QR_MECHANISMS };

#define QR_CELLS (STUDY_MAX_WORKLOADS * QR_MECHANISMS)

/* Whole-run values at the main size, [w * QR_MECHANISMS + m], workloads ordered by their L1
 * read re-use under RFO (Figure 4), lowest first; NAN where no run is stored. */
typedef struct qr_tables {
    const study_runs *runs;
    int workload_count;
    const char *workloads[STUDY_MAX_WORKLOADS];
    double cycles[QR_CELLS];
    double load_accesses[QR_CELLS], load_hits[QR_CELLS], load_hits_modified[QR_CELLS];
    double memory_write_bytes[QR_CELLS];   /* writes leaving the GPU L2 level for the memory side */
    double dram_writes[QR_CELLS];          /* write requests sent to DRAM */
    double l1_data_bytes[QR_CELLS], l1_coherence_bytes[QR_CELLS];
    /* scaling figure: [workload][size][mechanism] */
    double scaling_cycles[STUDY_MAX_WORKLOADS][STUDY_MAX_SIZES][QR_MECHANISMS];
    double scaling_input_bytes[STUDY_MAX_WORKLOADS][STUDY_MAX_SIZES];
} qr_tables;

/* a / b per cell, NAN when either is missing or b is 0. */
double qr_ratio(double a, double b);

int qr_figures_write(const qr_tables *t, const char *directory, sc_error *error);
/* Appends the claims table (markdown) to `out`. */
void qr_claims_write(const qr_tables *t, sc_strbuf *out);

#endif
