/* gsi_figures.c — the SVG equivalents of the GSI thesis's figures (§7: stacked stall-cycle
 * breakdowns, one bar per configuration), drawn from the reproduction's tables (gsi_study.h).
 * Every figure has three sub-figures: (a) the eight categories, (b) the memory-data sources, (c)
 * the memory-structural causes; each sub-figure is normalised to the baseline's total of what it
 * breaks down (its cycles in (a), its memory-data cycles in (b), its memory-structural cycles in
 * (c)), and the tooltips give the absolute cycles per CU:
 * (files fig6_1a_overall.svg, fig6_1b_memory_data.svg, fig6_1c_memory_structural.svg, ...):
 *   fig6_1{a,b,c}_*.svg               UTS, GPU coherence and DeNovo, / GPU coherence
 *   fig6_utsd_vs_uts_overall.svg      per protocol UTS and UTSD, / that protocol's UTS (§6.2)
 *   fig6_2{a,b,c}_*.svg               UTSD, GPU coherence and DeNovo, / GPU coherence
 *   fig6_3{a,b,c}_*.svg               implicit on one SM with MSHR = SB = 32: scratchpad,
 *                                     scratchpad+DMA, stash, and (an experiment) scratchpad+DMA
 *                                     with warp-level blocking, / scratchpad
 *   fig6_4{a,b,c}_*.svg               scratchpad, scratchpad+DMA and stash at MSHR = SB = 32 ...
 *                                     256, / scratchpad at 32
 * and the tool-overhead figure (§6.6, a figure of this reproduction: the thesis gives a number):
 *   fig6_6_tool_overhead.svg          case study 1's engine CPU seconds with GSI and with sim.gsi
 *                                     false, / the run without GSI
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/output.h"
#include "export/stall_palette.h"
#include "export/svg.h"
#include "studies/gsi_study.h"

/* The three sub-figures: which parts each stacks, and the name and heading it gets. */
static const struct {
    const char *letter, *suffix, *heading;
    int first, count;
} panels[] = {
    {"a", "overall", "GPU stall cycles", 0, GSI_CATEGORIES},
    {"b", "memory_data", "memory data stall cycles by serving level", GSI_FIRST_DATA, GSI_DATA_SOURCES},
    {"c", "memory_structural", "memory structural stall cycles by cause", GSI_FIRST_STRUCT, GSI_STRUCT_CAUSES},
};

static const char *const protocol_labels[GSI_PROTOCOLS] = {"GPU coherence", "DeNovo"};

/* bars[g * bar_count + b] stacked over the panel's parts, each / base's total of those parts. */
typedef struct breakdown_figure {
    const char *name, *title;          /* file "fig<name><letter>_<panel>.svg"; title before the panel's heading */
    int group_count, bar_count;
    const char *const *group_labels, *const *bar_labels;
    const gsi_breakdown *const *bars;
    const gsi_breakdown *const *bases;  /* per group */
    const char *base_label;
} breakdown_figure;

/* Writes sub-figure `panel` of `f`; a figure of one panel has no letter in its name. */
static int write_panel(const breakdown_figure *f, int panel, int panel_count, const char *directory, sc_error *error)
{
    int first = panels[panel].first, parts = panels[panel].count, cells = f->group_count * f->bar_count;
    double *values = malloc((size_t)cells * (size_t)parts * sizeof *values);
    double *absolute = malloc((size_t)cells * (size_t)parts * sizeof *absolute);
    const char *labels[GSI_CATEGORIES], *colours[GSI_CATEGORIES];
    for (int p = 0; p < parts; p++) {
        const gsi_part *part = &gsi_parts[first + p];
        const sc_stall_kind *kind = part->subcategory ? sc_stall_kind_find(part->category, part->subcategory)
                                                      : sc_stall_kind_find(NULL, part->category);
        labels[p] = kind ? kind->label : part->subcategory;
        colours[p] = kind ? kind->colour : sc_series_colour((size_t)p);
    }
    for (int g = 0; g < f->group_count; g++) {
        double base = gsi_parts_total(f->bases[g], first, parts);
        for (int b = 0; b < f->bar_count; b++)
            for (int p = 0; p < parts; p++) {
                int at = (g * f->bar_count + b) * parts + p;
                absolute[at] = f->bars[g * f->bar_count + b]->part[first + p];
                values[at] = study_ratio(absolute[at], base);
            }
    }
    char file[128], title[320], y_label[128];
    const char *letter = panel_count > 1 ? panels[panel].letter : "";
    snprintf(file, sizeof file, "fig%s%s_%s.svg", f->name, letter, panels[panel].suffix);
    snprintf(title, sizeof title, "%s%s%s%s: %s", f->title, *letter ? " (" : "", letter, *letter ? ")" : "",
             panels[panel].heading);
    snprintf(y_label, sizeof y_label, "/ %s's total", f->base_label);
    sc_bar_chart chart = {
        .title = title, .y_label = y_label, .style = SC_BARS_STACKED,
        .group_count = (size_t)f->group_count, .group_labels = f->group_labels,
        .bar_count = (size_t)f->bar_count, .bar_labels = f->bar_labels, .segment_count = (size_t)parts,
        .segment_labels = labels, .segment_colours = colours, .values = values,
        .absolute_values = absolute, .absolute_unit = "cycles per SM", .reference_line = 1.0,
    };
    int status = sc_output_write_figure_in(directory, file, sc_svg_bar_chart(&chart, error), error);
    free(values);
    free(absolute);
    return status;
}

static int write_figure(const breakdown_figure *f, int panel_count, const char *directory, sc_error *error)
{
    for (int p = 0; p < panel_count; p++)
        if (write_panel(f, p, panel_count, directory, error))
            return -1;
    return 0;
}

/* Figures 6.1 and 6.2: one task workload under both protocols, / GPU coherence. */
static int write_task(const gsi_tables *t, int w, const char *name, const char *title, const char *directory,
                      sc_error *error)
{
    static const char *const groups[GSI_TASK_WORKLOADS] = {"UTS", "UTSD"};
    const gsi_breakdown *bars[GSI_PROTOCOLS] = {&t->task[w][GSI_GPU_COHERENCE], &t->task[w][GSI_DENOVO]};
    const gsi_breakdown *bases[] = {&t->task[w][GSI_GPU_COHERENCE]};
    const breakdown_figure f = {name, title, 1, GSI_PROTOCOLS, &groups[w], protocol_labels, bars, bases,
                                "GPU coherence"};
    return write_figure(&f, 3, directory, error);
}

/* §6.2: per protocol UTS and UTSD, / that protocol's UTS (overall breakdown only). */
static int write_utsd_vs_uts(const gsi_tables *t, const char *directory, sc_error *error)
{
    static const char *const bar_labels[GSI_TASK_WORKLOADS] = {"UTS", "UTSD"};
    const gsi_breakdown *bars[GSI_PROTOCOLS * GSI_TASK_WORKLOADS], *bases[GSI_PROTOCOLS];
    for (int m = 0; m < GSI_PROTOCOLS; m++) {
        bases[m] = &t->task[GSI_UTS][m];
        for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
            bars[m * GSI_TASK_WORKLOADS + w] = &t->task[w][m];
    }
    const breakdown_figure f = {"6_utsd_vs_uts", "UTSD against UTS (§6.2)", GSI_PROTOCOLS, GSI_TASK_WORKLOADS,
                                protocol_labels, bar_labels, bars, bases, "the protocol's UTS"};
    return write_figure(&f, 1, directory, error);
}

/* Figure 6.3: the organisations at MSHR = SB = 32, and the warp-blocking experiment. */
static int write_implicit(const gsi_tables *t, const char *directory, sc_error *error)
{
    static const char *const groups[] = {"implicit, 1 SM, MSHR = SB = 32"};
    static const char *const bar_labels[] = {"scratchpad", "scratchpad+DMA", "stash", "DMA, warp blocking (experiment)"};
    const gsi_breakdown *bars[] = {&t->implicit[GSI_SCRATCHPAD][0], &t->implicit[GSI_SCRATCHPAD_DMA][0],
                                   &t->implicit[GSI_STASH][0], &t->dma_warp_blocking};
    const gsi_breakdown *bases[] = {&t->implicit[GSI_SCRATCHPAD][0]};
    const breakdown_figure f = {"6_3", "Figure 6.3: implicit", 1, 4, groups, bar_labels, bars, bases, "scratchpad"};
    return write_figure(&f, 3, directory, error);
}

/* Figure 6.4: each organisation at every MSHR size, / scratchpad at 32. */
static int write_mshr_sweep(const gsi_tables *t, const char *directory, sc_error *error)
{
    static const char *const groups[GSI_ORGANISATIONS] = {"scratchpad", "scratchpad+DMA", "stash"};
    char names[GSI_MSHR_SIZES][32];
    const char *bar_labels[GSI_MSHR_SIZES];
    const gsi_breakdown *bars[GSI_ORGANISATIONS * GSI_MSHR_SIZES], *bases[GSI_ORGANISATIONS];
    for (int n = 0; n < GSI_MSHR_SIZES; n++) {
        snprintf(names[n], sizeof names[n], "MSHR = SB = %d", gsi_mshr_sizes[n]);
        bar_labels[n] = names[n];
    }
    for (int o = 0; o < GSI_ORGANISATIONS; o++) {
        bases[o] = &t->implicit[GSI_SCRATCHPAD][0];
        for (int n = 0; n < GSI_MSHR_SIZES; n++)
            bars[o * GSI_MSHR_SIZES + n] = &t->implicit[o][n];
    }
    const breakdown_figure f = {"6_4", "Figure 6.4: implicit, MSHR and store buffer sizes",
                                GSI_ORGANISATIONS, GSI_MSHR_SIZES, groups, bar_labels, bars, bases,
                                "scratchpad at 32"};
    return write_figure(&f, 3, directory, error);
}

/* §6.6: per case-study-1 run, the engine's CPU seconds with and without GSI, / without. */
static int write_tool_overhead(const gsi_tables *t, const char *directory, sc_error *error)
{
    static const char *const groups[GSI_TASK_WORKLOADS * GSI_PROTOCOLS] = {
        "UTS, GPU coherence", "UTS, DeNovo", "UTSD, GPU coherence", "UTSD, DeNovo"};
    static const char *const bar_labels[2] = {"with GSI", "sim.gsi false"};
    double values[GSI_TASK_WORKLOADS * GSI_PROTOCOLS * 2], absolute[GSI_TASK_WORKLOADS * GSI_PROTOCOLS * 2];
    for (int w = 0; w < GSI_TASK_WORKLOADS; w++)
        for (int m = 0; m < GSI_PROTOCOLS; m++)
            for (int b = 0; b < 2; b++) {
                int at = (w * GSI_PROTOCOLS + m) * 2 + b;
                absolute[at] = t->engine_cpu_seconds[w][m][b];
                values[at] = study_ratio(absolute[at], t->engine_cpu_seconds[w][m][1]);
            }
    sc_bar_chart chart = {
        .title = "GSI's cost (§6.6): engine CPU time with and without GSI (this machine's)",
        .y_label = "/ the run with sim.gsi false", .style = SC_BARS_GROUPED,
        .group_count = GSI_TASK_WORKLOADS * GSI_PROTOCOLS, .group_labels = groups, .bar_count = 2,
        .bar_labels = bar_labels, .segment_count = 1, .values = values, .absolute_values = absolute,
        .absolute_unit = "CPU seconds", .reference_line = 1.0,
    };
    return sc_output_write_figure_in(directory, "fig6_6_tool_overhead.svg", sc_svg_bar_chart(&chart, error), error);
}

int gsi_figures_write(const gsi_tables *t, const char *directory, sc_error *error)
{
    return write_task(t, GSI_UTS, "6_1", "Figure 6.1: UTS", directory, error) ||
                   write_utsd_vs_uts(t, directory, error) ||
                   write_task(t, GSI_UTSD, "6_2", "Figure 6.2: UTSD", directory, error) ||
                   write_implicit(t, directory, error) || write_mshr_sweep(t, directory, error) ||
                   write_tool_overhead(t, directory, error)
               ? -1 : 0;
}
