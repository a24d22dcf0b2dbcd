/* store_query.c — running one SQL statement with named parameters and handing each row to a
 * callback as text. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/real_text.h"
#include "store/store_internal.h"

/* Binds text that is a number as it would be written (an integer without '+' or a leading zero,
 * or a finite real) as that number, else as text, so that "--param limit=5" works in LIMIT and
 * comparisons while a hash or a git revision that happens to read as a number ("2938e5205206",
 * an overflowing real; "0123") stays the text it is. */
static void bind_value(sqlite3_stmt *statement, int index, const char *value)
{
    char *end;
    bool plain = *value && !isspace((unsigned char)*value) && *value != '+';
    errno = 0;
    long long integer = strtoll(value, &end, 10);
    const char *digits = value + (*value == '-');
    if (plain && *end == '\0' && errno == 0 && !(digits[0] == '0' && digits[1] != '\0')) {
        sqlite3_bind_int64(statement, index, integer);
        return;
    }
    errno = 0;
    double real = strtod(value, &end);
    if (plain && *end == '\0' && errno == 0 && isfinite(real) && !(digits[0] == '0' && isdigit((unsigned char)digits[1]))) {
        sqlite3_bind_double(statement, index, real);
        return;
    }
    sqlite3_bind_text(statement, index, value, -1, SQLITE_TRANSIENT);
}

static int bind_params(sc_store *store, sqlite3_stmt *statement, const sc_query_param *params, int param_count,
                       sc_error *error)
{
    int *used = calloc((size_t)param_count + 1, sizeof *used);
    int status = 0;
    for (int index = 1; index <= sqlite3_bind_parameter_count(statement) && !status; index++) {
        const char *name = sqlite3_bind_parameter_name(statement, index);
        if (!name || !strchr(":@$", name[0])) {
            status = sc_fail(error, "%s: positional parameters are not supported; use :name", store->path);
            break;
        }
        int found = -1;
        for (int p = 0; p < param_count; p++)
            if (!strcmp(params[p].name, name + 1))
                found = p; /* the last one given wins */
        if (found < 0)
            status = sc_fail(error, "%s: parameter %s is not set (--param %s=VALUE)", store->path, name, name + 1);
        else {
            used[found] = 1;
            bind_value(statement, index, params[found].value);
        }
    }
    for (int p = 0; p < param_count && !status; p++) {
        if (used[p])
            continue;
        int repeated = 0;
        for (int q = p + 1; q < param_count; q++)
            repeated |= !strcmp(params[p].name, params[q].name);
        if (!repeated)
            status = sc_fail(error, "%s: parameter '%s' is not used by this query", store->path, params[p].name);
    }
    free(used);
    return status;
}

const char *sc_store_skip_comments(const char *sql)
{
    while (*sql) {
        if (isspace((unsigned char)*sql) || *sql == ';')
            sql++;
        else if (!strncmp(sql, "--", 2))
            sql += strcspn(sql, "\n");
        else if (!strncmp(sql, "/*", 2) && strstr(sql + 2, "*/"))
            sql = strstr(sql + 2, "*/") + 2;
        else
            break;
    }
    return sql;
}

int sc_store_query(sc_store *store, const char *sql, const sc_query_param *params, int param_count,
                   sc_row_callback callback, void *context, sc_error *error)
{
    sqlite3_stmt *statement = NULL;
    const char *tail = NULL;
    int prepared = sqlite3_prepare_v2(store->db, sql, -1, &statement, &tail);
    if (sc_store_refuse_changes(store, sql, prepared, statement, error)) {
        sqlite3_finalize(statement);
        return -1;
    }
    if (prepared != SQLITE_OK)
        return sc_store_fail(store, "query", error);
    if (!statement)
        return sc_fail(error, "%s: the query is empty", store->path);
    int status = 0;
    if (*sc_store_skip_comments(tail))
        status = sc_fail(error, "%s: a query must be a single SQL statement", store->path);
    if (!status)
        status = bind_params(store, statement, params, param_count, error);
    int columns = sqlite3_column_count(statement);
    const char **names = calloc((size_t)columns + 1, sizeof *names);
    const char **values = calloc((size_t)columns + 1, sizeof *values);
    sc_value_kind *kinds = calloc((size_t)columns + 1, sizeof *kinds);
    char (*reals)[32] = calloc((size_t)columns + 1, sizeof *reals);
    for (int c = 0; c < columns; c++)
        names[c] = sqlite3_column_name(statement, c);
    if (!status && callback)
        status = callback(context, columns, names, NULL, NULL) ? 1 : 0;
    while (!status) {
        int rc = sqlite3_step(statement);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            status = sc_store_fail(store, "query", error);
            break;
        }
        for (int c = 0; c < columns && !status; c++) {
            int type = sqlite3_column_type(statement, c);
            kinds[c] = type == SQLITE_INTEGER ? SC_VALUE_INTEGER
                     : type == SQLITE_FLOAT   ? SC_VALUE_REAL
                     : type == SQLITE_NULL    ? SC_VALUE_NULL
                                              : SC_VALUE_TEXT;
            values[c] = (const char *)sqlite3_column_text(statement, c);
            if (type == SQLITE_FLOAT) {
                sc_real_text(sqlite3_column_double(statement, c), reals[c]);
                values[c] = reals[c];
            } else if (type == SQLITE_BLOB) {
                status = sc_fail(error, "%s: column '%s' holds a BLOB, which syncscope does not print"
                                        " (select hex(%s) to see its bytes)", store->path, names[c], names[c]);
            }
        }
        if (!status && callback && callback(context, columns, names, values, kinds))
            break;
    }
    free(names);
    free(values);
    free(kinds);
    free(reals);
    sqlite3_finalize(statement);
    return status < 0 ? -1 : 0;
}

int sc_store_row_int64(void *context, int column_count, const char *const *names, const char *const *values,
                       const sc_value_kind *kinds)
{
    (void)column_count, (void)names, (void)kinds;
    if (values && values[0])
        *(int64_t *)context = strtoll(values[0], NULL, 10);
    return 0;
}
