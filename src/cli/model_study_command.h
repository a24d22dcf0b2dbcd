/* model_study_command.h — what the `calibrate` and `validate` commands share: their common
 * options (mechanism, system, workloads, points, size, seed, db, jobs, detailed-from; calibrate's
 * per-workload fit adds windows, prior-floor and the sampling flags) read into a model study
 * (studies/model_samples.h), --help, and the one-line report of a failure. */
#ifndef SYNCSCOPE_CLI_MODEL_STUDY_COMMAND_H
#define SYNCSCOPE_CLI_MODEL_STUDY_COMMAND_H

#include "studies/model_samples.h"

/* A per-workload fit on sample windows (`calibrate --windows`): its default input size (huge: the
 * suite's launches there are long enough for several windows each, so most estimates have an
 * interval and a few percent of the instructions run in detail) and its default number of
 * Latin-hypercube points besides the corners (its prior's floor: model_samples.h). */
#define MODEL_WINDOWS_DEFAULT_SIZE "huge"
#define MODEL_WINDOWS_DEFAULT_FILL 4

/* The --help paragraph of --detailed-from, which `calibrate` and `validate` share. */
#define MODEL_DETAILED_FROM_HELP                                                                           \
    "--detailed-from OLD: copy each detailed run (with --windows: sampled run) that the earlier database OLD\n" \
    "holds of the same computation instead of simulating it again: the same detailed identity (a SHA-256 this\n" \
    "binary was built with, over every file that can change a detailed run), workload and parameters, system,\n" \
    "full configuration, mechanism, mode and seed, not jittered, and a sampled run's sampling settings. The\n"    \
    "copy is stored whole, its runs row naming OLD (reused_from) and the run there (reused_run_id); the fit and\n" \
    "the errors are bit for bit those of simulating. Prints how many runs were reused and simulated and the\n"   \
    "wall time. An OLD that is missing, not a syncscope database, older than schema 6 or locked: one line and\n" \
    "exit 1 (the study's own database: exit 2), before the database is opened (docs/calibration.md).\n"

/* The whole of `calibrate` or `validate` (named `command`): parses the shared options (and with
 * `windows_options` those of a per-workload fit: --windows, --prior-floor, the --sample-* flags),
 * prints `help` for --help, opens --detailed-from's database (refusing a bad one before `body`
 * runs), runs `body` on the study and the database path, prints the reuse line and reports an
 * error in one line. Returns the process exit code. */
int model_study_command(int argc, char **argv, const char *command, int default_points, bool windows_options,
                        void (*help)(void),
                        int (*body)(const model_study *study, const char *database_path, sc_error *error));

#endif
