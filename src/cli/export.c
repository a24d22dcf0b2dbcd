/* export.c — `syncscope export`: runs a canned or user SQL query against the results database
 * (read-only) and writes its rows as CSV, JSON or a Jupyter notebook with the CSV beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/files.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/query_table.h"
#include "export/formats.h"
#include "export/output.h"
#include "export/table.h"

#define MAX_PARAMS 64
#define EXPORT_DIRECTORY "notebooks_export"

static const char usage[] =
    "usage: syncscope export QUERY_NAME|FILE.sql [--format csv|json|ipynb] [--param NAME=VALUE]...\n"
    "                        [--out FILE] [--db PATH]\n"
    "\n"
    "Runs a query read-only and writes its rows. QUERY_NAME is a file queries/QUERY_NAME.sql of the\n"
    "syncscope data directory (its parameters' defaults apply, as in syncscope query); anything\n"
    "ending in .sql is a file path.\n"
    "\n"
    "  --format F       csv (RFC 4180 with LF line ends, default), json (array of row objects,\n"
    "                   inf and nan as null) or ipynb (a Jupyter\n"
    "                   notebook plus the CSV it loads, written beside it); default from --out's\n"
    "                   extension, else csv\n"
    "  --param N=V      value of the query parameter :N (repeatable)\n"
    "  --out FILE       output file ('-' = standard output for csv and json);\n"
    "                   default " EXPORT_DIRECTORY "/QUERY_NAME.FORMAT\n"
    "  --db PATH        results database (default $SYNCSCOPE_DB, else db/syncscope.sqlite)\n";

typedef struct export_options {
    const char *query;
    const char *format;
    const char *out;
    const char *db;
    sc_query_param params[MAX_PARAMS];
    size_t param_count;
} export_options;

static int bad_usage(const char *message, const char *detail)
{
    fprintf(stderr, "syncscope export: %s%s (see syncscope export --help)\n", message, detail);
    return 2;
}

static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : NULL;
}

/* Fills `options` from argv; returns -1 after printing help, 2 on bad usage, 0 otherwise. */
static int parse_arguments(int argc, char **argv, export_options *options)
{
    cli_option parsed[] = {
        {.name = "format", .kind = CLI_VALUE}, {.name = "param", .kind = CLI_REPEATED},
        {.name = "out", .kind = CLI_VALUE},    {.name = "db", .kind = CLI_VALUE}, {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    *options = (export_options){0};
    if (cli_parse(argc, argv, parsed, positional, 1, &positional_count, &help) < 0)
        return 2;
    options->format = cli_find(parsed, "format")->value;
    options->out = cli_find(parsed, "out")->value;
    options->db = cli_find(parsed, "db")->value;
    cli_option *param = cli_find(parsed, "param");
    int status = 0;
    if (help) {
        fputs(usage, stdout);
        status = -1;
    } else if (param->count > MAX_PARAMS) {
        status = bad_usage("too many --param options", "");
    } else if (positional_count != 1) {
        status = bad_usage("expected one query name or .sql file", "");
    }
    for (int i = 0; status == 0 && i < param->count; i++) {
        char *value = cli_split_assignment("export", "param", param->values[i]);
        if (!value)
            status = 2;
        else
            options->params[options->param_count++] = (sc_query_param){param->values[i], value};
    }
    cli_options_free(parsed);
    if (status)
        return status;
    options->query = positional[0];
    if (!options->format) {
        const char *extension = options->out ? extension_of(options->out) : NULL;
        options->format = extension && (!strcmp(extension, "json") || !strcmp(extension, "ipynb"))
                              ? extension : "csv";
    }
    if (strcmp(options->format, "csv") && strcmp(options->format, "json") && strcmp(options->format, "ipynb"))
        return bad_usage("unknown format ", options->format);
    if (options->out && !strcmp(options->out, "-") && !strcmp(options->format, "ipynb"))
        return bad_usage("an ipynb export needs a file, not standard output", "");
    return 0;
}

/* `path` with its extension replaced by `extension`. */
static void replace_extension(const char *path, const char *extension, char *out, size_t out_size)
{
    const char *old = extension_of(path);
    int stem = old ? (int)(old - 1 - path) : (int)strlen(path);
    snprintf(out, out_size, "%.*s.%s", stem, path, extension);
}

/* The query's plot cell: queries/NAME.py beside queries/NAME.sql (FILE.py beside FILE.sql), or
 * NULL when there is none. */
static char *read_plot_code(const sc_canned_query *query)
{
    char path[4096];
    replace_extension(query->path, "py", path, sizeof path);
    sc_error ignored;
    return access(path, F_OK) == 0 ? sc_read_file(path, NULL, &ignored) : NULL;
}

static int write_notebook(const export_options *options, const sc_table *table, const sc_canned_query *query,
                          const char *notebook_path, sc_error *error)
{
    char csv_path[4096], stem[4096];
    replace_extension(notebook_path, "csv", csv_path, sizeof csv_path);
    const char *name = strrchr(notebook_path, '/') ? strrchr(notebook_path, '/') + 1 : notebook_path;
    const char *extension = extension_of(name);
    snprintf(stem, sizeof stem, "%.*s", extension ? (int)(extension - 1 - name) : (int)strlen(name), name);
    char *csv = sc_export_csv(table);
    int status = sc_output_write(csv_path, csv, error);
    free(csv);
    if (status < 0)
        return -1;
    int param_count;
    sc_query_param *params = sc_canned_query_bindings(query, options->params, (int)options->param_count,
                                                      &param_count);
    char *plot_code = read_plot_code(query);
    sc_notebook_spec spec = {
        .title = query->name, .question = query->question, .csv_path = strrchr(csv_path, '/') ? strrchr(csv_path, '/') + 1 : csv_path,
        .stem = stem, .sql = query->sql, .params = params, .param_count = (size_t)param_count,
        .plot_code = plot_code, .table = table,
    };
    char *notebook = sc_export_notebook(&spec);
    status = sc_output_write(notebook_path, notebook, error);
    free(notebook);
    free(plot_code);
    free(params);
    if (status == 0)
        fprintf(stderr, "wrote %s and %s (%zu rows%s)\n", notebook_path, csv_path, table->row_count,
                spec.plot_code ? "" : "; the query has no plot cell, so the notebook shows the rows");
    return status;
}

static int export_table(const export_options *options, const sc_table *table, const sc_canned_query *query,
                        sc_error *error)
{
    char out[4096];
    if (options->out)
        snprintf(out, sizeof out, "%s", options->out);
    else
        snprintf(out, sizeof out, "%s/%s.%s", EXPORT_DIRECTORY, query->name, options->format);
    if (!strcmp(options->format, "ipynb"))
        return write_notebook(options, table, query, out, error);
    char *text = sc_export_table(table, !strcmp(options->format, "json") ? SC_TABLE_JSON : SC_TABLE_CSV);
    int status = sc_output_write(out, text, error);
    free(text);
    if (status == 0 && strcmp(out, "-"))
        fprintf(stderr, "wrote %s (%zu rows)\n", out, table->row_count);
    return status;
}

int command_export(int argc, char **argv)
{
    export_options options;
    int status = parse_arguments(argc, argv, &options);
    if (status != 0)
        return status < 0 ? 0 : status;
    sc_canned_query query;
    sc_table *table = cli_query_table("export", options.query, options.params, (int)options.param_count,
                                      cli_database_path(options.db), &query, &status);
    sc_error error;
    if (table && export_table(&options, table, &query, &error) < 0) {
        fprintf(stderr, "syncscope export: %s\n", error.message);
        status = 1;
    }
    sc_table_free(table);
    sc_canned_query_free(&query);
    return status;
}
