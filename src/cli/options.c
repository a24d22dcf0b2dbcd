/* options.c — shared parsing of subcommand arguments (see options.h). */
#include "cli/options.h"

#include "store/store.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cli_option *cli_find(cli_option *options, const char *name)
{
    for (cli_option *option = options; option->name; option++)
        if (!strcmp(option->name, name))
            return option;
    return NULL;
}

static int take_value(cli_option *option, char *value)
{
    option->present = true;
    if (option->kind == CLI_REPEATED) {
        option->values = realloc(option->values, (size_t)(option->count + 1) * sizeof *option->values);
        option->values[option->count++] = value;
    }
    option->value = value;
    return 0;
}

int cli_parse(int argc, char **argv, cli_option *options, const char **positional, int max_positional,
              int *positional_count, bool *help)
{
    *positional_count = 0;
    *help = false;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            *help = true;
            return 0;
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            if (*positional_count == max_positional) {
                fprintf(stderr, "syncscope %s: unexpected argument '%s'\n", argv[0], arg);
                return -1;
            }
            positional[(*positional_count)++] = arg;
            continue;
        }
        char *name = arg + 2, *equals = strchr(name, '=');
        size_t name_length = equals ? (size_t)(equals - name) : strlen(name);
        cli_option *option = NULL;
        for (cli_option *candidate = options; candidate->name; candidate++)
            if (strlen(candidate->name) == name_length && !strncmp(candidate->name, name, name_length))
                option = candidate;
        if (!option) {
            fprintf(stderr, "syncscope %s: unknown option '--%.*s' (see syncscope %s --help)\n", argv[0],
                    (int)name_length, name, argv[0]);
            return -1;
        }
        if (option->kind == CLI_FLAG) {
            if (equals) {
                fprintf(stderr, "syncscope %s: option '--%s' takes no value\n", argv[0], option->name);
                return -1;
            }
            option->present = true;
            continue;
        }
        char *value = equals ? equals + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) {
            fprintf(stderr, "syncscope %s: option '--%s' needs a value\n", argv[0], option->name);
            return -1;
        }
        take_value(option, value);
    }
    return 0;
}

void cli_options_free(cli_option *options)
{
    for (cli_option *option = options; option->name; option++) {
        free(option->values);
        option->values = NULL;
    }
}

char *cli_split_assignment(const char *command, const char *option, char *text)
{
    char *equals = strchr(text, '=');
    if (!equals || equals == text || !equals[1]) {
        fprintf(stderr, "syncscope %s: --%s '%s': expected KEY=VALUE\n", command, option, text);
        return NULL;
    }
    *equals = '\0';
    return equals + 1;
}

int cli_parse_u64(const char *command, const char *name, const char *text, unsigned long long *value)
{
    char *end;
    errno = 0;
    *value = strtoull(text, &end, 0);
    if (errno || end == text || *end || text[0] == '-') {
        fprintf(stderr, "syncscope %s: --%s: '%s' is not a non-negative integer\n", command, name, text);
        return -1;
    }
    return 0;
}

const char *cli_database_path(const char *option_value)
{
    return option_value ? option_value : sc_store_default_path();
}

int cli_usage_error(const char *command, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "syncscope %s: ", command);
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    return 2;
}
