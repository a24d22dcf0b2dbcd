/* database.h — opening the results database read-only for exports and reports (the path rule
 * is sc_store_default_path in store/store.h). */
#ifndef SYNCSCOPE_EXPORT_DATABASE_H
#define SYNCSCOPE_EXPORT_DATABASE_H

#include <sqlite3.h>

#include "base/error.h"

/* Opens `path` read-only, also in a read-only directory (store/read_only_file.h), and checks that
 * it is readable as a database, so a missing, corrupt or foreign file gives one clear line
 * instead of a failure mid-query; a schema newer than this binary understands is refused as
 * every other command refuses it (an older one is read as it is). Waits up to ten seconds for writers holding a lock. */
sqlite3 *sc_database_open_readonly(const char *path, sc_error *error);

#endif
