/* sweep_spec.c — reading and checking a sweep specification (see sweep_spec.h for the format). */
#include "model/sweep_spec.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"
#include "base/json_keys.h"
#include "config/config.h"
#include "config/units.h"

bool sweep_axis_is_integer(const sweep_axis *axis)
{
    return axis->type == SC_KEY_INT || axis->type == SC_KEY_SIZE || axis->type == SC_KEY_FREQUENCY;
}

static bool axis_has_words(const sweep_axis *axis)
{
    return axis->kind == SWEEP_AXIS_LIST && axis->words[0] != NULL;
}

static double round_for(const sweep_axis *axis, double value)
{
    return sweep_axis_is_integer(axis) ? round(value) : value;
}

double sweep_axis_level(const sweep_axis *axis, int level)
{
    if (axis->kind == SWEEP_AXIS_LIST)
        return axis_has_words(axis) ? level : axis->numbers[level];
    double t = axis->count > 1 ? (double)level / (axis->count - 1) : 0.0;
    if (axis->kind == SWEEP_AXIS_LOG_RANGE)
        return round_for(axis, axis->low * pow(axis->high / axis->low, t));
    return round_for(axis, axis->low + t * (axis->high - axis->low));
}

double sweep_axis_at(const sweep_axis *axis, double u)
{
    if (axis->kind == SWEEP_AXIS_LIST) {
        int index = (int)(u * axis->count);
        return sweep_axis_level(axis, index < axis->count ? index : axis->count - 1);
    }
    if (axis->kind == SWEEP_AXIS_LOG_RANGE)
        return round_for(axis, axis->low * pow(axis->high / axis->low, u));
    return round_for(axis, axis->low + u * (axis->high - axis->low));
}

void sweep_axis_format(const sweep_axis *axis, double value, char *out, unsigned size)
{
    if (axis_has_words(axis))
        snprintf(out, size, "%s", axis->words[(int)value]);
    else if (sweep_axis_is_integer(axis))
        snprintf(out, size, "%.0f", value);
    else
        snprintf(out, size, "%.17g", value);
}

static int copy_text(char *out, size_t size, const cJSON *item, const char *origin, const char *key, sc_error *error)
{
    if (!cJSON_IsString(item) || strlen(item->valuestring) >= size || item->valuestring[0] == '\0')
        return sc_fail_input(error, "%s: %s: expected a non-empty string of at most %zu characters", origin, key, size - 1);
    memcpy(out, item->valuestring, strlen(item->valuestring) + 1);
    return 0;
}

static int parse_names(const cJSON *list, const char *origin, const char *key, char **names, int *count,
                       sc_error *error)
{
    *count = 0;
    if (!list)
        return 0;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0 || cJSON_GetArraySize(list) > SWEEP_MAX_NAMES)
        return sc_fail_input(error, "%s: %s: expected a list of 1 to %d names", origin, key, SWEEP_MAX_NAMES);
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsString(item) || item->valuestring[0] == '\0')
            return sc_fail_input(error, "%s: %s[%d]: expected a name", origin, key, *count);
        names[(*count)++] = strdup(item->valuestring);
    }
    return 0;
}

/* Checks that `value` (as configuration text) is acceptable for the axis's key. */
static int check_value(const sweep_axis *axis, double value, sc_config *probe, const char *origin, sc_error *error)
{
    char text[128];
    sweep_axis_format(axis, value, text, sizeof text);
    if (sc_config_set(probe, axis->key, text, error) < 0)
        return sc_fail_prefix(error, "%s: parameters.%s", origin, axis->key);
    return 0;
}

/* A numeric axis's value: a JSON number, or a string in the key's own units, parsed as --set and
 * configuration files parse it ("16KiB", "16KB", "1.4GHz"). Returns 0, or -1 with *why set. */
static int axis_number(const cJSON *item, const sweep_axis *axis, double *value, const char **why)
{
    *why = "expected a number";
    if (cJSON_IsNumber(item)) {
        *value = item->valuedouble;
        return 0;
    }
    if (!cJSON_IsString(item))
        return -1;
    int64_t whole;
    int status = -1;
    switch (axis->type) {
    case SC_KEY_SIZE:
        status = sc_parse_size(item->valuestring, &whole, why);
        break;
    case SC_KEY_FREQUENCY:
        status = sc_parse_frequency(item->valuestring, &whole, why);
        break;
    case SC_KEY_INT:
        status = sc_parse_int(item->valuestring, &whole, why);
        break;
    case SC_KEY_FLOAT:
        return sc_parse_float(item->valuestring, value, why);
    default:
        return -1;
    }
    if (status == 0)
        *value = (double)whole;
    return status;
}

static int parse_list(const cJSON *values, sweep_axis *axis, const char *origin, sc_error *error)
{
    int n = cJSON_GetArraySize(values);
    if (n < 1 || n > SWEEP_MAX_VALUES)
        return sc_fail_input(error, "%s: parameters.%s.values: expected 1 to %d values", origin, axis->key, SWEEP_MAX_VALUES);
    bool words = axis->type == SC_KEY_ENUM || axis->type == SC_KEY_STRING || axis->type == SC_KEY_BOOL;
    const cJSON *item;
    const char *why;
    axis->count = 0;
    cJSON_ArrayForEach(item, values) {
        if (words && cJSON_IsString(item)) {
            axis->words[axis->count++] = strdup(item->valuestring);
        } else if (words) {
            return sc_fail_input(error, "%s: parameters.%s.values[%d]: expected a word", origin, axis->key, axis->count);
        } else if (axis_number(item, axis, &axis->numbers[axis->count], &why) < 0) {
            return sc_fail_input(error, "%s: parameters.%s.values[%d]: %s", origin, axis->key, axis->count, why);
        } else {
            axis->count++;
        }
    }
    return 0;
}

static int parse_range(const cJSON *bounds, const cJSON *count, sweep_axis *axis, const char *field,
                       const char *origin, sc_error *error)
{
    if (!cJSON_IsArray(bounds) || cJSON_GetArraySize(bounds) != 2)
        return sc_fail_input(error, "%s: parameters.%s.%s: expected [low, high]", origin, axis->key, field);
    if (axis->type != SC_KEY_INT && axis->type != SC_KEY_SIZE && axis->type != SC_KEY_FREQUENCY &&
        axis->type != SC_KEY_FLOAT)
        return sc_fail_input(error, "%s: parameters.%s: a %s key takes a list of values, not a range", origin, axis->key,
                       sc_key_type_name(axis->type));
    const char *why;
    if (axis_number(cJSON_GetArrayItem(bounds, 0), axis, &axis->low, &why) < 0 ||
        axis_number(cJSON_GetArrayItem(bounds, 1), axis, &axis->high, &why) < 0)
        return sc_fail_input(error, "%s: parameters.%s.%s: expected [low, high]: %s", origin, axis->key, field, why);
    if (!(axis->low < axis->high))
        return sc_fail_input(error, "%s: parameters.%s.%s: low must be below high", origin, axis->key, field);
    if (axis->kind == SWEEP_AXIS_LOG_RANGE && axis->low <= 0)
        return sc_fail_input(error, "%s: parameters.%s.%s: a log range must be positive", origin, axis->key, field);
    if (!cJSON_IsNumber(count) || count->valuedouble < 2 || count->valuedouble > SWEEP_MAX_VALUES ||
        count->valuedouble != floor(count->valuedouble))
        return sc_fail_input(error, "%s: parameters.%s.count: expected a whole number of levels from 2 to %d", origin,
                       axis->key, SWEEP_MAX_VALUES);
    axis->count = (int)count->valuedouble;
    return 0;
}

static int parse_axis(const cJSON *entry, sweep_axis *axis, sc_config *probe, const char *origin, sc_error *error)
{
    if (strlen(entry->string) >= sizeof axis->key)
        return sc_fail_input(error, "%s: parameters.%s: key too long", origin, entry->string);
    strcpy(axis->key, entry->string);
    int index = sc_schema_find(axis->key);
    if (index < 0) {
        const char *near = sc_schema_nearest(axis->key);
        return sc_fail_input(error, "%s: parameters.%s: unknown configuration key%s%s%s", origin, axis->key,
                       near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
    }
    axis->type = sc_schema_key(index)->type;
    if (!cJSON_IsObject(entry) || cJSON_GetArraySize(entry) < 1)
        return sc_fail_input(error, "%s: parameters.%s: expected {\"values\": [...]}, {\"range\": [lo, hi], \"count\": n} "
                       "or {\"log_range\": [lo, hi], \"count\": n}", origin, axis->key);
    const cJSON *field;
    cJSON_ArrayForEach(field, entry) {
        if (strcmp(field->string, "values") && strcmp(field->string, "range") && strcmp(field->string, "log_range") &&
            strcmp(field->string, "count"))
            return sc_fail_input(error, "%s: parameters.%s.%s: unknown field", origin, axis->key, field->string);
    }
    const cJSON *values = cJSON_GetObjectItem(entry, "values"), *range = cJSON_GetObjectItem(entry, "range"),
                *log_range = cJSON_GetObjectItem(entry, "log_range"), *count = cJSON_GetObjectItem(entry, "count");
    if ((values != NULL) + (range != NULL) + (log_range != NULL) != 1)
        return sc_fail_input(error, "%s: parameters.%s: give exactly one of values, range, log_range", origin, axis->key);
    int status;
    if (values) {
        axis->kind = SWEEP_AXIS_LIST;
        if (count)
            return sc_fail_input(error, "%s: parameters.%s.count: only ranges take a count", origin, axis->key);
        status = cJSON_IsArray(values) ? parse_list(values, axis, origin, error)
                                       : sc_fail_input(error, "%s: parameters.%s.values: expected a list", origin, axis->key);
    } else {
        axis->kind = range ? SWEEP_AXIS_RANGE : SWEEP_AXIS_LOG_RANGE;
        status = parse_range(range ? range : log_range, count, axis, range ? "range" : "log_range", origin, error);
    }
    if (status < 0)
        return -1;
    /* Every level, and for ranges both bounds, must be a value the key accepts. */
    for (int level = 0; level < axis->count; level++)
        if (check_value(axis, sweep_axis_level(axis, level), probe, origin, error) < 0)
            return -1;
    return 0;
}

static int parse_design(const cJSON *design, sweep_spec *spec, const char *origin, sc_error *error)
{
    spec->design = SWEEP_GRID;
    if (!design || (cJSON_IsString(design) && !strcmp(design->valuestring, "grid")))
        return 0;
    if (cJSON_IsString(design) && !strcmp(design->valuestring, "oat")) {
        spec->design = SWEEP_OAT;
        return 0;
    }
    const cJSON *random = cJSON_GetObjectItem(design, "random"), *lhs = cJSON_GetObjectItem(design, "lhs"),
                *morris = cJSON_GetObjectItem(design, "morris");
    const cJSON *count = random ? random : lhs ? lhs : morris;
    if (!cJSON_IsObject(design) || !count || !cJSON_IsNumber(count) || count->valuedouble < 1 ||
        count->valuedouble > 1e8 || count->valuedouble != floor(count->valuedouble))
        return sc_fail_input(error, "%s: design: expected \"grid\", \"oat\", {\"random\": N}, {\"lhs\": N} or "
                       "{\"morris\": R, \"levels\": L} with whole N, R >= 1", origin);
    if (random || lhs) {
        spec->design = random ? SWEEP_RANDOM : SWEEP_LHS;
        spec->points = (int64_t)count->valuedouble;
        return 0;
    }
    spec->design = SWEEP_MORRIS;
    spec->trajectories = (int)count->valuedouble;
    const cJSON *levels = cJSON_GetObjectItem(design, "levels");
    spec->levels = levels ? (int)levels->valuedouble : 4;
    if ((levels && !cJSON_IsNumber(levels)) || spec->levels < 2 || spec->levels % 2 || spec->levels > SWEEP_MAX_VALUES)
        return sc_fail_input(error, "%s: design.levels: expected an even number of levels from 2 to %d", origin,
                       SWEEP_MAX_VALUES);
    return 0;
}

/* "manifest_digests" is what a stored spec gains (studies/sweep.h: stored_spec); read back, it is
 * replaced by the manifests' current digests. */
static const char *const SPEC_FIELDS[] = {"name", "system", "size", "mode", "mechanisms", "workloads",
                                          "parameters", "design", "seed", "spot_check", "manifest_digests", NULL};

/* Fails naming the first field of `object` (at key path `path`) not among `fields` (NULL-ended). */
static int check_fields(const cJSON *object, const char *const *fields, const char *origin, const char *path,
                        sc_error *error)
{
    const cJSON *field;
    cJSON_ArrayForEach(field, object) {
        int known = 0;
        for (const char *const *name = fields; *name; name++)
            known |= !strcmp(*name, field->string);
        if (!known)
            return sc_fail_input(error, "%s: %s%s: unknown field", origin, path, field->string);
    }
    return 0;
}

/* A whole number from 0 to `most` at spot_check.NAME, or `fallback` when absent. */
static int spot_count(const cJSON *spot, const char *name, int fallback, int most, const char *origin, int *out,
                      sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItem(spot, name);
    if (item && (!cJSON_IsNumber(item) || item->valuedouble < 0 || item->valuedouble > most ||
                 item->valuedouble != floor(item->valuedouble)))
        return sc_fail_input(error, "%s: spot_check.%s: expected a whole number from 0 to %d", origin, name, most);
    *out = item ? (int)item->valuedouble : fallback;
    return 0;
}

/* "spot_check": {"widest": K, "outside": true, "max_outside": N, "mode": "sampled"}: after the
 * model pass, the K points with the widest band and (outside) up to N points outside the
 * calibrated region, run in `mode` (studies/sweep_spot.h). */
static int parse_targeted_spot_checks(const cJSON *spot, const char *origin, sweep_spec *spec, sc_error *error)
{
    static const char *const fields[] = {"widest", "outside", "max_outside", "mode", NULL};
    if (check_fields(spot, fields, origin, "spot_check.", error) < 0)
        return -1;
    spec->spot_targeted = true;
    if (spot_count(spot, "widest", 0, SWEEP_MAX_SPOT_CHECKS, origin, &spec->spot_widest, error) < 0 ||
        spot_count(spot, "max_outside", SWEEP_DEFAULT_MAX_OUTSIDE, SWEEP_MAX_SPOT_CHECKS, origin,
                   &spec->spot_max_outside, error) < 0)
        return -1;
    const cJSON *outside = cJSON_GetObjectItem(spot, "outside"), *mode = cJSON_GetObjectItem(spot, "mode");
    if (outside && !cJSON_IsBool(outside))
        return sc_fail_input(error, "%s: spot_check.outside: expected true or false", origin);
    spec->spot_outside = outside && cJSON_IsTrue(outside);
    strcpy(spec->spot_mode, "sampled");
    if (mode && (!cJSON_IsString(mode) || (strcmp(mode->valuestring, "sampled") && strcmp(mode->valuestring, "detailed"))))
        return sc_fail_input(error, "%s: spot_check.mode: expected sampled or detailed", origin);
    if (mode)
        snprintf(spec->spot_mode, sizeof spec->spot_mode, "%s", mode->valuestring);
    if (strcmp(spec->mode, "model"))
        return sc_fail_input(error, "%s: spot_check: spot checks where the band is widest are for a model sweep; this "
                             "one's mode is %s", origin, spec->mode);
    return 0;
}

static int parse_object(const cJSON *root, const char *origin, sweep_spec *spec, sc_error *error)
{
    if (!cJSON_IsObject(root))
        return sc_fail_input(error, "%s: expected a JSON object", origin);
    if (check_fields(root, SPEC_FIELDS, origin, "", error) < 0)
        return -1;
    if (copy_text(spec->name, sizeof spec->name, cJSON_GetObjectItem(root, "name"), origin, "name", error) < 0 ||
        copy_text(spec->system, sizeof spec->system, cJSON_GetObjectItem(root, "system"), origin, "system", error) < 0)
        return -1;
    const cJSON *size = cJSON_GetObjectItem(root, "size"), *mode = cJSON_GetObjectItem(root, "mode");
    strcpy(spec->size, "small");
    strcpy(spec->mode, "model");
    if ((size && copy_text(spec->size, sizeof spec->size, size, origin, "size", error) < 0) ||
        (mode && copy_text(spec->mode, sizeof spec->mode, mode, origin, "mode", error) < 0))
        return -1;
    if (strcmp(spec->size, "tiny") && strcmp(spec->size, "small") && strcmp(spec->size, "large") &&
        strcmp(spec->size, "huge"))
        return sc_fail_input(error, "%s: size: expected tiny, small, large or huge, not '%s'", origin, spec->size);
    if (strcmp(spec->mode, "model") && strcmp(spec->mode, "detailed") && strcmp(spec->mode, "sampled"))
        return sc_fail_input(error, "%s: mode: expected model, detailed or sampled, not '%s'", origin, spec->mode);
    if (parse_names(cJSON_GetObjectItem(root, "mechanisms"), origin, "mechanisms", spec->mechanisms,
                    &spec->mechanism_count, error) < 0 ||
        parse_names(cJSON_GetObjectItem(root, "workloads"), origin, "workloads", spec->workloads,
                    &spec->workload_count, error) < 0)
        return -1;
    const cJSON *seed = cJSON_GetObjectItem(root, "seed"), *spot = cJSON_GetObjectItem(root, "spot_check");
    if (seed && (!cJSON_IsNumber(seed) || seed->valuedouble < 0 || seed->valuedouble != floor(seed->valuedouble)))
        return sc_fail_input(error, "%s: seed: expected a whole number >= 0", origin);
    spec->seed = seed ? (uint64_t)seed->valuedouble : 1;
    if (spot && cJSON_IsObject(spot)) {
        if (parse_targeted_spot_checks(spot, origin, spec, error) < 0)
            return -1;
    } else if (spot && (!cJSON_IsNumber(spot) || spot->valuedouble < 0 || spot->valuedouble > 1)) {
        return sc_fail_input(error, "%s: spot_check: expected a fraction from 0 to 1, or an object with widest, "
                             "outside, max_outside and mode", origin);
    } else {
        spec->spot_check = spot ? spot->valuedouble : 0.0;
    }

    const cJSON *parameters = cJSON_GetObjectItem(root, "parameters");
    if (!cJSON_IsObject(parameters) || cJSON_GetArraySize(parameters) < 1 ||
        cJSON_GetArraySize(parameters) > SWEEP_MAX_AXES)
        return sc_fail_input(error, "%s: parameters: expected an object of 1 to %d configuration keys", origin, SWEEP_MAX_AXES);
    sc_config *probe = sc_config_load(spec->system, NULL, NULL, 0, error);
    if (!probe)
        return sc_fail_prefix(error, "%s: system", origin);
    int status = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, parameters) {
        if (status == 0)
            status = parse_axis(entry, &spec->axes[spec->axis_count++], probe, origin, error);
    }
    sc_config_free(probe);
    if (status < 0)
        return -1;
    return parse_design(cJSON_GetObjectItem(root, "design"), spec, origin, error);
}

int sweep_spec_parse(const char *text, const char *origin, sweep_spec *spec, sc_error *error)
{
    memset(spec, 0, sizeof *spec);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        int line = 1;
        for (const char *p = text; end && p < end; p++)
            line += *p == '\n';
        return sc_fail_input(error, "%s:%d: malformed JSON", origin, line);
    }
    char duplicate[512];
    int status = sc_json_duplicate_key(root, duplicate, sizeof duplicate)
                     ? sc_fail_input(error, "%s: %s: duplicate key (each key may be given once)", origin, duplicate)
                     : parse_object(root, origin, spec, error);
    if (status == 0)
        spec->text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (status < 0)
        sweep_spec_free(spec);
    return status;
}

int sweep_spec_load(const char *path, sweep_spec *spec, sc_error *error)
{
    char *text = sc_read_file(path, NULL, error);
    if (!text) {
        error->bad_input = 1;   /* the spec named on the command line is not there */
        return -1;
    }
    int status = sweep_spec_parse(text, path, spec, error);
    free(text);
    if (status == 0 && snprintf(spec->path, sizeof spec->path, "%s", path) >= (int)sizeof spec->path)
        status = sc_fail_input(error, "%s: path too long", path);
    return status;
}

void sweep_spec_free(sweep_spec *spec)
{
    for (int i = 0; i < spec->mechanism_count; i++)
        free(spec->mechanisms[i]);
    for (int i = 0; i < spec->workload_count; i++)
        free(spec->workloads[i]);
    for (int a = 0; a < spec->axis_count; a++)
        for (int v = 0; v < SWEEP_MAX_VALUES && spec->axes[a].words[v]; v++)
            free(spec->axes[a].words[v]);
    free(spec->text);
    memset(spec, 0, sizeof *spec);
}
