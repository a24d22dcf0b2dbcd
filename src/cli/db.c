/* db.c — `syncscope db`: create or check the results database. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
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
    cli_option options[] = {{.name = "db", .kind = CLI_VALUE}, {.name = NULL}};
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    if (help) {
        print_help(stdout);
        return 0;
    }
    const char *action = positional_count ? positional[0] : NULL;
    const char *db_path = cli_database_path(cli_find(options, "db")->value);
    if (!action || (strcmp(action, "check") && strcmp(action, "init"))) {
        fprintf(stderr, "syncscope db: expected check or init, not '%s' (see --help)\n", action ? action : "");
        return 2;
    }
    sc_error error;
    int init = !strcmp(action, "init");
    sc_store *store = init ? sc_store_open(db_path, &error) : sc_store_open_reader(db_path, &error);
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
