/* rcc_figures.c — the SVG equivalents of Ren's chapter 3 figures, drawn from the reproduction's
 * tables (rcc_study.h), one chart per workload class ((a) inter-workgroup, (b) intra-workgroup):
 *   fig3_8a_speedup_inter.svg, fig3_8b_speedup_intra.svg   speedup over MESI (MESI's cycles /
 *                                                           the mechanism's), with a geomean group
 *   fig3_11a_energy_inter.svg, fig3_11b_energy_intra.svg   interconnect energy, link and router,
 *                                                           dynamic and static, / MESI's total
 *   fig3_12a_traffic_inter.svg, fig3_12b_traffic_intra.svg NoC flits per traffic class
 *                                                           (LD ST ATO REQ INV RCL), / MESI's total
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "export/svg.h"
#include "studies/rcc_study.h"

static const char *const class_names[RCC_CLASSES] = {"inter-workgroup communication",
                                                     "intra-workgroup communication"};
static const char *const class_files[RCC_CLASSES] = {"a", "b"};
static const char *const class_suffixes[RCC_CLASSES] = {"inter", "intra"};

static int write_svg(const char *directory, const char *file, char *svg, sc_error *error)
{
    if (!svg)
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", directory, file);
    int status = sc_output_write(path, svg, error);
    free(svg);
    return status;
}

static void names_of(const char *figure, int c, const char *what, char *file, size_t file_size, char *title,
                     size_t title_size)
{
    snprintf(file, file_size, "fig3_%s%s_%s_%s.svg", figure, class_files[c], what, class_suffixes[c]);
    snprintf(title, title_size, "Figure 3.%s(%s): ", figure, class_files[c]);
}

/* Figure 3.8: MESI's cycles over each mechanism's, per workload and as a geomean. */
static int write_speedup(const rcc_tables *t, int c, const char *directory, sc_error *error)
{
    const rcc_class_table *table = &t->classes[c];
    int mechanisms = t->mechanism_count, mesi = rcc_mechanism(t, "mesi");
    double values[RCC_CELLS];
    for (int w = 0; w < table->workload_count; w++)
        for (int m = 0; m < mechanisms; m++)
            values[w * mechanisms + m] = mesi < 0 ? NAN
                                                  : rcc_ratio(table->cycles[w * mechanisms + mesi],
                                                              table->cycles[w * mechanisms + m]);
    char file[128], title[256];
    names_of("8", c, "speedup", file, sizeof file, title, sizeof title);
    snprintf(title + strlen(title), sizeof title - strlen(title), "speedup over MESI, %s", class_names[c]);
    sc_bar_chart chart = {
        .title = title, .y_label = "MESI cycles / cycles", .style = SC_BARS_GROUPED,
        .group_count = (size_t)table->workload_count, .group_labels = table->workloads,
        .bar_count = (size_t)mechanisms, .bar_labels = t->labels, .segment_count = 1, .values = values,
        .absolute_values = table->cycles, .absolute_unit = "cycles", .reference_line = 1.0, .geomean_group = 1,
    };
    return write_svg(directory, file, sc_svg_bar_chart(&chart, error), error);
}

/* A stacked figure: per workload and mechanism the parts of a quantity, each over MESI's total on
 * the workload. */
typedef struct stacked_figure {
    const char *figure, *what, *heading, *y_label;
    int part_count;
    const char *const *part_labels;
    const char *const *part_colours;
    double (*part)(const rcc_class_table *table, int part, int cell);
    double (*total)(const rcc_class_table *table, int cell);
} stacked_figure;

static int write_stacked(const rcc_tables *t, int c, const stacked_figure *f, const char *directory,
                         sc_error *error)
{
    const rcc_class_table *table = &t->classes[c];
    int mechanisms = t->mechanism_count, mesi = rcc_mechanism(t, "mesi");
    double *values = malloc((size_t)RCC_CELLS * (size_t)f->part_count * sizeof *values);
    for (int w = 0; w < table->workload_count; w++) {
        double base = mesi < 0 ? NAN : f->total(table, w * mechanisms + mesi);
        for (int m = 0; m < mechanisms; m++)
            for (int p = 0; p < f->part_count; p++)
                values[(w * mechanisms + m) * f->part_count + p] = rcc_ratio(f->part(table, p, w * mechanisms + m), base);
    }
    char file[128], title[256];
    names_of(f->figure, c, f->what, file, sizeof file, title, sizeof title);
    snprintf(title + strlen(title), sizeof title - strlen(title), "%s, %s", f->heading, class_names[c]);
    sc_bar_chart chart = {
        .title = title, .y_label = f->y_label, .style = SC_BARS_STACKED,
        .group_count = (size_t)table->workload_count, .group_labels = table->workloads,
        .bar_count = (size_t)mechanisms, .bar_labels = t->labels, .segment_count = (size_t)f->part_count,
        .segment_labels = f->part_labels, .segment_colours = f->part_colours, .values = values, .reference_line = 1.0,
    };
    int status = write_svg(directory, file, sc_svg_bar_chart(&chart, error), error);
    free(values);
    return status;
}

static double energy_part(const rcc_class_table *table, int part, int cell) { return table->energy[part][cell]; }
static double flits_part(const rcc_class_table *table, int part, int cell) { return table->flits[part][cell]; }

int rcc_figures_write(const rcc_tables *t, const char *directory, sc_error *error)
{
    static const char *const energy_labels[RCC_ENERGY_PARTS] = {"link, dynamic", "router, dynamic", "link, static",
                                                                "router, static"};
    static const char *const energy_colours[RCC_ENERGY_PARTS] = {"#4e79a7", "#f28e2b", "#a0cbe8", "#ffbe7d"};
    static const char *const traffic_labels[NOC_TRAFFIC_CLASS_COUNT] = {"LD", "ST", "ATO", "REQ", "INV", "RCL"};
    static const char *const traffic_colours[NOC_TRAFFIC_CLASS_COUNT] = {"#4e79a7", "#f28e2b", "#e15759",
                                                                         "#76b7b2", "#59a14f", "#edc948"};
    const stacked_figure energy = {"11", "energy", "interconnect energy normalised to MESI", "energy / MESI energy",
                                   RCC_ENERGY_PARTS, energy_labels, energy_colours, energy_part, rcc_energy_total};
    const stacked_figure traffic = {"12", "traffic", "NoC traffic (flits) normalised to MESI", "flits / MESI flits",
                                    NOC_TRAFFIC_CLASS_COUNT, traffic_labels, traffic_colours, flits_part,
                                    rcc_flits_total};
    for (int c = 0; c < RCC_CLASSES; c++)
        if (write_speedup(t, c, directory, error) || write_stacked(t, c, &energy, directory, error) ||
            write_stacked(t, c, &traffic, directory, error))
            return -1;
    return 0;
}
