/* error.h — the one error convention of syncscope.
 *
 * A function that can fail takes a `sc_error *` as its last argument, returns -1 (or NULL) on
 * failure and fills the error with one line of text naming the file and line, or the key path,
 * that caused it. Callers either pass the error up unchanged or print it once and exit non-zero.
 */
#ifndef SYNCSCOPE_BASE_ERROR_H
#define SYNCSCOPE_BASE_ERROR_H

#include <stdarg.h>

/* The members sit in one unnamed struct so that the customary `sc_error error = {{0}};` zeroes
 * them all without a missing-initializer warning. */
typedef struct sc_error {
    struct {
        int bad_input;    /* 1: the user's input is wrong (a preset, key, value, file or spec), set
                             by sc_fail_input; 0: a run, check or operation failed (sc_fail). The
                             CLI exits 2 for the first and 1 for the second. */
        char message[1024];
    };
} sc_error;

/* Formats the message into `error` (if not NULL) and returns -1, so callers can write
 * `return sc_fail(error, "...", ...);`. */
int sc_fail(sc_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));
int sc_vfail(sc_error *error, const char *format, va_list args);

/* As sc_fail, marking the error as bad input. */
int sc_fail_input(sc_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Prefixes an existing message with "prefix: " (used to add a file name or key path); the
 * error stays bad input or not. */
int sc_fail_prefix(sc_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
