/* gsi_study.c — the GSI reproduction (`syncscope reproduce gsi`): the thesis's two case studies
 * on the gsi preset (Table 5.1), read back from the database as GSI stall breakdowns
 * (gsi_study.h), then drawn (gsi_figures.c: Figures 6.1-6.4) and set against the thesis's claims
 * (gsi_claims.c). Case study 1 runs uts and utsd under wt (GPU coherence) and denovo on all 15
 * SMs; case study 2 runs implicit (scratchpad), implicit-dma (scratchpad+DMA) and implicit-stash
 * (stash) under denovo on one SM as variants, one per MSHR (= store buffer) size, and implicit-dma
 * once more with warp-level DMA blocking. The tool-overhead measurement (§6.6) runs case study 1
 * once more with sim.gsi false, as a variant per protocol, and compares the engines' CPU time. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/names.h"
#include "studies/gsi_study.h"

static const char *const mechanisms[] = {"wt", "denovo", NULL};
static const char *const workloads[] = {"uts", "utsd", NULL};
static const char *const implicit_workloads[] = {"implicit", "implicit-dma", "implicit-stash", NULL};
static const char *const dma_workload[] = {"implicit-dma", NULL};
static const char *const no_scaling[] = {NULL};
static const char *const gsi_off[] = {"sim.gsi=false", NULL};

const int gsi_mshr_sizes[GSI_MSHR_SIZES] = {32, 64, 128, 256};

/* Case study 2 uses one SM (Table 5.1); Fig 6.4 scales the store buffer with the MSHR (§6.5).
 * In the order of gsi_mshr_sizes, then the warp-blocking experiment. */
#define IMPLICIT_SETS(n) (const char *const[]){"gpu.cu_count=1", "l1.mshrs=" #n, "l1.store_buffer_entries=" #n, NULL}
static const study_variant variants[] = {
    {"implicit-mshr32", "denovo", IMPLICIT_SETS(32), implicit_workloads},
    {"implicit-mshr64", "denovo", IMPLICIT_SETS(64), implicit_workloads},
    {"implicit-mshr128", "denovo", IMPLICIT_SETS(128), implicit_workloads},
    {"implicit-mshr256", "denovo", IMPLICIT_SETS(256), implicit_workloads},
    {"implicit-dma-warp-blocking", "denovo",
     (const char *const[]){"gpu.cu_count=1", "local_memory.dma_blocking=warp", NULL}, dma_workload},
    {"gsi-off-wt", "wt", gsi_off, workloads},            /* in the order of the protocols */
    {"gsi-off-denovo", "denovo", gsi_off, workloads},
    {NULL, NULL, NULL, NULL},
};
enum { WARP_BLOCKING_VARIANT = GSI_MSHR_SIZES, FIRST_GSI_OFF_VARIANT };

const gsi_part gsi_parts[GSI_PARTS] = {
    {"no_stall", NULL}, {"idle", NULL}, {"control", NULL}, {"sync", NULL},
    {"mem_data", NULL}, {"mem_struct", NULL}, {"comp_data", NULL}, {"comp_struct", NULL},
    {"mem_data", "l1"}, {"mem_data", "l1_coalesce"}, {"mem_data", "l2"}, {"mem_data", "remote_l1"},
    {"mem_data", "l3"}, {"mem_data", "dram"}, {"mem_data", "remote"},
    {"mem_struct", "mshr_full"}, {"mem_struct", "store_buffer_full"}, {"mem_struct", "bank_conflict"},
    {"mem_struct", "pending_release"}, {"mem_struct", "pending_dma"},
};

double gsi_parts_total(const gsi_breakdown *b, int first, int count)
{
    double total = 0;
    for (int p = first; p < first + count; p++)
        total += b->part[p];
    return total;
}

/* One quantity of a run list: the main runs (variant NULL) of `names`, or a variant's. */
static int fetch(const study_runs *runs, const char *variant, const char *const *names, int count,
                 const char *metric, double *values, sc_error *error)
{
    return variant ? study_fetch_variant(runs, variant, names, count, metric, values, error)
                   : study_fetch(runs, runs->size, names, count, metric, values, error);
}

/* Whether the reproduction chose the workload (all of the study's, or those of --workloads). */
static bool chosen(const study_runs *runs, const char *workload)
{
    return sc_name_index(runs->workloads, runs->workload_count, workload) >= 0 ||
           sc_name_index(runs->variant_workloads, runs->variant_workload_count, workload) >= 0;
}

/* Fills out[cell] for the cells of one run list (cells = count, or count x mechanisms for the
 * main runs). */
static int load_breakdowns(const study_runs *runs, const char *variant, const char *const *names, int count,
                           gsi_breakdown *out, sc_error *error)
{
    int cells = variant ? count : count * runs->mechanism_count;
    double values[STUDY_MAX_WORKLOADS * STUDY_MAX_MECHANISMS];
    if (fetch(runs, variant, names, count, "cycles", values, error))
        return -1;
    for (int c = 0; c < cells; c++)
        out[c].cycles = values[c];
    for (int p = 0; p < GSI_PARTS; p++) {
        char metric[64];
        if (gsi_parts[p].subcategory)
            snprintf(metric, sizeof metric, "stalls.%s.%s", gsi_parts[p].category, gsi_parts[p].subcategory);
        else
            snprintf(metric, sizeof metric, "stalls.%s", gsi_parts[p].category);
        if (fetch(runs, variant, names, count, metric, values, error))
            return -1;
        for (int c = 0; c < cells; c++)
            out[c].part[p] = values[c];
    }
    for (int c = 0; c < cells; c++)   /* a report on a subset (--workloads) leaves the others out */
        if (!chosen(runs, names[variant ? c : c / runs->mechanism_count])) {
            out[c].cycles = NAN;
            for (int p = 0; p < GSI_PARTS; p++)
                out[c].part[p] = NAN;
        }
    return 0;
}

/* The engines' CPU seconds of case study 1 with GSI (the main runs) and without (the variants). */
static int load_engine_seconds(gsi_tables *t, sc_error *error)
{
    double values[GSI_TASK_WORKLOADS * GSI_PROTOCOLS];
    if (fetch(t->runs, NULL, workloads, GSI_TASK_WORKLOADS, "engine_cpu_seconds", values, error))
        return -1;
    for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
        for (int m = 0; m < GSI_PROTOCOLS; m++)
            t->engine_cpu_seconds[w][m][0] = chosen(t->runs, workloads[w]) ? values[w * GSI_PROTOCOLS + m] : NAN;
    for (int m = 0; m < GSI_PROTOCOLS; m++) {
        if (fetch(t->runs, variants[FIRST_GSI_OFF_VARIANT + m].label, workloads, GSI_TASK_WORKLOADS,
                  "engine_cpu_seconds", values, error))
            return -1;
        for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
            t->engine_cpu_seconds[w][m][1] = chosen(t->runs, workloads[w]) ? values[w] : NAN;
    }
    return 0;
}

static int load_tables(gsi_tables *t, sc_error *error)
{
    if (load_engine_seconds(t, error))
        return -1;
    gsi_breakdown task[GSI_TASK_WORKLOADS * GSI_PROTOCOLS];
    if (load_breakdowns(t->runs, NULL, workloads, GSI_TASK_WORKLOADS, task, error))
        return -1;
    for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
        for (int m = 0; m < GSI_PROTOCOLS; m++)
            t->task[w][m] = task[w * GSI_PROTOCOLS + m];
    for (int n = 0; n < GSI_MSHR_SIZES; n++) {
        gsi_breakdown implicit[GSI_ORGANISATIONS];
        if (load_breakdowns(t->runs, variants[n].label, implicit_workloads, GSI_ORGANISATIONS, implicit, error))
            return -1;
        for (int o = 0; o < GSI_ORGANISATIONS; o++)
            t->implicit[o][n] = implicit[o];
    }
    return load_breakdowns(t->runs, variants[WARP_BLOCKING_VARIANT].label, dma_workload, 1, &t->dma_warp_blocking,
                           error);
}

static int report(const study_runs *runs, const char *directory, FILE *out, sc_error *error)
{
    gsi_tables *t = calloc(1, sizeof *t);
    t->runs = runs;
    int status = load_tables(t, error);
    if (status == 0)
        status = gsi_figures_write(t, directory, error);
    if (status == 0) {
        sc_strbuf claims = SC_STRBUF_INIT;
        gsi_claims_write(t, &claims);
        status = study_write_claims(&study_gsi, runs, "GSI reproduction: the thesis's claims and syncscope's measurements",
                                    claims.text ? claims.text : "", directory, out, error);
        sc_strbuf_free(&claims);
    }
    free(t);
    return status;
}

const reproduction_study study_gsi = {
    .name = "gsi",
    .title = "GSI: A GPU Stall Inspector (Alsop, MS thesis 2016, chapter 6)",
    .system = "gsi",
    /* The thesis gives no input sizes; at large, launch and drain costs no longer dominate UTS. */
    .size = "large",
    .mechanisms = mechanisms,
    .workloads = workloads,
    .scaling_workloads = no_scaling,
    .variant_workloads = implicit_workloads,
    .variants = variants,
    .report = report,
};
