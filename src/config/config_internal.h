/* config_internal.h — the representation of a resolved configuration, shared by the files of
 * src/config/ only: one value slot per schema key, in schema order. */
#ifndef SYNCSCOPE_CONFIG_INTERNAL_H
#define SYNCSCOPE_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

typedef union sc_config_value {
    int64_t integer;  /* int, size (bytes), frequency (Hz) */
    double real;      /* float */
    bool flag;        /* bool */
    char *text;       /* string, enum (malloc'd) */
} sc_config_value;

struct sc_config {
    char *system;
    bool *present;            /* per schema key: defined by some layer yet */
    sc_config_value *values;  /* per schema key */
    char hash[17];            /* kept current by config.c after every change */
};

/* Recomputes config->hash from the canonical JSON (config_json.c). */
void sc_config_rehash(sc_config *config);

/* Resolves a preset name or .json path to a file path; an unknown name fails listing the
 * available presets (presets.c). */
int sc_config_preset_path(const char *system, char *path, size_t path_size, sc_error *error);

#endif
