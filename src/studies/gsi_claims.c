/* gsi_claims.c — the results of the GSI thesis's chapter 6 (digest 001-gsi §6) next to what the
 * reproduction measured, as a markdown table, then every run's breakdown behind them.
 *
 * Stall cycles are GSI's per-SM means (the thesis's figures are normalised, so sum or mean does
 * not matter, §1.6 point 7); a share is a category's cycles over the run's GSI total. Verdicts:
 *   - a change in percent: "agrees" with the same sign and within 5 percentage points, "direction
 *     agrees" with the same sign, else "disagrees";
 *   - a factor (x13): "agrees" within 10% of the factor, "direction agrees" above 1, else
 *     "disagrees";
 *   - a share of execution time: "agrees" within 3 percentage points;
 *   - a statement: "agrees" or "disagrees" by the test the row names; [I] marks the digest's or
 *     this file's reading of a statement the thesis gives no number for.
 * "no data" means a run the row needs is not stored (e.g. --workloads left it out). The
 * tool-overhead row (O1, §6.6) compares the engines' CPU time, a measurement of the machine that
 * ran the study: it varies between invocations by a few points. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "studies/gsi_study.h"

static const char *const protocol_names[GSI_PROTOCOLS] = {"GPU coherence", "DeNovo"};
static const char *const organisation_names[GSI_ORGANISATIONS] = {"scratchpad", "scratchpad+DMA", "stash"};

static double total(const gsi_breakdown *b)
{
    return isnan(b->cycles) ? NAN : gsi_parts_total(b, 0, GSI_CATEGORIES);
}

/* Part p of b as a share of b's GSI total, in percent. */
static double share(const gsi_breakdown *b, int p)
{
    return 100.0 * study_ratio(b->part[p], total(b));
}

/* a over b minus one, in percent. */
static double change(double a, double b)
{
    return 100.0 * (study_ratio(a, b) - 1.0);
}

static const char *factor_verdict(double measured, double paper)
{
    if (isnan(measured))
        return "no data";
    if (!(measured > 1.0))
        return "disagrees";
    return fabs(measured / paper - 1.0) <= 0.1 ? "agrees" : "direction agrees";
}

/* The verdict of a statement tested by `holds`, given whether its numbers exist. */
static const char *test_verdict(bool known, bool holds)
{
    return !known ? "no data" : holds ? "agrees" : "disagrees";
}

/* The largest of the eight categories of b (its index), -1 without data. */
static int largest_category(const gsi_breakdown *b)
{
    int largest = -1;
    for (int c = 0; c < GSI_CATEGORIES && !isnan(b->cycles); c++)
        if (largest < 0 || b->part[c] > b->part[largest])
            largest = c;
    return largest;
}

static const char *part_name(int p)
{
    return gsi_parts[p].subcategory ? gsi_parts[p].subcategory : gsi_parts[p].category;
}

/* §6.1: UTS under both protocols. */
static void uts_rows(const gsi_tables *t, sc_strbuf *out)
{
    const gsi_breakdown *gpu = &t->task[GSI_UTS][GSI_GPU_COHERENCE], *denovo = &t->task[GSI_UTS][GSI_DENOVO];
    int largest[GSI_PROTOCOLS] = {largest_category(gpu), largest_category(denovo)};
    bool known = largest[0] >= 0 && largest[1] >= 0;
    sc_strbuf_appendf(out, "| U1 | UTS: synchronization stalls dominate under both protocols (§6.1) [I: SYNC is the "
                           "largest of the eight categories] | largest category: GPU coherence %s (SYNC %.1f%%), DeNovo "
                           "%s (SYNC %.1f%%) | %s |\n",
                      known ? part_name(largest[0]) : "-", share(gpu, GSI_PART_SYNC), known ? part_name(largest[1]) : "-",
                      share(denovo, GSI_PART_SYNC),
                      test_verdict(known, known && largest[0] == GSI_PART_SYNC && largest[1] == GSI_PART_SYNC));
    double delta = change(denovo->cycles, gpu->cycles);
    sc_strbuf_appendf(out, "| U2 | UTS: very little overall difference between the protocols (no number) [I: within "
                           "5%%] | DeNovo / GPU coherence cycles: %+.1f%% | %s |\n",
                      delta, test_verdict(!isnan(delta), fabs(delta) <= 5.0));
    double memory[GSI_PROTOCOLS] = {share(gpu, GSI_PART_MEM_DATA) + share(gpu, GSI_PART_MEM_STRUCT),
                                    share(denovo, GSI_PART_MEM_DATA) + share(denovo, GSI_PART_MEM_STRUCT)};
    sc_strbuf_appendf(out, "| U3 | UTS: memory time is small (no number) [I: MEM_DATA + MEM_STRUCT under 10%% of the "
                           "time] | GPU coherence %.1f%%, DeNovo %.1f%% | %s |\n",
                      memory[0], memory[1],
                      test_verdict(!isnan(memory[0]) && !isnan(memory[1]), memory[0] < 10.0 && memory[1] < 10.0));
    static const struct {
        const char *id, *text;
        int part;
    } more[] = {
        {"U4", "UTS: DeNovo shows more REMOTE_L1 data stalls than GPU coherence (load redirection)", GSI_PART_REMOTE_L1},
        {"U5", "UTS: DeNovo shows more PENDING_RELEASE structural stalls (ownership requests redirected)",
         GSI_PART_PENDING_RELEASE},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        double g = gpu->part[more[i].part], d = denovo->part[more[i].part];
        sc_strbuf_appendf(out, "| %s | %s | %s cycles per SM: GPU coherence %.0f, DeNovo %.0f | %s |\n", more[i].id,
                          more[i].text, part_name(more[i].part), g, d, test_verdict(!isnan(g) && !isnan(d), d > g));
    }
}

/* §6.2: UTSD against UTS. */
static void utsd_vs_uts_rows(const gsi_tables *t, sc_strbuf *out)
{
    static const double paper[GSI_PROTOCOLS] = {-91, -94};
    for (int m = 0; m < GSI_PROTOCOLS; m++) {
        double delta = change(t->task[GSI_UTSD][m].cycles, t->task[GSI_UTS][m].cycles);
        sc_strbuf_appendf(out, "| S%d | UTSD %.0f%% execution time against UTS (%s, §6.2) | UTSD / UTS cycles: %+.1f%% | "
                               "%s |\n", m + 1, paper[m], protocol_names[m], delta, study_percent_verdict(delta, paper[m]));
    }
    sc_strbuf_append(out, "| S3 | The reduction comes from far fewer SYNC and NO_STALL cycles [I: they account for "
                          "more than half of it] | ");
    bool known = true, holds = true;
    for (int m = 0; m < GSI_PROTOCOLS; m++) {
        const gsi_breakdown *uts = &t->task[GSI_UTS][m], *utsd = &t->task[GSI_UTSD][m];
        double fall = total(uts) - total(utsd);
        double part = uts->part[GSI_PART_SYNC] + uts->part[GSI_PART_NO_STALL] - utsd->part[GSI_PART_SYNC] -
                      utsd->part[GSI_PART_NO_STALL];
        double fraction = 100.0 * study_ratio(part, fall);
        known &= !isnan(fraction);
        holds &= fraction > 50.0;
        sc_strbuf_appendf(out, "%s: SYNC + NO_STALL make %.1f%% of the fall; ", protocol_names[m], fraction);
    }
    sc_strbuf_appendf(out, "| %s |\n", test_verdict(known, holds));
    sc_strbuf_append(out, "| S4 | UTSD raises the relative share of memory stalls | MEM_DATA + MEM_STRUCT share, UTS -> "
                          "UTSD: ");
    known = true, holds = true;
    for (int m = 0; m < GSI_PROTOCOLS; m++) {
        double before = share(&t->task[GSI_UTS][m], GSI_PART_MEM_DATA) + share(&t->task[GSI_UTS][m], GSI_PART_MEM_STRUCT);
        double after = share(&t->task[GSI_UTSD][m], GSI_PART_MEM_DATA) + share(&t->task[GSI_UTSD][m], GSI_PART_MEM_STRUCT);
        known &= !isnan(before) && !isnan(after);
        holds &= after > before;
        sc_strbuf_appendf(out, "%s %.1f%% -> %.1f%%; ", protocol_names[m], before, after);
    }
    sc_strbuf_appendf(out, "| %s |\n", test_verdict(known, holds));
}

/* The share of the fall of `whole` (GPU coherence minus DeNovo) that `part` accounts for, in
 * percent; NAN when `whole` does not fall. */
static double share_of_fall(const gsi_breakdown *gpu, const gsi_breakdown *denovo, int whole, int part)
{
    double fall = gpu->part[whole] - denovo->part[whole];
    return fall > 0 ? 100.0 * (gpu->part[part] - denovo->part[part]) / fall : NAN;
}

/* A row saying how much of the fall of `whole` `part` makes; "disagrees" when `whole` does not
 * fall. */
static void fall_row(sc_strbuf *out, const char *id, const char *text, const gsi_breakdown *gpu,
                     const gsi_breakdown *denovo, int whole, int part)
{
    double fraction = share_of_fall(gpu, denovo, whole, part);
    if (isnan(fraction))
        sc_strbuf_appendf(out, "| %s | %s | %s does not fall (GPU coherence %.0f, DeNovo %.0f cycles per SM) | %s |\n", id,
                          text, part_name(whole), gpu->part[whole], denovo->part[whole],
                          test_verdict(!isnan(gpu->part[whole] - denovo->part[whole]), false));
    else
        sc_strbuf_appendf(out, "| %s | %s | %s makes %.1f%% of the %s fall | %s |\n", id, text, part_name(part), fraction,
                          part_name(whole), test_verdict(true, fraction > 50.0));
}

/* §6.3 (Fig 6.2): UTSD, DeNovo against GPU coherence. */
static void utsd_rows(const gsi_tables *t, sc_strbuf *out)
{
    const gsi_breakdown *gpu = &t->task[GSI_UTSD][GSI_GPU_COHERENCE], *denovo = &t->task[GSI_UTSD][GSI_DENOVO];
    static const struct {
        const char *id, *text;
        int part;              /* -1: cycles */
        double paper;
    } changes[] = {
        {"D1", "UTSD: DeNovo's memory structural stall cycles -71% against GPU coherence (Fig 6.2)", GSI_PART_MEM_STRUCT,
         -71},
        {"D2", "UTSD: DeNovo's memory data stall cycles -57%", GSI_PART_MEM_DATA, -57},
        {"D3", "UTSD: DeNovo's execution time -28%", -1, -28},
    };
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
        int p = changes[i].part;
        double delta = p < 0 ? change(denovo->cycles, gpu->cycles) : change(denovo->part[p], gpu->part[p]);
        sc_strbuf_appendf(out, "| %s | %s | DeNovo / GPU coherence %s: %+.1f%% | %s |\n", changes[i].id, changes[i].text,
                          p < 0 ? "cycles" : part_name(p), delta, study_percent_verdict(delta, changes[i].paper));
    }
    fall_row(out, "D4", "The memory data reduction comes mainly from fewer L2-served loads [I: more than half of it]",
             gpu, denovo, GSI_PART_MEM_DATA, GSI_PART_L2);
    double l1 = 100.0 * study_ratio(denovo->part[GSI_PART_L1] - gpu->part[GSI_PART_L1], gpu->part[GSI_PART_MEM_DATA]);
    double dram = 100.0 * study_ratio(denovo->part[GSI_PART_DRAM] - gpu->part[GSI_PART_DRAM], gpu->part[GSI_PART_MEM_DATA]);
    sc_strbuf_appendf(out, "| D5 | L1 and main-memory data stalls unchanged [I: each moves by under 10%% of GPU "
                           "coherence's MEM_DATA] | DeNovo - GPU coherence, / GPU coherence's MEM_DATA: L1 %+.1f%%, "
                           "main memory %+.1f%% | %s |\n", l1, dram,
                      test_verdict(!isnan(l1) && !isnan(dram), fabs(l1) < 10.0 && fabs(dram) < 10.0));
    double pending[GSI_PROTOCOLS] = {share(gpu, GSI_PART_PENDING_RELEASE), share(denovo, GSI_PART_PENDING_RELEASE)};
    const char *verdict = isnan(pending[0]) || isnan(pending[1]) ? "no data"
                          : fabs(pending[0] - 10.0) <= 3.0 && fabs(pending[1] - 4.0) <= 3.0 ? "agrees"
                          : pending[0] > pending[1] ? "direction agrees" : "disagrees";
    sc_strbuf_appendf(out, "| D6 | UTSD: PENDING_RELEASE is 10%% of GPU coherence's execution time, 4%% of DeNovo's "
                           "[I: of DeNovo's own time] | GPU coherence %.1f%%, DeNovo %.1f%% | %s |\n",
                      pending[0], pending[1], verdict);
    fall_row(out, "D7", "The memory structural reduction comes from fewer PENDING_RELEASE stalls [I: more than half "
             "of it]", gpu, denovo, GSI_PART_MEM_STRUCT, GSI_PART_PENDING_RELEASE);
    double remote = share(denovo, GSI_PART_REMOTE_L1);
    sc_strbuf_appendf(out, "| D8 | UTSD: REMOTE_L1 data stalls virtually disappear [I: under 1%% of DeNovo's time] | "
                           "DeNovo's REMOTE_L1: %.2f%% of its time (UTS: %.2f%%) | %s |\n", remote,
                      share(&t->task[GSI_UTS][GSI_DENOVO], GSI_PART_REMOTE_L1),
                      test_verdict(!isnan(remote), remote < 1.0));
    double sync[GSI_PROTOCOLS] = {share(gpu, GSI_PART_SYNC), share(denovo, GSI_PART_SYNC)};
    sc_strbuf_appendf(out, "| D9 | UTSD: SYNC stalls still contribute significantly under both protocols [I: at least "
                           "10%% of the time] | SYNC: GPU coherence %.1f%%, DeNovo %.1f%% | %s |\n", sync[0], sync[1],
                      test_verdict(!isnan(sync[0]) && !isnan(sync[1]), sync[0] >= 10.0 && sync[1] >= 10.0));
}

/* §6.4 (Fig 6.3): implicit at MSHR = SB = 32, against the scratchpad. */
static void implicit_rows(const gsi_tables *t, sc_strbuf *out)
{
    const gsi_breakdown *pad = &t->implicit[GSI_SCRATCHPAD][0], *dma = &t->implicit[GSI_SCRATCHPAD_DMA][0];
    const gsi_breakdown *stash = &t->implicit[GSI_STASH][0];
    static const struct {
        const char *id, *text;
        int organisation, part;
        double paper;
    } changes[] = {
        {"I1", "implicit: scratchpad+DMA NO_STALL cycles -36% against scratchpad (Fig 6.3)", GSI_SCRATCHPAD_DMA,
         GSI_PART_NO_STALL, -36},
        {"I2", "implicit: stash NO_STALL cycles -31%", GSI_STASH, GSI_PART_NO_STALL, -31},
        {"I3", "implicit: scratchpad+DMA MEM_STRUCT cycles +67%", GSI_SCRATCHPAD_DMA, GSI_PART_MEM_STRUCT, 67},
        {"I4", "implicit: stash MEM_STRUCT cycles +34%", GSI_STASH, GSI_PART_MEM_STRUCT, 34},
    };
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
        int o = changes[i].organisation, p = changes[i].part;
        double delta = change(t->implicit[o][0].part[p], pad->part[p]);
        sc_strbuf_appendf(out, "| %s | %s | %s / scratchpad %s: %+.1f%% | %s |\n", changes[i].id, changes[i].text,
                          organisation_names[o], part_name(p), delta, study_percent_verdict(delta, changes[i].paper));
    }
    double faster[2] = {change(dma->cycles, pad->cycles), change(stash->cycles, pad->cycles)};
    sc_strbuf_appendf(out, "| I5 | implicit: scratchpad+DMA and stash improve overall performance over scratchpad (no "
                           "number) | cycles against the scratchpad: scratchpad+DMA %+.1f%%, stash %+.1f%% | %s |\n",
                      faster[0], faster[1], test_verdict(!isnan(faster[0]) && !isnan(faster[1]), faster[0] < 0 && faster[1] < 0));
    double data[2] = {
        100.0 * study_ratio(dma->part[GSI_PART_MEM_DATA] - pad->part[GSI_PART_MEM_DATA], total(pad)),
        100.0 * study_ratio(stash->part[GSI_PART_MEM_DATA] - pad->part[GSI_PART_MEM_DATA], total(pad)),
    };
    sc_strbuf_appendf(out, "| I6 | implicit: the difference in data stalls is insignificant [I: under 5%% of the "
                           "scratchpad's time] | MEM_DATA - scratchpad's, in %% of the scratchpad's time: scratchpad+DMA "
                           "%+.1f%%, stash %+.1f%% | %s |\n", data[0], data[1],
                      test_verdict(!isnan(data[0]) && !isnan(data[1]), fabs(data[0]) < 5.0 && fabs(data[1]) < 5.0));
    double bank = share(dma, GSI_PART_BANK_CONFLICT), pending = dma->part[GSI_PART_PENDING_DMA];
    double mshr = dma->part[GSI_PART_MSHR_FULL];
    sc_strbuf_appendf(out, "| I7 | scratchpad+DMA: structural stalls are MSHR_FULL and PENDING_DMA; bank conflicts "
                           "insignificant [I: under 1%% of the time] | MSHR_FULL %.0f, PENDING_DMA %.0f cycles; bank "
                           "conflicts %.2f%% of the time | %s |\n", mshr, pending, bank,
                      test_verdict(!isnan(bank), mshr > 0 && pending > 0 && bank < 1.0));
    sc_strbuf_append(out, "| I8 | scratchpad: structural stalls are BANK_CONFLICT, SB_FULL and MSHR_FULL | ");
    bool all = true;
    for (int p = GSI_PART_MSHR_FULL; p <= GSI_PART_BANK_CONFLICT; p++) {
        sc_strbuf_appendf(out, "%s %.0f; ", part_name(p), pad->part[p]);
        all &= pad->part[p] > 0;
    }
    sc_strbuf_appendf(out, "cycles | %s |\n", test_verdict(!isnan(pad->cycles), all));
    sc_strbuf_append(out, "| I9 | stash: more MSHR_FULL, SB_FULL and BANK_CONFLICT stalls than scratchpad (a higher "
                          "request rate) | stash / scratchpad cycles: ");
    bool more = true;
    for (int p = GSI_PART_MSHR_FULL; p <= GSI_PART_BANK_CONFLICT; p++) {
        sc_strbuf_appendf(out, "%s %.0f / %.0f; ", part_name(p), stash->part[p], pad->part[p]);
        more &= stash->part[p] > pad->part[p];
    }
    sc_strbuf_appendf(out, "| %s |\n", test_verdict(!isnan(stash->cycles) && !isnan(pad->cycles), more));
    double warp = change(t->dma_warp_blocking.cycles, pad->cycles);
    sc_strbuf_appendf(out, "| X1 | (an experiment, not a thesis claim) scratchpad+DMA with warp-level DMA blocking "
                           "(local_memory.dma_blocking=warp, D2MA's choice) | cycles against the scratchpad: %+.1f%%; NO_STALL "
                           "%+.1f%%, MEM_STRUCT %+.1f%% | no number in the thesis |\n", warp,
                      change(t->dma_warp_blocking.part[GSI_PART_NO_STALL], pad->part[GSI_PART_NO_STALL]),
                      change(t->dma_warp_blocking.part[GSI_PART_MEM_STRUCT], pad->part[GSI_PART_MEM_STRUCT]));
}

/* §6.5 (Fig 6.4): the MSHR (= store buffer) sweep, 32 -> 256. */
static void mshr_rows(const gsi_tables *t, sc_strbuf *out)
{
    enum { LAST = GSI_MSHR_SIZES - 1 };
    const gsi_breakdown *pad = t->implicit[GSI_SCRATCHPAD];
    sc_strbuf_appendf(out, "| M1 | scratchpad: a 256-entry MSHR eliminates MSHR_FULL stalls | MSHR_FULL cycles: %.0f at "
                           "32, %.0f at 256 | %s |\n", pad[0].part[GSI_PART_MSHR_FULL], pad[LAST].part[GSI_PART_MSHR_FULL],
                      test_verdict(!isnan(pad[LAST].cycles), pad[LAST].part[GSI_PART_MSHR_FULL] == 0));
    static const struct {
        const char *id, *text;
        int organisation, part;
        double paper;
    } factors[] = {
        {"M2", "scratchpad: MEM_DATA stalls x13 at 256 against 32", GSI_SCRATCHPAD, GSI_PART_MEM_DATA, 13},
        {"M3", "scratchpad+DMA: PENDING_DMA stalls x8.9 at 256", GSI_SCRATCHPAD_DMA, GSI_PART_PENDING_DMA, 8.9},
        {"M4", "stash: MEM_DATA stalls x2.1 (MSHR size not stated; presumably 256)", GSI_STASH, GSI_PART_MEM_DATA, 2.1},
    };
    double factor[sizeof factors / sizeof factors[0]];
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
        const gsi_breakdown *o = t->implicit[factors[i].organisation];
        int p = factors[i].part;
        factor[i] = study_ratio(o[LAST].part[p], o[0].part[p]);
        sc_strbuf_appendf(out, "| %s | %s | %s cycles %.0f -> %.0f: x%.2f | %s |\n", factors[i].id, factors[i].text,
                          part_name(p), o[0].part[p], o[LAST].part[p], factor[i],
                          factor_verdict(factor[i], factors[i].paper));
    }
    double speedup[GSI_ORGANISATIONS];
    bool known = true, faster = true, fewer = true;
    sc_strbuf_append(out, "| M5 | every configuration gets faster and has fewer MSHR_FULL stalls with a larger MSHR | ");
    for (int o = 0; o < GSI_ORGANISATIONS; o++) {
        const gsi_breakdown *b = t->implicit[o];
        speedup[o] = change(b[0].cycles, b[LAST].cycles);
        known &= !isnan(speedup[o]);
        faster &= speedup[o] > 0;
        fewer &= b[LAST].part[GSI_PART_MSHR_FULL] < b[0].part[GSI_PART_MSHR_FULL];
        sc_strbuf_appendf(out, "%s: speedup 32 -> 256 %+.1f%%, MSHR_FULL %.0f -> %.0f; ", organisation_names[o],
                          speedup[o], b[0].part[GSI_PART_MSHR_FULL], b[LAST].part[GSI_PART_MSHR_FULL]);
    }
    sc_strbuf_appendf(out, "| %s |\n", test_verdict(known, faster && fewer));
    sc_strbuf_appendf(out, "| M6 | scratchpad+DMA gains more from larger MSHRs than scratchpad | speedup 32 -> 256: "
                           "scratchpad+DMA %+.1f%%, scratchpad %+.1f%% | %s |\n", speedup[GSI_SCRATCHPAD_DMA],
                      speedup[GSI_SCRATCHPAD], test_verdict(known, speedup[GSI_SCRATCHPAD_DMA] > speedup[GSI_SCRATCHPAD]));
    sc_strbuf_appendf(out, "| M7 | stash's MEM_DATA rises less than scratchpad's (loads on demand, per-warp blocking) | "
                           "MEM_DATA 32 -> 256: stash x%.2f, scratchpad x%.2f | %s |\n", factor[2], factor[0],
                      test_verdict(!isnan(factor[0]) && !isnan(factor[2]), factor[2] < factor[0]));
}

/* One row per run: its cycles and every part of its breakdown (cycles per SM). */
static void breakdown_row(sc_strbuf *out, const char *label, const gsi_breakdown *b)
{
    sc_strbuf_appendf(out, "| %s | %.0f |", label, b->cycles);
    for (int p = 0; p < GSI_PARTS; p++)
        sc_strbuf_appendf(out, " %.0f |", b->part[p]);
    sc_strbuf_append(out, "\n");
}

static void breakdown_table(const gsi_tables *t, sc_strbuf *out)
{
    sc_strbuf_append(out, "\n## GSI breakdowns (stall cycles per SM)\n\n| run | cycles |");
    for (int p = 0; p < GSI_PARTS; p++)
        sc_strbuf_appendf(out, " %s |", part_name(p));
    sc_strbuf_append(out, "\n|---|---|");
    for (int p = 0; p < GSI_PARTS; p++)
        sc_strbuf_append(out, "---|");
    sc_strbuf_append(out, "\n");
    static const char *const task_names[GSI_TASK_WORKLOADS] = {"UTS", "UTSD"};
    char label[96];
    for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
        for (int m = 0; m < GSI_PROTOCOLS; m++) {
            snprintf(label, sizeof label, "%s, %s", task_names[w], protocol_names[m]);
            breakdown_row(out, label, &t->task[w][m]);
        }
    for (int o = 0; o < GSI_ORGANISATIONS; o++)
        for (int n = 0; n < GSI_MSHR_SIZES; n++) {
            snprintf(label, sizeof label, "implicit, %s, MSHR = SB = %d", organisation_names[o], gsi_mshr_sizes[n]);
            breakdown_row(out, label, &t->implicit[o][n]);
        }
    breakdown_row(out, "implicit, scratchpad+DMA, warp-level DMA blocking, MSHR = SB = 32", &t->dma_warp_blocking);
}

/* §6.6: GSI's cost, the mean over case study 1's runs of the engine's CPU time with GSI over the
 * same run's with sim.gsi false. */
static void overhead_row(const gsi_tables *t, sc_strbuf *out)
{
    static const char *const task_names[GSI_TASK_WORKLOADS] = {"UTS", "UTSD"};
    double sum = 0;
    int count = 0;
    sc_strbuf measured = SC_STRBUF_INIT;
    for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
        for (int m = 0; m < GSI_PROTOCOLS; m++) {
            double cost = change(t->engine_cpu_seconds[w][m][0], t->engine_cpu_seconds[w][m][1]);
            if (isnan(cost))
                continue;
            sum += cost;
            count++;
            sc_strbuf_appendf(&measured, "; %s %s %+.1f%%", task_names[w], protocol_names[m], cost);
        }
    double mean = count ? sum / count : NAN;
    sc_strbuf_appendf(out, "| O1 | GSI adds 5%% simulation time on average (§6.6) | engine CPU time with GSI over "
                           "sim.gsi false: %+.1f%% (mean of %d runs%s; this machine's, varies between invocations) | "
                           "%s |\n",
                      mean, count, measured.text ? measured.text : "", study_percent_verdict(mean, 5.0));
    sc_strbuf_free(&measured);
}

void gsi_claims_write(const gsi_tables *t, sc_strbuf *out)
{
    sc_strbuf_append(out, "| # | thesis | measured | verdict |\n|---|---|---|---|\n");
    uts_rows(t, out);
    utsd_vs_uts_rows(t, out);
    utsd_rows(t, out);
    implicit_rows(t, out);
    mshr_rows(t, out);
    overhead_row(t, out);
    breakdown_table(t, out);
}
