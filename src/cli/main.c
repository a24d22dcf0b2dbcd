/* main.c — entry point of the `syncscope` CLI: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "protocols/mechanism.h"

static const cli_command commands[] = {
    {"run", "run a workload on a system preset under a mechanism", command_run},
    {"compare", "main job: every mechanism over the built-in suite, stored, tabled and plotted", command_compare},
    {"list", "list systems, mechanisms, workloads or stored runs", command_list},
    {"show", "show a stored run: record, configuration, kernels, metrics, stall totals", command_show},
    {"stalls", "print a run's GSI stall breakdown, or draw it as SVG", command_stalls},
    {"query", "run a canned (queries/NAME.sql) or ad-hoc SQL query on the results database", command_query},
    {"export", "export a canned or custom query as CSV, JSON or a Jupyter notebook", command_export},
    {"config", "show a resolved system configuration, or list the configuration keys", command_config},
    {"db", "check the results database (integrity, schema, stall sums) or create it", command_db},
    {"merge", "merge shard databases into one", command_merge},
    {"litmus", "litmus tests on the detailed model over many jitter seeds; fails on forbidden outcomes", command_litmus},
    {"bench", "measure simulator, model and database speed", command_bench},
    {"tester", "random protocol tester: seeded DRF programs checked value by value", command_tester},
    {"sweep", "design-space sweep (grid, random, Latin hypercube, one-at-a-time, Morris) with sensitivities", command_sweep},
    {"calibrate", "fit a mechanism's analytical model to detailed runs at random design points", command_calibrate},
    {"validate", "compare a calibrated model with detailed runs at held-out design points", command_validate},
    {"reproduce", "reproduce a seed paper's experiment: runs, figures and its claims against the measurements", command_reproduce},
};

static void print_usage(FILE *out)
{
    fprintf(out, "usage: syncscope COMMAND [ARGS...]   (syncscope help COMMAND or syncscope COMMAND --help for details)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nShort options, the same in every command that has the long one:\n"
                 "  -s --system  -m --mechanism(s)  -w --workload(s)  -z --size  -d --db  -o --out\n"
                 "  -p --param  -D --set  -r --report  -f --file/--config  -h --help\n"
                 "Sizes take KiB, KB, kB or K (all 1024 bytes), MiB/MB/M, GiB/GB/G.\n"
                 "Exit status: 0 ok; 1 a run, check or operation failed; 2 bad usage or input (an\n"
                 "unknown command, option, preset, mechanism, workload, key or value, a malformed file).\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    /* Line by line even into a pipe or a file (tee, a batch system's log): progress and results
     * appear as they happen, not when the buffer fills or the command ends. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    setvbuf(stderr, NULL, _IOLBF, 0);
    sc_mechanism_add_config_keys();
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || (!strcmp(argv[1], "help") && argc == 2)) {
        print_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("syncscope %s (%s)\n", SYNCSCOPE_VERSION, SYNCSCOPE_GIT_REVISION);
        return 0;
    }
    int help = !strcmp(argv[1], "help");
    const char *name = argv[help ? 2 : 1];
    const cli_command *command = find_command(name);
    if (!command) {
        fprintf(stderr, "syncscope: unknown command '%s' (see syncscope --help)\n", name);
        return 2;
    }
    if (help) {
        char *help_argv[] = {argv[2], "--help", NULL};
        return command->run(2, help_argv);
    }
    return command->run(argc - 1, argv + 1);
}
