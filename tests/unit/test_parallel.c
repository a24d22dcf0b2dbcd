/* test_parallel.c — sc_parallel_run (src/base/parallel.h): every index runs exactly once, for
 * more, as many and fewer jobs than workers and for none; with one worker in order on the calling
 * thread; with two workers, on two threads at once (a job waits until the other thread's job has
 * started, which one thread alone could never see). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/parallel.h"

#define MAX_JOBS 64

typedef struct tally {
    atomic_int runs[MAX_JOBS];
    int order[MAX_JOBS];   /* one worker: the indices in the order they ran */
    atomic_int ran;
    pthread_t caller;
    atomic_bool other_thread;
} tally;

static void count_job(void *context, int index)
{
    tally *t = context;
    atomic_fetch_add(&t->runs[index], 1);
    int position = atomic_fetch_add(&t->ran, 1);
    t->order[position] = index;
    if (!pthread_equal(pthread_self(), t->caller))
        atomic_store(&t->other_thread, true);
}

static void test_every_index_once(void **state)
{
    (void)state;
    static const int counts[] = {0, 1, 2, 3, 7, MAX_JOBS};
    static const int workers[] = {1, 2, 3, 8};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++) {
            tally t = {.caller = pthread_self()};
            sc_parallel_run(counts[c], workers[w], count_job, &t);
            assert_int_equal(atomic_load(&t.ran), counts[c]);
            for (int i = 0; i < counts[c]; i++)
                assert_int_equal(atomic_load(&t.runs[i]), 1);
        }
}

static void test_one_worker_runs_in_order_here(void **state)
{
    (void)state;
    tally t = {.caller = pthread_self()};
    sc_parallel_run(MAX_JOBS, 1, count_job, &t);
    for (int i = 0; i < MAX_JOBS; i++)
        assert_int_equal(t.order[i], i);
    assert_false(atomic_load(&t.other_thread));
}

/* Two jobs that each wait (bounded) for the other to have started: both see it only when they run
 * at the same time. */
typedef struct rendezvous {
    atomic_int started;
    atomic_int saw_both;
} rendezvous;

static void meet_job(void *context, int index)
{
    (void)index;
    rendezvous *r = context;
    atomic_fetch_add(&r->started, 1);
    for (long spin = 0; spin < 10000000L && atomic_load(&r->started) < 2; spin++)
        sched_yield();
    if (atomic_load(&r->started) == 2)
        atomic_fetch_add(&r->saw_both, 1);
}

static void test_two_workers_run_at_once(void **state)
{
    (void)state;
    rendezvous r = {0};
    sc_parallel_run(2, 2, meet_job, &r);
    assert_int_equal(atomic_load(&r.saw_both), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_index_once),
        cmocka_unit_test(test_one_worker_runs_in_order_here),
        cmocka_unit_test(test_two_workers_run_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
