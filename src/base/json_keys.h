/* json_keys.h — the check every reader of a user's JSON (configurations, workload manifests,
 * sweep specifications) makes after parsing: cJSON keeps every duplicate key of an object and
 * lookups return the first, so a key given twice would silently drop the second value. */
#ifndef SYNCSCOPE_BASE_JSON_KEYS_H
#define SYNCSCOPE_BASE_JSON_KEYS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether any object in `root` (at any depth) holds a key twice; if so `path` gets the key path
 * of the second occurrence ("a.b[2].c"). */
bool sc_json_duplicate_key(const cJSON *root, char *path, size_t size);

#endif
