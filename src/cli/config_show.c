/* config_show.c — `syncscope config`: print a resolved configuration or the schema of keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "config/config.h"
#include "config/schema.h"

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: syncscope config show --system PRESET [--file OVERRIDE.json] [--set KEY=VALUE]... [--hash]\n"
            "       syncscope config keys\n\n"
            "show  prints the resolved configuration as indented JSON: the preset (a name from\n"
            "      models/systems/ or a path to a .json file), then the override file, then each\n"
            "      --set in order, later layers winning; values in base units (bytes, Hz).\n"
            "      --hash prints only the configuration's 16-hex-digit hash.\n"
            "keys  lists every configuration key with its type, unit, allowed values, owner and meaning;\n"
            "      the owner is the engine, or the mechanisms whose module declares and reads the key\n"
            "      (every preset defines it all the same).\n"
            "Values accept units: sizes 64B, 16KiB, 2MiB; frequencies 700MHz, 1.4GHz; booleans true/false.\n");
}

static int show(int argc, char **argv)
{
    static char command_name[] = "config show";  /* how cli_parse names us in messages */
    argv[0] = command_name;
    cli_option options[] = {
        {.name = "system", .kind = CLI_VALUE}, {.name = "file", .kind = CLI_VALUE},
        {.name = "set", .kind = CLI_REPEATED}, {.name = "hash", .kind = CLI_FLAG}, {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 0, &positional_count, &help) < 0)
        return 2;
    const char *system = cli_find(options, "system")->value, *file = cli_find(options, "file")->value;
    cli_option *sets = cli_find(options, "set");
    int hash_only = cli_find(options, "hash")->present;
    if (!system) {
        fprintf(stderr, "syncscope config show: --system PRESET is required\n");
        cli_options_free(options);
        return 2;
    }
    sc_error error;
    sc_config *config = sc_config_load(system, file, (const char *const *)sets->values, sets->count, &error);
    cli_options_free(options);
    if (!config) {
        fprintf(stderr, "syncscope %s\n", error.message);
        return cli_failure_status(&error);
    }
    if (hash_only) {
        printf("%s\n", sc_config_hash(config));
    } else {
        char *json = sc_config_json(config, true);
        fputs(json, stdout);
        free(json);
    }
    sc_config_free(config);
    return 0;
}

/* The allowed values of a key as one short text: "gto|lrr", "1..1024", "16B..1KiB, power of two". */
static void describe_allowed(const sc_config_key *key, char *out, size_t size)
{
    if (key->type == SC_KEY_ENUM) {
        snprintf(out, size, "%s", key->choices);
    } else if (key->type == SC_KEY_BOOL || key->type == SC_KEY_STRING) {
        snprintf(out, size, "%s", key->type == SC_KEY_BOOL ? "true|false" : "text");
    } else {
        char low[32], high[32];
        sc_format_quantity(key->type, key->min, low, sizeof low);
        sc_format_quantity(key->type, key->max, high, sizeof high);
        snprintf(out, size, "%s..%s%s", low, high, key->flags & SC_KEY_POWER_OF_TWO ? ", power of two" : "");
    }
}

/* The owner of the key at `index` as `config keys` shows it: "engine", or its mechanisms. */
static void describe_owner(int index, char *out, size_t size)
{
    sc_schema_key_owners(index, out, size);
    if (!*out)
        snprintf(out, size, "engine");
}

static int keys(void)
{
    size_t count;
    const sc_config_key *table = sc_schema_keys(&count);
    int path_width = 4, unit_width = 4, allowed_width = 7, owner_width = 5;
    char allowed[128], owner[128];
    for (size_t i = 0; i < count; i++) {
        describe_allowed(&table[i], allowed, sizeof allowed);
        describe_owner((int)i, owner, sizeof owner);
        path_width = (int)strlen(table[i].path) > path_width ? (int)strlen(table[i].path) : path_width;
        unit_width = (int)strlen(table[i].unit) > unit_width ? (int)strlen(table[i].unit) : unit_width;
        allowed_width = (int)strlen(allowed) > allowed_width ? (int)strlen(allowed) : allowed_width;
        owner_width = (int)strlen(owner) > owner_width ? (int)strlen(owner) : owner_width;
    }
    printf("%-*s  %-9s  %-*s  %-*s  %-*s  %s\n", path_width, "key", "type", unit_width, "unit", allowed_width,
           "allowed", owner_width, "owner", "description");
    for (size_t i = 0; i < count; i++) {
        describe_allowed(&table[i], allowed, sizeof allowed);
        describe_owner((int)i, owner, sizeof owner);
        printf("%-*s  %-9s  %-*s  %-*s  %-*s  %s\n", path_width, table[i].path, sc_key_type_name(table[i].type),
               unit_width, table[i].unit, allowed_width, allowed, owner_width, owner, table[i].description);
    }
    printf("%-*s  %-9s  %-*s  %-*s  %-*s  %s\n", path_width, "mechanism", "object", unit_width, "", allowed_width,
           "{}", owner_width, "", "reserved for mechanism parameters (none defined yet)");
    return 0;
}

int command_config(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_help(stdout);
            return 0;
        }
    if (!strcmp(argv[1], "show"))
        return show(argc - 1, argv + 1);
    if (!strcmp(argv[1], "keys") && argc == 2)
        return keys();
    fprintf(stderr, "syncscope config: unknown or malformed subcommand '%s' (show or keys; see --help)\n", argv[1]);
    return 2;
}
