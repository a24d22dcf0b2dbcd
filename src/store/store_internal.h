/* store_internal.h — the connection state shared by the files of src/store/ only. */
#ifndef SYNCSCOPE_STORE_INTERNAL_H
#define SYNCSCOPE_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store/store.h"

struct sc_store {
    sqlite3 *db;
    char *path;
    int busy_timeout_ms;
    /* Prepared on first insert, reused by every later one. */
    sqlite3_stmt *find_config, *insert_config, *insert_run, *insert_kernel, *insert_metric, *insert_stall;
};

/* Fills `error` with "PATH: WHAT: <sqlite message>" (a lock timeout gets its own wording)
 * and returns -1. */
int sc_store_fail(sc_store *store, const char *what, sc_error *error);

/* Runs SQL without results (several statements allowed). */
int sc_store_exec(sc_store *store, const char *sql, sc_error *error);

/* Rolls back the open transaction, if any, keeping `error` as it is. */
void sc_store_rollback(sc_store *store);

#endif
