/* tester.c — `syncscope tester`: the random protocol tester (workloads/protocol_tester.h) over
 * a matrix of program seeds x timing-jitter seeds x mechanisms on one system preset, one line
 * per run. A run fails when a thread or the final arena shows a wrong value, or when the timing
 * engine reports a deadlock or its watchdog fires; the command then exits 1. Nothing is stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "protocols/mechanism.h"
#include "session/run_session.h"
#include "workloads/protocol_tester.h"

#define MAX_LIST 32

static void print_help(void)
{
    printf("usage: syncscope tester [--system PRESET] [--mechanisms M,M...] [--mode detailed|functional]\n"
           "                        [--size tiny|small|large|huge] [--seeds N] [--first-seed S] [--jitters J,J...]\n"
           "                        [--variant correct|unordered-peeks|unordered-locks] [--without F,F...]\n"
           "                        [--set key=value]...\n\n"
           "Runs the random protocol tester for program seeds S..S+N-1 [1..4] x jitter seeds [0,1,2] x\n"
           "mechanisms [every one] (detailed mode; functional mode runs each seed once). Every run checks\n"
           "every value a thread reads and every final word; a wrong value, a deadlock or the\n"
           "sim.max_cycles watchdog fails the run. The unordered variants drop acquires on purpose:\n"
           "they are racy, and a protocol with a non-coherent L1 (wt) is expected to fail them.\n"
           "--without leaves operation families out of the program, to bisect a failure: own (ld/st of\n"
           "own words), ld-st (a load, then a store before the loaded value is used), exch, locks,\n"
           "counters, mailboxes, fences.\n");
}

/* What the command was asked to do. */
typedef struct tester_plan {
    const char *system, *without;   /* without: the --without list as given, or NULL */
    const char *mechanisms[MAX_LIST];
    uint64_t jitters[MAX_LIST];
    int mechanism_count, jitter_count;
    bool detailed;
    sc_tester_options options;
    unsigned long long first_seed, seeds;
} tester_plan;

/* Totals over the runs. */
typedef struct tester_totals {
    int runs, failures;
    uint64_t operations, value_checks, words;
    double seconds;
    sc_tester_report shape;    /* the last run's report, for its shape */
} tester_totals;


static int parse_mechanisms(tester_plan *plan, char *text)
{
    for (char *item = strtok(text, ","); item; item = strtok(NULL, ",")) {
        if (plan->mechanism_count == MAX_LIST)
            return cli_usage_error("tester", "--mechanisms: more than 32 names");
        if (!sc_mechanism_find(item))
            return cli_usage_error("tester", "unknown mechanism '%s' (see syncscope list mechanisms)", item);
        plan->mechanisms[plan->mechanism_count++] = item;
    }
    return plan->mechanism_count ? 0 : cli_usage_error("tester", "--mechanisms: no mechanism named");
}

static int parse_jitters(tester_plan *plan, char *text)
{
    for (char *item = strtok(text, ","); item; item = strtok(NULL, ",")) {
        unsigned long long jitter;
        if (plan->jitter_count == MAX_LIST)
            return cli_usage_error("tester", "--jitters: more than 32 seeds");
        if (cli_parse_u64("tester", "jitters", item, &jitter) < 0)
            return 2;
        plan->jitters[plan->jitter_count++] = jitter;
    }
    return plan->jitter_count ? 0 : cli_usage_error("tester", "--jitters: no seed given");
}

static int parse_count(cli_option *options, const char *name, unsigned long long *value)
{
    const char *text = cli_find(options, name)->value;
    return text && cli_parse_u64("tester", name, text, value) < 0 ? 2 : 0;
}

static int parse_plan(cli_option *options, tester_plan *plan, char *mechanisms, char *jitters)
{
    const char *mode = cli_find(options, "mode")->value, *size = cli_find(options, "size")->value;
    const char *variant = cli_find(options, "variant")->value, *without = cli_find(options, "without")->value;
    *plan = (tester_plan){.system = cli_find(options, "system")->value, .without = without, .first_seed = 1,
                          .seeds = 4};
    plan->system = plan->system ? plan->system : "gtx480";
    plan->options.size = SC_SIZE_TINY;
    if (mode && strcmp(mode, "detailed") && strcmp(mode, "functional"))
        return cli_usage_error("tester", "--mode must be detailed or functional, not '%s'", mode);
    plan->detailed = !mode || !strcmp(mode, "detailed");
    if (size && sc_workload_size_parse(size, &plan->options.size) < 0)
        return cli_usage_error("tester", "--size must be tiny, small, large or huge, not '%s'", size);
    if (variant && sc_tester_variant_parse(variant, &plan->options.variant) < 0)
        return cli_usage_error("tester", "--variant must be correct, unordered-peeks or unordered-locks, not '%s'", variant);
    if (without && sc_tester_families_parse(without, &plan->options.without) < 0)
        return cli_usage_error("tester", "--without: '%s' is not a list of own, ld-st, exch, locks, counters, mailboxes, fences", without);
    if (plan->options.without == SC_TESTER_ALL_FAMILIES)
        return cli_usage_error("tester", "--without: '%s' leaves no operation to draw", without);
    if (parse_count(options, "seeds", &plan->seeds) || parse_count(options, "first-seed", &plan->first_seed))
        return 2;
    if (plan->seeds == 0)
        return cli_usage_error("tester", "--seeds must be at least 1");
    int status = parse_mechanisms(plan, mechanisms);
    return status ? status : parse_jitters(plan, jitters);
}

/* One run; prints its line (and, when it failed, the reason on the next). Returns -1, having
 * printed why, when no device could be built (a bad --set): every other run would fail alike. */
static int run_one(const tester_plan *plan, const sc_config *config, const char *mechanism, uint64_t seed,
                   uint64_t jitter, tester_totals *totals)
{
    sc_error error = {{0}};
    void *engine = NULL;
    double start = sc_monotonic_seconds();
    sc_device *device = plan->detailed ? run_timing_device(config, mechanism, jitter, &engine, &error)
                                       : run_session_functional_device(config, &error);
    if (!device) {
        fprintf(stderr, "syncscope tester: %s\n", error.message);
        return -1;
    }
    sc_tester_options options = plan->options;
    options.seed = seed;
    sc_tester_report report = {0};
    sc_check_result check = {0};
    int status = sc_tester_run(device, &options, &report, &check, &error);
    uint64_t cycles = sc_device_statistics(device)->cycles;
    sc_device_destroy(device);
    double seconds = sc_monotonic_seconds() - start;
    bool passed = status == 0 && check.passed;
    printf("%-10s %6llu %6llu  %-5s %10llu %12llu %7llu/%-7llu %7.2f\n", plan->detailed ? mechanism : "functional",
           (unsigned long long)seed, (unsigned long long)jitter, status < 0 ? "ERROR" : passed ? "ok" : "FAIL",
           (unsigned long long)cycles, (unsigned long long)report.value_checks,
           (unsigned long long)report.peeks_seen, (unsigned long long)report.peeks, seconds);
    if (!passed)
        printf("  %s\n", status < 0 ? error.message : check.detail);
    fflush(stdout);
    totals->runs++;
    totals->failures += !passed;
    totals->seconds += seconds;
    if (status == 0) {   /* a run that stopped short checked nothing */
        totals->operations += report.operations;
        totals->value_checks += report.value_checks;
        totals->words += report.arena_words;
        totals->shape = report;
    }
    return 0;
}

static void print_header(const tester_plan *plan)
{
    printf("system %s, mode %s, size %s, variant %s%s%s\n\n", plan->system, plan->detailed ? "detailed" : "functional",
           sc_workload_size_name(plan->options.size), sc_tester_variant_name(plan->options.variant),
           plan->without ? ", without " : "", plan->without ? plan->without : "");
    printf("%-10s %6s %6s  %-5s %10s %12s %15s %7s\n", "mechanism", "seed", "jitter", "check", "cycles",
           "value checks", "peeks seen", "wall s");
}

static int run_plan(const tester_plan *plan, const sc_config *config)
{
    tester_totals totals = {0};
    print_header(plan);
    for (unsigned long long s = 0; s < plan->seeds; s++)
        for (int m = 0; m < (plan->detailed ? plan->mechanism_count : 1); m++)
            for (int j = 0; j < (plan->detailed ? plan->jitter_count : 1); j++)
                if (run_one(plan, config, plan->mechanisms[m], plan->first_seed + s,
                            plan->detailed ? plan->jitters[j] : 0, &totals) < 0)
                    return 1;
    const sc_tester_report *shape = &totals.shape;
    printf("%d run%s, %d failed: %llu operations, %llu values checked on the GPU, %llu final words, %.2f s\n",
           totals.runs, totals.runs == 1 ? "" : "s", totals.failures, (unsigned long long)totals.operations,
           (unsigned long long)totals.value_checks, (unsigned long long)totals.words, totals.seconds);
    if (shape->ctas)
        printf("(each run: %u CTAs x %u threads x %u operations on a %u-word arena)\n", shape->ctas,
               shape->threads_per_cta, shape->ops_per_thread, shape->arena_words);
    return totals.failures ? 1 : 0;
}

static int tester(cli_option *options)
{
    cli_option *sets = cli_find(options, "set");
    const char *mechanism_text = cli_find(options, "mechanisms")->value;
    const char *jitter_text = cli_find(options, "jitters")->value;
    char every[512];
    sc_mechanism_names(every, sizeof every);
    char *mechanisms = strdup(mechanism_text ? mechanism_text : every);
    char *jitters = strdup(jitter_text ? jitter_text : "0,1,2");
    tester_plan plan;
    int status = parse_plan(options, &plan, mechanisms, jitters);
    sc_error error = {{0}};
    const char *const *set_values = (const char *const *)sets->values;
    sc_config *config = status ? NULL : sc_config_load(plan.system, NULL, set_values, sets->count, &error);
    if (status == 0 && !config) {
        fprintf(stderr, "syncscope tester: %s\n", error.message);
        status = cli_failure_status(&error);
    }
    if (status == 0)
        status = run_plan(&plan, config);
    sc_config_free(config);
    free(mechanisms);
    free(jitters);
    return status;
}

int command_tester(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "system", .kind = CLI_VALUE},  {.name = "mechanisms", .kind = CLI_VALUE},
        {.name = "mode", .kind = CLI_VALUE},    {.name = "size", .kind = CLI_VALUE},
        {.name = "seeds", .kind = CLI_VALUE},   {.name = "first-seed", .kind = CLI_VALUE},
        {.name = "jitters", .kind = CLI_VALUE}, {.name = "variant", .kind = CLI_VALUE},
        {.name = "without", .kind = CLI_VALUE}, {.name = "set", .kind = CLI_REPEATED},
        {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 0, &positional_count, &help) < 0)
        return 2;
    int status = help ? (print_help(), 0) : tester(options);
    cli_options_free(options);
    return status;
}
