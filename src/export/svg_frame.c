/* svg_frame.c — layout, scales, ticks, axes and legend shared by all charts (svg_frame.h). */
#include "export/svg_frame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TITLE_HEIGHT 40.0
#define TOP_PADDING 16.0
#define RIGHT_PADDING 16.0
#define FONT_SIZE 12.0
#define TITLE_SIZE 15.0
#define TICK_FONT_SIZE 11.0
#define LEGEND_ROW 18.0
#define LEGEND_SWATCH 12.0

static const sc_text_style tick_style_y = {TICK_FONT_SIZE, SC_ANCHOR_END, 0, 0};
static const sc_text_style tick_style_x = {TICK_FONT_SIZE, SC_ANCHOR_MIDDLE, 0, 0};
static const sc_text_style label_style = {FONT_SIZE, SC_ANCHOR_MIDDLE, 0, 0};

double sc_scale_map(const sc_scale *scale, double value)
{
    double low = scale->data_min, high = scale->data_max;
    if (scale->logarithmic) {
        value = log10(value);
        low = log10(low);
        high = log10(high);
    }
    double fraction = high > low ? (value - low) / (high - low) : 0.5;
    return scale->pixel_min + fraction * (scale->pixel_max - scale->pixel_min);
}

/* The 1-2-5 step nearest above range/target. */
static double nice_step(double range, double target)
{
    double raw = range / target;
    double magnitude = pow(10, floor(log10(raw)));
    double mantissa = raw / magnitude;
    double nice = mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10;
    return nice * magnitude;
}

void sc_ticks_linear(double *low, double *high, sc_ticks *ticks)
{
    if (!(*high > *low))
        *high = *low + 1;
    double step = nice_step(*high - *low, 5);
    double first = floor(*low / step + 1e-9), last = ceil(*high / step - 1e-9);
    *low = first * step;
    *high = last * step;
    ticks->step = step;
    ticks->unit = SC_UNIT_NONE;
    ticks->count = 0;
    for (double index = first; index <= last && ticks->count < SC_MAX_TICKS; index++)
        ticks->values[ticks->count++] = index * step;
}

void sc_ticks_log(double low, double high, sc_ticks *ticks)
{
    static const double multiples[] = {1, 2, 5};
    int first_decade = (int)floor(log10(low)), last_decade = (int)ceil(log10(high));
    int dense = last_decade - first_decade <= 3;
    ticks->step = 0;
    ticks->unit = SC_UNIT_NONE;
    ticks->count = 0;
    for (int decade = first_decade; decade <= last_decade; decade++)
        for (size_t m = 0; m < (dense ? 3u : 1u); m++) {
            double value = multiples[m] * pow(10, decade);
            if (value >= low * (1 - 1e-9) && value <= high * (1 + 1e-9) && ticks->count < SC_MAX_TICKS)
                ticks->values[ticks->count++] = value;
        }
    if (ticks->count < 2) {     /* a narrow range with no 1-2-5 value inside: mark its ends */
        ticks->count = 0;
        ticks->values[ticks->count++] = low;
        ticks->values[ticks->count++] = high;
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void sc_ticks_at(const double *values, size_t count, sc_axis_unit unit, sc_ticks *ticks)
{
    double sorted[SC_MAX_TICKS * 4];
    size_t kept = 0;
    for (size_t i = 0; i < count && kept < sizeof sorted / sizeof sorted[0]; i++)
        if (isfinite(values[i]))
            sorted[kept++] = values[i];
    qsort(sorted, kept, sizeof sorted[0], compare_doubles);
    ticks->step = 0;
    ticks->unit = unit;
    ticks->count = 0;
    for (size_t i = 0; i < kept && ticks->count < SC_MAX_TICKS; i++)
        if (ticks->count == 0 || sorted[i] != ticks->values[ticks->count - 1])
            ticks->values[ticks->count++] = sorted[i];
}

/* `value` in the largest of `units` (each `base` times the last) it reaches: "24 KiB". */
static void format_in_units(double value, const char *const *units, size_t unit_count, double base, char out[32])
{
    size_t unit = 0;
    while (unit + 1 < unit_count && fabs(value) >= base) {
        value /= base;
        unit++;
    }
    snprintf(out, 32, "%.4g %s", value, units[unit]);
}

void sc_format_tick(const sc_ticks *ticks, double value, char out[32])
{
    static const char *const bytes[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    static const char *const hertz[] = {"Hz", "kHz", "MHz", "GHz"};
    if (ticks->unit == SC_UNIT_BYTES) {
        format_in_units(value, bytes, sizeof bytes / sizeof bytes[0], 1024, out);
        return;
    }
    if (ticks->unit == SC_UNIT_HERTZ) {
        format_in_units(value, hertz, sizeof hertz / sizeof hertz[0], 1000, out);
        return;
    }
    double magnitude = fabs(value);
    double step = ticks->step > 0 ? ticks->step : magnitude;
    if (magnitude >= 1e5 || (magnitude > 0 && magnitude < 1e-3)) {
        snprintf(out, 32, "%.3g", value);
        return;
    }
    int decimals = step >= 1 || step <= 0 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (fabs(value) < step * 1e-9)
        value = 0;              /* never print "-0" */
    snprintf(out, 32, "%.*f", decimals, value);
}

void sc_frame_layout(sc_frame *frame, const char *title, double plot_width, double plot_height,
                     double bottom_margin, const sc_ticks *y_ticks, const sc_legend_entry *entries,
                     size_t entry_count)
{
    double widest_tick = 0, widest_entry = 0;
    char text[32];
    for (size_t i = 0; i < y_ticks->count; i++) {
        sc_format_tick(y_ticks, y_ticks->values[i], text);
        widest_tick = fmax(widest_tick, sc_svg_text_width(text, TICK_FONT_SIZE));
    }
    for (size_t i = 0; i < entry_count; i++)
        widest_entry = fmax(widest_entry, sc_svg_text_width(entries[i].label, FONT_SIZE));
    frame->plot_left = 24 + widest_tick + 12;
    frame->plot_top = TITLE_HEIGHT;
    frame->plot_width = plot_width;
    frame->plot_height = plot_height;
    frame->legend_left = frame->plot_left + plot_width + 20;
    double legend_width = entry_count ? 30 + widest_entry : 0;
    double legend_height = (double)entry_count * LEGEND_ROW;
    frame->width = ceil(fmax(frame->legend_left + legend_width + RIGHT_PADDING,
                             sc_svg_text_width(title ? title : "", TITLE_SIZE) + 2 * RIGHT_PADDING));
    frame->height = ceil(fmax(TITLE_HEIGHT + plot_height + bottom_margin,
                              TITLE_HEIGHT + legend_height + TOP_PADDING));
}

void sc_frame_draw_title(sc_svg *svg, const sc_frame *frame, const char *title)
{
    sc_text_style style = {TITLE_SIZE, SC_ANCHOR_MIDDLE, 0, 1};
    sc_svg_text(svg, frame->width / 2, 24, title ? title : "", style);
}

void sc_frame_draw_y_axis(sc_svg *svg, const sc_frame *frame, const sc_scale *scale,
                          const sc_ticks *ticks, const char *label)
{
    double left = frame->plot_left, right = frame->plot_left + frame->plot_width;
    char text[32];
    for (size_t i = 0; i < ticks->count; i++) {
        double y = sc_scale_map(scale, ticks->values[i]);
        sc_svg_line(svg, left, y, right, y, "#e0e0e0", 1, 0);
        sc_svg_line(svg, left - 4, y, left, y, "#444444", 1, 0);
        sc_format_tick(ticks, ticks->values[i], text);
        sc_svg_text(svg, left - 7, y + 4, text, tick_style_y);
    }
    sc_svg_line(svg, left, frame->plot_top, left, frame->plot_top + frame->plot_height,
                "#444444", 1, 0);
    sc_text_style rotated = label_style;
    rotated.rotate = -90;
    sc_svg_text(svg, 16, frame->plot_top + frame->plot_height / 2, label ? label : "", rotated);
}

void sc_frame_draw_x_axis(sc_svg *svg, const sc_frame *frame, const sc_scale *scale,
                          const sc_ticks *ticks, const char *label, double label_y)
{
    double bottom = frame->plot_top + frame->plot_height;
    char text[32];
    sc_svg_line(svg, frame->plot_left, bottom, frame->plot_left + frame->plot_width, bottom,
                "#444444", 1, 0);
    for (size_t i = 0; ticks && i < ticks->count; i++) {
        double x = sc_scale_map(scale, ticks->values[i]);
        sc_svg_line(svg, x, frame->plot_top, x, bottom, "#f0f0f0", 1, 0);
        sc_svg_line(svg, x, bottom, x, bottom + 4, "#444444", 1, 0);
        sc_format_tick(ticks, ticks->values[i], text);
        sc_svg_text(svg, x, bottom + 17, text, tick_style_x);
    }
    if (label)
        sc_svg_text(svg, frame->plot_left + frame->plot_width / 2, label_y, label, label_style);
}

void sc_frame_draw_legend(sc_svg *svg, const sc_frame *frame, const sc_legend_entry *entries,
                          size_t entry_count, int as_lines)
{
    sc_text_style style = {FONT_SIZE, SC_ANCHOR_START, 0, 0};
    for (size_t i = 0; i < entry_count; i++) {
        double y = frame->plot_top + (double)i * LEGEND_ROW;
        double x = frame->legend_left;
        if (as_lines) {
            sc_svg_line(svg, x, y + LEGEND_SWATCH / 2, x + 20, y + LEGEND_SWATCH / 2,
                        entries[i].colour, 2, 0);
            sc_svg_circle(svg, x + 10, y + LEGEND_SWATCH / 2, 3.5, entries[i].colour, NULL);
        } else {
            sc_svg_rect(svg, x + 4, y, LEGEND_SWATCH, LEGEND_SWATCH, entries[i].colour, NULL, NULL);
        }
        sc_svg_text(svg, x + 26, y + LEGEND_SWATCH - 1, entries[i].label, style);
    }
}
