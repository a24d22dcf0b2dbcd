/* json_keys.c — finding a duplicate key in parsed JSON (json_keys.h). */
#include "base/json_keys.h"

#include <stdio.h>
#include <string.h>

/* Walks `item`, whose key path is path[0..length); fills path with the duplicate's. */
static bool find_duplicate(const cJSON *item, char *path, size_t size, size_t length)
{
    int index = 0;
    for (const cJSON *child = item->child; child; child = child->next, index++) {
        size_t child_length = length;
        if (cJSON_IsObject(item)) {
            for (const cJSON *earlier = item->child; earlier != child; earlier = earlier->next)
                if (!strcmp(earlier->string, child->string)) {
                    snprintf(path + length, size - length, "%s%s", length ? "." : "", child->string);
                    return true;
                }
            snprintf(path + length, size - length, "%s%s", length ? "." : "", child->string);
        } else {
            snprintf(path + length, size - length, "[%d]", index);
        }
        child_length = strlen(path);
        if ((cJSON_IsObject(child) || cJSON_IsArray(child)) && find_duplicate(child, path, size, child_length))
            return true;
        path[length] = '\0';
    }
    return false;
}

bool sc_json_duplicate_key(const cJSON *root, char *path, size_t size)
{
    if (!size)
        return false;
    path[0] = '\0';
    return root && (cJSON_IsObject(root) || cJSON_IsArray(root)) && find_duplicate(root, path, size, 0);
}
