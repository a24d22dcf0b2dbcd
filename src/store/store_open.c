/* store_open.c — opening a results database: refuse files that are not ours (or are too new,
 * truncated or locked) without writing to them, create on first use, migrate older schemas;
 * or open an existing one for reading only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/read_only_file.h"
#include "store/schema_sql.h"
#include "store/store_internal.h"

#define DEFAULT_BUSY_TIMEOUT_MS 10000
#define DEFAULT_STORE_WAIT_MS (60 * 60 * 1000)

int sc_store_schema_version(void)
{
    return sc_migration_count;
}

const char *sc_store_default_path(void)
{
    const char *from_environment = getenv("SYNCSCOPE_DB");
    return from_environment && *from_environment ? from_environment : "db/syncscope.sqlite";
}

const char *sc_store_path(const sc_store *store)
{
    return store->path;
}

int sc_store_fail(sc_store *store, const char *what, sc_error *error)
{
    int code = sqlite3_extended_errcode(store->db) & 0xff;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        return sc_fail(error, "%s: %s: database is locked by another writer (gave up after %d ms); this step wrote nothing",
                       store->path, what, store->busy_timeout_ms);
    return sc_fail(error, "%s: %s: %s", store->path, what, sqlite3_errmsg(store->db));
}

int sc_store_exec(sc_store *store, const char *sql, sc_error *error)
{
    if (sqlite3_exec(store->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sc_store_fail(store, "SQL failed", error);
    return 0;
}

void sc_store_rollback(sc_store *store)
{
    if (!sqlite3_get_autocommit(store->db))
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
}

int sc_store_prepare_once(sc_store *store, sqlite3_stmt **statement, const char *sql, sc_error *error)
{
    if (*statement)
        return 0;
    if (sqlite3_prepare_v3(store->db, sql, -1, SQLITE_PREPARE_PERSISTENT, statement, NULL) != SQLITE_OK)
        return sc_store_fail(store, "preparing a statement", error);
    return 0;
}

int sc_store_step_insert(sc_store *store, sqlite3_stmt *statement, const char *what, sc_error *error)
{
    int rc = sqlite3_step(statement);
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    return rc == SQLITE_DONE ? 0 : sc_store_fail(store, what, error);
}

void sc_store_bind_text_or_null(sqlite3_stmt *statement, int parameter, const char *text)
{
    if (text)
        sqlite3_bind_text(statement, parameter, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(statement, parameter);
}

void sc_store_set_busy_timeout(sc_store *store, int milliseconds)
{
    store->busy_timeout_ms = store->store_wait_ms = milliseconds;
    sqlite3_busy_timeout(store->db, milliseconds);
}

static unsigned read_big_endian(const unsigned char *bytes, int count)
{
    unsigned value = 0;
    for (int i = 0; i < count; i++)
        value = value << 8 | bytes[i];
    return value;
}

/* Checks the 100-byte SQLite header and, when no write-ahead log or rollback journal may hold
 * pages, that the file is as long as the header says. Only reads. */
static int check_header(const char *path, long long file_size, sc_error *error)
{
    unsigned char header[100];
    FILE *file = fopen(path, "rb");
    if (!file)
        return sc_fail(error, "%s: cannot open: %s", path, strerror(errno));
    size_t got = fread(header, 1, sizeof header, file);
    fclose(file);
    if (got < sizeof header || memcmp(header, "SQLite format 3", 16) != 0)
        return sc_fail(error, "%s: not a syncscope database (file is not a database)", path);
    long long page_size = read_big_endian(header + 16, 2);
    if (page_size == 1)
        page_size = 65536;
    long long pages = read_big_endian(header + 28, 4);
    int header_size_valid = read_big_endian(header + 24, 4) == read_big_endian(header + 92, 4);
    /* Another process may be creating or writing the file: a rollback journal or a write-ahead
     * log means pages may still be on their way, and the size is taken after the header was read
     * (a writer that finished meanwhile has written every page the header counts). */
    char wal_path[4096], journal_path[4096];
    struct stat status;
    snprintf(wal_path, sizeof wal_path, "%s-wal", path);
    snprintf(journal_path, sizeof journal_path, "%s-journal", path);
    int wal_present = stat(wal_path, &status) == 0 && status.st_size > 0;
    int journal_present = stat(journal_path, &status) == 0;
    if (stat(path, &status) == 0)
        file_size = (long long)status.st_size;
    if (header_size_valid && !wal_present && !journal_present && file_size < pages * page_size)
        return sc_fail(error, "%s: not a syncscope database (file is truncated: %lld of %lld bytes)", path,
                       file_size, pages * page_size);
    return 0;
}

/* Reads the schema version and what the file holds through a read-only connection, refusing a
 * file that is not a syncscope database or is newer than this binary; fills *version. */
static int probe_existing(const char *path, long long file_size, int *version, sc_error *error)
{
    if (check_header(path, file_size, error))
        return -1;
    sqlite3 *db = sc_read_only_file_open(path, NULL, 0, error);
    if (!db)
        return -1;
    sqlite3_stmt *statement = NULL;
    int user_version = -1, tables = 0, has_runs = 0;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT (SELECT user_version FROM pragma_user_version),"
                                " (SELECT count(*) FROM sqlite_schema WHERE type = 'table'),"
                                " (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'runs')",
                                -1, &statement, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(statement)) == SQLITE_ROW) {
        user_version = sqlite3_column_int(statement, 0);
        tables = sqlite3_column_int(statement, 1);
        has_runs = sqlite3_column_int(statement, 2);
        rc = SQLITE_OK;
    }
    int status = 0;
    if (rc != SQLITE_OK)
        status = sc_fail(error, "%s: not a syncscope database (%s)", path, sqlite3_errmsg(db));
    else if (user_version > sc_store_schema_version())
        status = sc_fail(error, "%s: schema version %d is newer than this syncscope understands (%d); left unchanged",
                         path, user_version, sc_store_schema_version());
    else if ((user_version == 0 && tables > 0) || (user_version > 0 && !has_runs))
        status = sc_fail(error, "%s: not a syncscope database (it holds other tables)", path);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    *version = user_version;
    return status;
}

/* Creates every missing directory on the way to `path`. */
static int make_parent_directories(const char *path, sc_error *error)
{
    char partial[4096];
    snprintf(partial, sizeof partial, "%s", path);
    for (char *slash = strchr(partial + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(partial, 0777) != 0 && errno != EEXIST)
            return sc_fail(error, "%s: cannot create directory %s: %s", path, partial, strerror(errno));
        *slash = '/';
    }
    return 0;
}

static int read_user_version(sc_store *store, int *version, sc_error *error)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(store->db, "PRAGMA user_version", -1, &statement, NULL) != SQLITE_OK)
        return sc_store_fail(store, "reading the schema version", error);
    int rc = sqlite3_step(statement);
    *version = sqlite3_column_int(statement, 0);
    sqlite3_finalize(statement);
    return rc == SQLITE_ROW ? 0 : sc_store_fail(store, "reading the schema version", error);
}

/* Applies the migrations this database lacks, all in one write transaction. */
static int migrate(sc_store *store, sc_error *error)
{
    int version = 0;
    if (read_user_version(store, &version, error))
        return -1;
    if (version == sc_store_schema_version())
        return 0;
    if (sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return sc_store_fail(store, "creating the schema", error);
    if (read_user_version(store, &version, error)) /* another process may have just migrated */
        goto failed;
    for (int i = version; i < sc_migration_count; i++) {
        if (sqlite3_exec(store->db, sc_migrations[i].sql, NULL, NULL, NULL) != SQLITE_OK) {
            sc_store_fail(store, sc_migrations[i].file_name, error);
            goto failed;
        }
    }
    char set_version[64];
    snprintf(set_version, sizeof set_version, "PRAGMA user_version = %d", sc_migration_count);
    if (sc_store_exec(store, set_version, error) || sc_store_exec(store, "COMMIT", error))
        goto failed;
    return 0;
failed:
    sc_store_rollback(store);
    return -1;
}

/* The pragmas of every connection, reading or writing: a 64 MiB page cache, temporary tables in
 * memory, reads through a 256 MiB memory map. */
static const char reading_setup[] =
    "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 268435456;";

/* Sets WAL mode and the connection's pragmas. Switching a brand-new file to WAL escalates from a
 * shared lock, and there SQLite answers SQLITE_BUSY at once rather than calling the busy handler
 * (waiting could deadlock), so when several processes create one database together the losers
 * retry here until the busy timeout has really elapsed. */
static int configure_connection(sc_store *store, sc_error *error)
{
    static const char setup[] =
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;"
        " PRAGMA wal_autocheckpoint = 16384;";
    enum { RETRY_MS = 5 };
    for (int waited_ms = 0;; waited_ms += RETRY_MS) {
        int code = sqlite3_exec(store->db, setup, NULL, NULL, NULL) & 0xff;
        if (code == SQLITE_OK)
            code = sqlite3_exec(store->db, reading_setup, NULL, NULL, NULL) & 0xff;
        if (code == SQLITE_OK)
            return 0;
        if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) || waited_ms >= store->busy_timeout_ms)
            return sc_store_fail(store, "setting up the connection", error);
        sqlite3_sleep(RETRY_MS);
    }
}

sc_store *sc_store_open(const char *path, sc_error *error)
{
    struct stat status;
    int version;
    if (stat(path, &status) == 0) {
        if (status.st_size > 0 && probe_existing(path, (long long)status.st_size, &version, error))
            return NULL;
    } else if (make_parent_directories(path, error)) {
        return NULL;
    }
    sc_store *store = calloc(1, sizeof *store);
    store->path = strdup(path);
    store->busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS;
    store->store_wait_ms = DEFAULT_STORE_WAIT_MS;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &store->db, flags, NULL) != SQLITE_OK) {
        sc_store_fail(store, "cannot open", error);
        sc_store_close(store);
        return NULL;
    }
    sqlite3_busy_timeout(store->db, store->busy_timeout_ms);
    if (configure_connection(store, error) || migrate(store, error)) {
        sc_store_close(store);
        return NULL;
    }
    return store;
}

/* Fails, naming the options, when `path` does not exist. */
static int require_existing(const char *path, struct stat *status, sc_error *error)
{
    if (stat(path, status) != 0)
        return sc_fail(error, "%s: no such database (pass --db PATH or set SYNCSCOPE_DB)", path);
    return 0;
}

sc_store *sc_store_open_existing(const char *path, sc_error *error)
{
    struct stat status;
    return require_existing(path, &status, error) ? NULL : sc_store_open(path, error);
}

/* A reader of `path`, an existing database of this binary's schema. */
static sc_store *open_reading(const char *path, sc_error *error)
{
    sc_store *store = calloc(1, sizeof *store);
    store->path = strdup(path);
    store->busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS;
    store->read_only = true;
    char uri[SC_READ_ONLY_URI_SIZE];
    if (!(store->db = sc_read_only_file_open(path, uri, sizeof uri, error)) ||
        sc_store_exec(store, reading_setup, error)) {
        sc_store_close(store);
        return NULL;
    }
    store->uri = strdup(uri);
    sc_store_guard_reads(store);
    return store;
}

sc_store *sc_store_open_reader(const char *path, sc_error *error)
{
    struct stat status;
    int version = 0;
    if (require_existing(path, &status, error) || probe_existing(path, (long long)status.st_size, &version, error))
        return NULL;
    if (version < sc_store_schema_version()) {
        sc_store *writer = sc_store_open(path, error);
        if (!writer) {
            sc_fail_prefix(error, "bringing schema version %d up to %d", version, sc_store_schema_version());
            return NULL;
        }
        sc_store_close(writer);
    }
    return open_reading(path, error);
}

/* The schema version from which runs record their detailed identity (migration 0006). */
enum { DETAILED_IDENTITY_VERSION = 6 };

sc_store *sc_store_open_run_source(const char *path, sc_error *error)
{
    struct stat status;
    int version = 0;
    if (stat(path, &status) != 0)
        return sc_fail(error, "%s: no such database to reuse detailed runs from", path), NULL;
    if (probe_existing(path, (long long)status.st_size, &version, error))
        return NULL;
    if (version == 0)
        return sc_fail(error, "%s: not a syncscope database (it holds no tables)", path), NULL;
    if (version < DETAILED_IDENTITY_VERSION)
        return sc_fail(error, "%s: schema version %d predates the detailed identity of runs (%d): none of its runs "
                       "can be reused; left unchanged", path, version, DETAILED_IDENTITY_VERSION), NULL;
    sc_store *store = open_reading(path, error);
    /* A lock that keeps readers out (a writer in exclusive locking mode) fails here, before
     * anything is written anywhere. */
    if (store && sc_store_exec(store, "SELECT count(*) FROM runs", error)) {
        sc_store_close(store);
        return NULL;
    }
    return store;
}

void sc_store_close(sc_store *store)
{
    if (!store)
        return;
    sqlite3_stmt *statements[] = {store->find_config,  store->insert_config,      store->insert_run,
                                  store->find_sweep_point, store->insert_sweep,   store->select_sweep,
                                  store->insert_sweep_point, store->select_sweep_point,
                                  store->insert_new_sweep_point};
    for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++)
        sqlite3_finalize(statements[i]);
    for (int table = 0; table < SC_CHILD_TABLE_COUNT; table++) {
        sqlite3_finalize(store->insert_row[table]);
        sqlite3_finalize(store->insert_rows[table]);
    }
    sqlite3_close(store->db);
    free(store->path);
    free(store->uri);
    free(store);
}
