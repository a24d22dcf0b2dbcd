/* litmus.c — driver of the litmus workload: MP, SB, LB, IRIW and CoRR (litmus.cu), each at CTA
 * scope (roles in different warps of one CTA) and GPU scope (roles in different CTAs), with
 * relaxed accesses, with fences, and with acquire/release, each run `iterations` times.
 *
 * The check fails when a run shows its test's weak outcome (the one sequential consistency
 * forbids) where it is forbidden: always on an engine without timing (the functional engine is
 * sequentially consistent, reported by zero cycles), and otherwise where the PTX memory model
 * forbids it for that variant. The detail lists how often each test's weak outcome appeared and
 * the outcome histogram of MP at GPU scope without fences.
 */
#include "workloads/workload_support.h"

#include <stdio.h>

#define LITMUS_STRIDE 64       /* words per instance, must match litmus.cu */
#define LITMUS_MODES 3         /* relaxed, fenced, acquire/release */
#define LITMUS_SCOPES 2        /* cta, gpu */
#define LITMUS_OUTCOMES 16     /* up to four 0/1 results */
#define WARP_LANES 32

enum { MODE_RELAXED, MODE_FENCED, MODE_ACQREL };
static const char *const mode_names[LITMUS_MODES] = {"relaxed", "fenced", "acqrel"};
static const char *const scope_names[LITMUS_SCOPES] = {"cta", "gpu"};

typedef struct litmus_test {
    const char *name, *kernel;
    uint32_t roles, results;
    uint32_t weak_outcome;       /* result k is bit k */
    uint32_t ptx_forbids;        /* bit per mode in which the PTX model forbids the weak outcome */
} litmus_test;

static const litmus_test litmus_tests[] = {
    {"MP", "litmus_mp", 2, 2, 0x1, 1u << MODE_FENCED | 1u << MODE_ACQREL},      /* r0=1 r1=0 */
    {"SB", "litmus_sb", 2, 2, 0x0, 1u << MODE_FENCED},                         /* r0=0 r1=0 */
    {"LB", "litmus_lb", 2, 2, 0x3, 1u << MODE_FENCED | 1u << MODE_ACQREL},      /* r0=1 r1=1 */
    {"IRIW", "litmus_iriw", 4, 4, 0x5, 1u << MODE_FENCED},                     /* 1,0 and 1,0 */
    {"CoRR", "litmus_corr", 2, 2, 0x1, 1u << MODE_RELAXED | 1u << MODE_FENCED | 1u << MODE_ACQREL},
};
#define LITMUS_TEST_COUNT (sizeof litmus_tests / sizeof litmus_tests[0])

/* Outcome histograms of every variant. */
typedef uint32_t litmus_histograms[LITMUS_TEST_COUNT][LITMUS_MODES][LITMUS_SCOPES][LITMUS_OUTCOMES];

static uint32_t outcome_of(const uint32_t *results, uint32_t count)
{
    uint32_t outcome = 0;
    for (uint32_t k = 0; k < count; k++)
        outcome |= (results[k] != 0) << k;
    return outcome;
}

/* Device buffers shared by all variants; cleared before each. */
typedef struct litmus_buffers {
    int module;
    uint64_t data, results;
    uint32_t *host_results;
    uint32_t iterations;
} litmus_buffers;

static int run_variant(sc_device *device, const litmus_buffers *b, const litmus_test *test, uint32_t mode,
                       uint32_t scope, uint32_t histogram[LITMUS_OUTCOMES], sc_error *error)
{
    size_t data_bytes = (size_t)b->iterations * LITMUS_STRIDE * sizeof(uint32_t);
    size_t result_bytes = (size_t)b->iterations * 4 * sizeof(uint32_t);
    sc_dim3 grid = {scope == 0 ? 1 : test->roles, 1, 1};
    sc_dim3 block = {scope == 0 ? WARP_LANES * test->roles : WARP_LANES, 1, 1};
    sc_kernel_arg args[] = {sc_arg_ptr(b->data), sc_arg_ptr(b->results), sc_arg_u32(b->iterations), sc_arg_u32(mode),
                            sc_arg_u32(scope)};
    if (sc_memset_device(device, b->data, 0, data_bytes, error) < 0 ||
        sc_memset_device(device, b->results, 0, result_bytes, error) < 0 ||
        sc_launch_kernel(device, b->module, test->kernel, grid, block, 0, args, 5, error) < 0 ||
        sc_memcpy_from_device(device, b->host_results, b->results, result_bytes, error) < 0)
        return -1;
    for (uint32_t i = 0; i < b->iterations; i++)
        histogram[outcome_of(b->host_results + 4 * i, test->results)]++;
    return 0;
}

static int litmus_on_device(sc_device *device, sc_scratch *scratch, uint32_t iterations, litmus_histograms counts,
                            sc_error *error)
{
    litmus_buffers b = {.iterations = iterations};
    b.module = sc_device_load_builtin_ptx(device, "litmus", error);
    if (b.module < 0)
        return -1;
    b.data = sc_workload_alloc(device, (size_t)iterations * LITMUS_STRIDE * sizeof(uint32_t), error);
    b.results = sc_workload_alloc(device, (size_t)iterations * 4 * sizeof(uint32_t), error);
    b.host_results = sc_scratch_alloc(scratch, (size_t)iterations * 4 * sizeof(uint32_t));
    if (b.data == 0 || b.results == 0)
        return -1;
    for (uint32_t t = 0; t < LITMUS_TEST_COUNT; t++)
        for (uint32_t mode = 0; mode < LITMUS_MODES; mode++)
            for (uint32_t scope = 0; scope < LITMUS_SCOPES; scope++)
                if (run_variant(device, &b, &litmus_tests[t], mode, scope, counts[t][mode][scope], error) < 0)
                    return -1;
    return 0;
}

/* Fails the check on the first variant showing a forbidden weak outcome. */
static bool find_forbidden(litmus_histograms counts, bool sequentially_consistent, uint32_t iterations,
                           sc_check_result *check)
{
    for (uint32_t t = 0; t < LITMUS_TEST_COUNT; t++)
        for (uint32_t mode = 0; mode < LITMUS_MODES; mode++)
            for (uint32_t scope = 0; scope < LITMUS_SCOPES; scope++) {
                const litmus_test *test = &litmus_tests[t];
                uint32_t seen = counts[t][mode][scope][test->weak_outcome];
                bool forbidden = sequentially_consistent || (test->ptx_forbids >> mode & 1u);
                if (seen > 0 && forbidden) {
                    sc_check_fail(check, "%s/%s/%s: forbidden outcome %#x seen in %u of %u runs%s", test->name,
                                  scope_names[scope], mode_names[mode], test->weak_outcome, seen, iterations,
                                  sequentially_consistent ? " (sequentially consistent engine)" : "");
                    return true;
                }
            }
    return false;
}

static void describe_outcomes(litmus_histograms counts, uint32_t iterations, sc_check_result *check)
{
    int used = snprintf(check->detail, sizeof check->detail, "ok: %zu variants x %u runs; weak outcomes:",
                        LITMUS_TEST_COUNT * LITMUS_MODES * LITMUS_SCOPES, iterations);
    for (uint32_t t = 0; t < LITMUS_TEST_COUNT && used < (int)sizeof check->detail; t++) {
        uint32_t weak = 0;
        for (uint32_t mode = 0; mode < LITMUS_MODES; mode++)
            for (uint32_t scope = 0; scope < LITMUS_SCOPES; scope++)
                weak += counts[t][mode][scope][litmus_tests[t].weak_outcome];
        used += snprintf(check->detail + used, sizeof check->detail - (size_t)used, " %s %u", litmus_tests[t].name, weak);
    }
    const uint32_t *mp = counts[0][MODE_RELAXED][1];
    if (used < (int)sizeof check->detail)
        snprintf(check->detail + used, sizeof check->detail - (size_t)used,
                 "; MP/gpu/relaxed r0r1 00:%u 10:%u 01:%u 11:%u", mp[0], mp[1], mp[2], mp[3]);
}

static int run_litmus(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                      sc_error *error)
{
    uint32_t iterations = sc_size_pick(params->size, 64, 512, 2048);
    sc_scratch scratch = {0};
    litmus_histograms *counts = sc_scratch_alloc(&scratch, sizeof *counts);
    int status = litmus_on_device(device, &scratch, iterations, *counts, error);
    if (status == 0) {
        bool sequentially_consistent = sc_device_statistics(device)->cycles == 0;
        check->passed = true;
        if (!find_forbidden(*counts, sequentially_consistent, iterations, check))
            describe_outcomes(*counts, iterations, check);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_litmus = {
    .name = "litmus",
    .description = "MP, SB, LB, IRIW, CoRR at CTA and GPU scope, relaxed / fenced / acquire-release",
    .behaviour = "memory-model conformance: forbidden outcomes must never appear",
    .run = run_litmus,
};
