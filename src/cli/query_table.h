/* query_table.h — what `query` and `export` share: a canned query (or FILE.sql) run read-only on
 * the results database into a result table, which the table writers of export/formats.h print. */
#ifndef SYNCSCOPE_CLI_QUERY_TABLE_H
#define SYNCSCOPE_CLI_QUERY_TABLE_H

#include "export/table.h"
#include "store/canned_query.h"

/* Loads `name` into *query (free it with sc_canned_query_free, also after a failure), opens the
 * database at `db_path` as a reader (store_read_guard.c: only statements that read get through)
 * and runs the query with its defaults overridden by `params`. Returns the table, or NULL with
 * *exit_status 2 when the query itself cannot be loaded (an unknown name, an unreadable file)
 * and 1 for any other failure, after printing one line "syncscope COMMAND: ...". */
sc_table *cli_query_table(const char *command, const char *name, const sc_query_param *params, int param_count,
                          const char *db_path, sc_canned_query *query, int *exit_status);

#endif
