/* bench_model.c — `syncscope bench model`: the analytical model's speed. Per workload: the
 * profiling pass's time and the model's design-point evaluations per second on one core
 * (model_point_from_config done once, evaluate called in a loop over points that vary the L1
 * and L2 capacity so the reuse histograms are re-evaluated every time; timed in the thread's CPU
 * time, so that the time other processes hold the core does not count, and the best of three
 * rounds, so that what they leave in the caches biases the figure less), and those times its
 * kernel groups (each group is solved on its own, so a workload of many groups evaluates
 * proportionally slower). The loop itself costs about 0.1% of the evaluations (callgrind). */
#include "cli/bench_model.h"

#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/progress.h"
#include "cli/options.h"
#include "model/model.h"
#include "protocols/mechanism.h"

enum { BENCH_ROUNDS = 3 };
#define BENCH_ROUND_SECONDS 0.1

/* Evaluates `profile` at 64 L1/L2 sizes in turn until at least BENCH_ROUND_SECONDS of the
 * thread's CPU time have passed, BENCH_ROUNDS times; the best round's rate. */
static double evaluations_per_second(const model_mechanism *mechanism, const model_profile *profile,
                                     const model_point *base, const model_params *params, double *checksum)
{
    model_point points[64];
    for (int i = 0; i < 64; i++) {
        points[i] = *base;
        points[i].l1_lines = base->l1_lines * (0.25 + 0.03 * (i % 8));
        points[i].l2_lines = base->l2_lines * (0.25 + 0.03 * (i / 8));
    }
    double best = 0;
    for (int round = 0; round < BENCH_ROUNDS; round++) {
        long count = 0;
        double start = sc_thread_cpu_seconds(), elapsed;
        model_prediction prediction;
        do {
            for (int i = 0; i < 64; i++) {
                mechanism->evaluate(profile, &points[i], params, &prediction);
                *checksum += prediction.cycles;
            }
            count += 64;
        } while ((elapsed = sc_thread_cpu_seconds() - start) < BENCH_ROUND_SECONDS);
        best = best > count / elapsed ? best : count / elapsed;
    }
    return best;
}

int bench_model(const char *system, const char *mechanism_name, const char *only, sc_workload_size size)
{
    sc_error error = {{0}};
    const model_mechanism *mechanism = model_mechanism_find(mechanism_name);
    model_param_spec spec;
    sc_config *config = sc_config_load(system, NULL, NULL, 0, &error);
    model_point point;
    if (!mechanism)
        return fprintf(stderr, "syncscope bench: mechanism %s has no analytical model\n", mechanism_name), 1;
    if (!config || model_point_from_config(config, &point, &error) < 0 ||
        model_point_of_mechanism(mechanism, config, &point, &error) < 0 ||
        model_param_spec_load(sc_mechanism_find(mechanism_name)->params_file, &spec, &error) < 0) {
        fprintf(stderr, "syncscope bench: %s\n", error.message);
        sc_config_free(config);
        return cli_failure_status(&error);
    }
    printf("analytical model, system %s, mechanism %s, size %s, one core (initial parameters)\n", system,
           mechanism_name, sc_workload_size_name(size));
    printf("%-12s %8s %10s %14s %14s %12s\n", "workload", "groups", "profile-s", "evals/s", "group-evals/s", "cycles");
    int count, status = 0;
    double checksum = 0, slowest = 0;
    const sc_workload *const *suite = sc_workload_suite(&count);
    sc_progress progress;
    sc_progress_start(&progress, "bench model", "workloads", only ? 1 : count);
    for (int i = 0; i < count; i++) {
        if (only && strcmp(only, suite[i]->name) != 0)
            continue;
        double start = sc_monotonic_seconds();
        sc_workload_ref workload;
        model_profile *profile = sc_workload_ref_resolve(suite[i]->name, NULL, &workload, &error) < 0 ? NULL
            : model_profile_obtain(NULL, &workload, sc_workload_size_name(size), 1, config, &error);
        double profile_seconds = sc_monotonic_seconds() - start;
        if (!profile) {
            printf("%-12s error: %s\n", suite[i]->name, error.message);
            status = 1;
            continue;
        }
        double rate = evaluations_per_second(mechanism, profile, &point, &spec.initial, &checksum);
        model_prediction prediction;
        mechanism->evaluate(profile, &point, &spec.initial, &prediction);
        printf("%-12s %8d %10.3f %14.0f %14.0f %12.0f\n", suite[i]->name, profile->kernel_count, profile_seconds, rate,
               rate * profile->kernel_count, prediction.cycles);
        slowest = slowest == 0 || rate < slowest ? rate : slowest;
        profile_free(profile);
        fflush(stdout);
        sc_progress_step(&progress, 1);
    }
    printf("slowest workload: %.0f evaluations/s (checksum %.6g)\n", slowest, checksum);
    sc_config_free(config);
    return status;
}
