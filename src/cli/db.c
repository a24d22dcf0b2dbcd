/* db.c — `syncscope db`: create, check or repair the results database. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "store/store.h"
#include "studies/sweep_check.h"

static void print_help(FILE *out)
{
    fprintf(out, "usage: syncscope db check [--db PATH]\n"
                 "       syncscope db repair [--db PATH]\n"
                 "       syncscope db init [--db PATH]\n\n"
                 "check  runs SQLite's integrity check, the foreign-key check, the schema version check,\n"
                 "       verifies that every run's stall cycles sum to its cycles, and checks every sweep\n"
                 "       against its stored specification: points outside its design, partial points\n"
                 "       (runs of some mechanism x workload missing), duplicated runs of a point, spot\n"
                 "       checks the specification does not make, fewer whole points than the design\n"
                 "       (an interrupted sweep, or one shard's database); prints one line per problem\n"
                 "       and exits 1 if there is any.\n"
                 "repair runs the same checks and removes every faulty sweep point with all its runs\n"
                 "       (run the sweep again to store them whole); exits 1 if problems remain that it\n"
                 "       cannot remove (missing points, or problems outside sweeps).\n"
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
    if (!action || (strcmp(action, "check") && strcmp(action, "init") && strcmp(action, "repair"))) {
        fprintf(stderr, "syncscope db: expected check, repair or init, not '%s' (see --help)\n", action ? action : "");
        return 2;
    }
    sc_error error;
    bool init = !strcmp(action, "init"), repair = !strcmp(action, "repair");
    sc_store *store = init     ? sc_store_open(db_path, &error)
                      : repair ? sc_store_open_existing(db_path, &error)
                               : sc_store_open_reader(db_path, &error);
    if (!store) {
        fprintf(stderr, "syncscope db: %s\n", error.message);
        return 1;
    }
    int status = 0;
    if (init) {
        printf("%s: schema version %d\n", db_path, sc_store_schema_version());
    } else {
        int64_t removed = 0;
        int problems = sc_store_check(store, stdout, &error), sweep_problems = 0;
        if (problems >= 0 && (sweep_problems = sweep_check_store(store, stdout, repair, &removed, &error)) < 0)
            problems = -1;
        if (problems < 0) {
            fprintf(stderr, "syncscope db: %s\n", error.message);
            status = 1;
        } else if (repair) {
            /* What is left after the removal: checked again, quietly (the lines above name it). */
            FILE *quiet = fopen("/dev/null", "w");
            int left = quiet ? sc_store_check(store, quiet, &error) : sc_fail(&error, "cannot open /dev/null");
            int left_sweeps = 0;
            int64_t none;
            if (left >= 0 && (left_sweeps = sweep_check_store(store, quiet, false, &none, &error)) < 0)
                left = -1;
            if (quiet)
                fclose(quiet);
            if (left < 0)
                fprintf(stderr, "syncscope db: %s\n", error.message);
            else
                printf("%s: %d problem%s found, %lld faulty sweep point%s removed, %d problem%s left\n", db_path,
                       problems + sweep_problems, problems + sweep_problems == 1 ? "" : "s", (long long)removed,
                       removed == 1 ? "" : "s", left + left_sweeps, left + left_sweeps == 1 ? "" : "s");
            status = left == 0 && left_sweeps == 0 ? 0 : 1;
        } else {
            problems += sweep_problems;
            printf("%s: %d problem%s\n", db_path, problems, problems == 1 ? "" : "s");
            status = problems == 0 ? 0 : 1;
        }
    }
    sc_store_close(store);
    return status;
}
