/* read_only_file.h — opening an SQLite file for reading only, also where neither the file nor
 * its directory may be written (results shared on a read-only mount).
 *
 * A WAL database is read through its -shm index, which SQLite creates beside the file on first
 * use; where it cannot (a read-only directory) and none exists, no connection has the database
 * open, so it is opened `immutable` instead: read straight from the file, taking no locks. A
 * write-ahead log that holds changes but has no index beside it cannot be read that way and is
 * refused rather than ignored.
 */
#ifndef SYNCSCOPE_STORE_READ_ONLY_FILE_H
#define SYNCSCOPE_STORE_READ_ONLY_FILE_H

#include <sqlite3.h>
#include <stddef.h>

#include "base/error.h"

/* Room for the URI of any path the store opens. */
enum { SC_READ_ONLY_URI_SIZE = 3 * 4096 + 64 };

/* Opens `path` (which must exist) read-only, waiting up to 10 s for a writer's lock, and reads
 * its schema, so that a file SQLite cannot read fails here in one line. Fills `uri` (when not NULL) with the URI it was opened by, for
 * ATTACH on a connection opened with SQLITE_OPEN_URI (SC_READ_ONLY_URI_SIZE bytes suffice). NULL and an error naming `path` on failure. */
sqlite3 *sc_read_only_file_open(const char *path, char *uri, size_t uri_size, sc_error *error);

#endif
