/* residual_ids.c — the ids inside a calibration's residuals JSON, rewritten when the calibration
 * moves to another database.
 *
 * Each residual entry may name the detailed run it was measured by ("detailed_run_id") and, for a
 * refit's entries carried from its prior, the calibration they came from ("from_calibration").
 * Those ids mean something only in the database the calibration was fitted in: a copy into a
 * shard's database (sc_store_copy_calibration) names no run and no calibration there (the ids
 * become JSON null), and a merge maps each id to the output's id of the same run or calibration
 * (store_merge.c), or to null where the input had none. Every other field keeps its text: the
 * residuals were printed by cJSON, so parsing and printing them again gives the same text. */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "store/store_internal.h"

/* Replaces the number `key` of `entry`, if it has one, by map(id), or by null where the map is
 * NULL or gives 0. */
static void map_id(cJSON *entry, const char *key, sc_residual_id_map map, void *context)
{
    cJSON *id = cJSON_GetObjectItemCaseSensitive(entry, key);
    if (!cJSON_IsNumber(id))
        return;
    int64_t mapped = map ? map(context, (int64_t)id->valuedouble) : 0;
    cJSON_ReplaceItemInObjectCaseSensitive(entry, key,
                                           mapped > 0 ? cJSON_CreateNumber((double)mapped) : cJSON_CreateNull());
}

char *sc_residuals_map_ids(const char *residuals, sc_residual_id_map map_run, sc_residual_id_map map_calibration,
                           void *context)
{
    cJSON *list = residuals ? cJSON_Parse(residuals) : NULL;
    if (!cJSON_IsArray(list)) {
        cJSON_Delete(list);
        return NULL;
    }
    cJSON *entry;
    cJSON_ArrayForEach(entry, list) {
        map_id(entry, "detailed_run_id", map_run, context);
        map_id(entry, "from_calibration", map_calibration, context);
    }
    char *text = cJSON_PrintUnformatted(list);
    cJSON_Delete(list);
    return text;
}
