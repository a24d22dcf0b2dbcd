/* rcc_claims.c — the result claims of Ren's chapter 3 (digest 004-ren-part1 §3.14) next to what
 * the reproduction measured, as a markdown table, then the per-workload numbers behind them.
 *
 * A claim compares two mechanisms over one workload class (or both) by a geometric mean over the
 * class's workloads: of cycles (speedup, in percent: slow / fast - 1) or of interconnect energy
 * (saving, in percent: 1 - fast / slow). The verdict is "agrees" (same sign and within 5
 * percentage points, or for a "within N%" claim inside N), "direction agrees", "disagrees", or
 * "no data" when a mechanism is not among the study's or has no runs. Rows marked [D] are not
 * stated by the thesis but derived from its RCC ratios (the arithmetic is in the row), so the
 * mechanisms this build has can be checked against each other; [I] marks the digest's reading of
 * an ambiguous sentence. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/statistics.h"
#include "studies/rcc_study.h"

enum { ALL_CLASSES = RCC_CLASSES };
typedef enum claim_kind { SPEEDUP, SPEEDUP_WITHIN, SAVING, SAVING_WITHIN } claim_kind;

typedef struct claim {
    const char *id, *text;
    int workload_class;        /* RCC_INTER, RCC_INTRA or ALL_CLASSES */
    claim_kind kind;
    const char *fast, *slow;   /* mechanism names */
    double paper;              /* percent; the bound of a "within" claim */
} claim;

static const claim claims[] = {
    {"C1", "RCC +76% over MESI (inter-workgroup, Fig 3.8a)", RCC_INTER, SPEEDUP, "rcc", "mesi", 76},
    {"C2", "RCC +10% over MESI (intra-workgroup, Fig 3.8b)", RCC_INTRA, SPEEDUP, "rcc", "mesi", 10},
    {"C3", "RCC +29% over TCS (inter-workgroup)", RCC_INTER, SPEEDUP, "rcc", "tc-strong", 29},
    {"C4", "RCC within 3% of TCS (intra-workgroup)", RCC_INTRA, SPEEDUP_WITHIN, "rcc", "tc-strong", 3},
    {"C5", "RCC within 7% of TCW, slower (inter-workgroup)", RCC_INTER, SPEEDUP, "rcc", "tc-weak", -7},
    {"C6", "RCC within 3% of TCW (intra-workgroup)", RCC_INTRA, SPEEDUP_WITHIN, "rcc", "tc-weak", 3},
    {"C7", "RCC-WO about equal to TCW (Fig 3.10) [I: within 3%]", ALL_CLASSES, SPEEDUP_WITHIN, "rcc-wo", "tc-weak", 3},
    {"C8", "RCC-WO about 7% faster than RCC-SC (Fig 3.10)", ALL_CLASSES, SPEEDUP, "rcc-wo", "rcc", 7},
    {"E1", "RCC interconnect energy 45% below MESI (inter-workgroup, Fig 3.11a)", RCC_INTER, SAVING, "rcc", "mesi", 45},
    {"E2", "RCC energy 25% below TCS (inter-workgroup)", RCC_INTER, SAVING, "rcc", "tc-strong", 25},
    {"E3", "RCC energy 7% below TCW (inter-workgroup) [I: read literally]", RCC_INTER, SAVING, "rcc", "tc-weak", 7},
    {"E4", "RCC energy 25% below MESI (intra-workgroup, Fig 3.11b)", RCC_INTRA, SAVING, "rcc", "mesi", 25},
    {"E5", "RCC energy on par with TCS (intra-workgroup) [I: within 5%]", RCC_INTRA, SAVING_WITHIN, "rcc",
     "tc-strong", 5},
    {"E6", "RCC energy on par with TCW (intra-workgroup) [I: within 5%]", RCC_INTRA, SAVING_WITHIN, "rcc", "tc-weak",
     5},
    {"D1", "[D] TCS +36% over MESI (inter; 1.76 / 1.29 from C1, C3)", RCC_INTER, SPEEDUP, "tc-strong", "mesi", 36.4},
    {"D2", "[D] TCW +89% over MESI (inter; 1.76 / 0.93 from C1, C5)", RCC_INTER, SPEEDUP, "tc-weak", "mesi", 89.2},
    {"D3", "[D] TCW +39% over TCS (inter; 1.29 / 0.93 from C3, C5)", RCC_INTER, SPEEDUP, "tc-weak", "tc-strong", 38.7},
    {"D4", "[D] TCS about +10% over MESI (intra; C2 with C4)", RCC_INTRA, SPEEDUP, "tc-strong", "mesi", 10},
    {"D5", "[D] TCW about +10% over MESI (intra; C2 with C6)", RCC_INTRA, SPEEDUP, "tc-weak", "mesi", 10},
    {"D6", "[D] TCS energy 27% below MESI (inter; 1 - 0.55 / 0.75 from E1, E2)", RCC_INTER, SAVING, "tc-strong",
     "mesi", 26.7},
    {"D7", "[D] TCW energy 41% below MESI (inter; 1 - 0.55 / 0.93 from E1, E3)", RCC_INTER, SAVING, "tc-weak", "mesi",
     40.9},
    {"D8", "[D] TCS energy about 25% below MESI (intra; E4 with E5)", RCC_INTRA, SAVING, "tc-strong", "mesi", 25},
    {"D9", "[D] TCW energy about 25% below MESI (intra; E4 with E6)", RCC_INTRA, SAVING, "tc-weak", "mesi", 25},
};

static const char *const class_names[ALL_CLASSES + 1] = {"inter", "intra", "all"};

/* The geometric mean over the claim's workloads of slow's value over fast's (cycles) or fast's
 * over slow's (energy); NAN without data. */
static double geomean_ratio(const rcc_tables *t, const claim *c, int fast, int slow)
{
    double ratios[RCC_CLASSES * STUDY_MAX_WORKLOADS];
    size_t count = 0;
    for (int k = 0; k < RCC_CLASSES; k++) {
        if (c->workload_class != ALL_CLASSES && c->workload_class != k)
            continue;
        const rcc_class_table *table = &t->classes[k];
        for (int w = 0; w < table->workload_count; w++) {
            int f = w * t->mechanism_count + fast, s = w * t->mechanism_count + slow;
            ratios[count++] = c->kind == SPEEDUP || c->kind == SPEEDUP_WITHIN
                                  ? rcc_ratio(table->cycles[s], table->cycles[f])
                                  : rcc_ratio(rcc_energy_total(table, f), rcc_energy_total(table, s));
        }
    }
    return sc_geometric_mean(ratios, count, 1);
}

static const char *verdict(const claim *c, double measured)
{
    if (isnan(measured))
        return "no data";
    if (c->kind == SPEEDUP_WITHIN || c->kind == SAVING_WITHIN)
        return fabs(measured) <= c->paper ? "agrees" : "disagrees";
    if ((measured > 0) != (c->paper > 0))
        return "disagrees";
    return fabs(measured - c->paper) <= 5.0 ? "agrees" : "direction agrees";
}

static void claim_row(const rcc_tables *t, const claim *c, sc_strbuf *out)
{
    int fast = rcc_mechanism(t, c->fast), slow = rcc_mechanism(t, c->slow);
    if (fast < 0 || slow < 0) {
        sc_strbuf_appendf(out, "| %s | %s | %s is not among the study's mechanisms | no data |\n", c->id, c->text,
                          fast < 0 ? c->fast : c->slow);
        return;
    }
    double ratio = geomean_ratio(t, c, fast, slow);
    bool speedup = c->kind == SPEEDUP || c->kind == SPEEDUP_WITHIN;
    double measured = speedup ? 100.0 * (ratio - 1.0) : 100.0 * (1.0 - ratio);
    sc_strbuf_appendf(out, "| %s | %s | %s %s %s: %+.1f%% (geomean, %s) | %s |\n", c->id, c->text,
                      t->labels[fast], speedup ? "speedup over" : "energy saving against", t->labels[slow], measured,
                      class_names[c->workload_class], verdict(c, measured));
}

/* The causes the thesis gives for the energy gap (less traffic, 2 virtual networks instead of
 * 5): per mechanism, its flits and its router static energy over MESI's (geomean, inter). */
static void cause_row(const rcc_tables *t, sc_strbuf *out)
{
    int mesi = rcc_mechanism(t, "mesi");
    const rcc_class_table *table = &t->classes[RCC_INTER];
    sc_strbuf_appendf(out, "| E7 | The energy gap comes partly from less traffic (Fig 3.12), partly from 2 virtual "
                           "networks instead of MESI's 5 | ");
    for (int m = 0; m < t->mechanism_count && mesi >= 0; m++) {
        if (m == mesi)
            continue;
        double flits[STUDY_MAX_WORKLOADS], router_static[STUDY_MAX_WORKLOADS];
        for (int w = 0; w < table->workload_count; w++) {
            int cell = w * t->mechanism_count + m, base = w * t->mechanism_count + mesi;
            flits[w] = rcc_ratio(rcc_flits_total(table, cell), rcc_flits_total(table, base));
            router_static[w] = rcc_ratio(table->energy[RCC_ROUTER_STATIC][cell], table->energy[RCC_ROUTER_STATIC][base]);
        }
        sc_strbuf_appendf(out, "%s: flits x%.2f, router static energy x%.2f of MESI's; ", t->labels[m],
                          sc_geometric_mean(flits, (size_t)table->workload_count, 1),
                          sc_geometric_mean(router_static, (size_t)table->workload_count, 1));
    }
    sc_strbuf_appendf(out, "(geomean, inter) | no number in the thesis |\n");
}

static void speedup_table(const rcc_tables *t, sc_strbuf *out)
{
    int mesi = rcc_mechanism(t, "mesi");
    sc_strbuf_append(out, "\n## Speedup over MESI (Figure 3.8)\n\n| class | workload | MESI cycles |");
    for (int m = 0; m < t->mechanism_count; m++)
        sc_strbuf_appendf(out, " %s |", t->labels[m]);
    sc_strbuf_append(out, "\n|---|---|---|");
    for (int m = 0; m < t->mechanism_count; m++)
        sc_strbuf_append(out, "---|");
    sc_strbuf_append(out, "\n");
    for (int k = 0; k < RCC_CLASSES; k++) {
        const rcc_class_table *table = &t->classes[k];
        for (int w = 0; w < table->workload_count; w++) {
            const double *cycles = &table->cycles[w * t->mechanism_count];
            sc_strbuf_appendf(out, "| %s | %s | %.0f |", class_names[k], table->workloads[w],
                              mesi < 0 ? NAN : cycles[mesi]);
            for (int m = 0; m < t->mechanism_count; m++)
                sc_strbuf_appendf(out, " %.3f |", mesi < 0 ? NAN : rcc_ratio(cycles[mesi], cycles[m]));
            sc_strbuf_append(out, "\n");
        }
    }
}

static void energy_traffic_table(const rcc_tables *t, sc_strbuf *out)
{
    int mesi = rcc_mechanism(t, "mesi");
    sc_strbuf_append(out, "\n## Interconnect energy and traffic normalised to MESI (Figures 3.11, 3.12)\n\n"
                          "| class | workload | mechanism | energy (nJ) | energy / MESI | static share | flits / MESI |"
                          " LD | ST | ATO | REQ | INV | RCL |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < RCC_CLASSES; k++) {
        const rcc_class_table *table = &t->classes[k];
        for (int w = 0; w < table->workload_count; w++)
            for (int m = 0; m < t->mechanism_count; m++) {
                int cell = w * t->mechanism_count + m, base = w * t->mechanism_count + (mesi < 0 ? m : mesi);
                double energy = rcc_energy_total(table, cell), flits = rcc_flits_total(table, cell);
                double base_flits = mesi < 0 ? NAN : rcc_flits_total(table, base);
                sc_strbuf_appendf(out, "| %s | %s | %s | %.1f | %.3f | %.3f | %.3f |", class_names[k],
                                  table->workloads[w], t->labels[m], energy,
                                  mesi < 0 ? NAN : rcc_ratio(energy, rcc_energy_total(table, base)),
                                  rcc_ratio(table->energy[RCC_LINK_STATIC][cell] + table->energy[RCC_ROUTER_STATIC][cell],
                                            energy),
                                  rcc_ratio(flits, base_flits));
                for (int c = 0; c < NOC_TRAFFIC_CLASS_COUNT; c++)
                    sc_strbuf_appendf(out, " %.3f |", rcc_ratio(table->flits[c][cell], base_flits));
                sc_strbuf_append(out, "\n");
            }
    }
}

void rcc_claims_write(const rcc_tables *t, sc_strbuf *out)
{
    sc_strbuf_append(out, "| # | thesis | measured | verdict |\n|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++)
        claim_row(t, &claims[i], out);
    cause_row(t, out);
    speedup_table(t, out);
    energy_traffic_table(t, out);
}
