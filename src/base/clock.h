/* clock.h — time for the figures the tool prints and stores: a monotonic wall clock (run wall
 * time, bench rates, calibration and sweep times) and the calling thread's CPU time (bench model's
 * rate on one core, which should not count the time other processes held the core), in seconds. */
#ifndef SYNCSCOPE_BASE_CLOCK_H
#define SYNCSCOPE_BASE_CLOCK_H

/* Seconds on the monotonic clock since an arbitrary origin: subtract two readings. */
double sc_monotonic_seconds(void);
/* Seconds of CPU time the calling thread has used: subtract two readings. */
double sc_thread_cpu_seconds(void);

#endif
