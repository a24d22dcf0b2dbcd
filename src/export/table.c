/* table.c — the in-memory result table of table.h and its filling from an SQL query. */
#include "export/table.h"

#include "base/real_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_text(const char *text)
{
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (!copy)
        abort();
    memcpy(copy, text, length + 1);
    return copy;
}

sc_table *sc_table_new(size_t column_count, const char *const *column_names)
{
    sc_table *table = calloc(1, sizeof *table);
    if (!table)
        abort();
    table->column_names = calloc(column_count ? column_count : 1, sizeof *table->column_names);
    if (!table->column_names)
        abort();
    table->column_count = column_count;
    for (size_t i = 0; i < column_count; i++)
        table->column_names[i] = copy_text(column_names[i]);
    return table;
}

void sc_table_free(sc_table *table)
{
    if (!table)
        return;
    for (size_t i = 0; i < table->row_count * table->column_count; i++)
        if (table->cells[i].type == SC_CELL_TEXT)
            free(table->cells[i].as.text);
    for (size_t i = 0; i < table->column_count; i++)
        free(table->column_names[i]);
    free(table->column_names);
    free(table->cells);
    free(table);
}

sc_cell *sc_table_append_row(sc_table *table)
{
    if (table->row_count == table->row_capacity) {
        table->row_capacity = table->row_capacity ? 2 * table->row_capacity : 16;
        size_t cell_count = table->row_capacity * (table->column_count ? table->column_count : 1);
        table->cells = realloc(table->cells, cell_count * sizeof *table->cells);
        if (!table->cells)
            abort();
    }
    sc_cell *row = table->cells + table->row_count * table->column_count;
    for (size_t i = 0; i < table->column_count; i++)
        row[i].type = SC_CELL_NULL;
    table->row_count++;
    return row;
}

static void clear_cell(sc_cell *cell)
{
    if (cell->type == SC_CELL_TEXT)
        free(cell->as.text);
    cell->type = SC_CELL_NULL;
}

void sc_cell_set_integer(sc_cell *cell, long long value)
{
    clear_cell(cell);
    cell->type = SC_CELL_INTEGER;
    cell->as.integer = value;
}

void sc_cell_set_real(sc_cell *cell, double value)
{
    clear_cell(cell);
    cell->type = SC_CELL_REAL;
    cell->as.real = value;
}

void sc_cell_set_text(sc_cell *cell, const char *value)
{
    clear_cell(cell);
    cell->type = SC_CELL_TEXT;
    cell->as.text = copy_text(value);
}

const sc_cell *sc_table_cell(const sc_table *table, size_t row, size_t column)
{
    return &table->cells[row * table->column_count + column];
}

int sc_table_column(const sc_table *table, const char *name)
{
    for (size_t i = 0; i < table->column_count; i++)
        if (!strcmp(table->column_names[i], name))
            return (int)i;
    return -1;
}

/* Reads the whole of `text` as a long long or a finite double; returns the kind found. */
static sc_cell_type parse_number(const char *text, long long *integer, double *real)
{
    if (!*text || strchr(" \t\n\r\f\v", *text))
        return SC_CELL_TEXT;
    char *end;
    errno = 0;
    *integer = strtoll(text, &end, 10);
    if (!*end && !errno)
        return SC_CELL_INTEGER;
    errno = 0;
    *real = strtod(text, &end);
    if (!*end && !errno && isfinite(*real))
        return SC_CELL_REAL;
    return SC_CELL_TEXT;
}

double sc_cell_number(const sc_cell *cell)
{
    long long integer;
    double real;
    switch (cell->type) {
    case SC_CELL_INTEGER:
        return (double)cell->as.integer;
    case SC_CELL_REAL:
        return cell->as.real;
    case SC_CELL_TEXT:
        switch (parse_number(cell->as.text, &integer, &real)) {
        case SC_CELL_INTEGER:
            return (double)integer;
        case SC_CELL_REAL:
            return real;
        default:
            return NAN;
        }
    case SC_CELL_NULL:
        break;
    }
    return NAN;
}

const char *sc_cell_format(const sc_cell *cell, char *out, size_t out_size)
{
    char real[32];
    switch (cell->type) {
    case SC_CELL_NULL:
        snprintf(out, out_size, "%s", "");
        break;
    case SC_CELL_INTEGER:
        snprintf(out, out_size, "%lld", cell->as.integer);
        break;
    case SC_CELL_REAL:
        sc_real_text(cell->as.real, real);
        snprintf(out, out_size, "%s", real);
        break;
    case SC_CELL_TEXT:
        snprintf(out, out_size, "%s", cell->as.text);
        break;
    }
    return out;
}

int sc_table_collect(void *context, int column_count, const char *const *names,
                     const char *const *values, const sc_value_kind *kinds)
{
    sc_table **table = context;
    if (!values) {
        *table = sc_table_new((size_t)column_count, names);
        return 0;
    }
    sc_cell *row = sc_table_append_row(*table);
    for (int c = 0; c < column_count; c++) {
        switch (kinds[c]) {
        case SC_VALUE_INTEGER:
            sc_cell_set_integer(&row[c], strtoll(values[c], NULL, 10));
            break;
        case SC_VALUE_REAL:
            sc_cell_set_real(&row[c], strtod(values[c], NULL));
            break;
        case SC_VALUE_TEXT:
            sc_cell_set_text(&row[c], values[c]);
            break;
        case SC_VALUE_NULL:
            break;
        }
    }
    return 0;
}

static const sc_query_param *find_param(const sc_query_param *params, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(params[i].name, name))
            return &params[i];
    return NULL;
}

/* Binds every parameter the statement names, and checks that every given one was used. */
static int bind_params(sqlite3_stmt *statement, const sc_query_param *params, size_t param_count,
                       sc_error *error)
{
    int slots = sqlite3_bind_parameter_count(statement);
    for (int slot = 1; slot <= slots; slot++) {
        const char *name = sqlite3_bind_parameter_name(statement, slot);
        if (!name || name[0] == '?')
            return sc_fail(error, "query uses a positional parameter; name it (:name) instead");
        const sc_query_param *param = find_param(params, param_count, name + 1);
        if (!param)
            return sc_fail(error, "query needs parameter %s (give %s=VALUE)", name, name + 1);
        long long integer;
        double real;
        switch (parse_number(param->value, &integer, &real)) {
        case SC_CELL_INTEGER:
            sqlite3_bind_int64(statement, slot, integer);
            break;
        case SC_CELL_REAL:
            sqlite3_bind_double(statement, slot, real);
            break;
        default:
            sqlite3_bind_text(statement, slot, param->value, -1, SQLITE_TRANSIENT);
            break;
        }
    }
    for (size_t i = 0; i < param_count; i++) {
        char prefixed[3][256];
        int used = 0;
        for (int p = 0; p < 3; p++) {
            snprintf(prefixed[p], sizeof prefixed[p], "%c%s", ":@$"[p], params[i].name);
            used |= sqlite3_bind_parameter_index(statement, prefixed[p]) > 0;
        }
        if (!used)
            return sc_fail(error, "parameter '%s' is not used by the query", params[i].name);
    }
    return 0;
}

static int copy_row(sqlite3_stmt *statement, sc_table *table, sc_error *error)
{
    sc_cell *row = sc_table_append_row(table);
    for (size_t column = 0; column < table->column_count; column++) {
        int index = (int)column;
        switch (sqlite3_column_type(statement, index)) {
        case SQLITE_INTEGER:
            sc_cell_set_integer(&row[column], sqlite3_column_int64(statement, index));
            break;
        case SQLITE_FLOAT:
            sc_cell_set_real(&row[column], sqlite3_column_double(statement, index));
            break;
        case SQLITE_TEXT:
            sc_cell_set_text(&row[column], (const char *)sqlite3_column_text(statement, index));
            break;
        case SQLITE_BLOB:
            return sc_fail(error, "column '%s' holds a BLOB, which cannot be exported",
                           table->column_names[column]);
        default:
            break;
        }
    }
    return 0;
}

/* Prepares the single statement of `sql`; anything but whitespace and comments after it is an
 * error. */
static sqlite3_stmt *prepare_single(sqlite3 *db, const char *sql, sc_error *error)
{
    sqlite3_stmt *statement = NULL, *extra = NULL;
    const char *rest = sql;
    while (!statement && rest && *rest) {
        if (sqlite3_prepare_v2(db, rest, -1, &statement, &rest) != SQLITE_OK) {
            sc_fail(error, "SQL error: %s", sqlite3_errmsg(db));
            return NULL;
        }
    }
    if (!statement) {
        sc_fail(error, "query holds no SQL statement");
        return NULL;
    }
    while (!extra && rest && *rest) {
        if (sqlite3_prepare_v2(db, rest, -1, &extra, &rest) != SQLITE_OK) {
            sc_fail(error, "SQL error: %s", sqlite3_errmsg(db));
            sqlite3_finalize(statement);
            return NULL;
        }
    }
    if (extra) {
        sqlite3_finalize(extra);
        sqlite3_finalize(statement);
        sc_fail(error, "query holds more than one SQL statement");
        return NULL;
    }
    if (!sqlite3_stmt_readonly(statement)) {
        sqlite3_finalize(statement);
        sc_fail(error, "query would modify the database; exports only read");
        return NULL;
    }
    return statement;
}

sc_table *sc_table_from_query(sqlite3 *db, const char *sql, const sc_query_param *params,
                              size_t param_count, sc_error *error)
{
    sqlite3_stmt *statement = prepare_single(db, sql, error);
    if (!statement)
        return NULL;
    if (bind_params(statement, params, param_count, error) < 0) {
        sqlite3_finalize(statement);
        return NULL;
    }
    int column_count = sqlite3_column_count(statement);
    const char **names = calloc((size_t)column_count + 1, sizeof *names);
    if (!names)
        abort();
    for (int i = 0; i < column_count; i++)
        names[i] = sqlite3_column_name(statement, i);
    sc_table *table = sc_table_new((size_t)column_count, names);
    free(names);
    int status;
    while ((status = sqlite3_step(statement)) == SQLITE_ROW) {
        if (copy_row(statement, table, error) < 0)
            goto fail;
    }
    if (status != SQLITE_DONE) {
        sc_fail(error, "SQL error: %s", sqlite3_errmsg(db));
        goto fail;
    }
    sqlite3_finalize(statement);
    return table;
fail:
    sqlite3_finalize(statement);
    sc_table_free(table);
    return NULL;
}
