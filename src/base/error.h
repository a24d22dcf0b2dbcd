/* error.h — the one error convention of syncscope.
 *
 * A function that can fail takes a `sc_error *` as its last argument, returns -1 (or NULL) on
 * failure and fills the error with one line of text naming the file and line, or the key path,
 * that caused it. Callers either pass the error up unchanged or print it once and exit non-zero.
 */
#ifndef SYNCSCOPE_BASE_ERROR_H
#define SYNCSCOPE_BASE_ERROR_H

#include <stdarg.h>

typedef struct sc_error {
    char message[1024];
} sc_error;

/* Formats the message into `error` (if not NULL) and returns -1, so callers can write
 * `return sc_fail(error, "...", ...);`. */
int sc_fail(sc_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));
int sc_vfail(sc_error *error, const char *format, va_list args);

/* Prefixes an existing message with "prefix: " (used to add a file name or key path). */
int sc_fail_prefix(sc_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
