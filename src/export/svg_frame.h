/* svg_frame.h — the parts every chart shares: the layout of title, plot area, axes and legend;
 * value-to-pixel scales; "nice" tick positions and their labels.
 */
#ifndef SYNCSCOPE_EXPORT_SVG_FRAME_H
#define SYNCSCOPE_EXPORT_SVG_FRAME_H

#include <stddef.h>

#include "export/svg.h"
#include "export/svg_canvas.h"

#define SC_MAX_TICKS 32

/* Maps data values in [data_min, data_max] onto pixels [pixel_min, pixel_max] (pixel_max may be
 * smaller, as for a y axis that grows upwards). */
typedef struct sc_scale {
    double data_min, data_max;
    double pixel_min, pixel_max;
    int logarithmic;
} sc_scale;

typedef struct sc_ticks {
    size_t count;
    double values[SC_MAX_TICKS];
    double step;                /* spacing for linear ticks; 0 for logarithmic ones */
    sc_axis_unit unit;          /* how sc_format_tick labels them */
} sc_ticks;

typedef struct sc_legend_entry {
    const char *label;
    const char *colour;
} sc_legend_entry;

typedef struct sc_frame {
    double width, height;                       /* whole picture */
    double plot_left, plot_top, plot_width, plot_height;
    double legend_left;
} sc_frame;

double sc_scale_map(const sc_scale *scale, double value);

/* Ticks at 1, 2 or 5 x 10^k covering [low, high]; widens low/high to the outer ticks. */
void sc_ticks_linear(double *low, double *high, sc_ticks *ticks);

/* Ticks at 1, 2, 5 x 10^k (only 10^k over wide ranges) inside [low, high], both > 0. */
void sc_ticks_log(double low, double high, sc_ticks *ticks);

/* Ticks at the given values (sorted, duplicates dropped, at most SC_MAX_TICKS), in `unit`. */
void sc_ticks_at(const double *values, size_t count, sc_axis_unit unit, sc_ticks *ticks);

void sc_format_tick(const sc_ticks *ticks, double value, char out[32]);

/* Lays out a picture around a plot area of the given size: the title above, room on the left
 * for y tick labels and the y label, `bottom_margin` below, and a legend column on the right;
 * the picture is widened if the title needs it. */
void sc_frame_layout(sc_frame *frame, const char *title, double plot_width, double plot_height,
                     double bottom_margin, const sc_ticks *y_ticks, const sc_legend_entry *entries,
                     size_t entry_count);

void sc_frame_draw_title(sc_svg *svg, const sc_frame *frame, const char *title);

/* Horizontal grid lines with tick labels, the y axis line and its rotated label. */
void sc_frame_draw_y_axis(sc_svg *svg, const sc_frame *frame, const sc_scale *scale,
                          const sc_ticks *ticks, const char *label);

/* The x axis line, numeric ticks with labels (NULL ticks: line only) and the label centred
 * under the plot at `label_y`. */
void sc_frame_draw_x_axis(sc_svg *svg, const sc_frame *frame, const sc_scale *scale,
                          const sc_ticks *ticks, const char *label, double label_y);

/* The legend: a colour swatch (or a line with a marker when `as_lines`) and a label per entry. */
void sc_frame_draw_legend(sc_svg *svg, const sc_frame *frame, const sc_legend_entry *entries,
                          size_t entry_count, int as_lines);

#endif
