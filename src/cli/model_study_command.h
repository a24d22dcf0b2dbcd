/* model_study_command.h — what the `calibrate` and `validate` commands share: their common
 * options (mechanism, system, workloads, points, size, seed, db) read into a model study
 * (studies/model_samples.h), --help, and the one-line report of a failure. */
#ifndef SYNCSCOPE_CLI_MODEL_STUDY_COMMAND_H
#define SYNCSCOPE_CLI_MODEL_STUDY_COMMAND_H

#include "studies/model_samples.h"

/* The whole of `calibrate` or `validate` (named `command`): parses the shared options, prints
 * `help` for --help, runs `body` on the study and the database path and reports its error in
 * one line. Returns the process exit code. */
int model_study_command(int argc, char **argv, const char *command, int default_points, void (*help)(void),
                        int (*body)(const model_study *study, const char *database_path, sc_error *error));

#endif
