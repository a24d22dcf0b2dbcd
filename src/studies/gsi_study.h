/* gsi_study.h — the GSI reproduction's data (Alsop's MS thesis 2016; digest
 * ../shared/seeds/digests/001-gsi.md §5-§8): the stored runs of `reproduce gsi` read back as GSI
 * stall breakdowns, shared by its figures (gsi_figures.c) and its claims table (gsi_claims.c).
 *
 * Case study 1 is the study's main runs (uts and utsd under wt, the thesis's GPU coherence, and
 * denovo, 15 SMs). Case study 2 is its variants: the implicit microbenchmark on one SM under
 * DeNovo, as scratchpad (`implicit`), scratchpad+DMA (`implicit-dma`) and stash
 * (`implicit-stash`), with the MSHR and the store buffer set together to each size of Fig 6.4's
 * axis, plus scratchpad+DMA with warp-level DMA blocking (an experiment, not a thesis
 * configuration). The tool-overhead measurement (§6.6) is case study 1 again with sim.gsi false. */
#ifndef SYNCSCOPE_STUDIES_GSI_STUDY_H
#define SYNCSCOPE_STUDIES_GSI_STUDY_H

#include "export/strbuf.h"
#include "studies/study.h"

/* Case study 1: workloads and protocols, in the study's order (GPU coherence is the base). */
enum { GSI_UTS, GSI_UTSD, GSI_TASK_WORKLOADS };
enum { GSI_GPU_COHERENCE, GSI_DENOVO, GSI_PROTOCOLS };

/* Case study 2: the local-memory organisations (§4.4-§4.6), and Fig 6.4's MSHR sizes (32, the
 * thesis's baseline, to 256; the sizes between are not in the thesis's text: powers of two). */
enum { GSI_SCRATCHPAD, GSI_SCRATCHPAD_DMA, GSI_STASH, GSI_ORGANISATIONS };
enum { GSI_MSHR_SIZES = 4 };
extern const int gsi_mshr_sizes[GSI_MSHR_SIZES];

/* The parts of a breakdown: the eight categories (§1.2), the memory-data sources (§2.1, with
 * syncscope's L3 and CPU-cache sources, both 0 on the gsi preset unless a CPU cache serves a
 * load) and the memory-structural causes (§2.2). */
enum { GSI_CATEGORIES = 8, GSI_DATA_SOURCES = 7, GSI_STRUCT_CAUSES = 5 };
enum { GSI_FIRST_DATA = GSI_CATEGORIES, GSI_FIRST_STRUCT = GSI_FIRST_DATA + GSI_DATA_SOURCES,
       GSI_PARTS = GSI_FIRST_STRUCT + GSI_STRUCT_CAUSES };

typedef struct gsi_part {
    const char *category;      /* stalls.category */
    const char *subcategory;   /* stalls.subcategory; NULL: the whole category */
} gsi_part;
extern const gsi_part gsi_parts[GSI_PARTS];

/* Indices into gsi_parts. */
enum {
    GSI_PART_NO_STALL = 0, GSI_PART_SYNC = 3, GSI_PART_MEM_DATA = 4, GSI_PART_MEM_STRUCT = 5,
    GSI_PART_L1 = GSI_FIRST_DATA, GSI_PART_L2 = GSI_FIRST_DATA + 2, GSI_PART_REMOTE_L1 = GSI_FIRST_DATA + 3,
    GSI_PART_DRAM = GSI_FIRST_DATA + 5,
    GSI_PART_MSHR_FULL = GSI_FIRST_STRUCT, GSI_PART_BANK_CONFLICT = GSI_FIRST_STRUCT + 2,
    GSI_PART_PENDING_RELEASE = GSI_FIRST_STRUCT + 3, GSI_PART_PENDING_DMA = GSI_FIRST_STRUCT + 4,
};

/* One run: its cycles and its stall cycles per part (the mean over the run's CUs); NAN where no
 * run is stored. */
typedef struct gsi_breakdown {
    double cycles;
    double part[GSI_PARTS];
} gsi_breakdown;

typedef struct gsi_tables {
    const study_runs *runs;
    gsi_breakdown task[GSI_TASK_WORKLOADS][GSI_PROTOCOLS];
    gsi_breakdown implicit[GSI_ORGANISATIONS][GSI_MSHR_SIZES];
    gsi_breakdown dma_warp_blocking;    /* scratchpad+DMA, MSHR 32, local_memory.dma_blocking=warp */
    /* Case study 1's engine CPU seconds: [..][0] with GSI (the main runs), [..][1] sim.gsi false;
     * NAN where no run is stored. */
    double engine_cpu_seconds[GSI_TASK_WORKLOADS][GSI_PROTOCOLS][2];
} gsi_tables;

/* The sum of the breakdown's parts in [first, first + count): with the categories, the cycles
 * GSI charged per CU. */
double gsi_parts_total(const gsi_breakdown *b, int first, int count);

int gsi_figures_write(const gsi_tables *t, const char *directory, sc_error *error);
/* Appends the claims table (markdown) to `out`. */
void gsi_claims_write(const gsi_tables *t, sc_strbuf *out);

#endif
