/* bench_model.c — `syncscope bench model`: the analytical model's speed. Per workload: the
 * profiling pass's time and the model's design-point evaluations per second on one core
 * (model_point_from_config done once, evaluate called in a loop over points that vary the L1
 * and L2 capacity so the reuse histograms are re-evaluated every time; timed in the thread's CPU
 * time, so that the time other processes hold the core does not count, and the best of three
 * rounds, so that what they leave in the caches biases the figure less), twice: `cold`, each
 * point evaluated alone (every group solved at every point: what one new point costs), and
 * `sweep`, each pass over the points one sweep with a memo of solved groups (group_memo.h)
 * cleared at its start (what a point costs inside a sweep over the cache sizes: a group whose
 * demand the sizes leave alone is solved once a pass); and the cold rate times the kernel groups
 * (each group is solved on its own, so a workload of many groups evaluates proportionally
 * slower). The loop itself costs about 0.1% of the evaluations (callgrind). */
#include "cli/bench_model.h"

#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/progress.h"
#include "cli/options.h"
#include "model/group_memo.h"
#include "model/model.h"
#include "protocols/mechanism.h"

enum { BENCH_ROUNDS = 3 };
#define BENCH_ROUND_SECONDS 0.1

/* Evaluates `profile` at 64 L1/L2 sizes in turn until at least BENCH_ROUND_SECONDS of the
 * thread's CPU time have passed, BENCH_ROUNDS times; the best round's rate. With `memo` each pass
 * over the 64 points evaluates them with the memo attached, cleared at the pass's start. */
static double evaluations_per_second(const model_mechanism *mechanism, const model_profile *profile,
                                     const model_point *base, const model_params *params, group_memo *memo,
                                     double *checksum)
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
            if (memo)
                group_memo_clear(memo);
            group_memo *before = group_memo_attach(memo);
            for (int i = 0; i < 64; i++) {
                mechanism->evaluate(profile, &points[i], params, &prediction);
                *checksum += prediction.cycles;
            }
            group_memo_attach(before);
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
    group_memo *memo = group_memo_create();
    if (!memo) {
        fprintf(stderr, "syncscope bench: out of memory\n");
        sc_config_free(config);
        return 1;
    }
    printf("analytical model, system %s, mechanism %s, size %s, one core (initial parameters)\n", system,
           mechanism_name, sc_workload_size_name(size));
    printf("%-12s %8s %10s %14s %14s %14s %12s\n", "workload", "groups", "profile-s", "cold-evals/s", "sweep-evals/s",
           "group-evals/s", "cycles");
    int count, status = 0;
    double checksum = 0, slowest_cold = 0, slowest_sweep = 0;
    const char *slowest_cold_name = "", *slowest_sweep_name = "";
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
        double cold = evaluations_per_second(mechanism, profile, &point, &spec.initial, NULL, &checksum);
        double sweep = evaluations_per_second(mechanism, profile, &point, &spec.initial, memo, &checksum);
        group_memo_clear(memo);   /* it holds the profile's kernels */
        model_prediction prediction;
        mechanism->evaluate(profile, &point, &spec.initial, &prediction);
        printf("%-12s %8d %10.3f %14.0f %14.0f %14.0f %12.0f\n", suite[i]->name, profile->kernel_count, profile_seconds,
               cold, sweep, cold * profile->kernel_count, prediction.cycles);
        if (slowest_cold == 0 || cold < slowest_cold)
            slowest_cold = cold, slowest_cold_name = suite[i]->name;
        if (slowest_sweep == 0 || sweep < slowest_sweep)
            slowest_sweep = sweep, slowest_sweep_name = suite[i]->name;
        profile_free(profile);
        fflush(stdout);
        sc_progress_step(&progress, 1);
    }
    printf("slowest workload: cold %.0f evaluations/s (%s), sweep %.0f evaluations/s (%s) (checksum %.6g)\n",
           slowest_cold, slowest_cold_name, slowest_sweep, slowest_sweep_name, checksum);
    group_memo_free(memo);
    sc_config_free(config);
    return status;
}
