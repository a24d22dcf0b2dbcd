/* clock.h — wall-clock time for the figures the tool prints and stores (run wall time, bench
 * rates, calibration and sweep times): a monotonic clock, in seconds. */
#ifndef SYNCSCOPE_BASE_CLOCK_H
#define SYNCSCOPE_BASE_CLOCK_H

/* Seconds on the monotonic clock since an arbitrary origin: subtract two readings. */
double sc_monotonic_seconds(void);

#endif
