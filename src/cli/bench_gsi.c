/* bench_gsi.c — `syncscope bench gsi`: what the GSI stall inspector costs the simulation. Runs
 * each workload in detail with sim.gsi true and with sim.gsi false, alternately, --runs times
 * each, and prints the best CPU time of each (the calling thread's, so that other processes on
 * the machine count less than they would in wall time), GSI's cost as a share of the run without
 * it, and whether the two runs agree in cycles and warp instructions (GSI observes the run: it
 * must never change it). The thesis (Alsop §6.6) reports 5 % more simulation time on average,
 * falling as inputs grow. What sim.gsi false skips is the classification and the charging of
 * every CU cycle; the per-warp checks stay, since the same checks decide issue. */
#include "cli/bench_gsi.h"

#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/progress.h"
#include "cli/options.h"
#include "session/run_session.h"

/* The best CPU seconds of `runs` runs under each setting, and what the runs measured. */
typedef struct gsi_pair {
    double seconds[2];             /* [0] sim.gsi true, [1] false: best of the runs */
    uint64_t cycles[2], warp_instructions[2];
    bool checks_passed;
} gsi_pair;

static int measure_pair(const run_request *request, sc_config *const configs[2], unsigned runs, gsi_pair *pair,
                        sc_error *error)
{
    *pair = (gsi_pair){.seconds = {-1, -1}, .checks_passed = true};
    for (unsigned r = 0; r < runs; r++)
        for (int off = 0; off < 2; off++) {
            run_result result;
            double start = sc_thread_cpu_seconds();
            int status = run_session_simulate(request, configs[off], &result, error);
            double seconds = sc_thread_cpu_seconds() - start;
            if (status == 0) {
                if (pair->seconds[off] < 0 || seconds < pair->seconds[off])
                    pair->seconds[off] = seconds;
                pair->cycles[off] = result.timing.cycles;
                pair->warp_instructions[off] = result.stats.warp_instructions;
                pair->checks_passed &= result.check.passed;
            }
            run_result_release(&result);
            if (status < 0)
                return -1;
        }
    return 0;
}

static double overhead_percent(double with_gsi, double without)
{
    return without > 0 ? 100.0 * (with_gsi / without - 1.0) : 0.0;
}

int bench_gsi(const char *system, const char *mechanism, const char *only, sc_workload_size size, unsigned runs)
{
    sc_error error = {{0}};
    sc_config *configs[2] = {sc_config_load(system, NULL, NULL, 0, &error), NULL};
    if (configs[0]) {
        configs[1] = sc_config_copy(configs[0]);
        if (sc_config_set(configs[0], "sim.gsi", "true", &error) < 0 ||
            sc_config_set(configs[1], "sim.gsi", "false", &error) < 0) {
            sc_config_free(configs[1]);
            sc_config_free(configs[0]);
            configs[0] = NULL;
        }
    }
    if (!configs[0]) {
        fprintf(stderr, "syncscope bench: %s\n", error.message);
        return cli_failure_status(&error);
    }
    int count, status = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    printf("GSI's cost: detailed runs with sim.gsi true and false, system %s, mechanism %s, size %s, "
           "best CPU seconds of %u each\n", system, mechanism, sc_workload_size_name(size), runs);
    printf("%-14s %12s %12s %9s %9s %9s %6s %6s\n", "workload", "warp-instr", "cycles", "gsi-s", "no-gsi-s",
           "gsi-cost%", "same", "check");
    double total[2] = {0, 0};
    sc_progress progress;
    sc_progress_start(&progress, "bench gsi", "workloads", only ? 1 : count);
    for (int i = 0; i < count; i++) {
        if (only && strcmp(only, suite[i]->name) != 0)
            continue;
        run_request request = {.system = system, .mechanism = mechanism, .workload = suite[i]->name,
                               .mode = "detailed", .size = size, .seed = 1};
        gsi_pair pair;
        if (measure_pair(&request, configs, runs, &pair, &error) < 0) {
            printf("%-14s error: %s\n", suite[i]->name, error.message);
            status = 1;
        } else {
            bool same = pair.cycles[0] == pair.cycles[1] && pair.warp_instructions[0] == pair.warp_instructions[1];
            printf("%-14s %12llu %12llu %9.3f %9.3f %+9.1f %6s %6s\n", suite[i]->name,
                   (unsigned long long)pair.warp_instructions[0], (unsigned long long)pair.cycles[0], pair.seconds[0],
                   pair.seconds[1], overhead_percent(pair.seconds[0], pair.seconds[1]), same ? "yes" : "NO",
                   pair.checks_passed ? "ok" : "FAIL");
            total[0] += pair.seconds[0];
            total[1] += pair.seconds[1];
            status |= !same || !pair.checks_passed;
        }
        fflush(stdout);
        sc_progress_step(&progress, 1);
    }
    printf("%-14s %12s %12s %9.3f %9.3f %+9.1f\n", "all", "", "", total[0], total[1],
           overhead_percent(total[0], total[1]));
    sc_config_free(configs[1]);
    sc_config_free(configs[0]);
    return status;
}
