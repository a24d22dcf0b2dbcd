/* canned_query.h — the SQL files of queries/: each answers one design-space question and is
 * headed by comments that the loader reads:
 *
 *   -- NAME: the question, in one line
 *   -- more explanation...
 *   -- :param  what it means (one of: a, b) (default: value)
 *
 * A parameter without "(default: ...)" must be given with --param name=value; one with
 * "(one of: ...)" takes only the values listed.
 */
#ifndef SYNCSCOPE_STORE_CANNED_QUERY_H
#define SYNCSCOPE_STORE_CANNED_QUERY_H

#include <stddef.h>

#include "store/store.h"

typedef struct sc_canned_param {
    char *name;
    char *default_value;  /* NULL: required */
    char *description;
    char *choices;        /* NULL: any value; else the allowed values, "a, b" */
} sc_canned_param;

typedef struct sc_canned_query {
    char *name;
    char *path;
    char *sql;
    char *question;       /* the first header line, after "NAME: " */
    sc_canned_param *params;
    int param_count;
} sc_canned_query;

/* Loads queries/NAME.sql under sc_data_dir(), or the file itself when `name_or_path` ends in
 * .sql. An unknown name fails listing the available ones. */
int sc_canned_query_load(const char *name_or_path, sc_canned_query *query, sc_error *error);
void sc_canned_query_free(sc_canned_query *query);

/* The names of queries/ *.sql, sorted; free with sc_canned_names_free. */
int sc_canned_query_names(char ***names, size_t *count, sc_error *error);
void sc_canned_names_free(char **names, size_t count);

/* The values to bind: `params`, then the defaults of the parameters `params` leaves out (each name
 * once); sets `*count`. Free with free(). */
sc_query_param *sc_canned_query_bindings(const sc_canned_query *query, const sc_query_param *params,
                                         int param_count, int *count);

/* Runs the query with its defaults, overridden by `params`; a required parameter left unset
 * fails naming it, and so does a value outside a parameter's choices. */
int sc_canned_query_run(sc_store *store, const sc_canned_query *query, const sc_query_param *params,
                        int param_count, sc_row_callback callback, void *context, sc_error *error);

#endif
