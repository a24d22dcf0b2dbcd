/* table.h — an in-memory result table: named columns and rows of typed cells.
 *
 * It is what every exporter consumes, so a CSV, a JSON file, a notebook or a chart can be made
 * from any SQL query (sc_table_from_query) or from a table built by hand (sc_table_new and
 * sc_table_append_row). Cells are NULL, 64-bit integers, doubles or UTF-8 text, like SQLite's own
 * values less BLOBs (which no reader of the database accepts).
 */
#ifndef SYNCSCOPE_EXPORT_TABLE_H
#define SYNCSCOPE_EXPORT_TABLE_H

#include <stddef.h>
#include <sqlite3.h>

#include "base/error.h"
#include "store/store.h"

typedef enum sc_cell_type {
    SC_CELL_NULL,
    SC_CELL_INTEGER,
    SC_CELL_REAL,
    SC_CELL_TEXT,
} sc_cell_type;

typedef struct sc_cell {
    sc_cell_type type;
    union {
        long long integer;
        double real;
        char *text;             /* owned by the table */
    } as;
} sc_cell;

typedef struct sc_table {
    size_t column_count;
    char **column_names;
    size_t row_count;
    size_t row_capacity;
    sc_cell *cells;             /* row_count * column_count, row-major */
} sc_table;

/* Query parameters are sc_query_param (store.h): the query refers to one as :name, @name or
 * $name; values that read fully as an integer or a finite real are bound as numbers, anything
 * else as text. */

sc_table *sc_table_new(size_t column_count, const char *const *column_names);
void sc_table_free(sc_table *table);

/* Appends a row of NULL cells and returns its first cell. */
sc_cell *sc_table_append_row(sc_table *table);
void sc_cell_set_integer(sc_cell *cell, long long value);
void sc_cell_set_real(sc_cell *cell, double value);
void sc_cell_set_text(sc_cell *cell, const char *value);

const sc_cell *sc_table_cell(const sc_table *table, size_t row, size_t column);

/* Index of the column called `name`, or -1. */
int sc_table_column(const sc_table *table, const char *name);

/* The cell as a number: integers and reals as they are, text if it reads fully as a number,
 * otherwise (and for NULL) NAN. */
double sc_cell_number(const sc_cell *cell);

/* The cell as text in `out` (NULL becomes "", a real its sc_real_text form), the way every
 * table writer and chart label prints it. */
const char *sc_cell_format(const sc_cell *cell, char *out, size_t out_size);

/* An sc_row_callback (store.h) collecting a query's rows into a new table: `context` is an
 * sc_table ** that receives it at the header call. Integers, reals (sent as their shortest
 * round-trip text) and text keep their SQLite types. */
int sc_table_collect(void *context, int column_count, const char *const *names,
                     const char *const *values, const sc_value_kind *kinds);

/* Runs one read-only SQL statement and returns all its rows. Fails with one line for a syntax
 * error, a parameter the query needs but was not given, a given parameter the query does not
 * use, a second statement, a statement that writes, or a BLOB value. */
sc_table *sc_table_from_query(sqlite3 *db, const char *sql, const sc_query_param *params,
                              size_t param_count, sc_error *error);

#endif
