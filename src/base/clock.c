/* clock.c — the monotonic clock of clock.h. */
#include "base/clock.h"

#include <time.h>

double sc_monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}
