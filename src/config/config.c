/* config.c — building a resolved configuration from a preset, an override file and --set
 * strings, validating every value against the schema, and the typed getters (see config.h). */
#include "config/config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"
#include "base/json_keys.h"
#include "config/config_internal.h"
#include "config/schema.h"
#include "config/units.h"

#define RESERVED_GROUP "mechanism"

static sc_config *config_new(const char *system)
{
    size_t count;
    sc_schema_keys(&count);
    sc_config *config = calloc(1, sizeof *config);
    config->present = calloc(count, sizeof *config->present);
    config->values = calloc(count, sizeof *config->values);
    config->system = strdup(system);
    config->hash = calloc(1, sizeof *config->hash);
    return config;
}

static int is_text_type(sc_key_type type)
{
    return type == SC_KEY_STRING || type == SC_KEY_ENUM;
}

void sc_config_free(sc_config *config)
{
    if (!config)
        return;
    size_t count;
    const sc_config_key *keys = sc_schema_keys(&count);
    for (size_t i = 0; i < count; i++)
        if (is_text_type(keys[i].type))
            free(config->values[i].text);
    free(config->values);
    free(config->present);
    free(config->system);
    free(config->hash);
    free(config);
}

sc_config *sc_config_copy(const sc_config *config)
{
    size_t count;
    const sc_config_key *keys = sc_schema_keys(&count);
    sc_config *copy = config_new(config->system);
    memcpy(copy->present, config->present, count * sizeof *copy->present);
    memcpy(copy->values, config->values, count * sizeof *copy->values);
    for (size_t i = 0; i < count; i++)
        if (is_text_type(keys[i].type) && copy->values[i].text)
            copy->values[i].text = strdup(copy->values[i].text);
    *copy->hash = *config->hash;
    return copy;
}

static int fail_range(const sc_config_key *key, const char *source, const char *shown, sc_error *error)
{
    char low[64], high[64];
    sc_format_quantity(key->type, key->min, low, sizeof low);
    sc_format_quantity(key->type, key->max, high, sizeof high);
    return sc_fail_input(error, "config: %s: %s = %s is out of range %s..%s%s%s%s", source, key->path, shown,
                   low, high, *key->unit ? " (" : "", key->unit, *key->unit ? ")" : "");
}

/* Checks range and flags of a number already parsed into base units, then stores it. */
static int store_number(sc_config *config, int index, int64_t integer, double real, const char *source,
                        const char *shown, sc_error *error)
{
    const sc_config_key *key = sc_schema_key(index);
    double value = key->type == SC_KEY_FLOAT ? real : (double)integer;
    if (value < key->min || value > key->max)
        return fail_range(key, source, shown, error);
    if ((key->flags & SC_KEY_POWER_OF_TWO) && (integer <= 0 || (integer & (integer - 1))))
        return sc_fail_input(error, "config: %s: %s = %s must be a power of two", source, key->path, shown);
    if (key->type == SC_KEY_FLOAT)
        config->values[index].real = real;
    else
        config->values[index].integer = integer;
    config->present[index] = true;
    return 0;
}

static int store_text(sc_config *config, int index, const char *text, const char *source, sc_error *error)
{
    const sc_config_key *key = sc_schema_key(index);
    if (key->type == SC_KEY_ENUM && !sc_choice_allowed(key->choices, text))
        return sc_fail_input(error, "config: %s: %s = '%s' is not one of %s", source, key->path, text, key->choices);
    if (config->present[index])
        free(config->values[index].text);
    config->values[index].text = strdup(text);
    config->present[index] = true;
    return 0;
}

/* Parses the text spelling of a value of key `index` (a JSON string or a --set value). */
static int assign_text(sc_config *config, int index, const char *text, const char *source, sc_error *error)
{
    const sc_config_key *key = sc_schema_key(index);
    const char *why = NULL;
    int64_t integer = 0;
    double real = 0;
    bool flag;
    char shown[256];
    snprintf(shown, sizeof shown, "'%s'", text);
    switch (key->type) {
    case SC_KEY_STRING:
    case SC_KEY_ENUM:
        return store_text(config, index, text, source, error);
    case SC_KEY_BOOL:
        if (sc_parse_bool(text, &flag, &why) == 0) {
            config->values[index].flag = flag;
            config->present[index] = true;
            return 0;
        }
        break;
    case SC_KEY_INT:
        if (sc_parse_int(text, &integer, &why) == 0)
            return store_number(config, index, integer, 0, source, shown, error);
        break;
    case SC_KEY_SIZE:
        if (sc_parse_size(text, &integer, &why) == 0)
            return store_number(config, index, integer, 0, source, shown, error);
        break;
    case SC_KEY_FREQUENCY:
        if (sc_parse_frequency(text, &integer, &why) == 0)
            return store_number(config, index, integer, 0, source, shown, error);
        break;
    case SC_KEY_FLOAT:
        if (sc_parse_float(text, &real, &why) == 0)
            return store_number(config, index, 0, real, source, shown, error);
        break;
    }
    return sc_fail_input(error, "config: %s: %s = %s: %s", source, key->path, shown, why);
}

/* Assigns a JSON value: strings go through the text parser, numbers and booleans directly. */
static int assign_json(sc_config *config, int index, const cJSON *item, const char *source, sc_error *error)
{
    const sc_config_key *key = sc_schema_key(index);
    if (cJSON_IsString(item))
        return assign_text(config, index, item->valuestring, source, error);
    int numeric = key->type == SC_KEY_INT || key->type == SC_KEY_SIZE || key->type == SC_KEY_FREQUENCY ||
                  key->type == SC_KEY_FLOAT;
    if (cJSON_IsNumber(item) && numeric) {
        char shown[64];
        snprintf(shown, sizeof shown, "%.17g", item->valuedouble);
        if (key->type == SC_KEY_FLOAT)
            return store_number(config, index, 0, item->valuedouble, source, shown, error);
        double value = item->valuedouble;
        if (value != floor(value) || fabs(value) > 9007199254740991.0)
            return sc_fail_input(error, "config: %s: %s = %s is not a whole number", source, key->path, shown);
        return store_number(config, index, (int64_t)value, 0, source, shown, error);
    }
    if (cJSON_IsBool(item) && key->type == SC_KEY_BOOL) {
        config->values[index].flag = cJSON_IsTrue(item);
        config->present[index] = true;
        return 0;
    }
    return sc_fail_input(error, "config: %s: %s expects a %s value%s%s", source, key->path,
                   sc_key_type_name(key->type), key->choices ? " of " : "", key->choices ? key->choices : "");
}

static int fail_unknown_key(const char *path, const char *source, sc_error *error)
{
    const char *nearest = sc_schema_nearest(path);
    if (nearest)
        return sc_fail_input(error, "config: %s: unknown key '%s' (did you mean '%s'?)", source, path, nearest);
    return sc_fail_input(error, "config: %s: unknown key '%s' (see syncscope config keys)", source, path);
}

/* Applies every member of a JSON object whose key paths start with `prefix`. */
static int apply_object(sc_config *config, const cJSON *object, const char *prefix, const char *source,
                        sc_error *error)
{
    for (const cJSON *item = object->child; item; item = item->next) {
        char path[256];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", item->string);
        int index = sc_schema_find(path);
        if (!strcmp(path, RESERVED_GROUP)) {
            if (!cJSON_IsObject(item))
                return sc_fail_input(error, "config: %s: '%s' must be an object", source, path);
            if (item->child)
                return sc_fail_input(error, "config: %s: '%s.%s' is reserved for mechanism parameters (none are defined yet)",
                               source, path, item->child->string);
        } else if (index >= 0) {
            if (assign_json(config, index, item, source, error))
                return -1;
        } else if (cJSON_IsObject(item)) {
            if (apply_object(config, item, path, source, error))
                return -1;
        } else {
            return fail_unknown_key(path, source, error);
        }
    }
    return 0;
}

/* Reads and applies one JSON layer; malformed JSON fails naming file, line and column. */
static int apply_file(sc_config *config, const char *path, sc_error *error)
{
    char *text = sc_read_file(path, NULL, error);
    if (!text) {
        error->bad_input = 1;   /* an override file named on the command line is not there */
        return sc_fail_prefix(error, "config");
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, true);
    if (!root) {
        int line = 1, column = 1;
        for (const char *p = text; end && p < end; p++, column++)
            if (*p == '\n') {
                line++;
                column = 0;
            }
        free(text);
        return sc_fail_input(error, "config: %s:%d:%d: malformed JSON", path, line, column);
    }
    free(text);
    char duplicate[512];
    int status = !cJSON_IsObject(root) ? sc_fail_input(error, "config: %s: the top level must be a JSON object", path)
                 : sc_json_duplicate_key(root, duplicate, sizeof duplicate)
                     ? sc_fail_input(error, "config: %s: %s: duplicate key (each key may be given once)", path, duplicate)
                     : apply_object(config, root, "", path, error);
    cJSON_Delete(root);
    return status;
}

static int apply_setting(sc_config *config, const char *setting, sc_error *error)
{
    const char *equals = strchr(setting, '=');
    if (!equals || equals == setting)
        return sc_fail_input(error, "config: --set '%s': expected key.path=value", setting);
    char path[256];
    snprintf(path, sizeof path, "%.*s", (int)(equals - setting), setting);
    return sc_config_set(config, path, equals + 1, error);
}

int sc_config_set(sc_config *config, const char *key, const char *value, sc_error *error)
{
    int index = sc_schema_find(key);
    if (index < 0)
        return fail_unknown_key(key, "--set", error);
    if (assign_text(config, index, value, "--set", error))
        return -1;
    config->hash->current = false;
    return 0;
}

static int check_complete(const sc_config *config, const char *preset_path, sc_error *error)
{
    size_t count;
    const sc_config_key *keys = sc_schema_keys(&count);
    for (size_t i = 0; i < count; i++)
        if (!config->present[i])
            return sc_fail_input(error, "config: %s: missing key '%s' (a preset defines every key; see syncscope config keys)",
                           preset_path, keys[i].path);
    return 0;
}

/* Relations between keys that single-key ranges cannot express. */
static int check_relations(const sc_config *config, sc_error *error)
{
    static const char *const ranges[][2] = {
        {"l1.remote_latency", "l1.remote_latency_max"},
        {"l2.latency", "l2.latency_max"},
        {"dram.latency", "dram.latency_max"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        int64_t low = sc_config_int(config, ranges[i][0]), high = sc_config_int(config, ranges[i][1]);
        if (high < low)
            return sc_fail_input(error, "config: %s = %lld is below %s = %lld", ranges[i][1], (long long)high,
                           ranges[i][0], (long long)low);
    }
    return 0;
}

sc_config *sc_config_load(const char *system, const char *override_file, const char *const *sets,
                          int set_count, sc_error *error)
{
    char preset_path[4096];
    if (sc_config_preset_path(system, preset_path, sizeof preset_path, error))
        return NULL;
    const char *base = strrchr(preset_path, '/') ? strrchr(preset_path, '/') + 1 : preset_path;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - strlen(".json")), base);
    sc_config *config = config_new(name);
    int failed = apply_file(config, preset_path, error) || check_complete(config, preset_path, error) ||
                 (override_file && apply_file(config, override_file, error));
    for (int i = 0; !failed && i < set_count; i++)
        failed = apply_setting(config, sets[i], error);
    if (failed || check_relations(config, error)) {
        sc_config_free(config);
        return NULL;
    }
    return config;
}

const char *sc_config_system(const sc_config *config)
{
    return config->system;
}

/* Finds a key for a getter; a wrong key or getter is a bug in the caller, not a user error. */
static int getter_index(const char *getter, const char *key, unsigned allowed_types)
{
    int index = sc_schema_find(key);
    if (index < 0 || !(allowed_types & (1u << sc_schema_key(index)->type))) {
        fprintf(stderr, "syncscope: internal error: %s(\"%s\"): %s\n", getter, key,
                index < 0 ? "no such configuration key" : "wrong type for this getter");
        abort();
    }
    return index;
}

#define INTEGER_TYPES ((1u << SC_KEY_INT) | (1u << SC_KEY_SIZE) | (1u << SC_KEY_FREQUENCY))

int64_t sc_config_int(const sc_config *config, const char *key)
{
    return config->values[getter_index("sc_config_int", key, INTEGER_TYPES)].integer;
}

double sc_config_float(const sc_config *config, const char *key)
{
    int index = getter_index("sc_config_float", key, INTEGER_TYPES | (1u << SC_KEY_FLOAT));
    if (sc_schema_key(index)->type == SC_KEY_FLOAT)
        return config->values[index].real;
    return (double)config->values[index].integer;
}

bool sc_config_bool(const sc_config *config, const char *key)
{
    return config->values[getter_index("sc_config_bool", key, 1u << SC_KEY_BOOL)].flag;
}

const char *sc_config_string(const sc_config *config, const char *key)
{
    return config->values[getter_index("sc_config_string", key, (1u << SC_KEY_STRING) | (1u << SC_KEY_ENUM))].text;
}
