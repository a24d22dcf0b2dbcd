/* store_rows.c — a run's child rows (kernels, metrics, GSI stall rows), many per statement.
 *
 * A model run has 13 metric and 8 stall rows, and a sweep stores hundreds of thousands of runs,
 * so the fixed cost of executing a statement (opening the table's cursors, closing the
 * statement) dominated the cost of the rows themselves. Rows therefore go in
 * SC_STORE_ROWS_PER_INSERT at a time through one multi-row "INSERT ... VALUES (...), (...)",
 * and the rest through the statement for exactly that many rows. SQLite inserts the rows of a
 * VALUES list in order, one by one, so the stored rows are the same as with one statement per
 * row. Each statement is prepared on first use and kept with the connection. */
#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

/* Binds row `index` of the record's rows of this table to parameters first, first + 1, ... */
typedef void bind_row_function(sqlite3_stmt *statement, int first, int64_t run_id, const sc_run_record *record,
                               int index);

typedef struct child_table {
    const char *insert;         /* up to VALUES */
    int columns;
    bind_row_function *bind_row;
    const char *what;           /* for the error message */
} child_table;

static void bind_kernel(sqlite3_stmt *statement, int first, int64_t run_id, const sc_run_record *record, int index)
{
    const sc_kernel_row *kernel = &record->kernels[index];
    char grid[64], block[64];
    snprintf(grid, sizeof grid, "[%u,%u,%u]", kernel->grid[0], kernel->grid[1], kernel->grid[2]);
    snprintf(block, sizeof block, "[%u,%u,%u]", kernel->block[0], kernel->block[1], kernel->block[2]);
    sqlite3_bind_int64(statement, first, run_id);
    sqlite3_bind_int(statement, first + 1, kernel->index);
    sc_store_bind_text_or_null(statement, first + 2, kernel->name);
    sqlite3_bind_text(statement, first + 3, grid, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(statement, first + 4, block, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(statement, first + 5, kernel->warp_instructions);
    sqlite3_bind_double(statement, first + 6, kernel->cycles);
}

static void bind_metric(sqlite3_stmt *statement, int first, int64_t run_id, const sc_run_record *record, int index)
{
    const sc_metric_row *metric = &record->metrics[index];
    sqlite3_bind_int64(statement, first, run_id);
    sqlite3_bind_int(statement, first + 1, metric->kernel_index >= 0 ? metric->kernel_index : -1);
    sc_store_bind_text_or_null(statement, first + 2, metric->name);
    sqlite3_bind_double(statement, first + 3, metric->value);
    sqlite3_bind_text(statement, first + 4, metric->unit ? metric->unit : "", -1, SQLITE_STATIC);
}

static void bind_stall(sqlite3_stmt *statement, int first, int64_t run_id, const sc_run_record *record, int index)
{
    const sc_stall_row *stall = &record->stalls[index];
    sqlite3_bind_int64(statement, first, run_id);
    sqlite3_bind_int(statement, first + 1, stall->cu >= 0 ? stall->cu : -1);
    sc_store_bind_text_or_null(statement, first + 2, stall->category);
    sqlite3_bind_text(statement, first + 3, stall->subcategory ? stall->subcategory : "", -1, SQLITE_STATIC);
    sqlite3_bind_double(statement, first + 4, stall->cycles);
}

static const child_table tables[SC_CHILD_TABLE_COUNT] = {
    [SC_CHILD_KERNELS] = {"INSERT INTO kernels (run_id, kernel_index, name, grid, block, warp_instructions, cycles)"
                          " VALUES ", 7, bind_kernel, "storing a kernel"},
    [SC_CHILD_METRICS] = {"INSERT INTO metrics (run_id, kernel_index, name, value, unit) VALUES ", 5, bind_metric,
                          "storing a metric"},
    [SC_CHILD_STALLS] = {"INSERT INTO stalls (run_id, cu, category, subcategory, cycles) VALUES ", 5, bind_stall,
                         "storing a stall row"},
};

/* The statement inserting `rows` rows of `table` (1 <= rows <= SC_STORE_ROWS_PER_INSERT). */
static sqlite3_stmt *rows_statement(sc_store *store, sc_child_table table, int rows, sc_error *error)
{
    sqlite3_stmt **statement = &store->insert_rows[table][rows - 1];
    if (*statement)
        return *statement;
    char sql[1024];
    size_t length = (size_t)snprintf(sql, sizeof sql, "%s", tables[table].insert);
    for (int row = 0; row < rows; row++) {
        length += (size_t)snprintf(sql + length, sizeof sql - length, "%s(", row ? ", " : "");
        for (int column = 0; column < tables[table].columns; column++)
            length += (size_t)snprintf(sql + length, sizeof sql - length, "%s?", column ? ", " : "");
        length += (size_t)snprintf(sql + length, sizeof sql - length, ")");
    }
    return sc_store_prepare_once(store, statement, sql, error) ? NULL : *statement;
}

static int insert_table_rows(sc_store *store, sc_child_table table, int64_t run_id, const sc_run_record *record,
                             int count, sc_error *error)
{
    for (int first = 0; first < count; first += SC_STORE_ROWS_PER_INSERT) {
        int rows = count - first < SC_STORE_ROWS_PER_INSERT ? count - first : SC_STORE_ROWS_PER_INSERT;
        sqlite3_stmt *statement = rows_statement(store, table, rows, error);
        if (!statement)
            return -1;
        for (int row = 0; row < rows; row++)
            tables[table].bind_row(statement, 1 + row * tables[table].columns, run_id, record, first + row);
        if (sc_store_step_insert(store, statement, tables[table].what, error))
            return -1;
    }
    return 0;
}

int sc_store_insert_child_rows(sc_store *store, int64_t run_id, const sc_run_record *record, sc_error *error)
{
    return insert_table_rows(store, SC_CHILD_KERNELS, run_id, record, record->kernel_count, error) ||
                   insert_table_rows(store, SC_CHILD_METRICS, run_id, record, record->metric_count, error) ||
                   insert_table_rows(store, SC_CHILD_STALLS, run_id, record, record->stall_count, error)
               ? -1
               : 0;
}
