/* stalls.c — `syncscope stalls`: prints the GSI stall breakdown of stored runs as a table with
 * percentages (whole GPU, or per CU), and draws it as SVG: one stacked bar per run, or the three
 * GSI report figures (overall, memory data, memory structural) normalised to a baseline.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "export/breakdown.h"
#include "export/database.h"
#include "export/output.h"
#include "export/report.h"
#include "export/stall_palette.h"
#include "export/table.h"

static const char usage[] =
    "usage: syncscope stalls RUN... [--db PATH] [--by-cu] [--svg FILE]\n"
    "                        [--report DIR] [--baseline LABEL] [--label SQL] [--where SQL]\n"
    "\n"
    "Prints the GSI stall breakdown of each run: cycles and share of the run's cycles per category\n"
    "and subcategory, or with --by-cu the share of each category on every CU.\n"
    "\n"
    "  --db PATH        results database (default $SYNCSCOPE_DB, else db/syncscope.sqlite)\n"
    "  --by-cu          one line per CU instead of the whole-GPU breakdown\n"
    "  --svg FILE       also draw a stacked bar chart: one bar per run, normalised to the baseline\n"
    "                   (with --by-cu and one run: one bar per CU)\n"
    "  --report DIR     also write the GSI figures stalls_overall.svg, stalls_mem_data.svg and\n"
    "                   stalls_mem_struct.svg into DIR\n"
    "  --baseline L     bar label every workload is normalised to (default: its leftmost bar)\n"
    "  --label SQL      SQL expression over runs naming each bar (default: mechanism), e.g.\n"
    "                   \"mechanism || ' on ' || system\"\n"
    "  --where SQL      select the runs by an SQL condition over runs instead of listing ids\n";

typedef struct stalls_options {
    const char *db, *svg, *report, *where;
    sc_report_options report_options;
    int by_cu;
    long long *run_ids;
    size_t run_count;
} stalls_options;

static int bad_usage(const char *message, const char *detail)
{
    fprintf(stderr, "syncscope stalls: %s%s (see syncscope stalls --help)\n", message, detail);
    return 2;
}

static int parse_run_id(const char *text, long long *id)
{
    char *end;
    *id = strtoll(text, &end, 10);
    return *text && !*end && *id >= 0 ? 0 : -1;
}

/* Fills `options` from argv; returns -1 after printing help, 2 on bad usage, 0 otherwise. */
static int parse_arguments(int argc, char **argv, stalls_options *options)
{
    cli_option parsed[] = {
        {.name = "db", .kind = CLI_VALUE},       {.name = "svg", .kind = CLI_VALUE},
        {.name = "by-cu", .kind = CLI_FLAG},     {.name = "report", .kind = CLI_VALUE},
        {.name = "baseline", .kind = CLI_VALUE}, {.name = "label", .kind = CLI_VALUE},
        {.name = "where", .kind = CLI_VALUE},    {.name = NULL},
    };
    const char **runs = calloc((size_t)argc + 1, sizeof *runs);
    int run_count;
    bool help;
    if (!runs)
        abort();
    int status = cli_parse(argc, argv, parsed, runs, argc, &run_count, &help) < 0 ? 2 : 0;
    options->db = cli_find(parsed, "db")->value;
    options->svg = cli_find(parsed, "svg")->value;
    options->by_cu = cli_find(parsed, "by-cu")->present;
    options->report = cli_find(parsed, "report")->value;
    options->report_options.baseline = cli_find(parsed, "baseline")->value;
    options->report_options.label_sql = cli_find(parsed, "label")->value;
    options->where = cli_find(parsed, "where")->value;
    cli_options_free(parsed);
    if (status == 0 && help) {
        fputs(usage, stdout);
        status = -1;
    } else if (status == 0 && (run_count == 0) == !options->where) {
        status = bad_usage("give run ids or --where, not both or neither", "");
    }
    options->run_count = status == 0 ? (size_t)run_count : 0;
    options->run_ids = calloc(options->run_count + 1, sizeof *options->run_ids);
    if (!options->run_ids)
        abort();
    for (size_t i = 0; status == 0 && i < options->run_count; i++)
        if (parse_run_id(runs[i], &options->run_ids[i]) < 0)
            status = bad_usage("not a run id: ", runs[i]);
    free(runs);
    return status;
}

static const char *kind_label(const char *parent, const char *name)
{
    const sc_stall_kind *kind = sc_stall_kind_find(parent, name);
    return kind ? kind->label : name;
}

static int print_run_heading(sqlite3 *db, long long run_id, sc_error *error)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", run_id);
    sc_query_param param = {"run", id};
    sc_table *run = sc_table_from_query(db, "SELECT workload, mechanism, system, status FROM runs "
                                            "WHERE id = :run", &param, 1, error);
    if (!run)
        return -1;
    if (!run->row_count) {
        sc_table_free(run);
        return sc_fail(error, "run %lld not found", run_id);
    }
    char fields[4][256];
    for (size_t i = 0; i < 4; i++)
        sc_cell_format(sc_table_cell(run, 0, i), fields[i], sizeof fields[i]);
    printf("run %lld: %s on %s under %s (%s)\n", run_id, fields[0], fields[2], fields[1], fields[3]);
    sc_table_free(run);
    return 0;
}

static void print_line(const char *label, double cycles, double total)
{
    printf("  %-26s %16.0f %7.2f%%\n", label, cycles, total > 0 ? 100 * cycles / total : 0);
}

/* The whole-GPU breakdown: each category, then its subcategories indented, as % of all cycles. */
static void print_breakdown(const sc_table *breakdown, long long run_id)
{
    double total = sc_breakdown_total(breakdown, run_id);
    const char **categories;
    size_t category_count = sc_breakdown_names(breakdown, NULL, &categories);
    printf("  %-26s %16s %8s\n", "category", "cycles", "share");
    for (size_t c = 0; c < category_count; c++) {
        print_line(kind_label(NULL, categories[c]),
                   sc_breakdown_cycles(breakdown, run_id, NULL, categories[c]), total);
        const char **subcategories;
        size_t subcategory_count = sc_breakdown_names(breakdown, categories[c], &subcategories);
        for (size_t s = 0; s < subcategory_count; s++) {
            char label[128];
            snprintf(label, sizeof label, "  %s", kind_label(categories[c], subcategories[s]));
            print_line(label, sc_breakdown_cycles(breakdown, run_id, categories[c], subcategories[s]),
                       total);
        }
        free(subcategories);
    }
    free(categories);
    print_line("total", total, total);
}

/* One line per CU: its cycles and the share of each top-level category. */
static void print_breakdown_by_cu(const sc_table *breakdown)
{
    const char **categories;
    size_t category_count = sc_breakdown_names(breakdown, NULL, &categories);
    long long *cus;
    size_t cu_count = sc_breakdown_keys(breakdown, &cus);
    printf("  %6s %14s", "cu", "cycles");
    for (size_t c = 0; c < category_count; c++)
        printf(" %11.11s", categories[c]);
    printf("\n");
    for (size_t i = 0; i < cu_count; i++) {
        double total = sc_breakdown_total(breakdown, cus[i]);
        printf("  %6lld %14.0f", cus[i], total);
        for (size_t c = 0; c < category_count; c++) {
            double cycles = sc_breakdown_cycles(breakdown, cus[i], NULL, categories[c]);
            printf(" %10.2f%%", total > 0 ? 100 * cycles / total : 0);
        }
        printf("\n");
    }
    free(cus);
    free(categories);
}

/* Whether run `run_id` was made with sim.gsi false (false where the database keeps no
 * configurations to say). */
static bool made_without_gsi(sqlite3 *db, long long run_id)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", run_id);
    sc_query_param param = {"run", id};
    sc_error ignored = {{0}};
    sc_table *run = sc_table_from_query(db, "SELECT json_extract(c.json, '$.sim.gsi') IS 0 FROM runs r "
                                            "JOIN configs c ON c.hash = r.config_hash WHERE r.id = :run",
                                        &param, 1, &ignored);
    bool without = run && run->row_count && sc_table_cell(run, 0, 0)->as.integer;
    if (run)
        sc_table_free(run);
    return without;
}

static int print_run(sqlite3 *db, long long run_id, int by_cu, sc_error *error)
{
    if (print_run_heading(db, run_id, error) < 0)
        return -1;
    sc_table *breakdown = by_cu ? sc_breakdown_by_cu(db, run_id, error)
                                : sc_breakdown_for_runs(db, &run_id, 1, error);
    if (!breakdown)
        return -1;
    if (!breakdown->row_count)
        printf("  (no stall rows recorded%s%s)\n", by_cu ? " per CU" : "",
               made_without_gsi(db, run_id) ? ": the run was made with sim.gsi false" : "");
    else if (by_cu)
        print_breakdown_by_cu(breakdown);
    else
        print_breakdown(breakdown, run_id);
    sc_table_free(breakdown);
    return 0;
}

static int write_svg(sqlite3 *db, const stalls_options *options, sc_error *error)
{
    if (options->by_cu && options->run_count != 1)
        return sc_fail(error, "--svg with --by-cu draws one run; give exactly one");
    char *svg = options->by_cu
                    ? sc_report_cu_figure(db, options->run_ids[0], NULL, error)
                    : sc_report_runs_figure(db, options->run_ids, options->run_count, NULL,
                                            &options->report_options, error);
    if (!svg)
        return -1;
    int status = sc_output_write_figure(options->svg, svg, error);
    free(svg);
    if (status == 0)
        fprintf(stderr, "wrote %s\n", options->svg);
    return status;
}

static int run_stalls(sqlite3 *db, stalls_options *options, sc_error *error)
{
    if (options->where) {
        free(options->run_ids);
        if (sc_report_select_runs(db, options->where, &options->run_ids, &options->run_count, error) < 0)
            return -1;
    }
    for (size_t i = 0; i < options->run_count; i++) {
        if (i)
            printf("\n");
        if (print_run(db, options->run_ids[i], options->by_cu, error) < 0)
            return -1;
    }
    if (options->svg && write_svg(db, options, error) < 0)
        return -1;
    if (options->report) {
        if (sc_report_write_gsi(db, options->run_ids, options->run_count, &options->report_options,
                                options->report, error) < 0)
            return -1;
        fprintf(stderr, "wrote stalls_overall.svg, stalls_mem_data.svg, stalls_mem_struct.svg in %s\n",
                options->report);
    }
    return 0;
}

int command_stalls(int argc, char **argv)
{
    stalls_options options = {0};
    int parsed = parse_arguments(argc, argv, &options);
    if (parsed != 0) {
        free(options.run_ids);
        return parsed < 0 ? 0 : parsed;
    }
    sc_error error;
    int status = -1;
    sqlite3 *db = sc_database_open_readonly(cli_database_path(options.db), &error);
    if (db)
        status = run_stalls(db, &options, &error);
    if (status < 0)
        fprintf(stderr, "syncscope stalls: %s\n", error.message);
    sqlite3_close(db);
    free(options.run_ids);
    return status < 0 ? 1 : 0;
}
