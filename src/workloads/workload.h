/* workload.h — the built-in workload suite: what a workload is and how the suite is listed.
 *
 * A built-in workload is a host driver (one file in src/workloads/) that builds its inputs
 * deterministically from a seed and a size class, runs its kernels (models/kernels/<name>.ptx)
 * through the host API, and checks the device's output against a C reference computed on the
 * host. The check is the same whatever engine runs the kernels, so it also checks protocols.
 */
#ifndef SYNCSCOPE_WORKLOADS_WORKLOAD_H
#define SYNCSCOPE_WORKLOADS_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "host/host_api.h"

typedef enum sc_workload_size {
    SC_SIZE_TINY = 0,   /* unit tests: a few CTAs */
    SC_SIZE_SMALL,      /* default runs: seconds in detail */
    SC_SIZE_LARGE,      /* benchmarks */
    SC_SIZE_HUGE,       /* sampled runs: enough CTA waves or launches per kernel to sample 1 in 20 */
} sc_workload_size;

/* The outcome of a workload's reference check. */
typedef struct sc_check_result {
    bool passed;
    char detail[256];   /* "ok" or the first mismatch: "out[17] = 3, expected 4" */
} sc_check_result;

typedef struct sc_workload_params {
    sc_workload_size size;
    uint64_t seed;      /* input generation */
    bool sequentially_consistent;   /* the mechanism it runs under promises sequential consistency
                                       (protocols/mechanism.h: SC_MODEL_SEQUENTIAL) */
} sc_workload_params;

typedef struct sc_workload {
    const char *name;          /* CLI name: "vecadd", "bfs", ... */
    const char *description;   /* one line for `syncscope list workloads` */
    const char *behaviour;     /* the seed behaviour it stands for: "streaming, no reuse" */
    /* Runs the whole workload on `device` and fills `check`. Returns -1 only when the run itself
     * failed (bad PTX, out-of-bounds access, deadlock...), not when the check fails. */
    int (*run)(sc_device *device, const sc_workload_params *params, sc_check_result *check,
               sc_error *error);
} sc_workload;

/* The suite, in listing order. */
const sc_workload *const *sc_workload_suite(int *count);
const sc_workload *sc_workload_find(const char *name);
const char *sc_workload_size_name(sc_workload_size size);
int sc_workload_size_parse(const char *text, sc_workload_size *size);

/* Helpers shared by drivers. */
void sc_check_pass(sc_check_result *check);
void sc_check_fail(sc_check_result *check, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
