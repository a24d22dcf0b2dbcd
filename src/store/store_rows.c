/* store_rows.c — the child rows of a batch of runs (kernels, metrics, GSI stall rows), many per
 * statement.
 *
 * A model run has 13 metric and 8 stall rows, and a sweep stores hundreds of thousands of runs,
 * so the fixed cost of executing a statement (opening the table's cursors, closing the
 * statement) dominated the cost of the rows themselves. A table's rows therefore wait in a
 * queue, across the runs of the batch, until SC_STORE_ROWS_PER_INSERT of them go in through one
 * multi-row "INSERT ... VALUES (...), (...)"; what is left when the batch ends goes in row by
 * row. SQLite inserts the rows of a VALUES list in order, one by one, so the stored rows are the
 * same as with one statement per row; all of them are inside the batch's transaction. */
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

/* The statement inserting `rows` rows of `table`: one or SC_STORE_ROWS_PER_INSERT. */
static sqlite3_stmt *rows_statement(sc_store *store, sc_child_table table, int rows, sc_error *error)
{
    sqlite3_stmt **statement = rows == 1 ? &store->insert_row[table] : &store->insert_rows[table];
    if (*statement)
        return *statement;
    char sql[4096];
    size_t length = (size_t)snprintf(sql, sizeof sql, "%s", tables[table].insert);
    for (int row = 0; row < rows; row++) {
        length += (size_t)snprintf(sql + length, sizeof sql - length, "%s(", row ? ", " : "");
        for (int column = 0; column < tables[table].columns; column++)
            length += (size_t)snprintf(sql + length, sizeof sql - length, "%s?", column ? ", " : "");
        length += (size_t)snprintf(sql + length, sizeof sql - length, ")");
    }
    return sc_store_prepare_once(store, statement, sql, error) ? NULL : *statement;
}

/* Inserts the first `rows` queued rows of `table` in one statement. */
static int insert_queued(sc_store *store, sc_row_queue *queue, sc_child_table table, int first, int rows,
                         sc_error *error)
{
    sqlite3_stmt *statement = rows_statement(store, table, rows, error);
    if (!statement)
        return -1;
    for (int row = 0; row < rows; row++) {
        const sc_queued_row *queued = &queue->rows[table][first + row];
        tables[table].bind_row(statement, 1 + row * tables[table].columns, queued->run_id, queued->record,
                               queued->index);
    }
    return sc_store_step_insert(store, statement, tables[table].what, error);
}

static int queue_table_rows(sc_store *store, sc_row_queue *queue, sc_child_table table, int64_t run_id,
                            const sc_run_record *record, int count, sc_error *error)
{
    for (int index = 0; index < count; index++) {
        queue->rows[table][queue->count[table]++] = (sc_queued_row){run_id, record, index};
        if (queue->count[table] == SC_STORE_ROWS_PER_INSERT) {
            queue->count[table] = 0;
            if (insert_queued(store, queue, table, 0, SC_STORE_ROWS_PER_INSERT, error))
                return -1;
        }
    }
    return 0;
}

int sc_store_queue_child_rows(sc_store *store, sc_row_queue *queue, int64_t run_id, const sc_run_record *record,
                              sc_error *error)
{
    return queue_table_rows(store, queue, SC_CHILD_KERNELS, run_id, record, record->kernel_count, error) ||
                   queue_table_rows(store, queue, SC_CHILD_METRICS, run_id, record, record->metric_count, error) ||
                   queue_table_rows(store, queue, SC_CHILD_STALLS, run_id, record, record->stall_count, error)
               ? -1
               : 0;
}

int sc_store_flush_child_rows(sc_store *store, sc_row_queue *queue, sc_error *error)
{
    for (int table = 0; table < SC_CHILD_TABLE_COUNT; table++) {
        for (int row = 0; row < queue->count[table]; row++)
            if (insert_queued(store, queue, (sc_child_table)table, row, 1, error))
                return -1;
        queue->count[table] = 0;
    }
    return 0;
}
