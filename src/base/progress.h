/* progress.h — counts and an estimated time left for the long commands (sweep, compare,
 * calibrate, validate, reproduce, bench), on stderr so that stdout keeps only results:
 *
 *   sweep memory-oat: 12/80 points (15%), 0:42 elapsed, about 3:58 left
 *
 * A whole line each time (never a line redrawn in place, which would tear the result lines
 * the command prints on stdout): on a terminal at most every 5 s, into a pipe or a file (tee, a
 * batch system's log) at most every 30 s, so a command that ends sooner shows none.
 * SYNCSCOPE_PROGRESS=0 turns the lines off, =1 writes one after every step. */
#ifndef SYNCSCOPE_BASE_PROGRESS_H
#define SYNCSCOPE_BASE_PROGRESS_H

typedef struct sc_progress {
    const char *what;       /* "sweep memory-oat", "compare", ... */
    const char *unit;       /* "points", "detailed runs", ... */
    long total, done;
    double start, last_shown;
    double interval;        /* seconds between lines; negative: never */
} sc_progress;

/* Starts counting `total` steps of `unit` (nothing is shown yet). */
void sc_progress_start(sc_progress *progress, const char *what, const char *unit, long total);

/* `steps` more steps done; writes the line when one is due. Call it where the command's own
 * output is at the start of a line. */
void sc_progress_step(sc_progress *progress, long steps);

#endif
