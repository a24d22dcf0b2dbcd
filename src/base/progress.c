/* progress.c — the progress lines of long commands (see progress.h). */
#include "base/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"

void sc_progress_start(sc_progress *progress, const char *what, const char *unit, long total)
{
    const char *setting = getenv("SYNCSCOPE_PROGRESS");
    *progress = (sc_progress){.what = what, .unit = unit, .total = total, .start = sc_monotonic_seconds()};
    progress->last_shown = progress->start;
    progress->interval = setting && !strcmp(setting, "0") ? -1.0
                       : setting && !strcmp(setting, "1") ? 0.0
                       : isatty(STDERR_FILENO)           ? 5.0
                                                         : 30.0;
}

/* "m:ss" or "h:mm:ss". */
static void format_duration(double seconds, char out[32])
{
    long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, 32, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, 32, "%ld:%02ld", s / 60, s % 60);
}

void sc_progress_step(sc_progress *progress, long steps)
{
    progress->done += steps;
    double now = sc_monotonic_seconds();
    if (progress->interval < 0 || now - progress->last_shown < progress->interval)
        return;
    progress->last_shown = now;
    char elapsed[32], left[32];
    double spent = now - progress->start;
    long remaining = progress->total > progress->done ? progress->total - progress->done : 0;
    format_duration(spent, elapsed);
    format_duration(progress->done > 0 ? spent / (double)progress->done * (double)remaining : 0, left);
    fprintf(stderr, "%s: %ld/%ld %s (%ld%%), %s elapsed, about %s left\n", progress->what, progress->done,
            progress->total, progress->unit, progress->total > 0 ? progress->done * 100 / progress->total : 100,
            elapsed, left);
}
