/* database.c — opening the results database read-only (see database.h). */
#include "export/database.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

sqlite3 *sc_database_open_readonly(const char *path, sc_error *error)
{
    struct stat status;
    if (stat(path, &status) < 0) {
        sc_fail(error, "%s: no database here (%s); give --db PATH or set SYNCSCOPE_DB", path,
                strerror(errno));
        return NULL;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sc_fail(error, "%s: cannot open database: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 5000);
    if (sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
        sc_fail(error, "%s: not a readable SQLite database: %s", path, sqlite3_errmsg(db));
        sqlite3_close(db);
        return NULL;
    }
    return db;
}
