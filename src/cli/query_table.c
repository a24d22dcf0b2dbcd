/* query_table.c — a canned query run read-only into a result table (see query_table.h). */
#include "cli/query_table.h"

#include <stdio.h>

sc_table *cli_query_table(const char *command, const char *name, const sc_query_param *params, int param_count,
                          const char *db_path, sc_canned_query *query, int *exit_status)
{
    sc_error error;
    sc_table *table = NULL;
    *query = (sc_canned_query){0};
    if (sc_canned_query_load(name, query, &error) < 0) {
        fprintf(stderr, "syncscope %s: %s\n", command, error.message);
        *exit_status = 2;
        return NULL;
    }
    sc_store *store = sc_store_open_reader(db_path, &error);
    if (!store || sc_canned_query_run(store, query, params, param_count, sc_table_collect, &table, &error) < 0) {
        fprintf(stderr, "syncscope %s: %s\n", command, error.message);
        sc_table_free(table);
        table = NULL;
        *exit_status = 1;
    }
    sc_store_close(store);
    return table;
}
