/* clock.h — simulated time and clock domains.
 *
 * The engine's time unit is the picosecond. Each clock domain (GPU core, NoC, DRAM, CPU) has a
 * period in picoseconds, rounded to the nearest integer (a 700 MHz clock ticks every 1429 ps:
 * the 0.03% rounding is below every other modelling error). Components count work in cycles of
 * their own domain and convert at their boundaries.
 */
#ifndef SYNCSCOPE_TIMING_CLOCK_H
#define SYNCSCOPE_TIMING_CLOCK_H

#include <stdint.h>

typedef uint64_t sc_time;   /* picoseconds */
#define SC_TIME_NEVER UINT64_MAX

typedef struct sc_clock {
    sc_time period;         /* ps per cycle, >= 1 */
} sc_clock;

static inline sc_clock sc_clock_from_hz(double hertz)
{
    double period = 1e12 / hertz + 0.5;
    return (sc_clock){period < 1 ? 1 : (sc_time)period};
}

/* Time of `cycles` cycles of the clock. */
static inline sc_time sc_clock_span(sc_clock clock, uint64_t cycles) { return cycles * clock.period; }

/* The first edge of the clock at or after `time`. */
static inline sc_time sc_clock_edge_at_or_after(sc_clock clock, sc_time time)
{
    return (time + clock.period - 1) / clock.period * clock.period;
}

/* Whole cycles of the clock elapsed at `time`. */
static inline uint64_t sc_clock_cycles(sc_clock clock, sc_time time) { return time / clock.period; }

#endif
