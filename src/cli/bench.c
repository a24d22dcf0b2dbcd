/* bench.c — `syncscope bench`: measured speed figures. Functional executor and detailed timing
 * model throughput per workload (one core), and the results-store ingest and canned-query times. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "base/progress.h"

#include "cli/bench_gsi.h"
#include "cli/bench_model.h"
#include "cli/bench_sampled.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/sampling_options.h"
#include "protocols/mechanism.h"
#include "session/run_session.h"
#include "store/store.h"

static void print_help(void)
{
    printf("usage: syncscope bench [functional|detailed|sampled|store|model|gsi] [--size tiny|small|large|huge]\n"
           "                       [--workload W] [--system PRESET] [--mechanism M] [--runs N] [--db PATH]\n"
           "                       [--sample-period N] [--sample-window-waves W] [--sample-warmup-waves U]\n"
           "                       [--sample-warmup-launches L]\n\n"
           "functional: warp-instructions per second of the functional executor per workload (default size large).\n"
           "detailed: warp-instructions and simulated GPU cycles per second of the detailed timing model per\n"
           "          workload under --mechanism (default %s, size small), and the process's peak resident\n"
           "          memory so far (getrusage).\n"
           "sampled: each workload in full detail and sampled (run --mode sampled; default size huge): full\n"
           "         cycles, estimate, error, 95%% interval, share of warp instructions in detail, wall-time speedup,\n"
           "         and whether it meets 2 %% with at most 1/20 in detail.\n"
           "model: per workload, the profiling pass's time and analytical-model evaluations per second\n"
           "       under --mechanism (default %s, size small).\n"
           "gsi: per workload, the CPU time of detailed runs with sim.gsi true and false (best of --runs N,\n"
           "     default 3, alternately; default size small) and the share GSI's classification adds; fails if\n"
           "     the two settings differ in cycles or warp instructions.\n"
           "store: inserts N synthetic runs (default 100000) into --db PATH (default db/bench.sqlite; replaced at\n"
           "       the start, kept afterwards for profiling) and times every canned query (first run, best of 3).\n"
           "Without a target, runs functional and store.\n",
           sc_mechanism_default()->name, sc_mechanism_default()->name);
}

/* Sums over the workloads that ran. */
typedef struct bench_totals {
    uint64_t warp_instructions, cycles;
    double seconds;
} bench_totals;

/* What one bench target runs and prints. */
typedef struct bench_target {
    const char *mode;
    void (*print_header)(const char *system, const char *mechanism, sc_workload_size size);
    void (*print_row)(const char *workload, const run_result *result);
    void (*print_totals)(const bench_totals *totals);    /* NULL: none */
} bench_target;

static double per_second(double count, double seconds)
{
    return seconds > 0 ? count / seconds : 0.0;
}

static void functional_header(const char *system, const char *mechanism, sc_workload_size size)
{
    printf("functional executor, system %s, size %s, one core\n", system, sc_workload_size_name(size));
    printf("%-12s %14s %16s %10s %12s %6s\n", "workload", "warp-instr", "thread-instr", "kernel-s", "M warp-i/s", "check");
}

static void functional_row(const char *workload, const run_result *result)
{
    printf("%-12s %14llu %16llu %10.3f %12.2f %6s\n", workload, (unsigned long long)result->stats.warp_instructions,
           (unsigned long long)result->stats.thread_instructions, result->stats.engine_seconds,
           per_second((double)result->stats.warp_instructions, result->stats.engine_seconds) / 1e6,
           result->check.passed ? "ok" : "FAIL");
}

static void detailed_header(const char *system, const char *mechanism, sc_workload_size size)
{
    printf("detailed timing model, system %s, mechanism %s, size %s, one core\n", system, mechanism,
           sc_workload_size_name(size));
    printf("%-12s %12s %12s %10s %12s %12s %9s %6s\n", "workload", "warp-instr", "cycles", "kernel-s", "M warp-i/s",
           "M cycles/s", "peak-MiB", "check");
}

/* Peak resident set of this process so far, in MiB (ru_maxrss is in KiB on Linux). */
static double peak_resident_mib(void)
{
    struct rusage usage;
    return getrusage(RUSAGE_SELF, &usage) == 0 ? (double)usage.ru_maxrss / 1024.0 : 0.0;
}

static void detailed_row(const char *workload, const run_result *result)
{
    double seconds = result->stats.engine_seconds;
    printf("%-12s %12llu %12llu %10.3f %12.2f %12.2f %9.1f %6s\n", workload,
           (unsigned long long)result->stats.warp_instructions, (unsigned long long)result->timing.cycles, seconds,
           per_second((double)result->stats.warp_instructions, seconds) / 1e6,
           per_second((double)result->timing.cycles, seconds) / 1e6, peak_resident_mib(),
           result->check.passed ? "ok" : "FAIL");
}

static void detailed_totals(const bench_totals *totals)
{
    printf("%-12s %12llu %12llu %10.3f %12.2f %12.2f %9.1f\n", "all", (unsigned long long)totals->warp_instructions,
           (unsigned long long)totals->cycles, totals->seconds,
           per_second((double)totals->warp_instructions, totals->seconds) / 1e6,
           per_second((double)totals->cycles, totals->seconds) / 1e6, peak_resident_mib());
}

static const bench_target functional_target = {"functional", functional_header, functional_row, NULL};
static const bench_target detailed_target = {"detailed", detailed_header, detailed_row, detailed_totals};

/* Runs every workload of the suite (or `only`) through run_session_simulate and prints a row each,
 * then the target's totals. */
static int bench_workloads(const bench_target *target, const char *system, const char *mechanism, const char *only,
                           sc_workload_size size)
{
    sc_error error = {{0}};
    sc_config *config = sc_config_load(system, NULL, NULL, 0, &error);
    if (!config) {
        fprintf(stderr, "syncscope bench: %s\n", error.message);
        return cli_failure_status(&error);
    }
    int count, status = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    bench_totals totals = {0};
    target->print_header(system, mechanism, size);
    sc_progress progress;
    sc_progress_start(&progress, "bench", "workloads", only ? 1 : count);
    for (int i = 0; i < count; i++) {
        if (only && strcmp(only, suite[i]->name) != 0)
            continue;
        run_request request = {.system = system, .mechanism = mechanism, .workload = suite[i]->name,
                               .mode = target->mode, .size = size, .seed = 1};
        run_result result;
        if (run_session_simulate(&request, config, &result, &error) < 0) {
            printf("%-12s error: %s\n", suite[i]->name, error.message);
            status = 1;
        } else {
            target->print_row(suite[i]->name, &result);
            totals.warp_instructions += result.stats.warp_instructions;
            totals.cycles += result.timing.cycles;
            totals.seconds += result.stats.engine_seconds;
        }
        run_result_release(&result);
        fflush(stdout);
        sc_progress_step(&progress, 1);
    }
    if (target->print_totals)
        target->print_totals(&totals);
    sc_config_free(config);
    return status;
}

static bool known_target(const char *target)
{
    return !strcmp(target, "functional") || !strcmp(target, "detailed") || !strcmp(target, "sampled") ||
           !strcmp(target, "store") || !strcmp(target, "model") || !strcmp(target, "gsi");
}

static bool runs(const char *target, const char *name)
{
    return target ? !strcmp(target, name)
                  : strcmp(name, "detailed") != 0 && strcmp(name, "model") != 0 && strcmp(name, "sampled") != 0 &&
                        strcmp(name, "gsi") != 0;
}

int command_bench(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "size", .kind = CLI_VALUE}, {.name = "workload", .kind = CLI_VALUE},
        {.name = "system", .kind = CLI_VALUE}, {.name = "mechanism", .kind = CLI_VALUE},
        {.name = "runs", .kind = CLI_VALUE}, {.name = "db", .kind = CLI_VALUE}, SAMPLING_OPTIONS,
        {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 1, &positional_count, &help) < 0)
        return 2;
    int status = 0;
    sc_workload_size size = SC_SIZE_SMALL;
    const char *size_text = cli_find(options, "size")->value, *target = positional_count ? positional[0] : NULL;
    const char *mechanism = cli_find(options, "mechanism")->value;
    unsigned long long runs_count = 100000;
    const char *runs_text = cli_find(options, "runs")->value;
    sampling_options sampling;
    if (help) {
        print_help();
    } else if (size_text && sc_workload_size_parse(size_text, &size) < 0) {
        fprintf(stderr, "syncscope bench: --size must be tiny, small, large or huge\n");
        status = 2;
    } else if (runs_text && cli_parse_u64("bench", "runs", runs_text, &runs_count) < 0) {
        status = 2;
    } else if (target && !known_target(target)) {
        fprintf(stderr,
                "syncscope bench: unknown target '%s': choose functional, detailed, sampled, store, model or gsi\n",
                target);
        status = 2;
    } else if (sampling_options_parse("bench", options, &sampling) != 0) {
        status = 2;
    } else if (mechanism && !sc_protocol_find(mechanism)) {
        fprintf(stderr, "syncscope bench: --mechanism %s is not a mechanism (see syncscope list mechanisms)\n",
                mechanism);
        status = 2;
    } else {
        const char *system = cli_find(options, "system")->value, *only = cli_find(options, "workload")->value;
        system = system ? system : "gtx480";
        mechanism = mechanism ? mechanism : sc_mechanism_default()->name;
        if (runs(target, "functional"))
            status |= bench_workloads(&functional_target, system, mechanism, only, size_text ? size : SC_SIZE_LARGE);
        if (runs(target, "detailed"))
            status |= bench_workloads(&detailed_target, system, mechanism, only,
                                      size_text ? size : SC_SIZE_SMALL);
        if (runs(target, "sampled"))
            status |= bench_sampled(system, mechanism, only, size_text ? size : SC_SIZE_HUGE,
                                    &sampling);
        if (runs(target, "model"))
            status |= bench_model(system, mechanism, only, size_text ? size : SC_SIZE_SMALL);
        if (runs(target, "gsi")) {
            if (!runs_text)
                runs_count = 3;
            if (runs_count < 1 || runs_count > 100) {
                fprintf(stderr, "syncscope bench: gsi takes --runs 1 to 100\n");
                status = 2;
            } else {
                status |= bench_gsi(system, mechanism, only, size_text ? size : SC_SIZE_SMALL, (unsigned)runs_count);
            }
        }
        if (runs(target, "store")) {
            const char *path = cli_find(options, "db")->value;
            status |= sc_store_bench(path ? path : "db/bench.sqlite", (long)runs_count, stdout) < 0;
        }
    }
    cli_options_free(options);
    return status;
}
