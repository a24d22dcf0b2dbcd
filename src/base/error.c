/* error.c — formatting of the one-line error messages described in error.h. */
#include "base/error.h"

#include <stdio.h>
#include <string.h>

int sc_vfail(sc_error *error, const char *format, va_list args)
{
    if (error) {
        vsnprintf(error->message, sizeof error->message, format, args);
        error->bad_input = 0;
    }
    return -1;
}

int sc_fail(sc_error *error, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    sc_vfail(error, format, args);
    va_end(args);
    return -1;
}

int sc_fail_input(sc_error *error, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    sc_vfail(error, format, args);
    va_end(args);
    if (error)
        error->bad_input = 1;
    return -1;
}

int sc_fail_prefix(sc_error *error, const char *format, ...)
{
    if (!error)
        return -1;
    char prefix[512];
    va_list args;
    va_start(args, format);
    int prefix_length = vsnprintf(prefix, sizeof prefix, format, args);
    va_end(args);
    if (prefix_length < 0)
        return -1;
    size_t used = (size_t)prefix_length < sizeof prefix ? (size_t)prefix_length : sizeof prefix - 1;
    size_t capacity = sizeof error->message;
    if (used + 2 >= capacity)
        return -1;
    size_t kept = strnlen(error->message, capacity - 1);
    if (kept > capacity - 1 - used - 2)
        kept = capacity - 1 - used - 2;
    memmove(error->message + used + 2, error->message, kept);
    memcpy(error->message, prefix, used);
    memcpy(error->message + used, ": ", 2);
    error->message[used + 2 + kept] = '\0';
    return -1;
}
