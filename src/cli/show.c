/* show.c — `syncscope show RUN`: one stored run with its configuration, kernels, metrics and
 * stall totals, for people (sections of aligned tables) or programs (--json). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "export/formats.h"
#include "export/table.h"

typedef struct run_section {
    const char *title;
    const char *sql;
} run_section;

static const run_section sections[] = {
    {"run", "SELECT id, created_at, tool_version, git_revision, system, config_hash, mechanism, workload,"
            " workload_params, mode, seed, jitter, status, check_detail, cycles, wall_seconds, sweep_point_id"
            " FROM runs WHERE id = :run"},
    {"kernels", "SELECT kernel_index, name, grid, block, warp_instructions, cycles FROM kernels"
                " WHERE run_id = :run ORDER BY kernel_index"},
    {"metrics", "SELECT kernel_index, name, value, unit FROM metrics WHERE run_id = :run"
                " ORDER BY kernel_index IS NOT NULL, kernel_index, name"},
    /* The cu NULL rows when present, else the mean over the per-CU rows. */
    {"stalls", "SELECT category, subcategory, round(sum(cycles) / count(DISTINCT coalesce(cu, -1)), 2) AS cycles,"
               " round(sum(cycles) / count(DISTINCT coalesce(cu, -1)) / (SELECT cycles FROM runs WHERE id = :run), 4)"
               " AS fraction FROM stalls WHERE run_id = :run AND (cu = -1 OR NOT EXISTS"
               " (SELECT 1 FROM stalls WHERE run_id = :run AND cu = -1))"
               " GROUP BY category, subcategory ORDER BY cycles DESC"},
};

static void print_help(FILE *out)
{
    fprintf(out, "usage: syncscope show RUN_ID [--json] [--db PATH]\n\n"
                 "Prints a stored run: its record, configuration, kernels, metrics and stall totals\n"
                 "(GSI categories, mean over CUs, with the fraction of the run's cycles).\n");
}

/* Runs one section's SQL for run `run` into a new table (NULL on failure). */
static sc_table *section_table(sc_store *store, const char *sql, const char *run, sc_error *error)
{
    const sc_query_param params[] = {{"run", run}};
    sc_table *table = NULL;
    if (sc_store_query(store, sql, params, 1, sc_table_collect, &table, error) < 0) {
        sc_table_free(table);
        return NULL;
    }
    return table;
}

/* The stored configuration as JSON (a string holding the text when it does not parse). */
static cJSON *config_json(sc_store *store, const char *run, sc_error *error)
{
    sc_table *table = section_table(store, "SELECT c.json FROM runs r JOIN configs c ON c.hash = r.config_hash"
                                           " WHERE r.id = :run", run, error);
    if (!table)
        return NULL;
    const sc_cell *cell = table->row_count == 1 ? sc_table_cell(table, 0, 0) : NULL;
    const char *text = cell && cell->type == SC_CELL_TEXT ? cell->as.text : "";
    cJSON *json = cJSON_Parse(text);
    if (!json)
        json = cJSON_CreateString(text);
    sc_table_free(table);
    return json;
}

static void print_text(char *text)
{
    fputs(text, stdout);
    free(text);
}

static int show_run(sc_store *store, const char *run, int as_json, sc_error *error)
{
    cJSON *document = cJSON_CreateObject(), *config = config_json(store, run, error);
    if (!config) {
        cJSON_Delete(document);
        return -1;
    }
    if (!as_json) {
        printf("== config\n");
        print_text(cJSON_Print(config));
    }
    cJSON_AddItemToObject(document, "config", config);
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
        sc_table *table = section_table(store, sections[s].sql, run, error);
        if (!table) {
            cJSON_Delete(document);
            return -1;
        }
        if (as_json) {
            cJSON_AddItemToObject(document, sections[s].title,
                                  s == 0 ? sc_table_json_row(table, 0) : sc_table_json_rows(table));
        } else {
            printf("\n== %s\n", sections[s].title);
            print_text(sc_export_aligned(table));
        }
        sc_table_free(table);
    }
    if (as_json) {
        print_text(cJSON_Print(document));
        putchar('\n');
    }
    cJSON_Delete(document);
    return 0;
}

static int run_exists(void *found, int columns, const char *const *names, const char *const *values,
                      const sc_value_kind *kinds)
{
    if (values)
        *(int *)found = 1;
    return 0;
}

int command_show(int argc, char **argv)
{
    cli_option options[] = {{.name = "json", .kind = CLI_FLAG}, {.name = "db", .kind = CLI_VALUE}, {.name = NULL}};
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    if (help) {
        print_help(stdout);
        return 0;
    }
    const char *run = positional_count ? positional[0] : NULL;
    const char *db_path = cli_database_path(cli_find(options, "db")->value);
    int as_json = cli_find(options, "json")->present;
    if (!run || !*run || strspn(run, "0123456789") != strlen(run)) {
        fprintf(stderr, run ? "syncscope show: '%s' is not a run id (see --help)\n"
                            : "syncscope show: which run? (syncscope show RUN_ID)%s\n", run ? run : "");
        return 2;
    }
    sc_error error;
    sc_store *store = sc_store_open_reader(db_path, &error);
    int found = 0, status = 1;
    const sc_query_param params[] = {{"run", run}};
    if (store && sc_store_query(store, "SELECT 1 FROM runs WHERE id = :run", params, 1, run_exists, &found, &error) == 0) {
        if (!found)
            snprintf(error.message, sizeof error.message, "%s: no run %s", db_path, run);
        else if (show_run(store, run, as_json, &error) == 0)
            status = 0;
    }
    if (status)
        fprintf(stderr, "syncscope show: %s\n", error.message);
    sc_store_close(store);
    return status;
}
