/* files.h — whole-file reading, path joining and comparing shared by every loader. */
#ifndef SYNCSCOPE_BASE_FILES_H
#define SYNCSCOPE_BASE_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include "base/error.h"

/* Reads a whole file into a NUL-terminated malloc'd buffer; *size gets its length (optional). */
char *sc_read_file(const char *path, size_t *size, sc_error *error);

/* Joins `relative` to the directory part of `anchor_file` unless `relative` is absolute.
 * Writes into `out` (size `out_size`); returns -1 if it does not fit. */
int sc_path_relative_to(const char *anchor_file, const char *relative, char *out, size_t out_size,
                        sc_error *error);

/* Whether two paths name the same existing file. */
bool sc_same_file(const char *a, const char *b);

/* The directory holding the project's models/, queries/ and the mechanisms' model parameter
 * files: the SYNCSCOPE_SOURCE_DIR environment variable; else PREFIX/share/syncscope when the
 * binary runs from PREFIX/bin and that directory exists (an installed copy, cmake --install);
 * else the compiled-in source directory. */
const char *sc_data_dir(void);

#endif
