/* merge.c — `syncscope merge OUT IN...`: combine shard databases into one. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "store/store.h"

static void print_help(FILE *out)
{
    fprintf(out, "usage: syncscope merge OUT.sqlite IN.sqlite...\n\n"
                 "Copies every run of the input databases (e.g. the shards of a sweep run with\n"
                 "--shard K/N) into OUT, creating it if needed. Runs get new ids; sweeps are matched\n"
                 "by name and definition and their points by index, so one sweep stays one sweep.\n"
                 "Each input is merged in one transaction and keeps its rows (an input written by an\n"
                 "older syncscope has its schema brought up to date first).\n");
}

int command_merge(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_help(stdout);
            return 0;
        }
        if (argv[i][0] == '-') {
            fprintf(stderr, "syncscope merge: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (argc < 3) {
        fprintf(stderr, "syncscope merge: expected OUT.sqlite and at least one input (see --help)\n");
        return 2;
    }
    sc_error error;
    if (sc_store_merge(argv[1], (const char *const *)argv + 2, argc - 2, &error)) {
        fprintf(stderr, "syncscope merge: %s\n", error.message);
        return 1;
    }
    printf("merged %d database%s into %s\n", argc - 2, argc == 3 ? "" : "s", argv[1]);
    return 0;
}
