/* sampling_options.h — the --sample-* options of the commands that run in sampled mode (`run`,
 * `bench`): their option table entries and reading them into the sampled engine's options. */
#ifndef SYNCSCOPE_CLI_SAMPLING_OPTIONS_H
#define SYNCSCOPE_CLI_SAMPLING_OPTIONS_H

#include "cli/options.h"
#include "timing/sampled_engine.h"

/* The cli_option entries of the sampling flags, to splice into a command's option table. */
#define SAMPLING_OPTIONS                                                                           \
    {.name = "sample-period", .kind = CLI_VALUE}, {.name = "sample-window-waves", .kind = CLI_VALUE}, \
        {.name = "sample-warmup-waves", .kind = CLI_VALUE}, {.name = "sample-warmup-launches", .kind = CLI_VALUE}

/* Reads the sampling flags over the defaults; prints one line and returns 2 when one is bad. */
int sampling_options_parse(const char *command, cli_option *options, sampling_options *sampling);

#endif
