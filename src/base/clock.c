/* clock.c — the monotonic clock and the thread CPU clock of clock.h. */
#include "base/clock.h"

#include <time.h>

static double seconds_of(clockid_t clock)
{
    struct timespec now;
    clock_gettime(clock, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

double sc_monotonic_seconds(void)
{
    return seconds_of(CLOCK_MONOTONIC);
}

double sc_thread_cpu_seconds(void)
{
    return seconds_of(CLOCK_THREAD_CPUTIME_ID);
}
