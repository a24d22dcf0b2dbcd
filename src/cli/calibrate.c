/* calibrate.c — `syncscope calibrate`: fits a mechanism's model parameters to short detailed
 * runs of the suite at random design points around a system preset (calibrate_study), or, with
 * --windows, one workload's parameters to its sampled runs (short detailed windows) with the
 * suite-wide fit as the prior (calibrate_windows_study; studies/model_studies.h); stores the fit
 * and prints the parameters, the fit's quality and, for a per-workload fit, the detailed work. */
#include <math.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/model_study_command.h"
#include "studies/model_studies.h"

static void print_help(void)
{
    printf("usage: syncscope calibrate --mechanism M [--system PRESET] [--workloads W1,W2,...]\n"
           "                           [--points N] [--size tiny|small|large|huge] [--seed N] [--jobs N] [--db PATH]\n"
           "                           [--detailed-from OLD]\n"
           "       syncscope calibrate --mechanism M [--system PRESET] --workload W --windows [--points N]\n"
           "                           [--size S] [--prior-floor F] [--sample-period N] [--sample-window-waves W]\n"
           "                           [--sample-warmup-waves W] [--sample-warmup-launches N] [--seed N] [--jobs N] [--db PATH]\n"
           "                           [--detailed-from OLD]\n\n"
           "Suite-wide fit: runs every workload in detail at N design points (default 6) drawn around the preset\n"
           "(L1 and L2 capacity, CU count, DRAM clock, NoC latency), stores those runs, takes each workload's\n"
           "profile, fits the mechanism's free parameters (src/protocols/M/M_params.json) by nonlinear least\n"
           "squares and stores parameters, covariance, residuals and R^2 in the calibrations table. The runs and\n"
           "profiles are taken on --jobs N threads (default: one per processor) and stored in the order of the\n"
           "points, so the stored rows and the fit are the same for every N.\n"
           "Default workloads: " MODEL_DEFAULT_WORKLOADS "; default size small. A workload may be a manifest\n"
           "(a path ending in .json): the fit then records its content digest, and that manifest is modelled\n"
           "with it until its manifest, PTX or inputs change.\n\n"
           "Per-workload fit (--windows): runs the one workload W (built-in or manifest) in sampled mode\n"
           "(short detailed windows, functional fast-forward between them; the --sample-* flags as for run)\n"
           "at the 8 corners of a 2^(5-2) fractional factorial over the same ranges plus N Latin-hypercube\n"
           "points (default 4), at size huge by default, and fits W's parameters with the latest suite-wide\n"
           "calibration of M on the preset as a Gaussian prior: sigma from that fit's covariance, at least F\n"
           "(default 0.05) of each parameter's range. It refuses (exit 2) when there is no suite-wide\n"
           "calibration. Estimates without a confidence interval count a quarter as much. The fit is stored\n"
           "keyed to W and its size (a manifest: its content digest); run --mode model, sweep --mode model\n"
           "and validate of W at that size use it instead of the suite-wide fit. Prints the share of warp\n"
           "instructions simulated in detail and the wall time (docs/calibration.md).\n\n" MODEL_DETAILED_FROM_HELP);
}

static void print_fit(const calibration_outcome *outcome)
{
    for (int p = 0; p < MODEL_PARAMETER_COUNT; p++)
        printf("  %-20s %10.4g  +- %.3g\n", model_parameter_name((model_parameter)p), outcome->fit.params.value[p],
               sqrt(outcome->fit.covariance[p][p] > 0 ? outcome->fit.covariance[p][p] : 0));
    printf("  fit: R^2 %.4f (log cycles), RMS cycle error %.2f%%, %d iterations\n", outcome->fit.r2,
           100 * outcome->rms_error, outcome->fit.iterations);
}

static int calibrate(const model_study *study, const char *database_path, sc_error *error)
{
    sc_store *store = sc_store_open(database_path, error);
    calibration_outcome outcome = {0};
    int status = !store ? -1
                 : study->windows ? calibrate_windows_study(study, store, &outcome, error)
                                  : calibrate_study(study, store, &outcome, error);
    if (status < 0) {
        sc_store_close(store);
        return -1;
    }
    if (study->windows) {
        printf("calibration %lld: mechanism %s, system %s, workload %s (size %s), %d sampled runs (%d corners + "
               "%d Latin-hypercube points), prior: calibration %lld\n", (long long)outcome.id, study->mechanism,
               study->system, study->workloads[0].name, study->workloads[0].builtin ? study->size : "manifest",
               outcome.sample_count, MODEL_DESIGN_CORNERS, study->points, (long long)outcome.prior_id);
        print_fit(&outcome);
        printf("  detailed work: %.2f%% of warp instructions simulated in detail; %d of %d estimates without an "
               "interval (weight %.2f)\n", 100 * outcome.detailed_share, outcome.without_interval,
               outcome.sample_count, STUDY_NO_INTERVAL_WEIGHT);
        printf("  time: sampled runs and profiles %.2f s, fit %.3f s\n", outcome.detailed_seconds,
               outcome.fit_seconds);
    } else {
        printf("calibration %lld: mechanism %s, system %s, %d samples (%d points x %d workloads, size %s)\n",
               (long long)outcome.id, study->mechanism, study->system, outcome.sample_count, study->points,
               study->workload_count, study->size);
        print_fit(&outcome);
        printf("  time: detailed runs and profiles %.2f s, fit %.3f s\n", outcome.detailed_seconds,
               outcome.fit_seconds);
    }
    model_fit_release(&outcome.fit);
    sc_store_close(store);
    return 0;
}

int command_calibrate(int argc, char **argv)
{
    return model_study_command(argc, argv, "calibrate", 6, true, print_help, calibrate);
}
