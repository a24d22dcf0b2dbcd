/* presets.c — finding system presets: models/systems/NAME.json under the data directory. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/files.h"
#include "config/config_internal.h"

static int ends_with(const char *text, const char *suffix)
{
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length && !strcmp(text + length - suffix_length, suffix);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sc_config_list_presets(sc_preset_list *list, sc_error *error)
{
    char directory_path[4096];
    snprintf(directory_path, sizeof directory_path, "%s/models/systems", sc_data_dir());
    list->names = NULL;
    list->count = 0;
    DIR *directory = opendir(directory_path);
    if (!directory)
        return sc_fail_input(error, "config: %s: cannot open the preset directory", directory_path);
    for (struct dirent *entry; (entry = readdir(directory));) {
        if (entry->d_name[0] == '.' || !ends_with(entry->d_name, ".json"))
            continue;
        list->names = realloc(list->names, (list->count + 1) * sizeof *list->names);
        list->names[list->count++] = strndup(entry->d_name, strlen(entry->d_name) - strlen(".json"));
    }
    closedir(directory);
    if (list->count)
        qsort(list->names, list->count, sizeof *list->names, compare_names);
    return 0;
}

void sc_preset_list_free(sc_preset_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->names[i]);
    free(list->names);
    list->names = NULL;
    list->count = 0;
}

int sc_config_preset_path(const char *system, char *path, size_t path_size, sc_error *error)
{
    struct stat status;
    if (strchr(system, '/') || ends_with(system, ".json")) {
        if (!ends_with(system, ".json"))
            return sc_fail_input(error, "config: %s: a system file must end in .json", system);
        snprintf(path, path_size, "%s", system);
        if (stat(path, &status) != 0)
            return sc_fail_input(error, "config: %s: no such system file", system);
        return 0;
    }
    snprintf(path, path_size, "%s/models/systems/%s.json", sc_data_dir(), system);
    if (stat(path, &status) == 0)
        return 0;
    sc_preset_list list;
    if (sc_config_list_presets(&list, error))
        return -1;
    char available[1024] = "";
    for (size_t i = 0; i < list.count; i++) {
        size_t used = strlen(available);
        snprintf(available + used, sizeof available - used, "%s%s", i ? ", " : "", list.names[i]);
    }
    sc_preset_list_free(&list);
    return sc_fail_input(error, "config: unknown system preset '%s' (available: %s)", system,
                   *available ? available : "none");
}
