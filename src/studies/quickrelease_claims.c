/* quickrelease_claims.c — the QuickRelease paper's result claims (digest §6, R1–R26) next to
 * what the reproduction measured, as a markdown table. Each row states the paper's claim, the
 * measured value and a verdict: "agrees" (same direction and, for a number, within 5 percentage
 * points), "direction agrees", or "disagrees"; "no data" when the runs are missing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/statistics.h"
#include "studies/quickrelease_study.h"

static double cell(const qr_tables *t, const double *table, const char *workload, int mechanism)
{
    int w = sc_name_index(t->workloads, t->workload_count, workload);
    return w < 0 ? NAN : table[w * QR_MECHANISMS + mechanism];
}

/* How much faster `fast` is than `slow` on a workload, in percent (cycles_slow / cycles_fast - 1). */
static double gain(const qr_tables *t, const char *workload, int fast, int slow)
{
    return 100.0 * (qr_ratio(cell(t, t->cycles, workload, slow), cell(t, t->cycles, workload, fast)) - 1.0);
}

static double geomean_gain(const qr_tables *t, int fast, int slow)
{
    double ratios[STUDY_MAX_WORKLOADS];
    for (int w = 0; w < t->workload_count; w++)
        ratios[w] = qr_ratio(t->cycles[w * QR_MECHANISMS + slow], t->cycles[w * QR_MECHANISMS + fast]);
    return 100.0 * (sc_geometric_mean(ratios, (size_t)t->workload_count, 1) - 1.0);
}

static void row(sc_strbuf *out, const char *id, const char *claim, const char *verdict, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

static void row(sc_strbuf *out, const char *id, const char *claim, const char *verdict, const char *format, ...)
{
    char measured[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(measured, sizeof measured, format, args);
    va_end(args);
    sc_strbuf_appendf(out, "| %s | %s | %s | %s |\n", id, claim, measured, verdict);
}

static void geomean_rows(const qr_tables *t, sc_strbuf *out)
{
    static const struct {
        const char *id, *claim;
        int fast, slow;
        double paper;
    } claims[] = {
        {"R1", "QR about 7% faster than WT (geomean)", QR_QR, QR_WT, 7.0},
        {"R2", "WT about 5% faster than no-L1 (geomean)", QR_WT, QR_NOL1, 5.0},
        {"R3", "RFO about 6% slower than no-L1 (geomean)", QR_RFO, QR_NOL1, -6.0},
        {"R4", "QR about 20% faster than RFO (geomean)", QR_QR, QR_RFO, 20.0},
    };
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
        double measured = geomean_gain(t, claims[i].fast, claims[i].slow);
        row(out, claims[i].id, claims[i].claim, study_percent_verdict(measured, claims[i].paper), "%+.1f%%", measured);
    }
}

/* "agrees" when all `present` workloads meet a claim, "partly" when some do. */
static const char *count_verdict(int met, int present)
{
    return !present ? "no data" : met == present ? "agrees" : met ? "partly" : "disagrees";
}

static bool gains_at_least_6(double gain_percent)
{
    return gain_percent >= 6.0;
}

static bool within_10(double gain_percent)
{
    return fabs(gain_percent) <= 10.0;
}

/* QR's gain over WT on each of `names` that was run, listed as "name +x.x%" in `text`; counts
 * the workloads present and those whose gain `meets` the claim. */
static void qr_over_wt(const qr_tables *t, const char *const *names, size_t count, bool (*meets)(double),
                       char *text, size_t size, int *met, int *present)
{
    *met = *present = 0;
    snprintf(text, size, "-");
    for (size_t i = 0; i < count; i++) {
        double g = gain(t, names[i], QR_QR, QR_WT);
        if (isnan(g))
            continue;
        size_t used = *present ? strlen(text) : 0;
        snprintf(text + used, size - used, "%s%s %+.1f%%", used ? ", " : "", names[i], g);
        (*present)++;
        *met += meets(g);
    }
}

/* R6: QR over WT on the intermediate re-use ("boxed") workloads but backprop. */
static void boxed_row(const qr_tables *t, sc_strbuf *out)
{
    static const char *const boxed[] = {"apsp", "bfs", "matmul", "dct", "kmeans", "histogram"};
    char text[512];
    int met, present;
    qr_over_wt(t, boxed, sizeof boxed / sizeof boxed[0], gains_at_least_6, text, sizeof text, &met, &present);
    row(out, "R6", "QR beats WT by 6-42% on six of the seven intermediate re-use workloads (all but backprop)",
        count_verdict(met, present), "%s (%d of %d at least +6%%)", text, met, present);
}

/* R8: the run-time ordering on apsp. */
static void apsp_row(const qr_tables *t, sc_strbuf *out)
{
    double rfo = cell(t, t->cycles, "apsp", QR_RFO), qr = cell(t, t->cycles, "apsp", QR_QR),
           wt = cell(t, t->cycles, "apsp", QR_WT);
    row(out, "R8", "apsp run time: RFO < QR < WT", isnan(rfo + qr + wt) ? "no data" : rfo < qr && qr < wt ? "agrees" : "disagrees",
        "RFO %.0f, QR %.0f, WT %.0f cycles", rfo, qr, wt);
}

/* R10: QR about equal to WT where pulling data from the CPU dominates. */
static void pulling_row(const qr_tables *t, sc_strbuf *out)
{
    static const char *const pulling[] = {"backprop", "kmeans", "histogram"};
    char text[512];
    int met, present;
    qr_over_wt(t, pulling, sizeof pulling / sizeof pulling[0], within_10, text, sizeof text, &met, &present);
    row(out, "R10", "backprop, kmeans, histogram: QR about as fast as WT (pulling data from the CPU dominates)",
        count_verdict(met, present), "QR vs WT %s (%d of %d within 10%%)", text, met, present);
}

/* R11: the fastest design on lud, and QR against WT there. */
static void lud_row(const qr_tables *t, sc_strbuf *out)
{
    int fastest = -1;
    double best = INFINITY;
    for (int m = 0; m < QR_MECHANISMS; m++)
        if (cell(t, t->cycles, "lud", m) < best)
            best = cell(t, t->cycles, "lud", m), fastest = m;
    static const char *const names[QR_MECHANISMS] = {"no-L1", "WT", "RFO", "QR"};
    double qr_gain = gain(t, "lud", QR_QR, QR_WT);
    row(out, "R11", "lud: QR slower than WT, no-L1 the fastest design",
        fastest < 0 ? "no data" : fastest == QR_NOL1 && qr_gain < 0 ? "agrees" : qr_gain < 0 || fastest == QR_NOL1 ? "partly" : "disagrees",
        "fastest %s; QR vs WT %+.1f%%", fastest < 0 ? "-" : names[fastest], qr_gain);
}

/* R12: the very high / very low re-use workloads run about equally on no-L1, WT and QR. */
static void similar_row(const qr_tables *t, sc_strbuf *out)
{
    static const char *const extremes[] = {"sort", "stencil", "spmv", "nw"};
    char text[512] = "";
    int similar = 0, present = 0;
    for (size_t i = 0; i < sizeof extremes / sizeof extremes[0]; i++) {
        double low = INFINITY, high = 0;
        for (int m = 0; m < QR_MECHANISMS; m++) {
            double c = cell(t, t->cycles, extremes[i], m);
            if (m == QR_RFO || isnan(c))
                continue;
            low = fmin(low, c), high = fmax(high, c);
        }
        if (!(high > 0))
            continue;
        present++;
        double spread = 100.0 * (high / low - 1.0);
        similar += spread <= 10.0;
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%s %.1f%%", used ? ", " : "", extremes[i], spread);
    }
    row(out, "R12", "sort, srad (stencil), spmv, nw: no-L1, WT and QR perform similarly", count_verdict(similar, present),
        "spread (slowest / fastest - 1): %s", present ? text : "-");
}

/* Arithmetic mean and maximum of a / b over the workloads, and how many are <= 1. */
static void ratio_summary(const qr_tables *t, const double *a, int ma, const double *b, int mb, double *mean,
                          double *max, int *at_most_one, int *count)
{
    double sum = 0;
    *max = 0, *at_most_one = 0, *count = 0;
    for (int w = 0; w < t->workload_count; w++) {
        double r = qr_ratio(a[w * QR_MECHANISMS + ma], b[w * QR_MECHANISMS + mb]);
        if (isnan(r))
            continue;
        sum += r, (*count)++;
        *max = fmax(*max, r);
        *at_most_one += r <= 1.0;
    }
    *mean = *count ? sum / *count : NAN;
}

static void traffic_rows(const qr_tables *t, sc_strbuf *out)
{
    double mean, max;
    int low, count;
    ratio_summary(t, t->memory_write_bytes, QR_QR, t->memory_write_bytes, QR_WT, &mean, &max, &low, &count);
    row(out, "R17", "QR sends less write traffic from the L2 to the directory than WT (Figure 6)",
        !count ? "no data" : low == count ? "agrees" : low ? "partly" : "disagrees",
        "QR/WT write bytes: mean %.2f, max %.2f; %d of %d workloads <= 1", mean, max, low, count);
    ratio_summary(t, t->dram_writes, QR_QR, t->dram_writes, QR_WT, &mean, &max, &low, &count);
    double nn = qr_ratio(cell(t, t->dram_writes, "nn", QR_QR), cell(t, t->dram_writes, "nn", QR_WT));
    double nw = qr_ratio(cell(t, t->dram_writes, "nw", QR_QR), cell(t, t->dram_writes, "nw", QR_WT));
    row(out, "R18", "QR has fewer DRAM writes than WT on most workloads; nn and nw about equal (Figure 7)",
        !count ? "no data" : 2 * low > count ? "agrees" : low ? "partly" : "disagrees",
        "QR/WT DRAM writes: %d of %d workloads <= 1, mean %.2f; nn %.2f, nw %.2f", low, count, mean, nn, nw);
    ratio_summary(t, t->l1_data_bytes, QR_QR, t->l1_data_bytes, QR_WT, &mean, &max, &low, &count);
    row(out, "R19", "QR delivers equal or fewer data bytes to the L1s than WT on almost all workloads (Figure 8)",
        !count ? "no data" : low + 1 >= count ? "agrees" : low ? "partly" : "disagrees",
        "%d of %d workloads <= 1 (QR/WT data bytes mean %.2f)", low, count, mean);
    double total[QR_CELLS];
    for (int i = 0; i < t->workload_count * QR_MECHANISMS; i++)
        total[i] = t->l1_data_bytes[i] + t->l1_coherence_bytes[i];
    ratio_summary(t, total, QR_QR, total, QR_WT, &mean, &max, &low, &count);
    row(out, "R20", "QR's total L1 bytes incl. invalidations: 103% of WT on average, up to 3x (Figure 8)",
        study_percent_verdict(100.0 * (mean - 1.0), 3.0), "mean %.0f%%, max %.1fx", 100.0 * mean, max);
    double hit = qr_ratio(cell(t, t->load_hits, "apsp", QR_WT), cell(t, t->load_accesses, "apsp", QR_WT));
    row(out, "R21", "apsp: WT's L1 hit rate is 0% (LdAcq flushes the L1)",
        isnan(hit) ? "no data" : hit < 0.05 ? "agrees" : "disagrees", "%.1f%%", 100.0 * hit);
}

/* R25: scaling study; R26: the workload with the most read-after-write re-use. */
static void scaling_rows(const qr_tables *t, sc_strbuf *out)
{
    const study_runs *runs = t->runs;
    int last = runs->scaling_size_count - 1;
    for (int w = 0; w < runs->scaling_workload_count && last > 0; w++) {
        const double *small = t->scaling_cycles[w][0], *large = t->scaling_cycles[w][last];
        double small_vs_wt = 100.0 * (qr_ratio(small[QR_WT], small[QR_QR]) - 1.0),
               large_vs_wt = 100.0 * (qr_ratio(large[QR_WT], large[QR_QR]) - 1.0),
               small_vs_rfo = 100.0 * (qr_ratio(small[QR_RFO], small[QR_QR]) - 1.0),
               large_vs_rfo = 100.0 * (qr_ratio(large[QR_RFO], large[QR_QR]) - 1.0);
        char claim[160];
        snprintf(claim, sizeof claim, "%s: similar at small inputs; QR gains on WT and RFO as the input grows (Figure 10)",
                 runs->scaling_workloads[w]);
        bool grows = large_vs_wt > small_vs_wt && large_vs_rfo > small_vs_rfo;
        row(out, "R25", claim, isnan(small_vs_wt + large_vs_wt + small_vs_rfo + large_vs_rfo) ? "no data" : grows ? "agrees" : "disagrees",
            "QR vs WT %+.1f%% (%s) -> %+.1f%% (%s); QR vs RFO %+.1f%% -> %+.1f%%", small_vs_wt,
            runs->scaling_sizes[0], large_vs_wt, runs->scaling_sizes[last], small_vs_rfo, large_vs_rfo);
    }
    int top = -1;
    double best = -1;
    for (int w = 0; w < t->workload_count; w++) {
        double raw = qr_ratio(t->load_hits_modified[w * QR_MECHANISMS + QR_RFO], t->load_accesses[w * QR_MECHANISMS + QR_RFO]);
        if (raw > best)
            best = raw, top = w;
    }
    row(out, "R26", "lud has the highest read-after-write L1 re-use under RFO (Figure 3)",
        top < 0 ? "no data" : !strcmp(t->workloads[top], "lud") ? "agrees" : "disagrees",
        "highest: %s (%.1f%% of L1 load accesses)", top < 0 ? "-" : t->workloads[top], 100.0 * best);
}

static void runtime_table(const qr_tables *t, sc_strbuf *out)
{
    sc_strbuf_append(out, "\n## Run time normalised to no-L1 (Figure 5), workloads by L1 re-use under RFO\n\n"
                          "| workload | RFO L1 re-use | no-L1 cycles | WT | RFO | QR |\n|---|---|---|---|---|---|\n");
    for (int w = 0; w < t->workload_count; w++) {
        const double *c = &t->cycles[w * QR_MECHANISMS];
        sc_strbuf_appendf(out, "| %s | %.1f%% | %.0f | %.3f | %.3f | %.3f |\n", t->workloads[w],
                          100.0 * qr_ratio(t->load_hits[w * QR_MECHANISMS + QR_RFO], t->load_accesses[w * QR_MECHANISMS + QR_RFO]),
                          c[QR_NOL1], qr_ratio(c[QR_WT], c[QR_NOL1]), qr_ratio(c[QR_RFO], c[QR_NOL1]),
                          qr_ratio(c[QR_QR], c[QR_NOL1]));
    }
}

void qr_claims_write(const qr_tables *t, sc_strbuf *out)
{
    sc_strbuf_append(out, "| # | paper | measured | verdict |\n|---|---|---|---|\n");
    geomean_rows(t, out);
    boxed_row(t, out);
    apsp_row(t, out);
    pulling_row(t, out);
    lud_row(t, out);
    similar_row(t, out);
    traffic_rows(t, out);
    scaling_rows(t, out);
    runtime_table(t, out);
}
