/* model_params.c — the free parameters' names, and a mechanism's free parameters from its
 * parameter file (src/protocols/NAME/NAME_params.json, named by its registry entry): for every
 * parameter of model.h an initial value and bounds
 * (lower <= initial <= upper). A missing or unknown parameter is an error naming the file and
 * the parameter. */
#include "model/model.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"

static const char *const parameter_names[MODEL_PARAMETER_COUNT] = {
    "latency_exposure", "barrier_cycles", "dram_efficiency", "issue_spread", "launch_overhead",
};

const char *model_parameter_name(model_parameter parameter)
{
    return parameter_names[parameter];
}

bool model_parameter_moves_cycles(model_parameter parameter)
{
    return parameter != MODEL_ISSUE_SPREAD;
}

static int read_bound(const cJSON *entry, const char *what, double *out, const char *path, const char *name,
                      sc_error *error)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(entry, what);
    if (!cJSON_IsNumber(item))
        return sc_fail(error, "%s: parameters.%s.%s missing or not a number", path, name, what);
    *out = item->valuedouble;
    return 0;
}

static int read_parameters(const cJSON *parameters, const char *path, model_param_spec *spec, sc_error *error)
{
    if (!cJSON_IsObject(parameters))
        return sc_fail(error, "%s: 'parameters' missing", path);
    const cJSON *entry;
    cJSON_ArrayForEach(entry, parameters) {
        int known = -1;
        for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
            if (!strcmp(entry->string, model_parameter_name((model_parameter)p)))
                known = p;
        if (known < 0)
            return sc_fail(error, "%s: parameters.%s: unknown parameter", path, entry->string);
    }
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++) {
        const char *name = model_parameter_name((model_parameter)p);
        entry = cJSON_GetObjectItemCaseSensitive(parameters, name);
        if (!entry)
            return sc_fail(error, "%s: parameters.%s missing", path, name);
        if (read_bound(entry, "initial", &spec->initial.value[p], path, name, error) < 0 ||
            read_bound(entry, "lower", &spec->lower.value[p], path, name, error) < 0 ||
            read_bound(entry, "upper", &spec->upper.value[p], path, name, error) < 0)
            return -1;
        if (!(spec->lower.value[p] <= spec->initial.value[p] && spec->initial.value[p] <= spec->upper.value[p] &&
              spec->lower.value[p] < spec->upper.value[p]))
            return sc_fail(error, "%s: parameters.%s: need lower <= initial <= upper and lower < upper", path, name);
    }
    return 0;
}

int model_param_spec_load(const char *params_file, model_param_spec *spec, sc_error *error)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", sc_data_dir(), params_file);
    char *text = sc_read_file(path, NULL, error);
    if (!text)
        return -1;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return sc_fail(error, "%s: not valid JSON", path);
    int status = read_parameters(cJSON_GetObjectItemCaseSensitive(root, "parameters"), path, spec, error);
    cJSON_Delete(root);
    return status;
}
