/* reproduce.c — `syncscope reproduce STUDY`: runs a seed paper's experiment (reproduction.h) on
 * the detailed model, stores every run tied to the study's sweep, and writes the figures and the
 * claims table. A failed output check is stored, reported and makes the command exit 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "export/output.h"
#include "studies/reproduction.h"
#include "workloads/workload.h"

static void print_help(void)
{
    printf("usage: syncscope reproduce STUDY [--size tiny|small|large|huge] [--scaling-sizes S,S...]\n"
           "                          [--workloads W,W...] [--out DIR] [--report-only] [--restart] [--db PATH]\n\n"
           "Runs the study's workloads under its mechanisms on its system preset in detail (at --size,\n"
           "default the study's size below), and its scaling workloads at each of --scaling-sizes (default\n"
           "tiny,small,large); stores every run tied to the sweep \"reproduce-STUDY\"; writes the figures\n"
           "and claims.md (the paper's claims next to the measured values) into DIR\n"
           "[notebooks_export/reproduce-STUDY] and prints the claims. --report-only runs nothing and\n"
           "reports on the runs already stored. --workloads keeps a subset of the study's workloads.\n"
           "Run again after an interruption, it keeps the runs this build stored with the same\n"
           "configuration and runs the rest; --restart removes the study's stored runs first.\n\n"
           "Studies:\n");
    study_print_list(stdout);
}

/* Fills the run lists from the study and the options; returns 2 after a usage error. */
static int choose_runs(reproduction *r, char *workload_text, char *scaling_text, const char *size)
{
    study_runs *runs = &r->runs;
    sc_workload_size parsed;
    if (sc_workload_size_parse(size, &parsed) < 0)
        return cli_usage_error("reproduce", "--size '%s': expected tiny, small, large or huge", size);
    runs->size = size;
    const reproduction_study *study = r->study;
    int study_workloads = sc_name_count(study->workloads), study_scaling = sc_name_count(study->scaling_workloads);
    int study_variant_only = study->variant_workloads ? sc_name_count(study->variant_workloads) : 0;
    runs->mechanism_count = sc_name_count(study->mechanisms);
    memcpy(runs->mechanisms, study->mechanisms, (size_t)runs->mechanism_count * sizeof *runs->mechanisms);
    if (workload_text) {
        const char *named[STUDY_MAX_WORKLOADS];
        int count = sc_name_split(workload_text, named, STUDY_MAX_WORKLOADS);
        if (count < 0)
            return cli_usage_error("reproduce", "--workloads: too many names");
        for (int w = 0; w < count; w++) {
            if (sc_name_index(study->variant_workloads, study_variant_only, named[w]) >= 0)
                runs->variant_workloads[runs->variant_workload_count++] = named[w];
            else if (sc_name_index(study->workloads, study_workloads, named[w]) >= 0 ||
                     sc_name_index(study->scaling_workloads, study_scaling, named[w]) >= 0)
                runs->workloads[runs->workload_count++] = named[w];
            else
                return cli_usage_error("reproduce", "--workloads: '%s' is not a workload of this study", named[w]);
        }
    } else {
        runs->workload_count = study_workloads;
        memcpy(runs->workloads, study->workloads, (size_t)study_workloads * sizeof *runs->workloads);
        runs->variant_workload_count = study_variant_only;
        if (study_variant_only)
            memcpy(runs->variant_workloads, study->variant_workloads,
                   (size_t)study_variant_only * sizeof *runs->variant_workloads);
    }
    for (int w = 0; w < study_scaling; w++)
        if (sc_name_index(runs->workloads, runs->workload_count, study->scaling_workloads[w]) >= 0)
            runs->scaling_workloads[runs->scaling_workload_count++] = study->scaling_workloads[w];
    runs->scaling_size_count = sc_name_split(scaling_text, runs->scaling_sizes, STUDY_MAX_SIZES);
    if (runs->scaling_size_count < 0)
        return cli_usage_error("reproduce", "--scaling-sizes: too many sizes");
    for (int s = 0; s < runs->scaling_size_count; s++)
        if (sc_workload_size_parse(runs->scaling_sizes[s], &parsed) < 0)
            return cli_usage_error("reproduce", "--scaling-sizes: '%s' is not tiny, small, large or huge",
                                   runs->scaling_sizes[s]);
    return 0;
}

static int reproduce(reproduction *r, bool report_only, const char *directory)
{
    sc_error error = {{0}};
    int status = reproduction_open(r, &error);
    if (status == 0 && !report_only) {
        printf("%s on %s, database %s\n", r->study->title, r->study->system, sc_store_path(r->runs.store));
        if ((status = reproduction_run(r, stdout, &error)) == 0)
            printf("%d runs, %d kept from an earlier invocation, %d failed their output check\n\n", r->runs_done,
                   r->runs_kept, r->failed_checks);
    }
    if (status == 0 && (reproduction_check_complete(r, &error) < 0 || sc_output_make_directories(directory, &error) < 0 ||
                        r->study->report(&r->runs, directory, stdout, &error) < 0))
        status = -1;
    if (status < 0) {
        fprintf(stderr, "syncscope reproduce: %s\n", error.message);
        return cli_failure_status(&error);
    }
    return r->failed_checks ? 1 : 0;
}

int command_reproduce(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "size", .kind = CLI_VALUE},      {.name = "scaling-sizes", .kind = CLI_VALUE},
        {.name = "workloads", .kind = CLI_VALUE}, {.name = "out", .kind = CLI_VALUE},
        {.name = "report-only", .kind = CLI_FLAG}, {.name = "restart", .kind = CLI_FLAG},
        {.name = "db", .kind = CLI_VALUE},
        {.name = NULL},
    };
    const char *positional[1];
    int positional_count = 0;
    bool help = false;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    int status = 0;
    reproduction r = {0};
    char *workload_text = NULL, *scaling_text = NULL;
    if (help) {
        print_help();
    } else if (positional_count != 1) {
        status = cli_usage_error("reproduce", "expected one STUDY (see syncscope reproduce --help)");
    } else if (!(r.study = study_find(positional[0]))) {
        status = cli_usage_error("reproduce", "unknown study '%s' (see syncscope reproduce --help)", positional[0]);
    } else {
        const char *workloads = cli_find(options, "workloads")->value, *scaling = cli_find(options, "scaling-sizes")->value;
        workload_text = workloads ? strdup(workloads) : NULL;
        scaling_text = strdup(scaling ? scaling : "tiny,small,large");
        const char *size = cli_find(options, "size")->value;
        status = choose_runs(&r, workload_text, scaling_text, size ? size : r.study->size);
        r.restart = cli_find(options, "restart")->present;
        if (status == 0 && r.restart && cli_find(options, "report-only")->present)
            status = cli_usage_error("reproduce", "--restart runs the study again; it cannot go with --report-only");
    }
    if (!help && status == 0) {
        char directory[512];
        const char *out = cli_find(options, "out")->value;
        snprintf(directory, sizeof directory, "notebooks_export/reproduce-%s", r.study->name);
        sc_error error = {{0}};
        r.runs.store = sc_store_open(cli_database_path(cli_find(options, "db")->value), &error);
        if (!r.runs.store) {
            fprintf(stderr, "syncscope reproduce: %s\n", error.message);
            status = 1;
        } else {
            status = reproduce(&r, cli_find(options, "report-only")->present, out ? out : directory);
        }
        sc_store_close(r.runs.store);
    }
    free(workload_text);
    free(scaling_text);
    cli_options_free(options);
    return status;
}
