/* svg.h — charts drawn by syncscope itself as standalone SVG files.
 *
 * Two kinds: bar charts (stacked GSI stall breakdowns normalised to a baseline, or grouped bars
 * such as speedup per workload with a geometric-mean group) and line charts (sweeps and
 * sensitivity studies, on a linear or logarithmic x axis). A bar chart wider than a page
 * (1000 px of plot) wraps its groups onto rows of equal width, each with its own y axis; grouped
 * bars whose values span a factor of 100 or more are drawn on a logarithmic y axis. Output is deterministic text; all
 * labels are XML-escaped. Both functions return malloc'd SVG, or NULL with a one-line error.
 */
#ifndef SYNCSCOPE_EXPORT_SVG_H
#define SYNCSCOPE_EXPORT_SVG_H

#include <stddef.h>

#include "base/error.h"

typedef enum sc_bar_style {
    SC_BARS_STACKED,            /* each bar is a stack of segments; the legend names segments */
    SC_BARS_GROUPED,            /* each bar is one value coloured by its series; legend names bars */
} sc_bar_style;

/* Bars come in groups (e.g. workloads); every group has the same bars (e.g. mechanisms).
 * values[(group * bar_count + bar) * segment_count + segment]; NAN marks a missing bar. */
typedef struct sc_bar_chart {
    const char *title;
    const char *y_label;
    sc_bar_style style;
    size_t group_count;
    const char *const *group_labels;
    size_t bar_count;
    const char *const *bar_labels;
    size_t segment_count;                   /* 1 for grouped bars */
    const char *const *segment_labels;      /* stacked only */
    const char *const *segment_colours;     /* stacked only; "#rrggbb" */
    const double *values;
    const double *absolute_values;          /* optional, same shape: shown in tooltips */
    const char *absolute_unit;              /* e.g. "cycles" */
    double reference_line;                  /* > 0: dashed line at this value (e.g. 1.0) */
    int geomean_group;                      /* grouped only: add a "geomean" group */
} sc_bar_chart;

/* What the numbers of an axis are: plain numbers, or bytes and Hz, whose tick labels then carry
 * their unit ("24 KiB", "1.5 MiB"; "700 MHz", "1.4 GHz") at the data's own x values. */
typedef enum sc_axis_unit { SC_UNIT_NONE, SC_UNIT_BYTES, SC_UNIT_HERTZ } sc_axis_unit;

/* One line of a line chart: points in the order they are joined. NAN y values are skipped. */
typedef struct sc_line_series {
    const char *label;
    size_t point_count;
    const double *x;
    const double *y;
} sc_line_series;

typedef struct sc_line_chart {
    const char *title;
    const char *x_label;
    const char *y_label;
    int log_x;                  /* logarithmic x axis; every x must be > 0 */
    size_t series_count;
    const sc_line_series *series;
    sc_axis_unit x_unit;        /* bytes or Hz: ticks at the first series' x values, in units */
} sc_line_chart;

char *sc_svg_bar_chart(const sc_bar_chart *chart, sc_error *error);
char *sc_svg_line_chart(const sc_line_chart *chart, sc_error *error);

#endif
