/* parallel.c — independent jobs on a few threads (see parallel.h). */
#include "base/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct job_queue {
    pthread_mutex_t lock;
    int next, count;
    sc_parallel_job job;
    void *context;
} job_queue;

static void *work(void *argument)
{
    job_queue *queue = argument;
    for (;;) {
        pthread_mutex_lock(&queue->lock);
        int index = queue->next < queue->count ? queue->next++ : -1;
        pthread_mutex_unlock(&queue->lock);
        if (index < 0)
            return NULL;
        queue->job(queue->context, index);
    }
}

void sc_parallel_run(int count, int workers, sc_parallel_job job, void *context)
{
    job_queue queue = {.next = 0, .count = count, .job = job, .context = context};
    pthread_mutex_init(&queue.lock, NULL);
    int helpers = (workers < count ? workers : count) - 1, started = 0;
    pthread_t *threads = calloc(helpers > 0 ? (size_t)helpers : 1, sizeof *threads);
    while (started < helpers && pthread_create(&threads[started], NULL, work, &queue) == 0)
        started++;
    work(&queue);   /* a thread that could not be started leaves its jobs to the others */
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    free(threads);
    pthread_mutex_destroy(&queue.lock);
}

int sc_parallel_processors(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 1 ? (int)online : 1;
}
