/* calibrated_region.c — a calibration's covered region, from the design points of its samples
 * (calibrated_region.h). */
#include "model/calibrated_region.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The preset with the keys of one residual entry's point set; NULL with the key named. */
static sc_config *point_config(const sc_config *base, const cJSON *point, sc_error *error)
{
    sc_config *config = sc_config_copy(base);
    const cJSON *item;
    cJSON_ArrayForEach(item, point) {
        char *printed = cJSON_IsString(item) ? NULL : cJSON_PrintUnformatted(item);
        const char *text = cJSON_IsString(item) ? item->valuestring : printed;
        int status = text ? sc_config_set(config, item->string, text, error) : sc_fail(error, "out of memory");
        free(printed);
        if (status < 0) {
            sc_config_free(config);
            sc_fail_prefix(error, "calibrated region: point key %s", item->string);
            return NULL;
        }
    }
    return config;
}

int model_region_from_residuals(const char *system, const char *residuals_json, model_region *region, sc_error *error)
{
    *region = (model_region){0};
    cJSON *list = cJSON_Parse(residuals_json);
    sc_config *base = list ? sc_config_load(system, NULL, NULL, 0, error) : NULL;
    int status = !list ? sc_fail(error, "calibrated region: the residuals are not valid JSON") : base ? 0 : -1;
    int size = cJSON_GetArraySize(list);
    region->points = status == 0 ? calloc((size_t)size + 1, sizeof *region->points) : NULL;
    if (status == 0 && !region->points)
        status = sc_fail(error, "out of memory");
    const cJSON *entry;
    cJSON_ArrayForEach(entry, list) {
        const cJSON *point = cJSON_GetObjectItemCaseSensitive(entry, "point");
        cJSON *parsed = cJSON_IsString(point) ? cJSON_Parse(point->valuestring) : NULL;
        const cJSON *keys = cJSON_IsObject(point) ? point : parsed;
        if (status == 0 && keys) {
            region->points[region->count] = point_config(base, keys, error);
            status = region->points[region->count] ? 0 : -1;
            region->count += status == 0;
        }
        cJSON_Delete(parsed);
    }
    cJSON_Delete(list);
    sc_config_free(base);
    if (status < 0)
        model_region_free(region);
    return status;
}

bool model_region_extent(const model_region *region, const char *key, double *low, double *high)
{
    for (int i = 0; i < region->count; i++) {
        double value = sc_config_float(region->points[i], key);
        *low = i == 0 || value < *low ? value : *low;
        *high = i == 0 || value > *high ? value : *high;
    }
    return region->count > 0;
}

bool model_region_covers(const model_region *region, const sc_config *config, const char *key, sc_key_type type)
{
    if (type == SC_KEY_INT || type == SC_KEY_SIZE || type == SC_KEY_FREQUENCY || type == SC_KEY_FLOAT) {
        double low, high, value = sc_config_float(config, key);
        return model_region_extent(region, key, &low, &high) && value >= low && value <= high;
    }
    for (int i = 0; i < region->count; i++) {
        bool same = type == SC_KEY_BOOL ? sc_config_bool(region->points[i], key) == sc_config_bool(config, key)
                                        : !strcmp(sc_config_string(region->points[i], key), sc_config_string(config, key));
        if (same)
            return true;
    }
    return false;
}

void model_region_free(model_region *region)
{
    for (int i = 0; i < region->count; i++)
        sc_config_free(region->points[i]);
    free(region->points);
    *region = (model_region){0};
}
