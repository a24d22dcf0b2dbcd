/* result_table.h — collecting query rows and printing them as an aligned table, CSV or JSON
 * (used by query, show, list runs and db check). */
#ifndef SYNCSCOPE_STORE_RESULT_TABLE_H
#define SYNCSCOPE_STORE_RESULT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "store/store.h"

typedef enum sc_table_format { SC_TABLE_ALIGNED, SC_TABLE_CSV, SC_TABLE_JSON } sc_table_format;

typedef struct sc_result_table {
    int column_count;
    char **names;          /* column_count names */
    char **cells;          /* row_count * column_count values, NULL for SQL NULL */
    sc_value_kind *kinds;  /* parallel to cells */
    size_t row_count, capacity;
} sc_result_table;

/* An sc_row_callback appending each row to the sc_result_table passed as context. */
int sc_result_table_collect(void *table, int column_count, const char *const *names,
                            const char *const *values, const sc_value_kind *kinds);

void sc_result_table_print(const sc_result_table *table, sc_table_format format, FILE *out);
/* Prints row `row` as one JSON object {"column": value, ...}. */
void sc_result_table_print_json_row(const sc_result_table *table, size_t row, FILE *out);

void sc_result_table_free(sc_result_table *table);

#endif
