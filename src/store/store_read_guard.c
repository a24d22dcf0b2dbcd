/* store_read_guard.c — what a reader (sc_store_open_reader) lets through: statements that only
 * read. While a statement is prepared, an authorizer allows reading tables and views, calling
 * functions, recursive common table expressions and the PRAGMAs that only report, and refuses
 * every other action (writes, schema changes, ATTACH, DETACH, transactions, PRAGMAs that set or
 * change something); sqlite3_stmt_readonly then catches what no authorizer action names
 * (VACUUM, VACUUM INTO). The connection itself is read-only as well (read_only_file.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

/* PRAGMAs that only report, allowed with or without an argument (what to report on). */
static const char *const reporting_pragmas[] = {
    "collation_list", "compile_options", "database_list", "foreign_key_check", "foreign_key_list",
    "function_list",  "index_info",      "index_list",    "index_xinfo",       "integrity_check",
    "module_list",    "pragma_list",     "quick_check",   "table_info",        "table_list",
    "table_xinfo",
};

/* PRAGMAs that set something when given a value, allowed only without one (to read it). */
static const char *const readable_settings[] = {
    "application_id", "data_version", "encoding",  "foreign_keys",   "freelist_count",
    "page_count",     "page_size",    "schema_version", "user_version",
};

static int listed(const char *name, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (name && !strcmp(name, list[i]))
            return 1;
    return 0;
}

#define LISTED(name, list) listed(name, list, sizeof list / sizeof list[0])

static int allow_reading(void *context, int action, const char *first, const char *second, const char *database,
                         const char *trigger)
{
    (void)database;
    (void)trigger;
    sc_store *store = context;
    char why[sizeof store->refused];
    size_t size = sizeof why;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        if (LISTED(first, reporting_pragmas) || (!second && LISTED(first, readable_settings)))
            return SQLITE_OK;
        snprintf(why, size, "it %s PRAGMA %s", second ? "sets" : "runs", first);
        break;
    case SQLITE_UPDATE:
        /* SQLite's own step when it first connects a table-valued function such as
         * pragma_user_version; a statement of the user's cannot change sqlite_master without a
         * PRAGMA this guard refuses, and sqlite3_stmt_readonly would still catch it. */
        if (!strcmp(first, "sqlite_master"))
            return SQLITE_OK;
        snprintf(why, size, "it updates %s", first);
        break;
    case SQLITE_INSERT:
    case SQLITE_DELETE:
        if (!strcmp(first, "sqlite_master") || !strcmp(first, "sqlite_temp_master"))
            snprintf(why, size, "it changes the schema"); /* CREATE and DROP write these first */
        else
            snprintf(why, size, "it %s %s", action == SQLITE_INSERT ? "inserts into" : "deletes from", first);
        break;
    case SQLITE_ATTACH:
        snprintf(why, size, "it attaches a database");
        break;
    case SQLITE_DETACH:
        snprintf(why, size, "it detaches a database");
        break;
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        snprintf(why, size, "it opens or ends a transaction");
        break;
    default:
        snprintf(why, size, "it changes the schema");
        break;
    }
    if (!store->refused[0]) /* the statement's first refused action names it best */
        snprintf(store->refused, sizeof store->refused, "%s", why);
    return SQLITE_DENY;
}

void sc_store_guard_reads(sc_store *store)
{
    sqlite3_set_authorizer(store->db, allow_reading, store);
}

/* The statement as one short line: its text after leading comments up to its end, whitespace runs
 * as one space, cut at 60 characters ("..." when anything but comments is left). */
static void excerpt(const char *sql, char *out, size_t size)
{
    enum { LONGEST = 60 };
    const char *text = sc_store_skip_comments(sql);
    size_t length = 0;
    for (; *text && *text != ';' && length < LONGEST && length + 4 < size; text++) {
        if (!isspace((unsigned char)*text))
            out[length++] = *text;
        else if (length && out[length - 1] != ' ')
            out[length++] = ' ';
    }
    while (length && out[length - 1] == ' ')
        length--;
    if (*sc_store_skip_comments(text))
        length += (size_t)snprintf(out + length, size - length, "...");
    out[length] = '\0';
}

int sc_store_refuse_changes(sc_store *store, const char *sql, int prepare_rc, sqlite3_stmt *statement,
                            sc_error *error)
{
    if (!store->read_only)
        return 0;
    const char *reason = NULL;
    if (prepare_rc == SQLITE_AUTH && store->refused[0])
        reason = store->refused;
    else if (prepare_rc == SQLITE_OK && statement && !sqlite3_stmt_readonly(statement))
        reason = "it would write to the database or a file";
    int status = 0;
    if (reason) {
        char statement_text[80];
        excerpt(sql, statement_text, sizeof statement_text);
        status = sc_fail(error, "%s: refused \"%s\": a query may only read the database (%s)", store->path,
                         statement_text, reason);
    }
    store->refused[0] = '\0';
    return status;
}
