/* commands.h — the subcommands of the `syncscope` CLI, one file each in src/cli/.
 *
 * Every subcommand has the signature `int command_NAME(int argc, char **argv)`: argv[0] is the
 * subcommand's own name, the rest are its arguments (parsed with cli_parse, options.h). It
 * prints `--help` text for -h/--help (main.c runs `syncscope help NAME` that way), reports bad
 * usage or input (an unknown option, preset, key, value, a malformed file: sc_error.bad_input)
 * in one line "syncscope NAME: ..." on stderr and returns 2, a failed run, check or operation in
 * one line and returns 1 (cli_failure_status picks), success returns 0.
 */
#ifndef SYNCSCOPE_CLI_COMMANDS_H
#define SYNCSCOPE_CLI_COMMANDS_H

typedef struct cli_command {
    const char *name;
    const char *summary;      /* one line for `syncscope --help` */
    int (*run)(int argc, char **argv);
} cli_command;

int command_run(int argc, char **argv);
int command_compare(int argc, char **argv);
int command_list(int argc, char **argv);
int command_bench(int argc, char **argv);
int command_export(int argc, char **argv);
int command_show(int argc, char **argv);
int command_query(int argc, char **argv);
int command_config(int argc, char **argv);
int command_db(int argc, char **argv);
int command_merge(int argc, char **argv);
int command_stalls(int argc, char **argv);
int command_litmus(int argc, char **argv);
int command_tester(int argc, char **argv);
int command_sweep(int argc, char **argv);
int command_calibrate(int argc, char **argv);
int command_validate(int argc, char **argv);
int command_reproduce(int argc, char **argv);

#endif
