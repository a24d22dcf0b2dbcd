/* canned_query.c — loading queries/ *.sql with their header comments, and running them with
 * default parameters (see canned_query.h). */
#include "store/canned_query.h"

#include <dirent.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"

static int ends_with(const char *text, const char *suffix)
{
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length && !strcmp(text + length - suffix_length, suffix);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sc_canned_query_names(char ***names, size_t *count, sc_error *error)
{
    char directory_path[4096];
    snprintf(directory_path, sizeof directory_path, "%s/queries", sc_data_dir());
    *names = NULL;
    *count = 0;
    DIR *directory = opendir(directory_path);
    if (!directory)
        return sc_fail(error, "%s: cannot open the query directory", directory_path);
    for (struct dirent *entry; (entry = readdir(directory));) {
        if (entry->d_name[0] == '.' || !ends_with(entry->d_name, ".sql"))
            continue;
        *names = realloc(*names, (*count + 1) * sizeof **names);
        (*names)[(*count)++] = strndup(entry->d_name, strlen(entry->d_name) - strlen(".sql"));
    }
    closedir(directory);
    if (*count)
        qsort(*names, *count, sizeof **names, compare_names);
    return 0;
}

void sc_canned_names_free(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* The text after `marker` in `description` up to its closing parenthesis (malloc'd), or NULL. */
static char *marked_value(const char *description, const char *marker)
{
    const char *at = strstr(description, marker);
    if (!at)
        return NULL;
    at += strlen(marker);
    return strndup(at, strcspn(at, ")"));
}

/* Reads one "-- :name description (one of: a, b) (default: value)" header line. */
static void add_param(sc_canned_query *query, const char *line)
{
    size_t name_length = strcspn(line, " \t");
    const char *description = line + name_length + strspn(line + name_length, " \t");
    sc_canned_param param = {strndup(line, name_length), marked_value(description, "(default: "), NULL,
                             marked_value(description, "(one of: ")};
    size_t length = strlen(description);
    for (const char *marker = description; (marker = strchr(marker, '(')) != NULL; marker++)
        if (!strncmp(marker, "(default: ", 10) || !strncmp(marker, "(one of: ", 9)) {
            length = (size_t)(marker - description);
            break;
        }
    while (length > 0 && description[length - 1] == ' ')
        length--;
    param.description = strndup(description, length);
    query->params = realloc(query->params, (size_t)(query->param_count + 1) * sizeof *query->params);
    query->params[query->param_count++] = param;
}

/* Reads the leading comment block: the question and the parameters. */
static void parse_header(sc_canned_query *query)
{
    const char *line = query->sql;
    while (!strncmp(line, "--", 2)) {
        size_t length = strcspn(line, "\n");
        char *text = strndup(line + 2, length - 2);
        char *content = text + strspn(text, " ");
        if (content[0] == ':')
            add_param(query, content + 1);
        else if (!query->question) {
            char *colon = strstr(content, ": ");
            query->question = strdup(colon ? colon + 2 : content);
        }
        free(text);
        line += length + (line[length] == '\n');
    }
    if (!query->question)
        query->question = strdup("");
}

int sc_canned_query_load(const char *name_or_path, sc_canned_query *query, sc_error *error)
{
    memset(query, 0, sizeof *query);
    char path[4096];
    if (ends_with(name_or_path, ".sql"))
        snprintf(path, sizeof path, "%s", name_or_path);
    else
        snprintf(path, sizeof path, "%s/queries/%s.sql", sc_data_dir(), name_or_path);
    query->sql = sc_read_file(path, NULL, NULL);
    if (!query->sql) {
        if (ends_with(name_or_path, ".sql"))
            return sc_fail(error, "%s: cannot read the query file", path);
        char **names;
        size_t count;
        char available[1024] = "";
        if (sc_canned_query_names(&names, &count, NULL) == 0) {
            for (size_t i = 0; i < count; i++) {
                size_t used = strlen(available);
                snprintf(available + used, sizeof available - used, "%s%s", i ? ", " : "", names[i]);
            }
            sc_canned_names_free(names, count);
        }
        return sc_fail(error, "unknown query '%s' (available: %s)", name_or_path, *available ? available : "none");
    }
    query->path = strdup(path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    query->name = strndup(base, strlen(base) - strlen(".sql"));
    parse_header(query);
    return 0;
}

void sc_canned_query_free(sc_canned_query *query)
{
    for (int i = 0; i < query->param_count; i++) {
        free(query->params[i].name);
        free(query->params[i].default_value);
        free(query->params[i].description);
        free(query->params[i].choices);
    }
    free(query->params);
    free(query->name);
    free(query->path);
    free(query->sql);
    free(query->question);
    memset(query, 0, sizeof *query);
}

sc_query_param *sc_canned_query_bindings(const sc_canned_query *query, const sc_query_param *params,
                                         int param_count, int *count)
{
    sc_query_param *bindings = calloc((size_t)(query->param_count + param_count) + 1, sizeof *bindings);
    *count = 0;
    for (int i = 0; i < param_count; i++)
        bindings[(*count)++] = params[i];
    for (int i = 0; i < query->param_count; i++) {
        bool given = false;
        for (int j = 0; j < param_count && !given; j++)
            given = !strcmp(params[j].name, query->params[i].name);
        if (!given && query->params[i].default_value)
            bindings[(*count)++] = (sc_query_param){query->params[i].name, query->params[i].default_value};
    }
    return bindings;
}

/* Whether `value` is one of the comma-separated `choices`. */
static bool is_choice(const char *choices, const char *value)
{
    size_t length = strlen(value);
    for (const char *choice = choices; *choice; choice += strspn(choice, ", ")) {
        size_t choice_length = strcspn(choice, ",");
        if (choice_length == length && !strncmp(choice, value, length))
            return true;
        choice += choice_length;
    }
    return false;
}

int sc_canned_query_run(sc_store *store, const sc_canned_query *query, const sc_query_param *params,
                        int param_count, sc_row_callback callback, void *context, sc_error *error)
{
    for (int i = 0; i < param_count; i++)
        for (int p = 0; p < query->param_count; p++)
            if (query->params[p].choices && !strcmp(params[i].name, query->params[p].name) &&
                !is_choice(query->params[p].choices, params[i].value))
                return sc_fail(error, "query %s: --param %s=%s: must be one of %s", query->name, params[i].name,
                               params[i].value, query->params[p].choices);
    int count;
    sc_query_param *bindings = sc_canned_query_bindings(query, params, param_count, &count);
    int status = sc_store_query(store, query->sql, bindings, count, callback, context, error);
    free(bindings);
    if (status)
        sc_fail_prefix(error, "query %s", query->name);
    return status;
}
