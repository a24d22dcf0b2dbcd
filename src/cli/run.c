/* run.c — `syncscope run`: one workload on one system preset under one mechanism, in one mode;
 * prints the result and stores it in the results database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_session.h"

static void print_help(void)
{
    printf("usage: syncscope run --workload W | --workload-file M.json [options]\n\n"
           "Runs one workload and stores the run in the results database.\n\n"
           "  --system PRESET        system preset (models/systems/PRESET.json) or a preset file [gtx480]\n"
           "  --mechanism M          coherence mechanism (syncscope list mechanisms) [wt]\n"
           "  --workload W           built-in workload (syncscope list workloads)\n"
           "  --workload-file M.json user workload manifest\n"
           "  --size tiny|small|large|huge  size class of a built-in workload [small]\n"
           "  --mode functional|detailed|sampled|model  [functional]\n"
           "  --config FILE          JSON file overriding preset keys\n"
           "  --set KEY=VALUE        override one configuration key (repeatable)\n"
           "  --seed N               input-generation seed [1]\n"
           "  --jitter N             timing perturbation seed, 0 = none [0]\n"
           "  --dump BUFFER=FILE     write a manifest buffer's final contents (repeatable)\n"
           "  --db PATH              results database [$SYNCSCOPE_DB or db/syncscope.sqlite]\n"
           "  --no-db                do not store the run\n"
           "  --json                 print the result as JSON\n"
           "sampled mode (CTA-wave windows in big launches, else every PERIOD-th launch of a kernel, in detail):\n"
           "  --sample-period N      one window or launch in N runs in detail [20]\n"
           "  --sample-window-waves W  CTAs per window, in waves of the CTAs the GPU holds at once [8]\n"
           "  --sample-warmup-waves U  leading waves of a window outside its measured steady part [4]\n"
           "  --sample-warmup-launches L  launches run in detail unmeasured before each measured one [1]\n");
}

int command_run(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "system", .kind = CLI_VALUE},     {.name = "mechanism", .kind = CLI_VALUE},
        {.name = "workload", .kind = CLI_VALUE},   {.name = "workload-file", .kind = CLI_VALUE},
        {.name = "size", .kind = CLI_VALUE},       {.name = "mode", .kind = CLI_VALUE},
        {.name = "config", .kind = CLI_VALUE},     {.name = "set", .kind = CLI_REPEATED},
        {.name = "seed", .kind = CLI_VALUE},       {.name = "jitter", .kind = CLI_VALUE},
        {.name = "dump", .kind = CLI_REPEATED},    {.name = "db", .kind = CLI_VALUE},
        {.name = "no-db", .kind = CLI_FLAG},       {.name = "json", .kind = CLI_FLAG},
        RUN_SAMPLED_OPTIONS,                       {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 0, &positional_count, &help) < 0)
        return 2;
    if (help) {
        print_help();
        cli_options_free(options);
        return 0;
    }
    run_request request;
    int status = run_request_from_options(&request, options);
    if (status == 0)
        status = run_session_execute(&request);
    cli_options_free(options);
    return status;
}
