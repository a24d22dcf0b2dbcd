/* svg_canvas.c — SVG drawing primitives with XML escaping (see svg_canvas.h). */
#include "export/svg_canvas.h"

#include <stdio.h>

static const char *const font_family = "DejaVu Sans, Helvetica, Arial, sans-serif";

void sc_svg_append_escaped(sc_strbuf *out, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        switch (*c) {
        case '&':
            sc_strbuf_append(out, "&amp;");
            break;
        case '<':
            sc_strbuf_append(out, "&lt;");
            break;
        case '>':
            sc_strbuf_append(out, "&gt;");
            break;
        case '"':
            sc_strbuf_append(out, "&quot;");
            break;
        case '\'':
            sc_strbuf_append(out, "&apos;");
            break;
        default:
            if (*c >= 0x20 || *c == '\t' || *c == '\n' || *c == '\r')
                sc_strbuf_append_char(out, (char)*c);
            break;
        }
    }
}

void sc_svg_begin(sc_svg *svg, double width, double height, const char *title)
{
    svg->out = (sc_strbuf)SC_STRBUF_INIT;
    sc_strbuf_appendf(&svg->out,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                      "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                      "font-family=\"%s\">\n",
                      width, height, width, height, font_family);
    sc_strbuf_append(&svg->out, "<title>");
    sc_svg_append_escaped(&svg->out, title ? title : "");
    sc_strbuf_append(&svg->out, "</title>\n");
    sc_strbuf_appendf(&svg->out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
                      "fill=\"#ffffff\"/>\n", width, height);
}

char *sc_svg_finish(sc_svg *svg)
{
    sc_strbuf_append(&svg->out, "</svg>\n");
    return sc_strbuf_take(&svg->out);
}

/* Ends an element opened with "<name ..." either as empty or with a <title> tooltip child. */
static void close_with_tooltip(sc_svg *svg, const char *element, const char *tooltip)
{
    if (!tooltip) {
        sc_strbuf_append(&svg->out, "/>\n");
        return;
    }
    sc_strbuf_append(&svg->out, "><title>");
    sc_svg_append_escaped(&svg->out, tooltip);
    sc_strbuf_appendf(&svg->out, "</title></%s>\n", element);
}

void sc_svg_rect(sc_svg *svg, double x, double y, double width, double height, const char *fill,
                 const char *css_class, const char *tooltip)
{
    sc_strbuf_append(&svg->out, "<rect");
    if (css_class)
        sc_strbuf_appendf(&svg->out, " class=\"%s\"", css_class);
    sc_strbuf_appendf(&svg->out, " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                      "fill=\"%s\"", x, y, width, height, fill);
    close_with_tooltip(svg, "rect", tooltip);
}

void sc_svg_line(sc_svg *svg, double x1, double y1, double x2, double y2, const char *stroke,
                 double stroke_width, int dashed)
{
    sc_strbuf_appendf(&svg->out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                      "stroke=\"%s\" stroke-width=\"%.2f\"%s/>\n", x1, y1, x2, y2, stroke,
                      stroke_width, dashed ? " stroke-dasharray=\"5,4\"" : "");
}

void sc_svg_polyline(sc_svg *svg, const double *xs, const double *ys, size_t count,
                     const char *stroke)
{
    sc_strbuf_append(&svg->out, "<polyline points=\"");
    for (size_t i = 0; i < count; i++)
        sc_strbuf_appendf(&svg->out, "%s%.2f,%.2f", i ? " " : "", xs[i], ys[i]);
    sc_strbuf_appendf(&svg->out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", stroke);
}

void sc_svg_circle(sc_svg *svg, double cx, double cy, double radius, const char *fill,
                   const char *tooltip)
{
    sc_strbuf_appendf(&svg->out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" "
                      "stroke=\"#ffffff\" stroke-width=\"1\"", cx, cy, radius, fill);
    close_with_tooltip(svg, "circle", tooltip);
}

void sc_svg_text(sc_svg *svg, double x, double y, const char *text, sc_text_style style)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    sc_strbuf_appendf(&svg->out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" "
                      "text-anchor=\"%s\" fill=\"#222222\"", x, y, style.size,
                      anchors[style.anchor]);
    if (style.bold)
        sc_strbuf_append(&svg->out, " font-weight=\"bold\"");
    if (style.rotate != 0)
        sc_strbuf_appendf(&svg->out, " transform=\"rotate(%.1f %.2f %.2f)\"", style.rotate, x, y);
    sc_strbuf_append(&svg->out, ">");
    sc_svg_append_escaped(&svg->out, text);
    sc_strbuf_append(&svg->out, "</text>\n");
}

double sc_svg_text_width(const char *text, double size)
{
    size_t characters = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        characters += (*c & 0xC0) != 0x80;     /* count UTF-8 lead bytes only */
    return 0.6 * size * (double)characters;
}
