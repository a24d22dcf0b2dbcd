/* error.c — formatting of the one-line error messages described in error.h. */
#include "base/error.h"

#include <stdio.h>
#include <string.h>

int sc_vfail(sc_error *error, const char *format, va_list args)
{
    if (error)
        vsnprintf(error->message, sizeof error->message, format, args);
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

int sc_fail_prefix(sc_error *error, const char *format, ...)
{
    if (!error)
        return -1;
    char prefix[512];
    va_list args;
    va_start(args, format);
    vsnprintf(prefix, sizeof prefix, format, args);
    va_end(args);
    char joined[sizeof error->message];
    snprintf(joined, sizeof joined, "%s: %s", prefix, error->message);
    memcpy(error->message, joined, sizeof joined);
    return -1;
}
