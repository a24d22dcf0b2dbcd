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

/* The hash of a configuration's canonical JSON, computed when first asked for after a change
 * (config_json.c): a sweep sets several keys per point and checks every point before it runs,
 * and only the points it stores need their hash. Held apart from the configuration so that
 * asking a const configuration for its hash can fill it in. */
typedef struct sc_config_hash_cache {
    char text[17];
    bool current;             /* text is the hash of the configuration as it is now */
} sc_config_hash_cache;

struct sc_config {
    char *system;
    bool *present;            /* per schema key: defined by some layer yet */
    sc_config_value *values;  /* per schema key */
    sc_config_hash_cache *hash;   /* marked stale by config.c after every change */
};

/* Resolves a preset name or .json path to a file path; an unknown name fails listing the
 * available presets (presets.c). */
int sc_config_preset_path(const char *system, char *path, size_t path_size, sc_error *error);

#endif
