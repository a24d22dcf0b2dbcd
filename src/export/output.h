/* output.h — writing exported text to files without ever leaving half of one behind. */
#ifndef SYNCSCOPE_EXPORT_OUTPUT_H
#define SYNCSCOPE_EXPORT_OUTPUT_H

#include "base/error.h"

/* Creates `directory` and any missing parents (like mkdir -p). */
int sc_output_make_directories(const char *directory, sc_error *error);

/* Writes `text` to `path` ("-" is standard output): into a temporary file beside it, renamed
 * over `path` once complete. Missing parent directories are created. */
int sc_output_write(const char *path, const char *text, sc_error *error);

#endif
