/* units.c — exact decimal parsing of integers, sizes and frequencies (see units.h). */
#include "config/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct unit_suffix {
    const char *name;
    int64_t scale;
} unit_suffix;

/* Binary multiples whichever way they are spelled: a cache or a memory is never sized in
 * powers of ten, so "16KB", "16kB", "16K" and "16KiB" are all 16384 bytes. */
static const unit_suffix size_units[] = {
    {"", 1},
    {"B", 1},
    {"KiB", 1LL << 10}, {"KB", 1LL << 10}, {"kB", 1LL << 10}, {"K", 1LL << 10}, {"k", 1LL << 10},
    {"MiB", 1LL << 20}, {"MB", 1LL << 20}, {"M", 1LL << 20},
    {"GiB", 1LL << 30}, {"GB", 1LL << 30}, {"G", 1LL << 30},
    {"TiB", 1LL << 40}, {"TB", 1LL << 40}, {"T", 1LL << 40},
};

static const unit_suffix frequency_units[] = {
    {"", 1}, {"Hz", 1}, {"kHz", 1000}, {"MHz", 1000000}, {"GHz", 1000000000},
};

/* Parses "<digits>[.<digits>]<spaces><suffix>" exactly: the value is whole / 10^decimals
 * times the suffix's scale, and must come out as a whole number. A syntax error leaves
 * *why NULL; a well-formed but unusable number explains itself in *why. */
static int parse_scaled(const char *text, const unit_suffix *units, size_t unit_count,
                        int64_t *value, const char **why)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p)) {
        *why = NULL; /* a syntax error: the caller says what was expected */
        return -1;
    }
    int64_t whole = 0, divisor = 1;
    int seen_point = 0;
    for (; isdigit((unsigned char)*p) || (*p == '.' && !seen_point); p++) {
        if (*p == '.') {
            seen_point = 1;
            continue;
        }
        if (whole > (INT64_MAX - 9) / 10 || (seen_point && divisor > INT64_MAX / 10)) {
            *why = "number too large";
            return -1;
        }
        whole = whole * 10 + (*p - '0');
        if (seen_point)
            divisor *= 10;
    }
    while (isspace((unsigned char)*p))
        p++;
    size_t suffix_length = strlen(p);
    while (suffix_length > 0 && isspace((unsigned char)p[suffix_length - 1]))
        suffix_length--;
    for (size_t i = 0; i < unit_count; i++) {
        if (strlen(units[i].name) != suffix_length || strncmp(units[i].name, p, suffix_length))
            continue;
        int64_t scale = units[i].scale;
        if (whole != 0 && scale > INT64_MAX / whole) {
            *why = "number too large";
            return -1;
        }
        if ((whole * scale) % divisor != 0) {
            *why = "not a whole number of base units";
            return -1;
        }
        *value = whole * scale / divisor;
        return 0;
    }
    *why = NULL;
    return -1;
}

int sc_parse_size(const char *text, int64_t *bytes, const char **why)
{
    if (parse_scaled(text, size_units, sizeof size_units / sizeof size_units[0], bytes, why) == 0)
        return 0;
    if (!*why)
        *why = "not a size (write e.g. 64B, 16KiB, 2MiB, 1GiB or plain bytes; KB, kB and K mean KiB too)";
    return -1;
}

int sc_parse_frequency(const char *text, int64_t *hertz, const char **why)
{
    if (parse_scaled(text, frequency_units, sizeof frequency_units / sizeof frequency_units[0], hertz,
                     why) == 0)
        return 0;
    if (!*why)
        *why = "not a frequency (write e.g. 700MHz, 1.4GHz or plain Hz)";
    return -1;
}

int sc_parse_int(const char *text, int64_t *value, const char **why)
{
    char *end;
    errno = 0;
    long long parsed = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || isspace((unsigned char)*text)) {
        *why = "not an integer";
        return -1;
    }
    if (errno == ERANGE) {
        *why = "integer out of range";
        return -1;
    }
    *value = parsed;
    return 0;
}

int sc_parse_float(const char *text, double *value, const char **why)
{
    char *end;
    double parsed = strtod(text, &end);
    if (end == text || *end != '\0' || isspace((unsigned char)*text) || !isfinite(parsed)) {
        *why = "not a finite number";
        return -1;
    }
    *value = parsed;
    return 0;
}

int sc_parse_bool(const char *text, bool *value, const char **why)
{
    static const char *const truths[] = {"true", "yes", "on", "1"};
    static const char *const falsehoods[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < sizeof truths / sizeof truths[0]; i++) {
        if (!strcmp(text, truths[i])) {
            *value = true;
            return 0;
        }
        if (!strcmp(text, falsehoods[i])) {
            *value = false;
            return 0;
        }
    }
    *why = "not a boolean (true/false, yes/no, on/off, 1/0)";
    return -1;
}
