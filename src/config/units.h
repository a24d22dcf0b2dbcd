/* units.h — exact parsing of the value spellings configuration files and --set accept.
 *
 * Sizes: "64", "64B", "16KiB", "2MiB", "1.5GiB"; every multiple is binary however it is
 * spelled: KiB = KB = kB = K = 1024 bytes, MiB = MB = M, GiB = GB = G, TiB = TB = T (no
 * cache or memory is sized in powers of ten, so there is nothing to guess). Frequencies: "700000000", "700MHz", "1.4GHz", "2 GHz". Decimal
 * fractions are computed exactly; a value that is not a whole number of bytes or Hz is an
 * error. Each parser returns 0, or -1 with a short reason in `why` (no key path: the caller
 * adds it).
 */
#ifndef SYNCSCOPE_CONFIG_UNITS_H
#define SYNCSCOPE_CONFIG_UNITS_H

#include <stdbool.h>
#include <stdint.h>

int sc_parse_int(const char *text, int64_t *value, const char **why);
int sc_parse_size(const char *text, int64_t *bytes, const char **why);
int sc_parse_frequency(const char *text, int64_t *hertz, const char **why);
int sc_parse_float(const char *text, double *value, const char **why);
int sc_parse_bool(const char *text, bool *value, const char **why);

#endif
