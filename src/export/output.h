/* output.h — writing exported text to files without ever leaving half of one behind. */
#ifndef SYNCSCOPE_EXPORT_OUTPUT_H
#define SYNCSCOPE_EXPORT_OUTPUT_H

#include "base/error.h"

/* Creates `directory` and any missing parents (like mkdir -p). */
int sc_output_make_directories(const char *directory, sc_error *error);

/* Writes `text` to `path` ("-" is standard output): into a temporary file beside it, renamed
 * over `path` once complete. Missing parent directories are created. */
int sc_output_write(const char *path, const char *text, sc_error *error);

/* Writes a figure: the SVG `svg` to `svg_path` (as sc_output_write), then, when rsvg-convert
 * (Debian's librsvg2-bin) is on the PATH, the same picture as a PNG (at 2x, for slides and
 * screens) and a PDF (vector, for papers) beside it, named like the SVG. Without rsvg-convert
 * only the SVG is written; a conversion that fails is an error and leaves no PNG or PDF. */
int sc_output_write_figure(const char *svg_path, const char *svg, sc_error *error);

/* The same for DIRECTORY/FILE, taking `svg` (malloc'd: freed here); a NULL `svg`, a chart that
 * could not be drawn (its error already set), returns -1. */
int sc_output_write_figure_in(const char *directory, const char *file, char *svg, sc_error *error);

#endif
