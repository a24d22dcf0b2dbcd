/* read_only_file.c — opening an SQLite file for reading only, falling back to an immutable open
 * where the WAL index cannot be created (see read_only_file.h). */
#include "store/read_only_file.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Writes "file:PATH?QUERY" with every character of PATH outside [A-Za-z0-9/._~-] percent-encoded;
 * an absolute PATH gets an empty authority ("file:///..."). Returns -1 when it does not fit. */
static int make_uri(const char *path, const char *query, char *uri, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t length = (size_t)snprintf(uri, size, "file:%s", path[0] == '/' ? "//" : "");
    for (const unsigned char *c = (const unsigned char *)path; *c && length + 4 < size; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("/._~-", *c)) {
            uri[length++] = (char)*c;
        } else {
            uri[length++] = '%';
            uri[length++] = hex[*c >> 4];
            uri[length++] = hex[*c & 15];
        }
    }
    int written = snprintf(uri + length, size - length, "?%s", query);
    return written < 0 || (size_t)written >= size - length ? -1 : 0;
}

/* Opens `uri` read-only and reads the schema; SQLITE_OK or the failing result code, with the
 * connection (possibly half-open, for its message) in *db. */
static int open_and_read(const char *uri, sqlite3 **db)
{
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(*db, 10000);
        rc = sqlite3_exec(*db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
    }
    return rc;
}

/* Whether the write-ahead log beside `path` holds changes. */
static int wal_holds_changes(const char *path)
{
    char wal_path[4096];
    struct stat status;
    snprintf(wal_path, sizeof wal_path, "%s-wal", path);
    return stat(wal_path, &status) == 0 && status.st_size > 0;
}

sqlite3 *sc_read_only_file_open(const char *path, char *uri, size_t uri_size, sc_error *error)
{
    char read_only[SC_READ_ONLY_URI_SIZE], immutable[SC_READ_ONLY_URI_SIZE];
    if (make_uri(path, "mode=ro", read_only, sizeof read_only) ||
        make_uri(path, "mode=ro&immutable=1", immutable, sizeof immutable)) {
        sc_fail(error, "%s: the path is too long", path);
        return NULL;
    }
    sqlite3 *db = NULL;
    const char *opened = read_only;
    int rc = open_and_read(read_only, &db);
    int no_index = (rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN; /* no -shm could be made */
    if (no_index && wal_holds_changes(path)) {
        sc_fail(error, "%s: its write-ahead log %s-wal holds changes that can only be read where %s-shm can be created"
                       " (open the database once with write access to the directory)",
                path, path, path);
        sqlite3_close(db);
        return NULL;
    }
    if (no_index) { /* then nothing has the database open for writing: read the file as it is */
        sqlite3_close(db);
        opened = immutable;
        rc = open_and_read(immutable, &db);
    }
    if (rc != SQLITE_OK) {
        sc_fail(error, "%s: not a readable SQLite database (%s)", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    if (uri)
        snprintf(uri, uri_size, "%s", opened);
    return db;
}
