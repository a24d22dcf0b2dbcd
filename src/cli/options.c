/* options.c — shared parsing of subcommand arguments (see options.h). */
#include "cli/options.h"

#include "store/store.h"

#include <errno.h>
#include <getopt.h>
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

static void take_value(cli_option *option, char *value)
{
    option->present = true;
    if (option->kind == CLI_REPEATED) {
        option->values = realloc(option->values, (size_t)(option->count + 1) * sizeof *option->values);
        option->values[option->count++] = value;
    }
    option->value = value;
}

/* The short option of every command's long option of that name: one table, so that -s means
 * --system wherever a command has --system. */
static const struct {
    const char *name;
    char letter;
} short_names[] = {
    {"system", 's'},    {"mechanism", 'm'}, {"mechanisms", 'm'}, {"workload", 'w'}, {"workloads", 'w'},
    {"size", 'z'},      {"db", 'd'},        {"out", 'o'},        {"param", 'p'},    {"set", 'D'},
    {"report", 'r'},    {"file", 'f'},      {"config", 'f'},
};

char cli_short_name(const char *long_name)
{
    for (size_t i = 0; i < sizeof short_names / sizeof short_names[0]; i++)
        if (!strcmp(short_names[i].name, long_name))
            return short_names[i].letter;
    return 0;
}

int cli_parse(int argc, char **argv, cli_option *options, const char **positional, int max_positional,
              int *positional_count, bool *help)
{
    *positional_count = 0;
    *help = false;
    int count = 0;
    while (options[count].name)
        count++;
    struct option *longs = calloc((size_t)count + 2, sizeof *longs);
    char *shorts = calloc(3 * (size_t)count + 4, 1);
    if (!longs || !shorts)
        abort();
    strcpy(shorts, ":h");   /* ':' first: a missing value is told from an unknown option */
    for (int i = 0; i < count; i++) {
        char letter = cli_short_name(options[i].name);
        longs[i] = (struct option){options[i].name, options[i].kind == CLI_FLAG ? no_argument : required_argument,
                                   NULL, letter ? letter : 256 + i};
        if (letter) {
            if (strchr(shorts, letter))
                abort();   /* two options of one command share a letter: fix short_names */
            size_t end = strlen(shorts);
            shorts[end] = letter;
            if (options[i].kind != CLI_FLAG)
                shorts[end + 1] = ':';
        }
    }
    longs[count] = (struct option){"help", no_argument, NULL, 'h'};
    int status = 0, index;
    optind = 0;   /* GNU getopt: start over (each command parses its own argv) */
    opterr = 0;
    for (int got; status == 0 && (got = getopt_long(argc, argv, shorts, longs, &index)) != -1;) {
        if (got == 'h') {
            *help = true;
            break;
        }
        if (got == '?' || got == ':') {
            const char *arg = argv[optind - 1];
            if (got == ':')
                fprintf(stderr, "syncscope %s: option '%s' needs a value", argv[0], arg);
            else if (strncmp(arg, "--", 2) && optopt > 0 && optopt < 256)
                fprintf(stderr, "syncscope %s: unknown option '-%c'", argv[0], optopt);
            else
                fprintf(stderr, "syncscope %s: option '%s' is unknown or takes no value", argv[0], arg);
            fprintf(stderr, " (see syncscope %s --help)\n", argv[0]);
            status = -1;
            break;
        }
        cli_option *option = got >= 256 ? &options[got - 256] : NULL;
        for (int i = 0; i < count && !option; i++)
            if (cli_short_name(options[i].name) == got)
                option = &options[i];
        if (option->kind == CLI_FLAG)
            option->present = true;
        else
            take_value(option, optarg);
    }
    for (int i = optind; status == 0 && !*help && i < argc; i++) {
        if (*positional_count == max_positional) {
            fprintf(stderr, "syncscope %s: unexpected argument '%s' (see syncscope %s --help)\n", argv[0], argv[i],
                    argv[0]);
            status = -1;
        } else {
            positional[(*positional_count)++] = argv[i];
        }
    }
    free(longs);
    free(shorts);
    return status;
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

int cli_failure_status(const sc_error *error)
{
    return error->bad_input ? 2 : 1;
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
