/* litmus.c — `syncscope litmus`: the litmus tests (workloads/litmus.h) on the detailed timing
 * model under many jitter seeds. For every selected test x mode x scope x mechanism it runs one
 * fresh device per jitter seed 1..N (so a line's counts do not depend on what else was selected),
 * sums the outcome histograms over the seeds, and flags the lines where an outcome forbidden by
 * the memory model the mechanism promises (its registry entry: sequential consistency, which
 * forbids every test's weak outcome in every mode, or the PTX scoped model, which forbids it in
 * the modes the test's table names) appeared; any such line makes the exit status 1. The output
 * names each mechanism's model before the lines and on each line.
 *
 * With --hardware the lines run on the machine's NVIDIA GPU instead (session/run_hardware.h):
 * one device for the whole plan, each "seed" one more launch of the variant, checked against the
 * PTX scoped model that the hardware promises.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/clock.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "protocols/mechanism.h"
#include "hardware/hardware_engine.h"
#include "session/run_hardware.h"
#include "session/run_timing.h"
#include "timing/protocol.h"
#include "workloads/litmus.h"

#define MAX_MECHANISMS 32
#define MAX_NAMES 32
#define MAX_ITERATIONS 65536

typedef struct litmus_plan {
    const char *system;
    sc_config *config;
    const sc_mechanism *mechanisms[MAX_MECHANISMS];
    int mechanism_count;
    uint32_t tests, modes, scopes;   /* selections, one bit per table index */
    uint64_t seeds;
    uint32_t iterations;
    bool hardware;                   /* run on the GPU: one device and one litmus setup for every line */
    bool rendezvous;                 /* the roles meet before every instance */
    sc_device *gpu_device;
    sc_scratch gpu_scratch;
    sc_litmus_device gpu_litmus;
    char gpu_name[128];
} litmus_plan;

/* The line's "mechanism" on a real GPU: the hardware's own memory system, which promises the PTX
 * scoped model. */
static const sc_mechanism hardware_mechanism = {
    .name = "hardware",
    .description = "the GPU this machine has, through the CUDA driver",
    .memory_model = SC_MODEL_SCOPED,
};

/* One output line: outcomes summed over the seeds, and how many seeds showed the weak one. */
typedef struct litmus_tally {
    uint32_t histogram[SC_LITMUS_OUTCOMES];
    uint64_t seeds_with_weak;
} litmus_tally;

static void print_help(void)
{
    printf("usage: syncscope litmus [options]\n\n"
           "Runs the litmus tests on the detailed timing model once per jitter seed 1..N (a fresh device each)\n"
           "and prints, per test, mode, scope and mechanism, the outcome histogram summed over the seeds.\n"
           "Each mechanism is checked against the memory model it promises (syncscope list mechanisms):\n"
           "sc (sequential consistency: the weak outcome is forbidden in every mode) or ptx (the PTX scoped\n"
           "model: forbidden with fences or acquire/release as each test says). Exits 1 if a forbidden\n"
           "outcome appeared.\n\n"
           "  --system PRESET     system preset or preset file [gtx480]\n"
           "  --set KEY=VALUE     override one configuration key (repeatable)\n"
           "  --mechanism M,...   detailed protocols (repeatable) [every mechanism: syncscope list mechanisms]\n"
           "  --test T,...        MP, SB, LB, IRIW, CoRR or all (repeatable) [all]\n"
           "  --scope S,...       cta, gpu or all (repeatable) [all]\n"
           "  --mode M,...        relaxed, fenced, acqrel, cached (MP and SB), cached-acq (MP) or all\n"
           "                      (repeatable) [all]\n"
           "  --seeds N           jitter seeds 1..N [50]\n"
           "  --iterations K      test instances per run [16]\n"
           "  --hardware          run on this machine's NVIDIA GPU (CUDA driver) instead of the timing model:\n"
           "                      each seed is one more launch; checked against the PTX scoped model\n"
           "  --rendezvous        the roles meet (atomics on a counter) before every instance, so their\n"
           "                      accesses overlap in time: a real GPU's weak outcomes need it\n\n"
           "Outcomes are written r0r1..=count with r0 first; `weak` is the outcome sequential consistency\n"
           "forbids (for MP: flag seen, data old; in the cached modes, the stale read of a cached line,\n"
           "allowed when the flag is polled relaxed, forbidden when it is polled with ld.acquire; for SB\n"
           "cached: both threads read the other's word stale after storing their own).\n");
}


static bool has(uint32_t mask, unsigned bit)
{
    return mask >> bit & 1u;
}

/* Splits every value of `option` (or `fallback` if it has none) at commas into `names`, which
 * point into `buffer`. Returns the count, or -1 if they do not fit. */
static int split_names(const cli_option *option, const char *fallback, char *buffer, size_t size,
                       const char **names)
{
    int count = 0;
    size_t used = 0;
    int values = option->present ? option->count : 1;
    for (int v = 0; v < values; v++) {
        const char *text = option->present ? option->values[v] : fallback;
        size_t length = strlen(text) + 1;
        if (used + length > size)
            return -1;
        char *copy = memcpy(buffer + used, text, length), *save = NULL;
        used += length;
        for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            if (count == MAX_NAMES)
                return -1;
            names[count++] = name;
        }
    }
    return count;
}

static int find_name(const char *const *known, unsigned count, const char *name)
{
    for (unsigned i = 0; i < count; i++)
        if (!strcasecmp(known[i], name))
            return (int)i;
    return -1;
}

/* Fills `mask` with the names `option` selects among `known` ("all" selects every one). */
static int select_names(const cli_option *option, const char *const *known, unsigned known_count, uint32_t *mask)
{
    char buffer[512];
    const char *names[MAX_NAMES];
    int count = split_names(option, "all", buffer, sizeof buffer, names);
    if (count <= 0)
        return cli_usage_error("litmus", "--%s: expected 1 to %d comma-separated names", option->name, MAX_NAMES);
    *mask = 0;
    for (int i = 0; i < count; i++) {
        if (!strcasecmp(names[i], "all")) {
            *mask |= (1u << known_count) - 1;
            continue;
        }
        int index = find_name(known, known_count, names[i]);
        if (index < 0)
            return cli_usage_error("litmus", "--%s: unknown name '%s' (see syncscope litmus --help)", option->name, names[i]);
        *mask |= 1u << index;
    }
    return 0;
}

static int select_mechanisms(const cli_option *option, litmus_plan *plan)
{
    char buffer[512], every[512];
    const char *names[MAX_NAMES];
    sc_mechanism_names(every, sizeof every);
    int count = split_names(option, every, buffer, sizeof buffer, names);
    if (count <= 0 || count > MAX_MECHANISMS)
        return cli_usage_error("litmus", "--%s: expected 1 to %d comma-separated names", option->name, MAX_MECHANISMS);
    for (int i = 0; i < count; i++) {
        plan->mechanisms[i] = sc_mechanism_find(names[i]);
        if (!plan->mechanisms[i] || !plan->mechanisms[i]->protocol)
            return cli_usage_error("litmus", "mechanism '%s' has no detailed protocol (see syncscope list mechanisms)", names[i]);
    }
    plan->mechanism_count = count;
    return 0;
}

static int parse_counts(cli_option *options, litmus_plan *plan)
{
    unsigned long long seeds = 50, iterations = 16;
    const char *seeds_text = cli_find(options, "seeds")->value;
    const char *iterations_text = cli_find(options, "iterations")->value;
    if ((seeds_text && cli_parse_u64("litmus", "seeds", seeds_text, &seeds) < 0) ||
        (iterations_text && cli_parse_u64("litmus", "iterations", iterations_text, &iterations) < 0))
        return 2;
    if (seeds == 0)
        return cli_usage_error("litmus", "--seeds must be at least 1");
    if (iterations == 0 || iterations > MAX_ITERATIONS)
        return cli_usage_error("litmus", "--iterations must be 1..%d", MAX_ITERATIONS);
    if (seeds > UINT32_MAX / iterations)
        return cli_usage_error("litmus", "--seeds x --iterations must stay below 2^32 instances");
    plan->seeds = seeds;
    plan->iterations = (uint32_t)iterations;
    return 0;
}

static bool any_variant(const litmus_plan *plan)
{
    for (unsigned t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        if (has(plan->tests, t) && sc_litmus_tests[t].modes & plan->modes)
            return true;
    return false;
}

static int plan_from_options(cli_option *options, litmus_plan *plan)
{
    const char *test_names[SC_LITMUS_TEST_COUNT];
    for (unsigned t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        test_names[t] = sc_litmus_tests[t].name;
    *plan = (litmus_plan){.system = cli_find(options, "system")->value};
    if (!plan->system)
        plan->system = "gtx480";
    plan->hardware = cli_find(options, "hardware")->present;
    plan->rendezvous = cli_find(options, "rendezvous")->present;
    if (plan->hardware && cli_find(options, "mechanism")->present)
        return cli_usage_error("litmus", "--hardware runs on the GPU's own memory system: drop --mechanism");
    if (plan->hardware) {
        plan->mechanisms[0] = &hardware_mechanism;
        plan->mechanism_count = 1;
    }
    if ((!plan->hardware && select_mechanisms(cli_find(options, "mechanism"), plan)) ||
        select_names(cli_find(options, "test"), test_names, SC_LITMUS_TEST_COUNT, &plan->tests) ||
        select_names(cli_find(options, "mode"), sc_litmus_mode_names, SC_LITMUS_MODE_COUNT, &plan->modes) ||
        select_names(cli_find(options, "scope"), sc_litmus_scope_names, SC_LITMUS_SCOPE_COUNT, &plan->scopes) ||
        parse_counts(options, plan))
        return 2;
    if (!any_variant(plan))
        return cli_usage_error("litmus", "no selected test runs in the selected modes (cached: MP and SB; cached-acq: MP)");
    return 0;
}

/* What one output line runs: a variant under a mechanism. */
typedef struct litmus_line {
    const sc_litmus_test *test;
    sc_litmus_mode mode;
    sc_litmus_scope scope;
    const sc_mechanism *mechanism;
} litmus_line;

/* One run: a fresh device jittered by `seed`, the variant's instances added to `histogram`. */
static int run_seed(const litmus_plan *plan, const litmus_line *line, uint64_t seed,
                    uint32_t histogram[SC_LITMUS_OUTCOMES], sc_error *error)
{
    if (plan->hardware)
        return sc_litmus_run(&plan->gpu_litmus, line->test, line->mode, line->scope, histogram, error);
    void *engine;
    sc_device *device = run_timing_device(plan->config, line->mechanism->name, seed, &engine, error);
    if (!device)
        return -1;
    sc_scratch scratch = {0};
    sc_litmus_device litmus;
    int status = sc_litmus_prepare(device, &scratch, plan->iterations, &litmus, error);
    litmus.rendezvous = plan->rendezvous;
    if (status == 0)
        status = sc_litmus_run(&litmus, line->test, line->mode, line->scope, histogram, error);
    sc_scratch_release(&scratch);
    sc_device_destroy(device);
    return status;
}

static int run_line(const litmus_plan *plan, const litmus_line *line, litmus_tally *tally, sc_error *error)
{
    uint32_t weak = line->test->weak_outcome;
    *tally = (litmus_tally){.seeds_with_weak = 0};
    for (uint64_t seed = 1; seed <= plan->seeds; seed++) {
        uint32_t weak_before = tally->histogram[weak];
        if (run_seed(plan, line, seed, tally->histogram, error) < 0)
            return sc_fail_prefix(error, "%s/%s/%s under %s, jitter seed %llu", line->test->name,
                                  sc_litmus_scope_names[line->scope], sc_litmus_mode_names[line->mode],
                                  line->mechanism->name, (unsigned long long)seed);
        tally->seeds_with_weak += tally->histogram[weak] > weak_before;
    }
    return 0;
}

/* "r0r1.." as bits, r0 first. */
static void outcome_label(uint32_t outcome, uint32_t results, char label[5])
{
    for (uint32_t k = 0; k < results; k++)
        label[k] = (char)('0' + (outcome >> k & 1u));
    label[results] = '\0';
}

/* Whether the mechanism's memory model forbids the test's weak outcome in `mode`. */
static bool model_forbids(const sc_mechanism *mechanism, const sc_litmus_test *test, sc_litmus_mode mode)
{
    return mechanism->memory_model == SC_MODEL_SEQUENTIAL || sc_litmus_ptx_forbids(test, mode);
}

/* Prints one line; returns whether it shows a forbidden outcome. */
static bool print_line(const litmus_plan *plan, const litmus_line *line, const litmus_tally *tally)
{
    const sc_litmus_test *test = line->test;
    uint32_t weak = tally->histogram[test->weak_outcome];
    bool forbidden = model_forbids(line->mechanism, test, line->mode), violated = forbidden && weak > 0;
    char label[5], seen[48], seeds[48], verdict[24];
    outcome_label(test->weak_outcome, test->results, label);
    snprintf(seen, sizeof seen, "%u/%llu", weak, (unsigned long long)(plan->seeds * plan->iterations));
    snprintf(seeds, sizeof seeds, "%llu/%llu", (unsigned long long)tally->seeds_with_weak,
             (unsigned long long)plan->seeds);
    snprintf(verdict, sizeof verdict, "%s:%s", sc_memory_model_name(line->mechanism->memory_model),
             forbidden ? "forbidden" : "allowed");
    printf("%-5s %-10s %-5s %-9s %-5s %-13s %-9s %-13s %-5s", test->name, sc_litmus_mode_names[line->mode],
           sc_litmus_scope_names[line->scope], line->mechanism->name, label, seen, seeds, verdict,
           violated ? "FAIL" : "ok");
    for (uint32_t outcome = 0; outcome < 1u << test->results; outcome++)
        if (tally->histogram[outcome]) {
            outcome_label(outcome, test->results, label);
            printf(" %s=%u", label, tally->histogram[outcome]);
        }
    printf("\n");
    fflush(stdout);
    return violated;
}

typedef struct litmus_summary {
    unsigned lines, violations;
    char first_violation[128];
} litmus_summary;

static int run_and_print(const litmus_plan *plan, const litmus_line *line, litmus_summary *summary, sc_error *error)
{
    litmus_tally tally;
    if (run_line(plan, line, &tally, error) < 0)
        return -1;
    summary->lines++;
    if (print_line(plan, line, &tally) && summary->violations++ == 0)
        snprintf(summary->first_violation, sizeof summary->first_violation, "%s %s %s under %s, %u of %llu instances",
                 line->test->name, sc_litmus_mode_names[line->mode], sc_litmus_scope_names[line->scope],
                 line->mechanism->name, tally.histogram[line->test->weak_outcome],
                 (unsigned long long)(plan->seeds * plan->iterations));
    return 0;
}

static int run_plan(const litmus_plan *plan, litmus_summary *summary, sc_error *error)
{
    for (unsigned t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        for (sc_litmus_mode mode = 0; mode < SC_LITMUS_MODE_COUNT; mode++)
            for (sc_litmus_scope scope = 0; scope < SC_LITMUS_SCOPE_COUNT; scope++)
                for (int m = 0; m < plan->mechanism_count; m++) {
                    litmus_line line = {&sc_litmus_tests[t], mode, scope, plan->mechanisms[m]};
                    bool selected = has(plan->tests, t) && has(plan->modes, mode) && has(plan->scopes, scope);
                    if (selected && sc_litmus_runs_in(line.test, mode) &&
                        run_and_print(plan, &line, summary, error) < 0)
                        return -1;
                }
    return 0;
}

/* Opens the GPU and prepares the litmus buffers once for every line. */
static int open_gpu(litmus_plan *plan, sc_error *error)
{
    void *engine;
    plan->gpu_device = run_hardware_device(plan->config, &engine, error);
    if (!plan->gpu_device)
        return -1;
    snprintf(plan->gpu_name, sizeof plan->gpu_name, "%s", hardware_engine_device_name(engine));
    int status = sc_litmus_prepare(plan->gpu_device, &plan->gpu_scratch, plan->iterations, &plan->gpu_litmus, error);
    plan->gpu_litmus.rendezvous = plan->rendezvous;
    return status;
}

static int execute(litmus_plan *plan, const char *const *sets, int set_count)
{
    sc_error error = {{0}};
    plan->config = sc_config_load(plan->system, NULL, sets, set_count, &error);
    if (!plan->config) {
        fprintf(stderr, "syncscope litmus: %s\n", error.message);
        return cli_failure_status(&error);
    }
    if (plan->hardware && open_gpu(plan, &error) < 0) {
        fprintf(stderr, "syncscope litmus: %s\n", error.message);
        sc_config_free(plan->config);
        return 1;
    }
    if (plan->hardware)
        printf("litmus on the GPU %s: %llu launches per line, %u instances per launch%s, counts summed over launches\n",
               plan->gpu_name, (unsigned long long)plan->seeds, plan->iterations,
               plan->rendezvous ? " (roles meet before each)" : "");
    else
        printf("litmus on %s: jitter seeds 1..%llu, %u instances per run%s, counts summed over seeds\n", plan->system,
               (unsigned long long)plan->seeds, plan->iterations, plan->rendezvous ? " (roles meet before each)" : "");
    for (int m = 0; m < plan->mechanism_count; m++)
        printf("%s is checked against %s\n", plan->mechanisms[m]->name,
               plan->mechanisms[m]->memory_model == SC_MODEL_SEQUENTIAL
                   ? "sc: sequential consistency, the weak outcome is forbidden in every mode"
                   : "ptx: the PTX scoped model, the weak outcome is forbidden with fences or acquire/release "
                     "as each test says");
    printf("%-5s %-10s %-5s %-9s %-5s %-13s %-9s %-13s %-5s %s\n", "test", "mode", "scope", "mech", "weak", "seen",
           "seeds", "model", "check", "outcomes (r0r1..=instances)");
    double start = sc_monotonic_seconds();
    litmus_summary summary = {0};
    int status = run_plan(plan, &summary, &error);
    sc_config_free(plan->config);
    sc_scratch_release(&plan->gpu_scratch);
    sc_device_destroy(plan->gpu_device);
    if (status < 0) {
        fprintf(stderr, "syncscope litmus: %s\n", error.message);
        return 1;
    }
    printf("%u lines x %llu seeds in %.2f s; forbidden outcome in %u of %u lines\n", summary.lines,
           (unsigned long long)plan->seeds, sc_monotonic_seconds() - start, summary.violations, summary.lines);
    fflush(stdout);
    if (summary.violations) {
        fprintf(stderr, "syncscope litmus: forbidden outcome in %u of %u lines (first: %s)\n", summary.violations,
                summary.lines, summary.first_violation);
        return 1;
    }
    return 0;
}

int command_litmus(int argc, char **argv)
{
    cli_option options[] = {
        {.name = "system", .kind = CLI_VALUE},        {.name = "set", .kind = CLI_REPEATED},
        {.name = "mechanism", .kind = CLI_REPEATED},  {.name = "test", .kind = CLI_REPEATED},
        {.name = "scope", .kind = CLI_REPEATED},      {.name = "mode", .kind = CLI_REPEATED},
        {.name = "seeds", .kind = CLI_VALUE},         {.name = "iterations", .kind = CLI_VALUE},
        {.name = "hardware", .kind = CLI_FLAG},       {.name = "rendezvous", .kind = CLI_FLAG},
        {.name = NULL},
    };
    const char *positional[1];
    int positional_count;
    bool help;
    if (cli_parse(argc, argv, options, positional, 0, &positional_count, &help) < 0)
        return 2;
    litmus_plan plan;
    int status = help ? (print_help(), 0) : plan_from_options(options, &plan);
    if (!help && status == 0) {
        cli_option *set = cli_find(options, "set");
        status = execute(&plan, (const char *const *)set->values, set->count);
    }
    cli_options_free(options);
    return status;
}
