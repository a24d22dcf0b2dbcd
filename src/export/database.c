/* database.c — opening the results database read-only (see database.h). */
#include "export/database.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "store/read_only_file.h"

sqlite3 *sc_database_open_readonly(const char *path, sc_error *error)
{
    struct stat status;
    if (stat(path, &status) < 0) {
        sc_fail(error, "%s: no database here (%s); give --db PATH or set SYNCSCOPE_DB", path,
                strerror(errno));
        return NULL;
    }
    return sc_read_only_file_open(path, NULL, 0, error);
}
