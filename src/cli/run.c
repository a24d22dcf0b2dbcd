/* run.c — `syncscope run`: one workload on one system preset under one mechanism, in one mode;
 * prints the result and stores it in the results database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_print.h"
#include "cli/sampling_options.h"
#include "protocols/mechanism.h"
#include "session/run_model.h"
#include "session/run_session.h"

static void print_help(void)
{
    printf("usage: syncscope run --workload W | --workload-file M.json [options]\n\n"
           "Runs one workload and stores the run in the results database.\n\n"
           "  --system PRESET        system preset (models/systems/PRESET.json) or a preset file [gtx480]\n"
           "  --mechanism M          coherence mechanism (syncscope list mechanisms) [%s]\n"
           "  --workload W           built-in workload (syncscope list workloads)\n"
           "  --workload-file M.json user workload manifest\n"
           "  --size tiny|small|large|huge  size class of a built-in workload [small]\n"
           "  --mode functional|detailed|sampled|model|hardware  [functional]\n"
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
           "  --sample-warmup-launches L  launches run in detail unmeasured before each measured one [1]\n"
           "hardware mode: runs the kernels on this machine's NVIDIA GPU through the CUDA driver (libcuda.so.1, or\n"
           "  the file SYNCSCOPE_CUDA_DRIVER names; GPU SYNCSCOPE_CUDA_DEVICE, default 0) and checks the outputs\n"
           "  there; it has no mechanism, cycles or stalls, and stores the GPU's kernel time as a metric\n",
           sc_mechanism_default()->name);
}

static const char *const modes[] = {"functional", "detailed", "sampled", "model", "hardware"};

static bool known_mode(const char *mode)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(modes[i], mode))
            return true;
    return false;
}

/* Fills a request from the parsed options; prints a one-line error and returns 2 on bad usage. */
static int request_from_options(run_request *request, cli_option *options)
{
    cli_option *set = cli_find(options, "set"), *dump = cli_find(options, "dump");
    *request = (run_request){
        .system = cli_find(options, "system")->value,
        .mechanism = cli_find(options, "mechanism")->value,
        .workload = cli_find(options, "workload")->value,
        .workload_file = cli_find(options, "workload-file")->value,
        .mode = cli_find(options, "mode")->value,
        .config_file = cli_find(options, "config")->value,
        .sets = (const char *const *)set->values,
        .set_count = set->count,
        .size = SC_SIZE_SMALL,
        .seed = 1,
        .dumps = (const char *const *)dump->values,
        .dump_count = dump->count,
        .json = cli_find(options, "json")->present,
    };
    if (!request->system)
        request->system = "gtx480";
    if (!request->mechanism)
        request->mechanism = sc_mechanism_default()->name;
    if (!request->mode)
        request->mode = "functional";
    if (!cli_find(options, "no-db")->present)
        request->database_path = cli_database_path(cli_find(options, "db")->value);
    if (!request->workload == !request->workload_file)
        return cli_usage_error("run", "give exactly one of --workload and --workload-file");
    if (request->workload && !sc_workload_find(request->workload))
        return cli_usage_error("run", "unknown workload (see syncscope list workloads): %s", request->workload);
    if (!sc_mechanism_find(request->mechanism))
        return cli_usage_error("run", "unknown mechanism (see syncscope list mechanisms): %s", request->mechanism);
    if (!known_mode(request->mode))
        return cli_usage_error("run", "--mode must be functional, detailed, sampled, model or hardware, not %s",
                               request->mode);
    if (!strcmp(request->mode, "hardware")) {
        if (cli_find(options, "mechanism")->present)
            return cli_usage_error("run", "--mode hardware runs on the GPU's own memory system: drop --mechanism");
        request->mechanism = "hardware";
    }
    if (request->dump_count && !request->workload_file)
        return cli_usage_error("run", "--dump needs --workload-file (built-in workloads check their own outputs)");
    const char *size = cli_find(options, "size")->value;
    if (size && sc_workload_size_parse(size, &request->size) < 0)
        return cli_usage_error("run", "--size must be tiny, small, large or huge, not %s", size);
    unsigned long long number;
    const char *seed = cli_find(options, "seed")->value, *jitter = cli_find(options, "jitter")->value;
    if (seed && cli_parse_u64("run", "seed", seed, &number) < 0)
        return 2;
    request->seed = seed ? number : request->seed;
    if (jitter && cli_parse_u64("run", "jitter", jitter, &number) < 0)
        return 2;
    request->jitter = jitter ? number : 0;
    bool sampling_given = cli_find(options, "sample-period")->present || cli_find(options, "sample-window-waves")->present ||
                          cli_find(options, "sample-warmup-waves")->present ||
                          cli_find(options, "sample-warmup-launches")->present;
    if (sampling_given && strcmp(request->mode, "sampled") != 0)
        return cli_usage_error("run", "--sample-* options need --mode sampled");
    return sampling_options_parse("run", options, &request->sampling);
}

/* Simulates (or, in mode model, predicts), stores and prints; returns the process exit code. */
static int execute(const run_request *request)
{
    bool model = !strcmp(request->mode, "model");
    if (model && !request->database_path) {
        fprintf(stderr, "syncscope run: --mode model reads its calibration from the database; drop --no-db\n");
        return 2;
    }
    sc_error error = {{0}};
    run_result result;
    run_model_result prediction;
    if ((model ? run_model_execute(request, &prediction, &error) : run_session_execute(request, &result, &error)) < 0) {
        fprintf(stderr, "syncscope run: %s\n", error.message);
        return cli_failure_status(&error);
    }
    if (model) {
        run_print_model(request, &prediction);
        return 0;
    }
    run_print(request, &result);
    if (result.sample.present && !result.sample.has_ci)
        fprintf(stderr,
                "syncscope run: warning: the sampled estimate has no confidence interval and is unreliable: %s (%s);"
                " stored with sample.has_interval 0\n",
                result.sample.no_ci_reason, RUN_SAMPLE_MORE_WINDOWS);
    run_result_release(&result);
    return result.check.passed ? 0 : 1;
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
        SAMPLING_OPTIONS,                          {.name = NULL},
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
    int status = request_from_options(&request, options);
    if (status == 0)
        status = execute(&request);
    cli_options_free(options);
    return status;
}
