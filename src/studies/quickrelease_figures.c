/* quickrelease_figures.c — the SVG equivalents of the QuickRelease paper's figures, drawn from
 * the reproduction's tables (quickrelease_study.h), workloads ordered by L1 re-use under RFO:
 *   fig3_raw_reuse.svg      L1 read hits on written (M) lines under RFO, per L1 load access
 *   fig4_l1_reuse.svg       L1 read hit rate under RFO (and WT, whose acquires flush the L1)
 *   fig5_runtime.svg        cycles normalised to no-L1, with a geomean group (the traffic figures
 *                           have none: a mechanism may write nothing, e.g. RFO into its L3)
 *   fig6_l2_writes.svg      write bytes leaving the GPU L2 level for the memory side, / no-L1
 *   fig7_dram_writes.svg    DRAM write requests of no-L1, WT and QR, / no-L1 (RFO's writable L3
 *                           filters its writes, so the paper leaves it out)
 *   fig8_l1_bytes.svg       bytes arriving at the L1s, data and invalidations, / WT's total
 *   fig10_scaling_W.svg     cycles / no-L1 against input bytes, per scaling workload
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "studies/quickrelease_study.h"
#include "export/output.h"
#include "export/svg.h"

static const char *const mechanism_labels[QR_MECHANISMS] = {"no-L1", "WT", "RFO", "QR"};

/* Grouped bars of the chosen mechanisms, each cell `numerator / denominator` of the same
 * workload (denominator_mechanism < 0: the cell's own mechanism). */
typedef struct ratio_figure {
    const char *file, *title, *y_label;
    const double *numerator, *denominator;
    int denominator_mechanism;
    const int *mechanisms;
    int mechanism_count;
    int geomean;
    double reference;
} ratio_figure;

static int write_ratio_figure(const qr_tables *t, const ratio_figure *f, const char *directory, sc_error *error)
{
    double values[QR_CELLS];
    const char *labels[QR_MECHANISMS];
    for (int b = 0; b < f->mechanism_count; b++)
        labels[b] = mechanism_labels[f->mechanisms[b]];
    for (int w = 0; w < t->workload_count; w++)
        for (int b = 0; b < f->mechanism_count; b++) {
            int m = f->mechanisms[b], base = f->denominator_mechanism < 0 ? m : f->denominator_mechanism;
            values[w * f->mechanism_count + b] =
                qr_ratio(f->numerator[w * QR_MECHANISMS + m], f->denominator[w * QR_MECHANISMS + base]);
        }
    sc_bar_chart chart = {
        .title = f->title, .y_label = f->y_label, .style = SC_BARS_GROUPED,
        .group_count = (size_t)t->workload_count, .group_labels = t->workloads,
        .bar_count = (size_t)f->mechanism_count, .bar_labels = labels, .segment_count = 1,
        .values = values, .reference_line = f->reference, .geomean_group = f->geomean,
    };
    return sc_output_write_figure_in(directory, f->file, sc_svg_bar_chart(&chart, error), error);
}

/* Figure 8: per workload a WT and a QR bar stacking data and invalidation bytes, / WT's total. */
static int write_l1_bytes_figure(const qr_tables *t, const char *directory, sc_error *error)
{
    static const int bars[] = {QR_WT, QR_QR};
    static const char *const segments[] = {"data", "invalidations and forwards"};
    static const char *const colours[] = {"#4e79a7", "#e15759"};
    const char *labels[] = {mechanism_labels[QR_WT], mechanism_labels[QR_QR]};
    double values[QR_CELLS * 2];
    for (int w = 0; w < t->workload_count; w++) {
        int wt = w * QR_MECHANISMS + QR_WT;
        double total = t->l1_data_bytes[wt] + t->l1_coherence_bytes[wt];
        for (int b = 0; b < 2; b++) {
            int cell = w * QR_MECHANISMS + bars[b];
            values[(w * 2 + b) * 2] = qr_ratio(t->l1_data_bytes[cell], total);
            values[(w * 2 + b) * 2 + 1] = qr_ratio(t->l1_coherence_bytes[cell], total);
        }
    }
    sc_bar_chart chart = {
        .title = "Figure 8: bytes arriving at the L1s (data vs invalidations), normalised to WT",
        .y_label = "bytes / WT bytes", .style = SC_BARS_STACKED,
        .group_count = (size_t)t->workload_count, .group_labels = t->workloads,
        .bar_count = 2, .bar_labels = labels, .segment_count = 2, .segment_labels = segments,
        .segment_colours = colours, .values = values, .reference_line = 1.0,
    };
    return sc_output_write_figure_in(directory, "fig8_l1_bytes.svg", sc_svg_bar_chart(&chart, error), error);
}

/* Figure 10: one chart per scaling workload, cycles / no-L1 over input size. */
static int write_scaling_figures(const qr_tables *t, const char *directory, sc_error *error)
{
    const study_runs *runs = t->runs;
    for (int w = 0; w < runs->scaling_workload_count; w++) {
        double x[QR_MECHANISMS][STUDY_MAX_SIZES], y[QR_MECHANISMS][STUDY_MAX_SIZES];
        sc_line_series series[QR_MECHANISMS];
        for (int m = 0; m < QR_MECHANISMS; m++) {
            for (int s = 0; s < runs->scaling_size_count; s++) {
                x[m][s] = t->scaling_input_bytes[w][s];
                y[m][s] = qr_ratio(t->scaling_cycles[w][s][m], t->scaling_cycles[w][s][QR_NOL1]);
            }
            series[m] = (sc_line_series){mechanism_labels[m], (size_t)runs->scaling_size_count, x[m], y[m]};
        }
        char title[160], file[128];
        snprintf(title, sizeof title, "Figure 10: %s, run time normalised to no-L1 over problem size",
                 runs->scaling_workloads[w]);
        snprintf(file, sizeof file, "fig10_scaling_%s.svg", runs->scaling_workloads[w]);
        sc_line_chart chart = {
            .title = title, .x_label = "input copied to the GPU", .y_label = "cycles / no-L1 cycles", .x_unit = SC_UNIT_BYTES,
            .log_x = 1, .series_count = QR_MECHANISMS, .series = series,
        };
        if (sc_output_write_figure_in(directory, file, sc_svg_line_chart(&chart, error), error))
            return -1;
    }
    return 0;
}

int qr_figures_write(const qr_tables *t, const char *directory, sc_error *error)
{
    static const int all[] = {QR_NOL1, QR_WT, QR_RFO, QR_QR}, rfo[] = {QR_RFO}, reuse[] = {QR_RFO, QR_WT},
                     no_rfo[] = {QR_NOL1, QR_WT, QR_QR};
    const ratio_figure figures[] = {
        {"fig3_raw_reuse.svg", "Figure 3: L1 read hits on written (M) lines under RFO, per L1 load access",
         "read-after-write hits / loads", t->load_hits_modified, t->load_accesses, -1, rfo, 1, 0, 0.0},
        {"fig4_l1_reuse.svg", "Figure 4: L1 read re-use (hit rate of L1 load accesses)", "L1 load hit rate",
         t->load_hits, t->load_accesses, -1, reuse, 2, 0, 0.0},
        {"fig5_runtime.svg", "Figure 5: run time normalised to no-L1 (workloads by L1 re-use under RFO)",
         "cycles / no-L1 cycles", t->cycles, t->cycles, QR_NOL1, all, 4, 1, 1.0},
        {"fig6_l2_writes.svg", "Figure 6: write bytes from the GPU L2 level to the directory, normalised to no-L1",
         "bytes / no-L1 bytes", t->memory_write_bytes, t->memory_write_bytes, QR_NOL1, all, 4, 0, 1.0},
        {"fig7_dram_writes.svg", "Figure 7: DRAM write requests, normalised to no-L1", "writes / no-L1 writes",
         t->dram_writes, t->dram_writes, QR_NOL1, no_rfo, 3, 0, 1.0},
    };
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        if (write_ratio_figure(t, &figures[i], directory, error))
            return -1;
    if (write_l1_bytes_figure(t, directory, error))
        return -1;
    return write_scaling_figures(t, directory, error);
}
