/* quickrelease_study.c — the QuickRelease reproduction (`syncscope reproduce quickrelease`):
 * the paper's workloads we have under no-L1, WT, RFO and QR on the qr-apu preset, read back from
 * the database into tables, then drawn (quickrelease_figures.c) and set against the paper's
 * claims (quickrelease_claims.c). Stencil stands for srad and matmul for matrixmul. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "studies/quickrelease_study.h"
#include "export/output.h"

static const char *const mechanisms[] = {"nol1", "wt", "rfo", "qr", NULL};
static const char *const workloads[] = {"apsp", "sort", "backprop", "bfs", "matmul", "dct", "kmeans", "histogram",
                                        "lud",  "stencil", "spmv", "nw", "nn", "reduction", NULL};
static const char *const scaling_workloads[] = {"nn", "reduction", NULL};

double qr_ratio(double a, double b)
{
    return isfinite(a) && isfinite(b) && b != 0.0 ? a / b : NAN;
}

static double rfo_reuse(const double *hits, const double *loads, int w)
{
    double reuse = qr_ratio(hits[w * QR_MECHANISMS + QR_RFO], loads[w * QR_MECHANISMS + QR_RFO]);
    return isnan(reuse) ? INFINITY : reuse;   /* workloads without an RFO run go last */
}

/* Orders the workloads by their L1 read re-use under RFO, lowest first (Figure 5's x axis). */
static int order_by_reuse(qr_tables *t, sc_error *error)
{
    const study_runs *runs = t->runs;
    double hits[QR_CELLS], loads[QR_CELLS];
    if (study_fetch(runs, runs->size, runs->workloads, runs->workload_count, "l1_hits", hits, error) ||
        study_fetch(runs, runs->size, runs->workloads, runs->workload_count, "l1_load_accesses", loads, error))
        return -1;
    int order[STUDY_MAX_WORKLOADS];
    for (int w = 0; w < runs->workload_count; w++) {
        int at = w;
        while (at > 0 && rfo_reuse(hits, loads, order[at - 1]) > rfo_reuse(hits, loads, w)) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = w;
    }
    t->workload_count = runs->workload_count;
    for (int w = 0; w < t->workload_count; w++)
        t->workloads[w] = runs->workloads[order[w]];
    return 0;
}

static int load_scaling(qr_tables *t, sc_error *error)
{
    const study_runs *runs = t->runs;
    for (int s = 0; s < runs->scaling_size_count; s++) {
        double cycles[QR_CELLS], input[QR_CELLS];
        const char *size = runs->scaling_sizes[s];
        if (study_fetch(runs, size, runs->scaling_workloads, runs->scaling_workload_count, "cycles", cycles, error) ||
            study_fetch(runs, size, runs->scaling_workloads, runs->scaling_workload_count, "host_bytes_in", input,
                        error))
            return -1;
        for (int w = 0; w < runs->scaling_workload_count; w++) {
            memcpy(t->scaling_cycles[w][s], &cycles[w * QR_MECHANISMS], sizeof t->scaling_cycles[w][s]);
            t->scaling_input_bytes[w][s] = input[w * QR_MECHANISMS + QR_NOL1];
        }
    }
    return 0;
}

static int load_tables(qr_tables *t, sc_error *error)
{
    if (order_by_reuse(t, error))
        return -1;
    const struct {
        const char *metric;
        double *values;
    } tables[] = {
        {"cycles", t->cycles},
        {"l1_load_accesses", t->load_accesses},
        {"l1_hits", t->load_hits},
        {"l1_read_hits_modified", t->load_hits_modified},
        {"memory_write_bytes", t->memory_write_bytes},
        {"dram_write_requests", t->dram_writes},
        {"l1_data_bytes_in", t->l1_data_bytes},
        {"l1_coherence_bytes_in", t->l1_coherence_bytes},
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (study_fetch(t->runs, t->runs->size, t->workloads, t->workload_count, tables[i].metric, tables[i].values,
                        error))
            return -1;
    return load_scaling(t, error);
}

static int report(const study_runs *runs, const char *directory, FILE *out, sc_error *error)
{
    qr_tables *t = calloc(1, sizeof *t);
    t->runs = runs;
    int status = load_tables(t, error);
    if (status == 0)
        status = qr_figures_write(t, directory, error);
    if (status == 0) {
        sc_strbuf claims = SC_STRBUF_INIT;
        qr_claims_write(t, &claims);
        status = study_write_claims(&study_quickrelease, runs, "QuickRelease reproduction: the paper's claims and syncscope's measurements", claims.text ? claims.text : "", directory, out, error);
        sc_strbuf_free(&claims);
    }
    free(t);
    return status;
}

const reproduction_study study_quickrelease = {
    .name = "quickrelease",
    .title = "QuickRelease (Hechtman et al., HPCA 2014)",
    .system = "qr-apu",
    /* The paper gives no input sizes; at large, per-launch fixed costs (kernel-end drains and
     * flushes, pipeline fill) no longer dominate (docs/quickrelease-reproduction.md, scaling). */
    .size = "large",
    .mechanisms = mechanisms,
    .workloads = workloads,
    .scaling_workloads = scaling_workloads,
    .report = report,
};
