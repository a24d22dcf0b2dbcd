/* query.c — `syncscope query`: run a canned query from queries/ (or any .sql file) on the
 * results database, opened for reading only, and print the rows aligned, as CSV or as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/query_table.h"
#include "export/formats.h"

static void print_queries(FILE *out)
{
    char **names;
    size_t count;
    if (sc_canned_query_names(&names, &count, NULL))
        return;
    fprintf(out, "canned queries (queries/NAME.sql):\n");
    for (size_t i = 0; i < count; i++) {
        sc_canned_query query;
        if (sc_canned_query_load(names[i], &query, NULL))
            continue;
        fprintf(out, "  %-16s %s\n", names[i], query.question);
        for (int p = 0; p < query.param_count; p++)
            fprintf(out, "  %-16s   :%s  %s%s%s%s%s%s%s\n", "", query.params[p].name, query.params[p].description,
                    query.params[p].choices ? " (one of: " : "", query.params[p].choices ? query.params[p].choices : "",
                    query.params[p].choices ? ")" : "", query.params[p].default_value ? " (default: " : " (required)",
                    query.params[p].default_value ? query.params[p].default_value : "",
                    query.params[p].default_value ? ")" : "");
        sc_canned_query_free(&query);
    }
    sc_canned_names_free(names, count);
}

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: syncscope query NAME|FILE.sql [--param KEY=VALUE]... [--csv|--json] [--db PATH]\n"
            "       syncscope query --list\n\n"
            "Runs one SQL statement on the results database (--db, else $SYNCSCOPE_DB, else\n"
            "db/syncscope.sqlite) and prints its rows as an aligned table, CSV or JSON: the\n"
            "same CSV and JSON as syncscope export writes (LF line ends; reals in shortest\n"
            "round-trip form; inf and nan as null in JSON). :name parameters in the SQL take\n"
            "their values from --param name=value.\n"
            "Queries only read: a statement that would change the database (INSERT, UPDATE,\n"
            "DELETE, CREATE, DROP, ATTACH, VACUUM, BEGIN, a PRAGMA that sets or runs something)\n"
            "is refused in one line naming it, exit 1, with the database left as it was. The\n"
            "database may sit in a read-only directory.\n\n");
    print_queries(out);
}

int command_query(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "csv", .kind = CLI_FLAG},      {.name = "json", .kind = CLI_FLAG},
        {.name = "list", .kind = CLI_FLAG},     {.name = "db", .kind = CLI_VALUE},
        {.name = "param", .kind = CLI_REPEATED}, {.name = NULL},
    };
    const char *positional[1];
    int positional_count, status = 0;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    if (help || cli_find(options, "list")->present) {
        print_help(stdout);
        cli_options_free(options);
        return 0;
    }
    const char *name = positional_count ? positional[0] : NULL;
    const char *db_path = cli_database_path(cli_find(options, "db")->value);
    sc_table_format format = cli_find(options, "json")->present ? SC_TABLE_JSON
                           : cli_find(options, "csv")->present  ? SC_TABLE_CSV
                                                                : SC_TABLE_ALIGNED;
    cli_option *param = cli_find(options, "param");
    sc_query_param *params = calloc((size_t)param->count + 1, sizeof *params);
    int param_count = 0;
    for (int i = 0; i < param->count && !status; i++) {
        char *value = cli_split_assignment("query", "param", param->values[i]);
        if (!value)
            status = 2;
        else
            params[param_count++] = (sc_query_param){param->values[i], value};
    }
    if (!status && !name) {
        fprintf(stderr, "syncscope query: which query? (syncscope query --list)\n");
        status = 2;
    }
    sc_canned_query query = {0};
    sc_table *table = status ? NULL : cli_query_table("query", name, params, param_count, db_path, &query, &status);
    if (table) {
        char *text = sc_export_table(table, format);
        fputs(text, stdout);
        free(text);
    }
    sc_table_free(table);
    sc_canned_query_free(&query);
    free(params);
    cli_options_free(options);
    return status;
}
