/* list.c — `syncscope list systems|mechanisms|workloads|runs`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "config/config.h"
#include "export/formats.h"
#include "protocols/mechanism.h"
#include "store/store.h"
#include "workloads/workload.h"

static void print_help(void)
{
    printf("usage: syncscope list systems|mechanisms|workloads|runs [--db PATH] [--limit N]\n\n"
           "Lists the system presets, the mechanisms, the built-in workloads, or the stored runs.\n");
}

static int list_systems(void)
{
    sc_error error = {{0}};
    sc_preset_list presets;
    if (sc_config_list_presets(&presets, &error) < 0) {
        fprintf(stderr, "syncscope list: %s\n", error.message);
        return 1;
    }
    for (size_t i = 0; i < presets.count; i++) {
        const char *sets[1];
        sc_config *config = sc_config_load(presets.names[i], NULL, sets, 0, &error);
        printf("%-10s %s\n", presets.names[i], config ? sc_config_string(config, "system.description") : error.message);
        sc_config_free(config);
    }
    sc_preset_list_free(&presets);
    return 0;
}

static int list_mechanisms(void)
{
    int count;
    const sc_mechanism *const *mechanisms = sc_mechanism_list(&count);
    for (int i = 0; i < count; i++)
        printf("%-9s %s [%s; memory model %s]\n", mechanisms[i]->name, mechanisms[i]->description,
               mechanisms[i]->seed, sc_memory_model_name(mechanisms[i]->memory_model));
    return 0;
}

static int list_workloads(void)
{
    int count;
    const sc_workload *const *suite = sc_workload_suite(&count);
    for (int i = 0; i < count; i++)
        printf("%-10s %s\n", suite[i]->name, suite[i]->description);
    return 0;
}

static int list_runs(const char *database, const char *limit_text)
{
    unsigned long long limit = 20;
    if (limit_text && cli_parse_u64("list", "limit", limit_text, &limit) < 0)
        return 2;
    sc_error error = {{0}};
    sc_store *store = sc_store_open_reader(cli_database_path(database), &error);
    char limit_sql[32];
    snprintf(limit_sql, sizeof limit_sql, "%lld", limit > 0 ? (long long)limit : -1LL);
    const sc_query_param params[] = {{"limit", limit_sql}};
    sc_table *table = NULL;
    int status = store ? sc_store_query(store,
                                        "SELECT * FROM (SELECT id, created_at, system, mechanism, workload, mode,"
                                        " status, cycles, round(wall_seconds, 3) AS wall_seconds, config_hash"
                                        " FROM runs ORDER BY id DESC LIMIT :limit) ORDER BY id",
                                        params, 1, sc_table_collect, &table, &error)
                       : -1;
    if (status == 0) {
        char *text = sc_export_aligned(table);
        fputs(text, stdout);
        free(text);
    }
    sc_table_free(table);
    sc_store_close(store);
    if (status < 0) {
        fprintf(stderr, "syncscope list: %s\n", error.message);
        return 1;
    }
    return 0;
}

int command_list(int argc, char **argv)
{
    cli_option options[] = {{.name = "db", .kind = CLI_VALUE}, {.name = "limit", .kind = CLI_VALUE}, {.name = NULL}};
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    int status = 2;
    if (help) {
        print_help();
        status = 0;
    } else if (positional_count != 1) {
        fprintf(stderr, "syncscope list: say what to list: systems, mechanisms, workloads or runs\n");
    } else if (!strcmp(positional[0], "systems")) {
        status = list_systems();
    } else if (!strcmp(positional[0], "mechanisms")) {
        status = list_mechanisms();
    } else if (!strcmp(positional[0], "workloads")) {
        status = list_workloads();
    } else if (!strcmp(positional[0], "runs")) {
        status = list_runs(cli_find(options, "db")->value, cli_find(options, "limit")->value);
    } else {
        fprintf(stderr, "syncscope list: cannot list '%s': choose systems, mechanisms, workloads or runs\n",
                positional[0]);
    }
    cli_options_free(options);
    return status;
}
