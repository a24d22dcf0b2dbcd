/* litmus.h — the litmus tests of models/kernels/litmus.cu as a table, and the driver that runs
 * one variant (test x mode x scope) on a device and counts its outcomes. Shared by the litmus
 * workload (litmus.c) and `syncscope litmus` (cli/litmus.c).
 *
 * An outcome packs a run's loaded values: result k (0 or 1) is bit k. Each test names its weak
 * outcome, the one sequential consistency forbids, and the modes in which the PTX memory model
 * forbids it too.
 */
#ifndef SYNCSCOPE_WORKLOADS_LITMUS_H
#define SYNCSCOPE_WORKLOADS_LITMUS_H

#include <stdbool.h>
#include <stdint.h>

#include "workloads/workload_support.h"

typedef enum sc_litmus_mode {
    SC_LITMUS_RELAXED,          /* volatile loads and stores */
    SC_LITMUS_FENCED,           /* the same with a fence of the test's scope between them */
    SC_LITMUS_ACQREL,           /* ld.acquire / st.release at the test's scope */
    SC_LITMUS_CACHED,           /* MP: the consumer's data already cached, flag polled relaxed; SB:
                                   each thread's read of the other's word already cached */
    SC_LITMUS_CACHED_ACQUIRE,   /* MP only: the same, flag polled with ld.acquire */
    SC_LITMUS_MODE_COUNT
} sc_litmus_mode;

typedef enum sc_litmus_scope { SC_LITMUS_CTA, SC_LITMUS_GPU, SC_LITMUS_SCOPE_COUNT } sc_litmus_scope;

#define SC_LITMUS_TEST_COUNT 5
#define SC_LITMUS_OUTCOMES 16   /* up to four 0/1 results */

typedef struct sc_litmus_test {
    const char *name, *kernel;
    uint32_t roles, results;
    uint32_t weak_outcome;
    uint32_t modes;              /* bit per mode the test runs in */
    uint32_t ptx_forbids;        /* bit per mode in which the PTX model forbids the weak outcome */
} sc_litmus_test;

extern const sc_litmus_test sc_litmus_tests[SC_LITMUS_TEST_COUNT];
extern const char *const sc_litmus_mode_names[SC_LITMUS_MODE_COUNT];
extern const char *const sc_litmus_scope_names[SC_LITMUS_SCOPE_COUNT];

static inline bool sc_litmus_runs_in(const sc_litmus_test *test, sc_litmus_mode mode)
{
    return test->modes >> mode & 1u;
}

static inline bool sc_litmus_ptx_forbids(const sc_litmus_test *test, sc_litmus_mode mode)
{
    return test->ptx_forbids >> mode & 1u;
}

/* The litmus module and device buffers for `iterations` instances of any variant. */
typedef struct sc_litmus_device {
    sc_device *device;
    int module;
    uint64_t data, results;
    uint32_t *host_results;
    uint32_t iterations;
    bool rendezvous;     /* the roles meet before every instance (litmus.cu), for real GPUs */
} sc_litmus_device;

/* Loads the kernels and allocates the buffers (host results from `scratch`). */
int sc_litmus_prepare(sc_device *device, sc_scratch *scratch, uint32_t iterations, sc_litmus_device *litmus,
                      sc_error *error);

/* Runs one variant from cleared buffers and adds each instance's outcome to `histogram`. */
int sc_litmus_run(const sc_litmus_device *litmus, const sc_litmus_test *test, sc_litmus_mode mode,
                  sc_litmus_scope scope, uint32_t histogram[SC_LITMUS_OUTCOMES], sc_error *error);

#endif
