/* database.c — opening the results database read-only, refusing a newer schema or a foreign
 * file (see database.h). */
#include "export/database.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "store/read_only_file.h"
#include "store/store.h"

sqlite3 *sc_database_open_readonly(const char *path, sc_error *error)
{
    struct stat status;
    if (stat(path, &status) < 0) {
        sc_fail(error, "%s: no database here (%s); give --db PATH or set SYNCSCOPE_DB", path,
                strerror(errno));
        return NULL;
    }
    sqlite3 *db = sc_read_only_file_open(path, NULL, 0, error);
    if (!db)
        return NULL;
    /* The schema this binary understands, as every other command requires (store_open.c). */
    sqlite3_stmt *statement = NULL;
    int version = -1, runs = 0;
    if (sqlite3_prepare_v2(db, "SELECT (SELECT user_version FROM pragma_user_version),"
                               " (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'runs')",
                           -1, &statement, NULL) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
        version = sqlite3_column_int(statement, 0);
        runs = sqlite3_column_int(statement, 1);
    }
    sqlite3_finalize(statement);
    if (version > sc_store_schema_version())
        sc_fail(error, "%s: schema version %d is newer than this syncscope understands (%d); left unchanged", path,
                version, sc_store_schema_version());
    else if (version < 0 || !runs)
        sc_fail(error, "%s: not a syncscope database (no runs table)", path);
    else
        return db;
    sqlite3_close(db);
    return NULL;
}
