/* report.c — GSI stall figures of runs or of one run's CUs, normalised to a baseline
 * (see report.h). The figure layout (which bar shows which breakdown key, and which key it is
 * normalised to) is built first; drawing is then the same for every figure.
 */
#include "export/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "export/breakdown.h"
#include "export/output.h"
#include "export/stall_palette.h"
#include "export/strbuf.h"
#include "export/svg.h"
#include "export/table.h"

#define MISSING_KEY (-1LL)

typedef struct figure_layout {
    size_t group_count, bar_count;
    char **group_labels;
    char **bar_labels;
    long long *keys;                /* [group][bar] breakdown key, or MISSING_KEY */
    long long *denominator_keys;    /* [group][bar] key whose total the bar is divided by */
    char normalised_to[256];        /* for titles */
    const char *y_label;
} figure_layout;

static char *copy_text(const char *text)
{
    sc_strbuf copy = SC_STRBUF_INIT;
    sc_strbuf_append(&copy, text);
    return sc_strbuf_take(&copy);
}

static void *allocate(size_t count, size_t size)
{
    void *memory = calloc(count ? count : 1, size);
    if (!memory)
        abort();
    return memory;
}

static void free_layout(figure_layout *layout)
{
    for (size_t g = 0; g < layout->group_count; g++)
        free(layout->group_labels[g]);
    for (size_t b = 0; b < layout->bar_count; b++)
        free(layout->bar_labels[b]);
    free(layout->group_labels);
    free(layout->bar_labels);
    free(layout->keys);
    free(layout->denominator_keys);
}

/* Index of `label` in labels[0..*count), appending it if absent. */
static size_t intern(char **labels, size_t *count, const char *label)
{
    for (size_t i = 0; i < *count; i++)
        if (!strcmp(labels[i], label))
            return i;
    labels[*count] = copy_text(label);
    return (*count)++;
}

int sc_report_select_runs(sqlite3 *db, const char *condition, long long **run_ids, size_t *count,
                          sc_error *error)
{
    sc_strbuf sql = SC_STRBUF_INIT;
    sc_strbuf_appendf(&sql, "SELECT id FROM runs WHERE %s ORDER BY id", condition);
    char *text = sc_strbuf_take(&sql);
    sc_table *table = sc_table_from_query(db, text, NULL, 0, error);
    free(text);
    if (!table)
        return -1;
    if (!table->row_count) {
        sc_table_free(table);
        return sc_fail(error, "no run matches %s", condition);
    }
    *count = table->row_count;
    *run_ids = allocate(table->row_count, sizeof **run_ids);
    for (size_t row = 0; row < table->row_count; row++)
        (*run_ids)[row] = (long long)sc_cell_number(sc_table_cell(table, row, 0));
    sc_table_free(table);
    return 0;
}

/* id, workload and bar label of each run, in id order; fails naming a run that does not exist. */
static sc_table *load_runs(sqlite3 *db, const long long *run_ids, size_t run_count,
                           const sc_report_options *options, sc_error *error)
{
    sc_strbuf sql = SC_STRBUF_INIT;
    sc_strbuf_appendf(&sql, "SELECT id, workload, CAST((%s) AS TEXT) AS label FROM runs WHERE id IN (",
                      options && options->label_sql ? options->label_sql : "mechanism");
    for (size_t i = 0; i < run_count; i++)
        sc_strbuf_appendf(&sql, "%s%lld", i ? "," : "", run_ids[i]);
    sc_strbuf_append(&sql, ") ORDER BY id");
    char *text = sc_strbuf_take(&sql);
    sc_table *runs = sc_table_from_query(db, text, NULL, 0, error);
    free(text);
    if (!runs)
        return NULL;
    for (size_t i = 0; i < run_count; i++) {
        size_t row = 0;
        while (row < runs->row_count && sc_cell_number(sc_table_cell(runs, row, 0)) != (double)run_ids[i])
            row++;
        if (row == runs->row_count) {
            sc_table_free(runs);
            sc_fail(error, "run %lld not found", run_ids[i]);
            return NULL;
        }
    }
    return runs;
}

/* The label a run's bar gets: its label, plus " #id" when another run of the same workload
 * has the same label. */
static void run_bar_label(const sc_table *runs, size_t row, char *out, size_t out_size)
{
    char workload[256], label[256], other_workload[256], other_label[256];
    sc_cell_format(sc_table_cell(runs, row, 1), workload, sizeof workload);
    sc_cell_format(sc_table_cell(runs, row, 2), label, sizeof label);
    int duplicated = 0;
    for (size_t other = 0; other < runs->row_count; other++) {
        sc_cell_format(sc_table_cell(runs, other, 1), other_workload, sizeof other_workload);
        sc_cell_format(sc_table_cell(runs, other, 2), other_label, sizeof other_label);
        duplicated |= other != row && !strcmp(workload, other_workload) && !strcmp(label, other_label);
    }
    if (duplicated)
        snprintf(out, out_size, "%s #%lld", label, (long long)sc_cell_number(sc_table_cell(runs, row, 0)));
    else
        snprintf(out, out_size, "%s", label);
}

/* Per group, the key of its baseline run: the one labelled `baseline`, else the run of the
 * group's leftmost bar. */
static int choose_baselines(figure_layout *layout, const char *baseline, sc_error *error)
{
    for (size_t g = 0; g < layout->group_count; g++) {
        long long chosen = MISSING_KEY;
        for (size_t b = 0; b < layout->bar_count && chosen == MISSING_KEY; b++) {
            long long key = layout->keys[g * layout->bar_count + b];
            if (key != MISSING_KEY && (!baseline || !strcmp(layout->bar_labels[b], baseline)))
                chosen = key;
        }
        if (chosen == MISSING_KEY)
            return sc_fail(error, "workload %s has no run labelled '%s' to normalise to",
                           layout->group_labels[g], baseline ? baseline : "");
        for (size_t b = 0; b < layout->bar_count; b++)
            layout->denominator_keys[g * layout->bar_count + b] = chosen;
    }
    return 0;
}

static int layout_runs(const sc_table *runs, const sc_report_options *options,
                       figure_layout *layout, sc_error *error)
{
    size_t run_count = runs->row_count;
    *layout = (figure_layout){0};
    layout->group_labels = allocate(run_count, sizeof *layout->group_labels);
    layout->bar_labels = allocate(run_count, sizeof *layout->bar_labels);
    size_t *group_of = allocate(run_count, sizeof *group_of), *bar_of = allocate(run_count, sizeof *bar_of);
    for (size_t row = 0; row < run_count; row++) {
        char workload[256], label[300];
        sc_cell_format(sc_table_cell(runs, row, 1), workload, sizeof workload);
        run_bar_label(runs, row, label, sizeof label);
        group_of[row] = intern(layout->group_labels, &layout->group_count, workload);
        bar_of[row] = intern(layout->bar_labels, &layout->bar_count, label);
    }
    size_t cells = layout->group_count * layout->bar_count;
    layout->keys = allocate(cells, sizeof *layout->keys);
    layout->denominator_keys = allocate(cells, sizeof *layout->denominator_keys);
    for (size_t i = 0; i < cells; i++)
        layout->keys[i] = MISSING_KEY;
    for (size_t row = 0; row < run_count; row++)
        layout->keys[group_of[row] * layout->bar_count + bar_of[row]] =
            (long long)sc_cell_number(sc_table_cell(runs, row, 0));
    free(group_of);
    free(bar_of);
    const char *baseline = options ? options->baseline : NULL;
    snprintf(layout->normalised_to, sizeof layout->normalised_to, "%s",
             baseline ? baseline : run_count > 1 ? layout->bar_labels[0] : "own total");
    layout->y_label = "stall cycles / baseline total cycles";
    return choose_baselines(layout, baseline, error);
}

static const char *figure_title(const char *parent)
{
    if (!parent)
        return "GSI stall breakdown";
    if (!strcasecmp(parent, "mem_data"))
        return "Memory data stalls by serving level";
    if (!strcasecmp(parent, "mem_struct"))
        return "Memory structural stalls by cause";
    const sc_stall_kind *kind = sc_stall_kind_find(NULL, parent);
    return kind ? kind->label : parent;
}

static char *draw_figure(const sc_table *breakdown, const figure_layout *layout, const char *parent,
                         sc_error *error)
{
    const char **names;
    size_t segment_count = sc_breakdown_names(breakdown, parent, &names);
    if (!segment_count) {      /* nothing recorded at this level: draw empty bars */
        names[0] = SC_UNATTRIBUTED;
        segment_count = 1;
    }
    const char **labels = allocate(segment_count, sizeof *labels);
    const char **colours = allocate(segment_count, sizeof *colours);
    size_t unknown = 0;
    for (size_t s = 0; s < segment_count; s++) {
        const sc_stall_kind *kind = sc_stall_kind_find(parent, names[s]);
        labels[s] = kind ? kind->label : names[s];
        colours[s] = kind ? kind->colour : sc_series_colour(unknown++);
    }
    size_t bars = layout->group_count * layout->bar_count;
    double *values = allocate(bars * segment_count, sizeof *values);
    double *absolute = allocate(bars * segment_count, sizeof *absolute);
    char *svg = NULL;
    for (size_t i = 0; i < bars; i++) {
        long long key = layout->keys[i];
        double total = key == MISSING_KEY ? NAN : sc_breakdown_total(breakdown, layout->denominator_keys[i]);
        if (key != MISSING_KEY && !(total > 0)) {
            sc_fail(error, "baseline %lld has no stall cycles recorded", layout->denominator_keys[i]);
            goto done;
        }
        for (size_t s = 0; s < segment_count; s++) {
            double cycles = key == MISSING_KEY ? NAN : sc_breakdown_cycles(breakdown, key, parent, names[s]);
            absolute[i * segment_count + s] = cycles;
            values[i * segment_count + s] = cycles / total;
        }
    }
    char title[512];
    snprintf(title, sizeof title, "%s (normalised to %s)", figure_title(parent), layout->normalised_to);
    sc_bar_chart chart = {
        .title = title,
        .y_label = layout->y_label,
        .style = SC_BARS_STACKED,
        .group_count = layout->group_count,
        .group_labels = (const char *const *)layout->group_labels,
        .bar_count = layout->bar_count,
        .bar_labels = (const char *const *)layout->bar_labels,
        .segment_count = segment_count,
        .segment_labels = labels,
        .segment_colours = colours,
        .values = values,
        .absolute_values = absolute,
        .absolute_unit = "cycles",
        .reference_line = parent ? 0 : 1,
    };
    svg = sc_svg_bar_chart(&chart, error);
done:
    free(values);
    free(absolute);
    free(labels);
    free(colours);
    free(names);
    return svg;
}

/* Loads runs and their breakdown and lays the figure out; the caller frees both. */
static int prepare_runs(sqlite3 *db, const long long *run_ids, size_t run_count,
                        const sc_report_options *options, sc_table **breakdown,
                        figure_layout *layout, sc_error *error)
{
    if (!run_count)
        return sc_fail(error, "no runs to report");
    sc_table *runs = load_runs(db, run_ids, run_count, options, error);
    if (!runs)
        return -1;
    int status = layout_runs(runs, options, layout, error);
    sc_table_free(runs);
    if (status < 0) {
        free_layout(layout);
        return -1;
    }
    *breakdown = sc_breakdown_for_runs(db, run_ids, run_count, error);
    if (!*breakdown) {
        free_layout(layout);
        return -1;
    }
    return 0;
}

char *sc_report_runs_figure(sqlite3 *db, const long long *run_ids, size_t run_count,
                            const char *parent, const sc_report_options *options, sc_error *error)
{
    sc_table *breakdown;
    figure_layout layout;
    if (prepare_runs(db, run_ids, run_count, options, &breakdown, &layout, error) < 0)
        return NULL;
    char *svg = draw_figure(breakdown, &layout, parent, error);
    sc_table_free(breakdown);
    free_layout(&layout);
    return svg;
}

char *sc_report_cu_figure(sqlite3 *db, long long run_id, const char *parent, sc_error *error)
{
    sc_table *breakdown = sc_breakdown_by_cu(db, run_id, error);
    if (!breakdown)
        return NULL;
    long long *keys;
    size_t cu_count = sc_breakdown_keys(breakdown, &keys);
    if (!cu_count) {
        free(keys);
        sc_table_free(breakdown);
        sc_fail(error, "run %lld has no per-CU stall rows", run_id);
        return NULL;
    }
    figure_layout layout = {.group_count = 1, .bar_count = cu_count};
    layout.group_labels = allocate(1, sizeof *layout.group_labels);
    layout.bar_labels = allocate(cu_count, sizeof *layout.bar_labels);
    char label[64];
    snprintf(label, sizeof label, "run %lld", run_id);
    layout.group_labels[0] = copy_text(label);
    for (size_t i = 0; i < cu_count; i++) {
        snprintf(label, sizeof label, "CU %lld", keys[i]);
        layout.bar_labels[i] = copy_text(label);
    }
    layout.keys = keys;
    layout.denominator_keys = allocate(cu_count, sizeof *layout.denominator_keys);
    memcpy(layout.denominator_keys, keys, cu_count * sizeof *keys);
    snprintf(layout.normalised_to, sizeof layout.normalised_to, "each CU's cycles");
    layout.y_label = "fraction of the CU's cycles";
    char *svg = draw_figure(breakdown, &layout, parent, error);
    free_layout(&layout);
    sc_table_free(breakdown);
    return svg;
}

int sc_report_write_gsi(sqlite3 *db, const long long *run_ids, size_t run_count,
                        const sc_report_options *options, const char *directory, sc_error *error)
{
    static const struct {
        const char *file, *parent;
    } figures[] = {
        {"stalls_overall.svg", NULL},
        {"stalls_mem_data.svg", "mem_data"},
        {"stalls_mem_struct.svg", "mem_struct"},
    };
    sc_table *breakdown;
    figure_layout layout;
    if (prepare_runs(db, run_ids, run_count, options, &breakdown, &layout, error) < 0)
        return -1;
    int status = sc_output_make_directories(directory, error);
    for (size_t i = 0; status == 0 && i < sizeof figures / sizeof figures[0]; i++) {
        char *svg = draw_figure(breakdown, &layout, figures[i].parent, error);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", directory, figures[i].file);
        status = svg ? sc_output_write_figure(path, svg, error) : -1;
        free(svg);
    }
    sc_table_free(breakdown);
    free_layout(&layout);
    return status;
}
