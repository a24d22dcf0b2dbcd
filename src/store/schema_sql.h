/* schema_sql.h — the database migrations compiled into the binary (schema_sql.c is generated
 * from db/migrations/NNNN_*.sql by db/embed_migrations.sh). Migration i brings a database from
 * PRAGMA user_version i-1 to i. */
#ifndef SYNCSCOPE_STORE_SCHEMA_SQL_H
#define SYNCSCOPE_STORE_SCHEMA_SQL_H

typedef struct sc_migration {
    int version;
    const char *file_name;   /* its name under db/migrations/ */
    const char *sql;
} sc_migration;

extern const sc_migration sc_migrations[];
extern const int sc_migration_count;

#endif
