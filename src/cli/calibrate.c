/* calibrate.c — `syncscope calibrate`: fits a mechanism's model parameters to short detailed
 * runs at random design points around a system preset and stores the fit (calibrate_study,
 * studies/model_studies.h); prints the parameters and the fit's quality. */
#include <math.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/model_study_command.h"
#include "studies/model_studies.h"

static void print_help(void)
{
    printf("usage: syncscope calibrate --mechanism M [--system PRESET] [--workloads W1,W2,...]\n"
           "                           [--points N] [--size tiny|small|large|huge] [--seed N] [--db PATH]\n\n"
           "Runs every workload in detail at N design points (default 6) drawn around the preset (L1 and L2\n"
           "capacity, CU count, DRAM clock, NoC latency), stores those runs, takes each workload's profile,\n"
           "fits the mechanism's free parameters (src/protocols/M/M_params.json) by nonlinear least squares and\n"
           "stores parameters, covariance, residuals and R^2 in the calibrations table.\n"
           "Default workloads: " MODEL_DEFAULT_WORKLOADS "; default size small. A workload may be a manifest\n"
           "(a path ending in .json): the fit then records its content digest, and that manifest is modelled\n"
           "with it until its manifest, PTX or inputs change.\n");
}

static int calibrate(const model_study *study, const char *database_path, sc_error *error)
{
    sc_store *store = sc_store_open(database_path, error);
    calibration_outcome outcome;
    if (!store || calibrate_study(study, store, &outcome, error) < 0) {
        sc_store_close(store);
        return -1;
    }
    printf("calibration %lld: mechanism %s, system %s, %d samples (%d points x %d workloads, size %s)\n",
           (long long)outcome.id, study->mechanism, study->system, outcome.sample_count, study->points,
           study->workload_count, study->size);
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
        printf("  %-20s %10.4g  +- %.3g\n", model_parameter_name((model_parameter)p), outcome.fit.params.value[p],
               sqrt(outcome.fit.covariance[p][p] > 0 ? outcome.fit.covariance[p][p] : 0));
    printf("  fit: R^2 %.4f (log cycles), RMS cycle error %.2f%%, %d iterations\n", outcome.fit.r2,
           100 * outcome.rms_error, outcome.fit.iterations);
    printf("  time: detailed runs and profiles %.2f s, fit %.3f s\n", outcome.detailed_seconds, outcome.fit_seconds);
    model_fit_release(&outcome.fit);
    sc_store_close(store);
    return 0;
}

int command_calibrate(int argc, char **argv)
{
    return model_study_command(argc, argv, "calibrate", 6, print_help, calibrate);
}
