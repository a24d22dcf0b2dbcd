/* store_internal.h — the connection state shared by the files of src/store/ only. */
#ifndef SYNCSCOPE_STORE_INTERNAL_H
#define SYNCSCOPE_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store/store.h"

/* A batch's child rows go into their tables this many rows per INSERT statement. */
enum { SC_STORE_ROWS_PER_INSERT = 64 };

/* The tables whose rows belong to one run (store_rows.c). */
typedef enum sc_child_table { SC_CHILD_KERNELS, SC_CHILD_METRICS, SC_CHILD_STALLS, SC_CHILD_TABLE_COUNT } sc_child_table;

struct sc_store {
    sqlite3 *db;
    char *path;
    int busy_timeout_ms;
    int store_wait_ms;          /* how long storing finished work waits for the write lock */
    /* A reader (sc_store_open_reader): opened read-only by `uri`; every statement is guarded so
     * that it only reads, and `refused` says why the guard refused the last one. */
    bool read_only;
    char *uri;
    char refused[160];
    /* Prepared on first use, reused by every later one. */
    sqlite3_stmt *find_config, *insert_config, *insert_run, *find_sweep_point;
    sqlite3_stmt *insert_sweep, *select_sweep, *insert_sweep_point, *select_sweep_point, *insert_new_sweep_point;
    /* Per child table: one row, and SC_STORE_ROWS_PER_INSERT rows, in one statement. */
    sqlite3_stmt *insert_row[SC_CHILD_TABLE_COUNT], *insert_rows[SC_CHILD_TABLE_COUNT];
};

/* A child row waiting for its statement: row `index` of the record's rows of its table. */
typedef struct sc_queued_row {
    int64_t run_id;
    const sc_run_record *record;
    int index;
} sc_queued_row;

/* Child rows waiting, per table, until a full statement's worth has come (store_rows.c). */
typedef struct sc_row_queue {
    sc_queued_row rows[SC_CHILD_TABLE_COUNT][SC_STORE_ROWS_PER_INSERT];
    int count[SC_CHILD_TABLE_COUNT];
} sc_row_queue;

/* Installs the guard of a reader: an authorizer that lets statements read and refuses the rest
 * (store_read_guard.c). */
void sc_store_guard_reads(sc_store *store);

/* On a reader, after preparing `sql` (result `prepare_rc`, statement NULL when it failed): fails
 * naming the statement when the guard refused it or the statement would change the database.
 * Returns 0 when it only reads (or the store is a writer) and leaves other failures to the caller. */
int sc_store_refuse_changes(sc_store *store, const char *sql, int prepare_rc, sqlite3_stmt *statement,
                            sc_error *error);

/* `sql` past its leading whitespace, semicolons and complete SQL comments. */
const char *sc_store_skip_comments(const char *sql);

/* Fills `error` with "PATH: WHAT: <sqlite message>" (a lock timeout gets its own wording)
 * and returns -1. */
int sc_store_fail(sc_store *store, const char *what, sc_error *error);

/* Runs SQL without results (several statements allowed). */
int sc_store_exec(sc_store *store, const char *sql, sc_error *error);

/* Maps an id named in a calibration's residuals to the id of the same run or calibration in the
 * database the calibration goes to; 0 where that database has none (residual_ids.c). */
typedef int64_t (*sc_residual_id_map)(void *context, int64_t id);

/* The residuals JSON (malloc'd) with each entry's detailed_run_id mapped by `map_run` and its
 * from_calibration by `map_calibration` (a NULL map, or 0 from it, makes the id JSON null); NULL
 * when `residuals` is not a JSON array. */
char *sc_residuals_map_ids(const char *residuals, sc_residual_id_map map_run, sc_residual_id_map map_calibration,
                           void *context);

/* Rolls back the open transaction, if any, keeping `error` as it is. */
void sc_store_rollback(sc_store *store);

/* Prepares `sql` into *statement unless it already holds a statement (kept until close). */
int sc_store_prepare_once(sc_store *store, sqlite3_stmt **statement, const char *sql, sc_error *error);

/* Steps a fully bound insert once and resets it (bindings cleared) for the next use. */
int sc_store_step_insert(sc_store *store, sqlite3_stmt *statement, const char *what, sc_error *error);

/* Binds text, or NULL when `text` is NULL. */
void sc_store_bind_text_or_null(sqlite3_stmt *statement, int parameter, const char *text);

/* Queues the kernels, metrics and stall rows of `record` under run `run_id`, inserting every
 * full statement's worth, inside the caller's transaction; the record must stay alive until
 * sc_store_flush_child_rows. */
int sc_store_queue_child_rows(sc_store *store, sc_row_queue *queue, int64_t run_id, const sc_run_record *record,
                              sc_error *error);

/* Inserts the rows still queued and empties the queue. */
int sc_store_flush_child_rows(sc_store *store, sc_row_queue *queue, sc_error *error);

#endif
