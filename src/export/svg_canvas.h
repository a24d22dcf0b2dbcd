/* svg_canvas.h — the drawing primitives every syncscope chart is made of.
 *
 * A canvas appends SVG 1.1 elements to a string: coordinates are printed with two decimals so
 * that output is deterministic, and all text is escaped for XML. Charts (svg_bars.c,
 * svg_lines.c) lay themselves out in svg_frame.c and draw through these calls only.
 */
#ifndef SYNCSCOPE_EXPORT_SVG_CANVAS_H
#define SYNCSCOPE_EXPORT_SVG_CANVAS_H

#include <stddef.h>

#include "export/strbuf.h"

typedef struct sc_svg {
    sc_strbuf out;
} sc_svg;

typedef enum sc_text_anchor {
    SC_ANCHOR_START,
    SC_ANCHOR_MIDDLE,
    SC_ANCHOR_END,
} sc_text_anchor;

typedef struct sc_text_style {
    double size;                /* font size in px */
    sc_text_anchor anchor;
    double rotate;              /* degrees about the anchor point, e.g. -90 or -45 */
    int bold;
} sc_text_style;

/* Opens the document: root element with viewBox, a white background, and `title` as the
 * document's <title>. */
void sc_svg_begin(sc_svg *svg, double width, double height, const char *title);

/* Closes the document and returns its text (the canvas is left empty). */
char *sc_svg_finish(sc_svg *svg);

/* A filled rectangle; `tooltip` (may be NULL) becomes a <title> child shown on hover. The
 * rectangle carries class="`css_class`" when that is not NULL. */
void sc_svg_rect(sc_svg *svg, double x, double y, double width, double height, const char *fill,
                 const char *css_class, const char *tooltip);
void sc_svg_line(sc_svg *svg, double x1, double y1, double x2, double y2, const char *stroke,
                 double stroke_width, int dashed);
void sc_svg_polyline(sc_svg *svg, const double *xs, const double *ys, size_t count,
                     const char *stroke);
void sc_svg_circle(sc_svg *svg, double cx, double cy, double radius, const char *fill,
                   const char *tooltip);
void sc_svg_text(sc_svg *svg, double x, double y, const char *text, sc_text_style style);

/* Rough width of `text` in px at font size `size` (for layout only). */
double sc_svg_text_width(const char *text, double size);

/* Appends `text` escaped for XML character data and attribute values; characters XML 1.0
 * forbids are dropped. */
void sc_svg_append_escaped(sc_strbuf *out, const char *text);

#endif
