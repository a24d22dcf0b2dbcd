/* parallel.h — independent jobs on a few threads: `calibrate` and `validate` take their samples'
 * detailed (or sampled) runs and profiles this way, then store them in order on one thread. */
#ifndef SYNCSCOPE_BASE_PARALLEL_H
#define SYNCSCOPE_BASE_PARALLEL_H

/* One job: `index` in [0, count). Jobs share nothing but `context`, which each reads, and the
 * slot of it that is theirs alone, which each writes. */
typedef void (*sc_parallel_job)(void *context, int index);

/* Runs job(context, i) for every i in [0, count) on up to `workers` threads (the calling thread
 * among them), each taking the next index not yet taken; returns when all have finished. With
 * `workers` <= 1 the jobs run in order on the calling thread. */
void sc_parallel_run(int count, int workers, sc_parallel_job job, void *context);

/* The processors online (at least 1): the default number of workers. */
int sc_parallel_processors(void);

#endif
