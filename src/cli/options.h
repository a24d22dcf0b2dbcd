/* options.h — the argument conventions every subcommand shares, parsed with getopt_long:
 * "--name value", "--name=value" or an unambiguous prefix of the name, flags without values,
 * repeated options, positional arguments anywhere ("--" ends the options), and the short
 * options of one table for every command (-s --system, -m --mechanism(s), -w --workload(s),
 * -z --size, -d --db, -o --out, -p --param, -D --set, -r --report, -f --file/--config, -h --help). */
#ifndef SYNCSCOPE_CLI_OPTIONS_H
#define SYNCSCOPE_CLI_OPTIONS_H

#include <stdbool.h>

#include "base/error.h"

typedef enum cli_option_kind { CLI_FLAG, CLI_VALUE, CLI_REPEATED } cli_option_kind;

typedef struct cli_option {
    const char *name;        /* without the leading "--" */
    cli_option_kind kind;
    char *value;             /* CLI_VALUE: the last value given, or NULL (points into argv) */
    bool present;
    char **values;           /* CLI_REPEATED: every value in order (malloc'd array into argv) */
    int count;
} cli_option;

/* Parses argv[1..] against `options` (terminated by a NULL name); argv may be reordered
 * (options first). Positional arguments are collected into `positional` (capacity
 * `max_positional`). On a bad argument prints one line "syncscope COMMAND: ..." to stderr and
 * returns -1. "-h"/"--help" sets *help. */
int cli_parse(int argc, char **argv, cli_option *options, const char **positional, int max_positional,
              int *positional_count, bool *help);
void cli_options_free(cli_option *options);

/* The short option letter of the long option `long_name` in every command, or 0 for none. */
char cli_short_name(const char *long_name);
cli_option *cli_find(cli_option *options, const char *name);

/* Splits "KEY=VALUE", given to --OPTION of COMMAND, in place: returns VALUE with `text` cut to
 * KEY, or prints "syncscope COMMAND: --OPTION 'text': expected KEY=VALUE" and returns NULL. */
char *cli_split_assignment(const char *command, const char *option, char *text);

/* Parses an unsigned integer option value; prints "syncscope COMMAND: --NAME: ..." on error. */
int cli_parse_u64(const char *command, const char *name, const char *text, unsigned long long *value);

/* Prints "syncscope COMMAND: <formatted message>" on stderr and returns 2 (the bad-usage exit). */
int cli_usage_error(const char *command, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The exit status of a failure: 2 when the error is bad input (sc_error.bad_input: an unknown
 * preset, key or value, a malformed file or spec), else 1 (a run, check or operation failed). */
int cli_failure_status(const sc_error *error);

/* The database path: the --db value if given, else sc_store_default_path(). */
const char *cli_database_path(const char *option_value);

#endif
