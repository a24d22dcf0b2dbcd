/* validate.c — `syncscope validate`: the calibrations a mechanism on a system models the workloads
 * with (each one's own per-workload fit, else the suite-wide one) against detailed runs at
 * held-out design points (validate_study, studies/model_studies.h), which stores each comparison;
 * prints mean, median and max absolute errors, and the suite-wide fit's at the same runs where a
 * workload has its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/model_study_command.h"
#include "studies/model_studies.h"

static void print_help(void)
{
    printf("usage: syncscope validate --mechanism M [--system PRESET] [--workloads W1,W2,...]\n"
           "                          [--points N] [--size tiny|small|large|huge] [--seed N] [--jobs N]\n"
           "                          [--db PATH] [--detailed-from OLD]\n\n"
           "Runs every workload in detail at N held-out design points (default 30; never a point of the\n"
           "calibrations) and through the calibrated model of the mechanism on the system it is modelled with;\n"
           "stores the per-point errors (validations table) and prints mean, median and max absolute error of\n"
           "cycles and of each GSI stall fraction, and their mean over the categories.\n"
           "Default workloads: " MODEL_DEFAULT_WORKLOADS "; default size small. A workload may be a manifest\n"
           "(a path ending in .json); the calibration validated is the one the workloads are modelled with: a\n"
           "workload's own fit (calibrate --workload W --windows, at this size) if it has one, else the latest\n"
           "suite-wide one. Where a workload has its own fit, the suite-wide fit is validated at the same\n"
           "detailed runs too, and both are printed. --jobs N: threads running the detailed runs (default: one per\n"
           "processor; the stored rows are the same for every N).\n\n" MODEL_DETAILED_FROM_HELP);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Prints "name  mean  median  max" of |values|. */
static void print_stats(const char *name, double *values, int count, double scale, const char *unit)
{
    double sum = 0;
    for (int i = 0; i < count; i++) {
        values[i] = fabs(values[i]);
        sum += values[i];
    }
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    double median = count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
    printf("  %-12s mean %7.3f%s  median %7.3f%s  max %7.3f%s\n", name, scale * sum / count, unit, scale * median, unit,
           scale * values[count - 1], unit);
}

/* Prints the absolute errors of cycles and of each category's stall fraction, and the mean over
 * categories and comparisons of the absolute stall-fraction error (the stalls' "mean" line). */
static void print_errors(double *cycle_errors, double *stall_errors, int count)
{
    double stall_sum = 0;
    for (int i = 0; i < GSI_CATEGORY_COUNT * count; i++)
        stall_sum += fabs(stall_errors[i]);
    printf("absolute errors:\n");
    print_stats("cycles", cycle_errors, count, 100.0, "%");
    for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
        print_stats(gsi_category_name((gsi_category)c), stall_errors + c * count, count, 1.0, " ");
    printf("  stall fractions, mean over categories: %.4f\n", stall_sum / (GSI_CATEGORY_COUNT * count));
}

static int validate(const model_study *study, const char *database_path, sc_error *error)
{
    sc_store *store = sc_store_open_existing(database_path, error);
    validation_outcome outcome;
    if (!store || validate_study(study, store, &outcome, error) < 0) {
        sc_store_close(store);
        return -1;
    }
    int count = outcome.count;
    if (outcome.own_workload)
        printf("validation of the per-workload calibrations (%d of %d comparisons; the rest: suite-wide calibration "
               "%lld): mechanism %s, system %s, %d held-out points x %d workloads = %d comparisons (size %s)\n",
               outcome.own_workload, count, (long long)outcome.suite_calibration_id, study->mechanism, study->system,
               study->points, study->workload_count, count, study->size);
    else
        printf("validation of calibration %lld: mechanism %s, system %s, %d held-out points x %d workloads = %d "
               "comparisons (size %s)\n", (long long)outcome.calibration_id, study->mechanism, study->system,
               study->points, study->workload_count, count, study->size);
    print_errors(outcome.cycle_errors, outcome.stall_errors, count);
    if (outcome.own_workload) {
        printf("the suite-wide calibration %lld at the same detailed runs:\n", (long long)outcome.suite_calibration_id);
        print_errors(outcome.suite_cycle_errors, outcome.suite_stall_errors, count);
    }
    validation_outcome_release(&outcome);
    sc_store_close(store);
    return 0;
}

int command_validate(int argc, char **argv)
{
    return model_study_command(argc, argv, "validate", 30, false, print_help, validate);
}
