/* config.h — resolved system configurations: load, layer, validate, read, hash.
 *
 * A configuration is built in layers, later layers winning:
 *   1. a system preset (models/systems/NAME.json, or a path to such a file), which must define
 *      every key of the schema (config keys lists them);
 *   2. an optional override file with the same nested layout, defining any subset;
 *   3. "--set key.path=value" strings.
 * Every value is validated against the schema (schema.h) as it is applied; an unknown key, a
 * bad value or malformed JSON fails with one line naming the file and the key path or line.
 * The resolved configuration has a canonical JSON form (every key, base units, sorted keys)
 * and a 16-hex-digit FNV-1a 64 hash of that text, which identifies it in the results store.
 */
#ifndef SYNCSCOPE_CONFIG_CONFIG_H
#define SYNCSCOPE_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

typedef struct sc_config sc_config;

/* Loads `system` (a preset name or a path ending in .json), then `override_file` (may be NULL),
 * then the `set_count` "key=value" strings of `sets`. Returns NULL and fills `error` on failure. */
sc_config *sc_config_load(const char *system, const char *override_file, const char *const *sets,
                          int set_count, sc_error *error);
sc_config *sc_config_copy(const sc_config *config);
void sc_config_free(sc_config *config);

/* Sets one key from text as --set would (used by sweeps to vary a design point). */
int sc_config_set(sc_config *config, const char *key, const char *value, sc_error *error);

/* The preset name this configuration was loaded from (file name without .json). */
const char *sc_config_system(const sc_config *config);

/* Typed getters. Asking for a key that does not exist, or with the wrong getter, is a
 * programming error: the process aborts naming the key. sc_config_int serves int, size (bytes)
 * and frequency (Hz) keys; sc_config_float also serves those, converted to double;
 * sc_config_string serves string and enum keys. */
int64_t sc_config_int(const sc_config *config, const char *key);
double sc_config_float(const sc_config *config, const char *key);
bool sc_config_bool(const sc_config *config, const char *key);
const char *sc_config_string(const sc_config *config, const char *key);

/* The canonical JSON text (malloc'd): every key, nested by group, sorted, in base units.
 * `indented` adds newlines and two-space indentation for people; the hash uses the compact form. */
char *sc_config_json(const sc_config *config, bool indented);
/* The compact form, which the hash is taken of (a configuration's first canonical text since a
 * change also gives sc_config_hash its value, so asking for both costs one text). */
char *sc_config_canonical_json(const sc_config *config);

/* FNV-1a 64 of the compact canonical JSON, as 16 lowercase hex digits (valid until the next
 * sc_config_set or sc_config_free); computed when first asked for after a change. */
const char *sc_config_hash(const sc_config *config);

/* FNV-1a 64 of any text, as 16 hex digits written into `out` (17 bytes). */
void sc_hash_text(const char *text, size_t length, char out[17]);

/* The available presets: names of models/systems/ *.json under sc_data_dir(), sorted. */
typedef struct sc_preset_list {
    char **names;
    size_t count;
} sc_preset_list;

int sc_config_list_presets(sc_preset_list *list, sc_error *error);
void sc_preset_list_free(sc_preset_list *list);

#endif
