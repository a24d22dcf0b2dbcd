/* sampling_options.c — the --sample-* options (see sampling_options.h). */
#include "cli/sampling_options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int bad_option(const char *command, const char *name, const char *text, const char *expected)
{
    fprintf(stderr, "syncscope %s: --%s '%s': expected %s\n", command, name, text, expected);
    return 2;
}

static int parse_waves(const char *command, cli_option *options, const char *name, double minimum, double *value)
{
    const char *text = cli_find(options, name)->value;
    if (!text)
        return 0;
    char *end;
    double parsed = strtod(text, &end);
    if (end == text || *end || !isfinite(parsed) || parsed < minimum || parsed > 1000.0)
        return bad_option(command, name, text, minimum > 0 ? "a number of waves in (0, 1000]" : "a number of waves in [0, 1000]");
    *value = parsed;
    return 0;
}

int sampling_options_parse(const char *command, cli_option *options, sampling_options *sampling)
{
    *sampling = sampling_defaults();
    const char *period = cli_find(options, "sample-period")->value;
    unsigned long long number;
    if (period) {
        if (cli_parse_u64(command, "sample-period", period, &number) < 0)
            return 2;
        if (number < 1 || number > 1000000)
            return bad_option(command, "sample-period", period, "an integer in [1, 1000000]");
        sampling->period = (unsigned)number;
    }
    const char *launches = cli_find(options, "sample-warmup-launches")->value;
    if (launches) {
        if (cli_parse_u64(command, "sample-warmup-launches", launches, &number) < 0)
            return 2;
        if (number > 1000)
            return bad_option(command, "sample-warmup-launches", launches, "an integer in [0, 1000]");
        sampling->warmup_launches = (unsigned)number;
    }
    if (parse_waves(command, options, "sample-window-waves", 1e-9, &sampling->window_waves) ||
        parse_waves(command, options, "sample-warmup-waves", 0.0, &sampling->warmup_waves))
        return 2;
    if (sampling->warmup_waves >= sampling->window_waves) {
        fprintf(stderr, "syncscope %s: --sample-warmup-waves (%g) must be less than --sample-window-waves (%g)\n",
                command, sampling->warmup_waves, sampling->window_waves);
        return 2;
    }
    return 0;
}
