/* rcc_figures.c — the SVG equivalents of Ren's chapter 3 figures, drawn from the reproduction's
 * tables (rcc_study.h), one chart per workload class ((a) inter-workgroup, (b) intra-workgroup):
 *   fig3_6a_expired_inter.svg                              RCC: expired loads / L1 loads, and
 *                                                           premature expiries / expired loads
 *                                                           (inter-workgroup only, as the thesis)
 *   fig3_7a_renewal_traffic_inter.svg                      RCC's NoC bytes with and without
 *                                                           renewal, / those without
 *   fig3_7b_predictor_expired_inter.svg                    RCC's expired loads with and without
 *                                                           the lease predictor, / those without
 *   fig3_8a_speedup_inter.svg, fig3_8b_speedup_intra.svg   speedup over MESI (MESI's cycles /
 *                                                           the mechanism's), with a geomean group,
 *                                                           and MESI with write-back L1s (variant)
 *   fig3_9a_sc_stalls_*.svg, fig3_9b_resolve_latency_*.svg the SC configurations' ordering stall
 *                                                           cycles, and the mean cycles an SC core
 *                                                           holds a warp back, / MESI's
 *   fig3_10a_weak_ordering_inter.svg, ..._intra.svg        RCC-SC, TCW, RCC-WO: speedup over RCC
 *   fig3_11a_energy_inter.svg, fig3_11b_energy_intra.svg   interconnect energy, link and router,
 *                                                           dynamic and static, / MESI's total
 *   fig3_12a_traffic_inter.svg, fig3_12b_traffic_intra.svg NoC flits per traffic class
 *                                                           (LD ST ATO REQ INV RCL), / MESI's total
 */
#include <math.h>
#include <stdbool.h>
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

static void names_of(const char *figure, int c, const char *what, char *file, size_t file_size, char *title,
                     size_t title_size)
{
    snprintf(file, file_size, "fig3_%s%s_%s_%s.svg", figure, class_files[c], what, class_suffixes[c]);
    snprintf(title, title_size, "Figure 3.%s(%s): ", figure, class_files[c]);
}

/* A grouped chart per workload of the class: `bars` bars, values[w * bars + b], with a geomean
 * group when no value is 0 or below (a workload with no ordering stalls or no expired load has
 * none to average). */
static int write_grouped(const rcc_class_table *table, const char *file, const char *title, const char *y_label,
                         int bars, const char *const *bar_labels, const double *values, const char *directory,
                         sc_error *error)
{
    bool positive = true;
    for (int i = 0; i < table->workload_count * bars; i++)
        positive &= !(values[i] <= 0);
    sc_bar_chart chart = {
        .title = title, .y_label = y_label, .style = SC_BARS_GROUPED,
        .group_count = (size_t)table->workload_count, .group_labels = table->workloads,
        .bar_count = (size_t)bars, .bar_labels = bar_labels, .segment_count = 1, .values = values,
        .reference_line = 1.0, .geomean_group = positive,
    };
    return sc_output_write_figure_in(directory, file, sc_svg_bar_chart(&chart, error), error);
}

/* Figure 3.8: MESI's cycles over each mechanism's, per workload and as a geomean; the last bar is
 * MESI with write-back L1s (the variant). */
static int write_speedup(const rcc_tables *t, int c, const char *directory, sc_error *error)
{
    const rcc_class_table *table = &t->classes[c];
    int mechanisms = t->mechanism_count, mesi = rcc_mechanism(t, "mesi"), bars = mechanisms + 1;
    double values[RCC_CELLS + STUDY_MAX_WORKLOADS];
    const char *labels[STUDY_MAX_MECHANISMS + 1];
    memcpy(labels, t->labels, (size_t)mechanisms * sizeof *labels);
    labels[mechanisms] = "MESI write-back";
    for (int w = 0; w < table->workload_count; w++) {
        double base = mesi < 0 ? NAN : table->cycles[w * mechanisms + mesi];
        for (int m = 0; m < mechanisms; m++)
            values[w * bars + m] = rcc_ratio(base, table->cycles[w * mechanisms + m]);
        values[w * bars + mechanisms] = rcc_ratio(base, table->variant_cycles[RCC_VARIANT_MESI_WRITE_BACK][w]);
    }
    char file[128], title[256];
    names_of("8", c, "speedup", file, sizeof file, title, sizeof title);
    snprintf(title + strlen(title), sizeof title - strlen(title), "speedup over MESI (write-through L1s), %s",
             class_names[c]);
    return write_grouped(table, file, title, "MESI cycles / cycles", bars, labels, values, directory, error);
}

/* Figure 3.9: per SC configuration (MESI, TCS, RCC), a quantity over MESI's. */
static int write_sc_stalls(const rcc_tables *t, int c, int quantity, const char *directory, sc_error *error)
{
    static const char *const sc_mechanisms[] = {"mesi", "tc-strong", "rcc"};
    static const char *const sc_labels[] = {"MESI", "TCS", "RCC"};
    const rcc_class_table *table = &t->classes[c];
    int mesi = rcc_mechanism(t, "mesi");
    double values[3 * STUDY_MAX_WORKLOADS];
    for (int w = 0; w < table->workload_count; w++)
        for (int b = 0; b < 3; b++) {
            int m = rcc_mechanism(t, sc_mechanisms[b]);
            values[w * 3 + b] = m < 0 || mesi < 0 ? NAN
                                                  : rcc_ratio(table->quantity[quantity][w * t->mechanism_count + m],
                                                              table->quantity[quantity][w * t->mechanism_count + mesi]);
        }
    bool stalls = quantity == RCC_ORDERING;
    char file[128], title[256];
    snprintf(file, sizeof file, "fig3_9%s_%s_%s.svg", stalls ? "a" : "b", stalls ? "sc_stalls" : "resolve_latency",
             class_suffixes[c]);
    snprintf(title, sizeof title, "Figure 3.9 (%s): %s normalised to MESI, %s", stalls ? "top" : "bottom",
             stalls ? "SC ordering stall cycles" : "SC stall resolve latency", class_names[c]);
    return write_grouped(table, file, title, stalls ? "ordering stall cycles / MESI's" : "resolve cycles / MESI's",
                         3, sc_labels, values, directory, error);
}

/* Figure 3.10: RCC-SC, TCW and RCC-WO, speedup over RCC-SC. */
static int write_weak_ordering(const rcc_tables *t, int c, const char *directory, sc_error *error)
{
    static const char *const names[] = {"rcc", "tc-weak", "rcc-wo"};
    static const char *const labels[] = {"RCC-SC", "TCW", "RCC-WO"};
    const rcc_class_table *table = &t->classes[c];
    int rcc = rcc_mechanism(t, "rcc");
    double values[3 * STUDY_MAX_WORKLOADS];
    for (int w = 0; w < table->workload_count; w++)
        for (int b = 0; b < 3; b++) {
            int m = rcc_mechanism(t, names[b]);
            values[w * 3 + b] = m < 0 || rcc < 0 ? NAN
                                                 : rcc_ratio(table->cycles[w * t->mechanism_count + rcc],
                                                             table->cycles[w * t->mechanism_count + m]);
        }
    char file[128], title[256];
    names_of("10", c, "weak_ordering", file, sizeof file, title, sizeof title);
    snprintf(title + strlen(title), sizeof title - strlen(title), "weak ordering, speedup over RCC-SC, %s",
             class_names[c]);
    return write_grouped(table, file, title, "RCC-SC cycles / cycles", 3, labels, values, directory, error);
}

/* Figure 3.6 (inter-workgroup): RCC's expired loads per L1 load, and premature expiries per
 * expired load. */
static int write_expired(const rcc_tables *t, const char *directory, sc_error *error)
{
    static const char *const labels[] = {"expired / loads", "premature / expired"};
    const rcc_class_table *table = &t->classes[RCC_INTER];
    int rcc = rcc_mechanism(t, "rcc");
    double values[2 * STUDY_MAX_WORKLOADS];
    for (int w = 0; w < table->workload_count; w++) {
        int cell = w * t->mechanism_count + rcc;
        values[2 * w] = rcc < 0 ? NAN : rcc_ratio(table->quantity[RCC_EXPIRED][cell], table->quantity[RCC_LOADS][cell]);
        values[2 * w + 1] = rcc < 0 ? NAN : rcc_ratio(table->quantity[RCC_PREMATURE][cell],
                                                       table->quantity[RCC_EXPIRED][cell]);
    }
    return write_grouped(table, "fig3_6a_expired_inter.svg",
                         "Figure 3.6: RCC's loads of expired copies, and how many expired prematurely, "
                         "inter-workgroup communication", "fraction", 2, labels, values, directory, error);
}

/* Figure 3.7 (inter-workgroup): a quantity of RCC with and without one of its lease mechanisms,
 * over the value without. */
static int write_lease_mechanism(const rcc_tables *t, int variant, int quantity, const char *file,
                                 const char *title, const char *const *labels, const char *directory, sc_error *error)
{
    const rcc_class_table *table = &t->classes[RCC_INTER];
    int rcc = rcc_mechanism(t, "rcc");
    double values[2 * STUDY_MAX_WORKLOADS];
    for (int w = 0; w < table->workload_count; w++) {
        double without = table->variant_quantity[variant][quantity][w];
        values[2 * w] = rcc_ratio(without, without);
        values[2 * w + 1] = rcc < 0 ? NAN : rcc_ratio(table->quantity[quantity][w * t->mechanism_count + rcc], without);
    }
    return write_grouped(table, file, title, "/ the value without", 2, labels, values, directory, error);
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
    int status = sc_output_write_figure_in(directory, file, sc_svg_bar_chart(&chart, error), error);
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
    static const char *const renewal_labels[] = {"no renewal", "renewal"};
    static const char *const predictor_labels[] = {"no predictor", "predictor"};
    for (int c = 0; c < RCC_CLASSES; c++)
        if (write_speedup(t, c, directory, error) || write_stacked(t, c, &energy, directory, error) ||
            write_stacked(t, c, &traffic, directory, error) || write_sc_stalls(t, c, RCC_ORDERING, directory, error) ||
            write_sc_stalls(t, c, RCC_HOLD_LATENCY, directory, error) || write_weak_ordering(t, c, directory, error))
            return -1;
    return write_expired(t, directory, error) ||
           write_lease_mechanism(t, RCC_VARIANT_NO_RENEWAL, RCC_NOC_BYTES, "fig3_7a_renewal_traffic_inter.svg",
                                 "Figure 3.7 (left): RCC's NoC bytes with and without lease renewal, "
                                 "inter-workgroup communication", renewal_labels, directory, error) ||
           write_lease_mechanism(t, RCC_VARIANT_NO_PREDICTOR, RCC_EXPIRED, "fig3_7b_predictor_expired_inter.svg",
                                 "Figure 3.7 (right): RCC's expired loads with and without the lease predictor, "
                                 "inter-workgroup communication", predictor_labels, directory, error)
               ? -1 : 0;
}
