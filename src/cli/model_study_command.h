/* model_study_command.h — what the `calibrate` and `validate` commands share: their common
 * options (mechanism, system, workloads, points, size, seed, db; calibrate's per-workload fit adds
 * windows, prior-floor and the sampling flags) read into a model study
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

/* The whole of `calibrate` or `validate` (named `command`): parses the shared options (and with
 * `windows_options` those of a per-workload fit: --windows, --prior-floor, the --sample-* flags),
 * prints `help` for --help, runs `body` on the study and the database path and reports its error
 * in one line. Returns the process exit code. */
int model_study_command(int argc, char **argv, const char *command, int default_points, bool windows_options,
                        void (*help)(void),
                        int (*body)(const model_study *study, const char *database_path, sc_error *error));

#endif
