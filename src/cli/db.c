/* db.c — `syncscope db`: create or check the results database. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "store/store.h"

static void print_help(FILE *out)
{
    fprintf(out, "usage: syncscope db check [--db PATH]\n"
                 "       syncscope db init [--db PATH]\n\n"
                 "check  runs SQLite's integrity check, the foreign-key check, the schema version check\n"
                 "       and verifies that every run's stall cycles sum to its cycles; prints one line\n"
                 "       per problem and exits 1 if there is any.\n"
                 "init   creates the database (or brings an older one up to date) and prints its path.\n"
                 "The database is --db, else $SYNCSCOPE_DB, else db/syncscope.sqlite.\n");
}

int command_db(int argc, char **argv)
{
    const char *action = NULL, *db_path = sc_store_default_path();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_help(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--db") && i + 1 < argc)
            db_path = argv[++i];
        else if (!action && (!strcmp(argv[i], "check") || !strcmp(argv[i], "init")))
            action = argv[i];
        else {
            fprintf(stderr, "syncscope db: unexpected argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (!action) {
        fprintf(stderr, "syncscope db: expected check or init (see --help)\n");
        return 2;
    }
    sc_error error;
    int init = !strcmp(action, "init");
    sc_store *store = init ? sc_store_open(db_path, &error) : sc_store_open_existing(db_path, &error);
    if (!store) {
        fprintf(stderr, "syncscope db: %s\n", error.message);
        return 1;
    }
    int status = 0;
    if (init) {
        printf("%s: schema version %d\n", db_path, sc_store_schema_version());
    } else {
        int problems = sc_store_check(store, stdout, &error);
        if (problems < 0)
            fprintf(stderr, "syncscope db: %s\n", error.message);
        else
            printf("%s: %d problem%s\n", db_path, problems, problems == 1 ? "" : "s");
        status = problems == 0 ? 0 : 1;
    }
    sc_store_close(store);
    return status;
}
