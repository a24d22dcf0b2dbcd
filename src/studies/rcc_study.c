/* rcc_study.c — the RCC reproduction (`syncscope reproduce rcc`): Ren's chapter 3 experiment on
 * the rcc-gpu preset (Table 3.3) with the Table 3.4 workloads (docs/ren-workloads.md: bfsmask is
 * BFS, kmeans KMN, nw NDL), read back from the database into per-class tables, then drawn
 * (rcc_figures.c: Figures 3.6-3.12) and set against the thesis's claims (rcc_claims.c). The
 * mechanisms are those of the chapter; its variants are MESI with write-back L1s on every
 * workload (the preset's MESI is the thesis's write-through one) and, on the inter-workgroup
 * workloads, RCC without renewal and without the lease predictor (Fig 3.7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "export/output.h"
#include "studies/rcc_study.h"

static const char *const mechanisms[] = {"mesi", "tc-strong", "tc-weak", "rcc", "rcc-wo", NULL};
static const char *const inter_workloads[] = {"bfsmask", "bh", "cl", "dlb", "stn", "vpr", NULL};
static const char *const intra_workloads[] = {"hsp", "kmeans", "lps", "nw", "sr", "lud", NULL};
static const char *const workloads[] = {"bfsmask", "bh", "cl",  "dlb", "stn", "vpr", "hsp",
                                        "kmeans",  "lps", "nw", "sr",  "lud", NULL};
static const char *const no_scaling[] = {NULL};

/* In the order of RCC_VARIANT_*. */
static const study_variant variants[] = {
    {"mesi-write-back", "mesi", (const char *const[]){"mesi.stores=write_back", NULL}, workloads},
    {"rcc-no-renewal", "rcc", (const char *const[]){"rcc.renewal=false", NULL}, inter_workloads},
    {"rcc-no-predictor", "rcc", (const char *const[]){"rcc.lease_predictor=false", NULL}, inter_workloads},
    {NULL, NULL, NULL, NULL},
};

static const char *const quantity_metrics[RCC_QUANTITIES] = {
    "stalls.sync.ordering", "issue_filter_hold_cycles_mean", "l1_load_accesses", "l1_misses",
    "rcc_expired_loads", "rcc_premature_expiries", "noc_bytes",
};

/* The thesis's names of the chapter's mechanisms. */
static const char *label_of(const char *mechanism)
{
    static const char *const names[][2] = {
        {"mesi", "MESI"}, {"tc-strong", "TCS"}, {"tc-weak", "TCW"}, {"rcc", "RCC"}, {"rcc-wo", "RCC-WO"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i][0], mechanism))
            return names[i][1];
    return mechanism;
}

int rcc_mechanism(const rcc_tables *t, const char *name)
{
    return sc_name_index(t->runs->mechanisms, t->mechanism_count, name);
}

double rcc_ratio(double a, double b)
{
    return isfinite(a) && isfinite(b) && b != 0.0 ? a / b : NAN;
}

double rcc_energy_total(const rcc_class_table *c, int cell)
{
    double total = 0;
    for (int p = 0; p < RCC_ENERGY_PARTS; p++)
        total += c->energy[p][cell];
    return total;
}

double rcc_flits_total(const rcc_class_table *c, int cell)
{
    double total = 0;
    for (int k = 0; k < NOC_TRAFFIC_CLASS_COUNT; k++)
        total += c->flits[k][cell];
    return total;
}

/* The class's workloads that this reproduction runs (all, or those of --workloads), in the
 * study's order. */
static void choose_workloads(const study_runs *runs, const char *const *names, rcc_class_table *c)
{
    for (int w = 0; names[w]; w++)
        if (sc_name_index(runs->workloads, runs->workload_count, names[w]) >= 0)
            c->workloads[c->workload_count++] = names[w];
}

static int load_class(const study_runs *runs, rcc_class_table *c, sc_error *error)
{
    static const char *const energy_metrics[RCC_ENERGY_PARTS] = {
        "noc_energy_link_dynamic", "noc_energy_router_dynamic", "noc_energy_link_static", "noc_energy_router_static"};
    if (study_fetch(runs, runs->size, c->workloads, c->workload_count, "cycles", c->cycles, error))
        return -1;
    for (int p = 0; p < RCC_ENERGY_PARTS; p++)
        if (study_fetch(runs, runs->size, c->workloads, c->workload_count, energy_metrics[p], c->energy[p], error))
            return -1;
    for (int k = 0; k < NOC_TRAFFIC_CLASS_COUNT; k++) {
        char metric[32];
        snprintf(metric, sizeof metric, "noc_flits.%s", noc_traffic_class_name((noc_traffic_class)k));
        if (study_fetch(runs, runs->size, c->workloads, c->workload_count, metric, c->flits[k], error))
            return -1;
    }
    for (int q = 0; q < RCC_QUANTITIES; q++)
        if (study_fetch(runs, runs->size, c->workloads, c->workload_count, quantity_metrics[q], c->quantity[q], error))
            return -1;
    for (int v = 0; v < RCC_VARIANTS; v++) {
        if (study_fetch_variant(runs, variants[v].label, c->workloads, c->workload_count, "cycles",
                                c->variant_cycles[v], error))
            return -1;
        for (int q = 0; q < RCC_QUANTITIES; q++)
            if (study_fetch_variant(runs, variants[v].label, c->workloads, c->workload_count, quantity_metrics[q],
                                    c->variant_quantity[v][q], error))
                return -1;
    }
    return 0;
}

static int load_tables(rcc_tables *t, sc_error *error)
{
    const study_runs *runs = t->runs;
    t->mechanism_count = runs->mechanism_count;
    for (int m = 0; m < t->mechanism_count; m++)
        t->labels[m] = label_of(runs->mechanisms[m]);
    choose_workloads(runs, inter_workloads, &t->classes[RCC_INTER]);
    choose_workloads(runs, intra_workloads, &t->classes[RCC_INTRA]);
    for (int c = 0; c < RCC_CLASSES; c++)
        if (load_class(runs, &t->classes[c], error))
            return -1;
    return 0;
}

static int report(const study_runs *runs, const char *directory, FILE *out, sc_error *error)
{
    rcc_tables *t = calloc(1, sizeof *t);
    t->runs = runs;
    int status = load_tables(t, error);
    if (status == 0)
        status = rcc_figures_write(t, directory, error);
    if (status == 0) {
        sc_strbuf claims = SC_STRBUF_INIT;
        rcc_claims_write(t, &claims);
        status = study_write_claims(&study_rcc, runs, "RCC reproduction: the thesis's claims and syncscope's measurements", claims.text ? claims.text : "", directory, out, error);
        sc_strbuf_free(&claims);
    }
    free(t);
    return status;
}

const reproduction_study study_rcc = {
    .name = "rcc",
    .title = "Relativistic Cache Coherence (Ren, PhD thesis 2020, chapter 3)",
    .system = "rcc-gpu",
    /* The thesis gives no input sizes; small runs the whole study in a few minutes. */
    .size = "small",
    .mechanisms = mechanisms,
    .workloads = workloads,
    .scaling_workloads = no_scaling,
    .variants = variants,
    .report = report,
};
