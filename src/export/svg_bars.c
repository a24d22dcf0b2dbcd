/* svg_bars.c — stacked and grouped bar charts (see svg.h).
 *
 * Stacked bars draw one stack per (group, bar), segments bottom-up in segment order, with the
 * stack's total printed above it; grouped bars draw one bar per (group, bar) coloured by bar,
 * optionally followed by a "geomean" group. Both share the layout and the axes of svg_frame.c.
 */
#include "base/statistics.h"
#include "export/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/stall_palette.h"
#include "export/svg_frame.h"

#define BAR_WIDTH 22.0
#define BAR_GAP 4.0
#define GROUP_GAP 26.0
#define PLOT_HEIGHT 300.0
#define LABEL_SIZE 11.0
#define MAX_ROW_WIDTH 1100.0   /* wider charts wrap their groups onto more rows (a page's width) */
#define ROW_GAP 24.0
#define ROW_PLOT_HEIGHT 200.0  /* the plot height of each row when there are more than two */

/* The chart's values plus, for grouped charts, the geomean group: what actually gets drawn. */
typedef struct bar_data {
    size_t group_count;
    double *values;
} bar_data;

static double value_at(const sc_bar_chart *chart, const bar_data *data, size_t group, size_t bar,
                       size_t segment)
{
    return data->values[(group * chart->bar_count + bar) * chart->segment_count + segment];
}

/* Sum of a stack's segments, NAN when the bar is missing. */
static double bar_total(const sc_bar_chart *chart, const bar_data *data, size_t group, size_t bar)
{
    double total = 0;
    for (size_t s = 0; s < chart->segment_count; s++)
        total += value_at(chart, data, group, bar, s);
    return total;
}

static int check_chart(const sc_bar_chart *chart, sc_error *error)
{
    if (!chart->group_count || !chart->bar_count || !chart->segment_count)
        return sc_fail(error, "bar chart '%s' has no data", chart->title ? chart->title : "");
    if (chart->style == SC_BARS_GROUPED && chart->segment_count != 1)
        return sc_fail(error, "grouped bar chart needs exactly one value per bar");
    if (chart->style == SC_BARS_STACKED && chart->geomean_group)
        return sc_fail(error, "a geomean group is only drawn for grouped bars");
    size_t count = chart->group_count * chart->bar_count * chart->segment_count;
    for (size_t i = 0; i < count; i++) {
        if (chart->style == SC_BARS_STACKED && chart->values[i] < 0)
            return sc_fail(error, "stacked bar chart '%s' has a negative value",
                           chart->title ? chart->title : "");
        if (chart->geomean_group && chart->values[i] <= 0)
            return sc_fail(error, "geometric mean needs positive values");
    }
    return 0;
}

/* Copies the values, appending per bar the geometric mean across groups when asked. */
static bar_data collect_bars(const sc_bar_chart *chart)
{
    size_t per_group = chart->bar_count * chart->segment_count;
    bar_data data = {chart->group_count + (chart->geomean_group ? 1 : 0), NULL};
    data.values = malloc(data.group_count * per_group * sizeof *data.values);
    if (!data.values)
        abort();
    for (size_t i = 0; i < chart->group_count * per_group; i++)
        data.values[i] = chart->values[i];
    if (!chart->geomean_group)
        return data;
    for (size_t bar = 0; bar < chart->bar_count; bar++)
        data.values[chart->group_count * per_group + bar] =
            sc_geometric_mean(chart->values + bar, chart->group_count, per_group);
    return data;
}

/* The highest bar of groups [first, end), or the reference line if higher. */
static double value_range_max(const sc_bar_chart *chart, const bar_data *data, size_t first, size_t end)
{
    double high = chart->reference_line > 0 ? chart->reference_line : 0;
    for (size_t g = first; g < end; g++)
        for (size_t b = 0; b < chart->bar_count; b++) {
            double top = chart->style == SC_BARS_STACKED ? bar_total(chart, data, g, b)
                                                          : value_at(chart, data, g, b, 0);
            if (!isnan(top))
                high = fmax(high, top);
        }
    return high;
}

static double value_range_min(const sc_bar_chart *chart, const bar_data *data)
{
    double low = 0;
    for (size_t i = 0; i < data->group_count * chart->bar_count * chart->segment_count; i++)
        if (!isnan(data->values[i]))
            low = fmin(low, data->values[i]);
    return low;
}

static const char *group_label(const sc_bar_chart *chart, size_t group)
{
    return group < chart->group_count ? chart->group_labels[group] : "geomean";
}

static void format_value(double value, double axis_high, char out[32])
{
    snprintf(out, 32, axis_high < 100 ? "%.2f" : "%.3g", value);
}

/* Height of the rotated bar labels below the axis (stacked charts label every bar). */
static double bar_label_depth(const sc_bar_chart *chart)
{
    if (chart->style != SC_BARS_STACKED)
        return 0;
    double widest = 0;
    for (size_t b = 0; b < chart->bar_count; b++)
        widest = fmax(widest, sc_svg_text_width(chart->bar_labels[b], LABEL_SIZE));
    return 8 + widest * 0.71;
}

static void draw_stack(sc_svg *svg, const sc_bar_chart *chart, const bar_data *data,
                       const sc_scale *scale, size_t group, size_t bar, double x)
{
    double base = 0;
    for (size_t s = 0; s < chart->segment_count; s++) {
        double value = value_at(chart, data, group, bar, s);
        if (value <= 0)
            continue;
        double top = sc_scale_map(scale, base + value), bottom = sc_scale_map(scale, base);
        char tooltip[512];
        int length = snprintf(tooltip, sizeof tooltip, "%s / %s / %s: %.4g", group_label(chart, group),
                              chart->bar_labels[bar], chart->segment_labels[s], value);
        if (chart->absolute_values && length > 0 && (size_t)length < sizeof tooltip)
            snprintf(tooltip + length, sizeof tooltip - (size_t)length, " (%.0f %s)",
                     chart->absolute_values[(group * chart->bar_count + bar) * chart->segment_count + s],
                     chart->absolute_unit ? chart->absolute_unit : "");
        sc_svg_rect(svg, x, top, BAR_WIDTH, bottom - top, chart->segment_colours[s], "segment", tooltip);
        base += value;
    }
}

static void draw_single(sc_svg *svg, const sc_bar_chart *chart, const bar_data *data,
                        const sc_scale *scale, size_t group, size_t bar, double x)
{
    double value = value_at(chart, data, group, bar, 0);
    double top = sc_scale_map(scale, fmax(value, 0));
    double bottom = scale->logarithmic ? scale->pixel_min : sc_scale_map(scale, fmin(value, 0));
    char tooltip[512];
    snprintf(tooltip, sizeof tooltip, "%s / %s: %.4g", group_label(chart, group),
             chart->bar_labels[bar], value);
    sc_svg_rect(svg, x, top, BAR_WIDTH, bottom - top, sc_series_colour(bar), "bar", tooltip);
}

/* Draws groups [first, end) left-aligned in the frame's plot area (one row of the chart). */
static void draw_bars(sc_svg *svg, const sc_bar_chart *chart, const bar_data *data,
                      const sc_frame *frame, const sc_scale *scale, size_t first, size_t end)
{
    double group_width = (double)chart->bar_count * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
    double first_left = frame->plot_left + GROUP_GAP;
    double axis_bottom = frame->plot_top + frame->plot_height;
    double label_depth = bar_label_depth(chart);
    sc_text_style value_style = {9, SC_ANCHOR_MIDDLE, 0, 0};
    sc_text_style bar_style = {LABEL_SIZE, SC_ANCHOR_END, -45, 0};
    sc_text_style group_style = {12, SC_ANCHOR_MIDDLE, 0, 1};
    for (size_t g = first; g < end; g++) {
        double group_left = first_left + (double)(g - first) * (group_width + GROUP_GAP);
        for (size_t b = 0; b < chart->bar_count; b++) {
            double x = group_left + (double)b * (BAR_WIDTH + BAR_GAP);
            double total = chart->style == SC_BARS_STACKED ? bar_total(chart, data, g, b)
                                                            : value_at(chart, data, g, b, 0);
            if (chart->style == SC_BARS_STACKED)
                sc_svg_text(svg, x + BAR_WIDTH / 2 + 4, axis_bottom + 10, chart->bar_labels[b], bar_style);
            if (isnan(total))
                continue;
            if (chart->style == SC_BARS_STACKED)
                draw_stack(svg, chart, data, scale, g, b, x);
            else
                draw_single(svg, chart, data, scale, g, b, x);
            char text[32];
            format_value(total, scale->data_max, text);
            sc_svg_text(svg, x + BAR_WIDTH / 2, sc_scale_map(scale, fmax(total, 0)) - 3, text, value_style);
        }
        sc_svg_text(svg, group_left + group_width / 2, axis_bottom + label_depth + 20,
                    group_label(chart, g), group_style);
    }
}

/* Grouped bars whose positive values span a factor of 100 or more get a logarithmic y axis:
 * on a linear one the small ratios would be invisible next to the largest. */
static int wants_log_axis(const sc_bar_chart *chart, const bar_data *data)
{
    if (chart->style != SC_BARS_GROUPED)
        return 0;
    double low = INFINITY, high = 0;
    for (size_t i = 0; i < data->group_count * chart->bar_count; i++) {
        if (isnan(data->values[i]))
            continue;
        if (data->values[i] <= 0)
            return 0;
        low = fmin(low, data->values[i]);
        high = fmax(high, data->values[i]);
    }
    return high > 0 && high >= 100 * low;
}

char *sc_svg_bar_chart(const sc_bar_chart *chart, sc_error *error)
{
    if (check_chart(chart, error) < 0)
        return NULL;
    bar_data data = collect_bars(chart);
    int log_y = wants_log_axis(chart, &data);
    double low = value_range_min(chart, &data), high = value_range_max(chart, &data, 0, data.group_count) * 1.05;
    sc_ticks ticks;
    if (log_y) {
        low = INFINITY;
        for (size_t i = 0; i < data.group_count * chart->bar_count; i++)
            low = isnan(data.values[i]) ? low : fmin(low, data.values[i]);
        if (chart->reference_line > 0)
            low = fmin(low, chart->reference_line);
        low /= 1.5;
        high *= 1.5;
        sc_ticks_log(low, high, &ticks);
    } else {
        sc_ticks_linear(&low, &high, &ticks);
    }

    size_t entry_count = chart->style == SC_BARS_STACKED ? chart->segment_count : chart->bar_count;
    sc_legend_entry *entries = calloc(entry_count, sizeof *entries);
    if (!entries)
        abort();
    for (size_t i = 0; i < entry_count; i++) {
        int stacked = chart->style == SC_BARS_STACKED;
        entries[i].label = stacked ? chart->segment_labels[i] : chart->bar_labels[i];
        entries[i].colour = stacked ? chart->segment_colours[i] : sc_series_colour(i);
    }
    /* Rows of at most MAX_ROW_WIDTH, all the same width, one y axis each, the legend once. */
    double group_step = (double)chart->bar_count * (BAR_WIDTH + BAR_GAP) - BAR_GAP + GROUP_GAP;
    size_t per_row = (size_t)fmax(1, floor((MAX_ROW_WIDTH - GROUP_GAP) / group_step));
    per_row = per_row < data.group_count ? per_row : data.group_count;
    size_t rows = (data.group_count + per_row - 1) / per_row;
    per_row = (data.group_count + rows - 1) / rows;   /* even rows: 30 groups in 3 rows of 10 */
    double plot_width = fmax(240, (double)per_row * group_step + GROUP_GAP);
    double plot_height = rows > 2 ? ROW_PLOT_HEIGHT : PLOT_HEIGHT;
    double bottom_margin = bar_label_depth(chart) + 36;
    char y_label[256];
    snprintf(y_label, sizeof y_label, "%s%s", chart->y_label ? chart->y_label : "", log_y ? " (log scale)" : "");
    sc_frame frame;
    sc_frame_layout(&frame, chart->title, plot_width, plot_height, bottom_margin, &ticks, entries, entry_count);
    double row_step = plot_height + bottom_margin + ROW_GAP;
    double height = frame.height + (double)(rows - 1) * row_step;

    sc_svg svg;
    sc_svg_begin(&svg, frame.width, height, chart->title);
    sc_frame_draw_title(&svg, &frame, chart->title);
    sc_frame_draw_legend(&svg, &frame, entries, entry_count, 0);
    for (size_t row = 0; row < rows; row++) {
        sc_frame row_frame = frame;
        row_frame.plot_top += (double)row * row_step;
        size_t first = row * per_row, end = first + per_row < data.group_count ? first + per_row : data.group_count;
        /* Stacked rows of a wrapped chart are scaled to their own highest bar (each row has its
         * own y axis), so that one tall stack does not flatten every other row. */
        sc_ticks row_ticks = ticks;
        double row_low = low, row_high = high;
        if (rows > 1 && chart->style == SC_BARS_STACKED) {
            row_low = 0;
            row_high = value_range_max(chart, &data, first, end) * 1.05;
            sc_ticks_linear(&row_low, &row_high, &row_ticks);
        }
        sc_scale scale = {row_low, row_high, row_frame.plot_top + row_frame.plot_height, row_frame.plot_top, log_y};
        sc_frame_draw_y_axis(&svg, &row_frame, &scale, &row_ticks, y_label);
        draw_bars(&svg, chart, &data, &row_frame, &scale, first, end);
        sc_frame_draw_x_axis(&svg, &row_frame, &scale, NULL, NULL, 0);
        if (chart->reference_line > 0) {
            double y = sc_scale_map(&scale, chart->reference_line);
            sc_svg_line(&svg, row_frame.plot_left, y, row_frame.plot_left + row_frame.plot_width, y, "#333333", 1, 1);
        }
    }
    free(entries);
    free(data.values);
    return sc_svg_finish(&svg);
}
