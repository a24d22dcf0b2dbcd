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
                 "Every input is checked (it exists, is a syncscope database, is not OUT) before\n"
                 "anything is written, and all inputs are merged in one transaction: a failure\n"
                 "leaves OUT as it was. A run OUT already holds (every stored column equal but the\n"
                 "id) is not added again, nor its rows, so merging an input twice changes nothing;\n"
                 "the summary line counts the runs added and those already there. Inputs are only\n"
                 "read (an input written by an older syncscope has its schema brought up to date\n"
                 "first).\n");
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
    sc_merge_counts counts;
    if (sc_store_merge(argv[1], (const char *const *)argv + 2, argc - 2, &counts, &error)) {
        fprintf(stderr, "syncscope merge: %s; nothing was merged into %s\n", error.message, argv[1]);
        return 1;
    }
    printf("merged %d database%s into %s: %lld run%s added", argc - 2, argc == 3 ? "" : "s", argv[1],
           (long long)counts.runs_added, counts.runs_added == 1 ? "" : "s");
    if (counts.runs_present)
        printf(", %lld already there (not added again)", (long long)counts.runs_present);
    printf("\n");
    return 0;
}
