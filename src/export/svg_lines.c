/* svg_lines.c — line charts for sweeps and sensitivity studies (see svg.h): one polyline with
 * round markers per series, on a linear or logarithmic x axis and a linear y axis from zero.
 */
#include "export/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/stall_palette.h"
#include "export/svg_frame.h"

#define PLOT_WIDTH 440.0
#define PLOT_HEIGHT 300.0

typedef struct data_bounds {
    double x_min, x_max, y_min, y_max;
    size_t points;
} data_bounds;

static int find_bounds(const sc_line_chart *chart, data_bounds *bounds, sc_error *error)
{
    *bounds = (data_bounds){INFINITY, -INFINITY, 0, 0, 0};
    for (size_t s = 0; s < chart->series_count; s++) {
        const sc_line_series *series = &chart->series[s];
        for (size_t p = 0; p < series->point_count; p++) {
            double x = series->x[p], y = series->y[p];
            if (!isfinite(x))
                return sc_fail(error, "series '%s' has a non-finite x value", series->label);
            if (chart->log_x && x <= 0)
                return sc_fail(error, "series '%s' has x = %g on a logarithmic axis",
                               series->label, x);
            bounds->x_min = fmin(bounds->x_min, x);
            bounds->x_max = fmax(bounds->x_max, x);
            if (isnan(y))
                continue;
            bounds->y_min = fmin(bounds->y_min, y);
            bounds->y_max = fmax(bounds->y_max, y);
            bounds->points++;
        }
    }
    if (!bounds->points)
        return sc_fail(error, "line chart '%s' has no data", chart->title ? chart->title : "");
    return 0;
}

/* Gives a one-value x range some width so that it can be scaled. */
static void widen_x(const sc_line_chart *chart, data_bounds *bounds)
{
    if (bounds->x_max > bounds->x_min)
        return;
    if (chart->log_x) {
        bounds->x_min /= 2;
        bounds->x_max *= 2;
    } else {
        bounds->x_min -= 1;
        bounds->x_max += 1;
    }
}

static void draw_series(sc_svg *svg, const sc_line_series *series, const char *colour,
                        const sc_scale *x_scale, const sc_scale *y_scale)
{
    double *xs = malloc((series->point_count + 1) * sizeof *xs);
    double *ys = malloc((series->point_count + 1) * sizeof *ys);
    if (!xs || !ys)
        abort();
    size_t drawn = 0;
    for (size_t p = 0; p < series->point_count; p++) {
        if (isnan(series->y[p]))
            continue;
        xs[drawn] = sc_scale_map(x_scale, series->x[p]);
        ys[drawn] = sc_scale_map(y_scale, series->y[p]);
        drawn++;
    }
    sc_svg_polyline(svg, xs, ys, drawn, colour);
    drawn = 0;
    for (size_t p = 0; p < series->point_count; p++) {
        if (isnan(series->y[p]))
            continue;
        char tooltip[512];
        snprintf(tooltip, sizeof tooltip, "%s: x = %g, y = %.4g", series->label, series->x[p],
                 series->y[p]);
        sc_svg_circle(svg, xs[drawn], ys[drawn], 3.5, colour, tooltip);
        drawn++;
    }
    free(xs);
    free(ys);
}

char *sc_svg_line_chart(const sc_line_chart *chart, sc_error *error)
{
    data_bounds bounds;
    if (find_bounds(chart, &bounds, error) < 0)
        return NULL;
    widen_x(chart, &bounds);
    double y_low = bounds.y_min, y_high = bounds.y_max * 1.05;
    sc_ticks y_ticks, x_ticks;
    sc_ticks_linear(&y_low, &y_high, &y_ticks);
    double x_low = bounds.x_min, x_high = bounds.x_max;
    if (chart->log_x) {
        x_low /= 1.1;
        x_high *= 1.1;
        sc_ticks_log(x_low, x_high, &x_ticks);
    } else {
        sc_ticks_linear(&x_low, &x_high, &x_ticks);
    }
    if (chart->x_unit != SC_UNIT_NONE && chart->series_count > 0)   /* the values swept, in units */
        sc_ticks_at(chart->series[0].x, chart->series[0].point_count, chart->x_unit, &x_ticks);

    sc_legend_entry *entries = calloc(chart->series_count ? chart->series_count : 1, sizeof *entries);
    if (!entries)
        abort();
    for (size_t s = 0; s < chart->series_count; s++) {
        entries[s].label = chart->series[s].label;
        entries[s].colour = sc_series_colour(s);
    }
    sc_frame frame;
    sc_frame_layout(&frame, chart->title, PLOT_WIDTH, PLOT_HEIGHT, 50, &y_ticks, entries, chart->series_count);
    sc_scale x_scale = {x_low, x_high, frame.plot_left, frame.plot_left + frame.plot_width,
                        chart->log_x};
    sc_scale y_scale = {y_low, y_high, frame.plot_top + frame.plot_height, frame.plot_top, 0};

    sc_svg svg;
    sc_svg_begin(&svg, frame.width, frame.height, chart->title);
    sc_frame_draw_title(&svg, &frame, chart->title);
    sc_frame_draw_y_axis(&svg, &frame, &y_scale, &y_ticks, chart->y_label);
    sc_frame_draw_x_axis(&svg, &frame, &x_scale, &x_ticks, chart->x_label,
                         frame.plot_top + frame.plot_height + 40);
    for (size_t s = 0; s < chart->series_count; s++)
        draw_series(&svg, &chart->series[s], entries[s].colour, &x_scale, &y_scale);
    sc_frame_draw_legend(&svg, &frame, entries, chart->series_count, 1);
    free(entries);
    return sc_svg_finish(&svg);
}
