/* bench.c — `syncscope bench`: measured speed figures. Functional executor throughput per
 * workload (one core), and the results-store ingest and canned-query times. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_session.h"
#include "store/store.h"

static void print_help(void)
{
    printf("usage: syncscope bench [functional|store] [--size tiny|small|large] [--workload W] [--system PRESET]\n"
           "                       [--runs N] [--db PATH]\n\n"
           "functional: warp-instructions per second of the functional executor per workload (default size large).\n"
           "store: inserts N synthetic runs (default 100000) into a scratch database and times every canned query.\n"
           "Without a target, runs both.\n");
}

static int bench_functional(const char *system, const char *only, sc_workload_size size)
{
    sc_error error = {{0}};
    sc_config *config = sc_config_load(system, NULL, NULL, 0, &error);
    if (!config) {
        fprintf(stderr, "syncscope bench: %s\n", error.message);
        return 1;
    }
    int count, status = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    printf("functional executor, system %s, size %s, one core\n", system, sc_workload_size_name(size));
    printf("%-10s %14s %16s %10s %12s %6s\n", "workload", "warp-instr", "thread-instr", "kernel-s", "M warp-i/s", "check");
    for (int i = 0; i < count; i++) {
        if (only && strcmp(only, suite[i]->name) != 0)
            continue;
        run_request request = {.system = system, .mechanism = "wt", .workload = suite[i]->name,
                               .mode = "functional", .size = size, .seed = 1};
        run_result result;
        if (run_session_simulate(&request, config, &result, &error) < 0) {
            printf("%-10s error: %s\n", suite[i]->name, error.message);
            status = 1;
            continue;
        }
        printf("%-10s %14llu %16llu %10.3f %12.2f %6s\n", suite[i]->name,
               (unsigned long long)result.stats.warp_instructions, (unsigned long long)result.stats.thread_instructions,
               result.stats.engine_seconds, (double)result.stats.warp_instructions / result.stats.engine_seconds / 1e6,
               result.check.passed ? "ok" : "FAIL");
        run_result_release(&result);
        fflush(stdout);
    }
    sc_config_free(config);
    return status;
}

int command_bench(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "size", .kind = CLI_VALUE}, {.name = "workload", .kind = CLI_VALUE},
        {.name = "system", .kind = CLI_VALUE}, {.name = "runs", .kind = CLI_VALUE},
        {.name = "db", .kind = CLI_VALUE}, {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    int status = 0;
    sc_workload_size size = SC_SIZE_LARGE;
    const char *size_text = cli_find(options, "size")->value, *target = positional_count ? positional[0] : NULL;
    unsigned long long runs = 100000;
    const char *runs_text = cli_find(options, "runs")->value;
    if (help) {
        print_help();
    } else if (size_text && sc_workload_size_parse(size_text, &size) < 0) {
        fprintf(stderr, "syncscope bench: --size must be tiny, small or large\n");
        status = 2;
    } else if (runs_text && cli_parse_u64("bench", "runs", runs_text, &runs) < 0) {
        status = 2;
    } else if (target && strcmp(target, "functional") && strcmp(target, "store")) {
        fprintf(stderr, "syncscope bench: unknown target '%s': choose functional or store\n", target);
        status = 2;
    } else {
        const char *system = cli_find(options, "system")->value;
        if (!target || !strcmp(target, "functional"))
            status |= bench_functional(system ? system : "gtx480", cli_find(options, "workload")->value, size);
        if (!target || !strcmp(target, "store")) {
            const char *path = cli_find(options, "db")->value;
            status |= sc_store_bench(path ? path : "db/bench.sqlite", (long)runs, stdout) < 0;
        }
    }
    cli_options_free(options);
    return status;
}
