/* litmus.c — the litmus tests (litmus.h) and the litmus workload: MP, SB, LB, IRIW and CoRR
 * (litmus.cu), each at CTA scope (roles in different warps of one CTA) and GPU scope (roles in
 * different CTAs, so on different CUs), with relaxed accesses, with fences and with
 * acquire/release, plus MP with the consumer's data already cached (polling the flag relaxed or
 * with acquire) and SB with the other's word already cached; each run `iterations` times.
 *
 * The check fails when a run shows its test's weak outcome (the one sequential consistency
 * forbids) where it is forbidden: always on an engine whose executions are all sequentially
 * consistent (the functional engine: sc_device_sequentially_consistent), under a mechanism that
 * promises sequential consistency (params->sequentially_consistent), and otherwise where the PTX memory model forbids
 * it for that variant. The detail lists how often each test's weak outcome appeared and
 * the outcome histograms of MP at GPU scope without fences and with the data cached.
 */
#include "workloads/litmus.h"

#include <stdio.h>

#define LITMUS_STRIDE 64       /* words per instance, must match litmus.cu */
#define LITMUS_RENDEZVOUS 0x100 /* or'ed into the kernels' mode: the roles meet before every instance */
#define WARP_LANES 32

#define CLASSIC_MODES (1u << SC_LITMUS_RELAXED | 1u << SC_LITMUS_FENCED | 1u << SC_LITMUS_ACQREL)
#define CACHED_MODES (1u << SC_LITMUS_CACHED | 1u << SC_LITMUS_CACHED_ACQUIRE)

const char *const sc_litmus_mode_names[SC_LITMUS_MODE_COUNT] = {"relaxed", "fenced", "acqrel", "cached", "cached-acq"};
const char *const sc_litmus_scope_names[SC_LITMUS_SCOPE_COUNT] = {"cta", "gpu"};

/* MP in the cached modes: r0 = flag, r1 = data read after it; 0x1 is the stale outcome. SB in the
 * cached mode: each thread's second read of the other's word, after a first one that may have
 * cached it; 0x0 (both stale) is allowed by PTX, not by sequential consistency. */
const sc_litmus_test sc_litmus_tests[SC_LITMUS_TEST_COUNT] = {
    {"MP", "litmus_mp", 2, 2, 0x1, CLASSIC_MODES | CACHED_MODES,                         /* r0=1 r1=0 */
     1u << SC_LITMUS_FENCED | 1u << SC_LITMUS_ACQREL | 1u << SC_LITMUS_CACHED_ACQUIRE},
    {"SB", "litmus_sb", 2, 2, 0x0, CLASSIC_MODES | 1u << SC_LITMUS_CACHED, 1u << SC_LITMUS_FENCED}, /* r0=0 r1=0 */
    {"LB", "litmus_lb", 2, 2, 0x3, CLASSIC_MODES, 1u << SC_LITMUS_FENCED | 1u << SC_LITMUS_ACQREL}, /* r0=1 r1=1 */
    {"IRIW", "litmus_iriw", 4, 4, 0x5, CLASSIC_MODES, 1u << SC_LITMUS_FENCED},          /* 1,0 and 1,0 */
    {"CoRR", "litmus_corr", 2, 2, 0x1, CLASSIC_MODES, CLASSIC_MODES},                   /* r0=1 r1=0 */
};

static uint32_t outcome_of(const uint32_t *results, uint32_t count)
{
    uint32_t outcome = 0;
    for (uint32_t k = 0; k < count; k++)
        outcome |= (results[k] != 0) << k;
    return outcome;
}

int sc_litmus_prepare(sc_device *device, sc_scratch *scratch, uint32_t iterations, sc_litmus_device *litmus,
                      sc_error *error)
{
    *litmus = (sc_litmus_device){.device = device, .iterations = iterations};
    litmus->module = sc_device_load_builtin_ptx(device, "litmus", error);
    if (litmus->module < 0)
        return -1;
    /* After the instances' words, one more stride holds the rendezvous counter. */
    litmus->data = sc_workload_alloc(device, ((size_t)iterations + 1) * LITMUS_STRIDE * sizeof(uint32_t), error);
    litmus->results = sc_workload_alloc(device, (size_t)iterations * 4 * sizeof(uint32_t), error);
    litmus->host_results = sc_scratch_alloc(scratch, (size_t)iterations * 4 * sizeof(uint32_t));
    return litmus->data == 0 || litmus->results == 0 ? -1 : 0;
}

int sc_litmus_run(const sc_litmus_device *litmus, const sc_litmus_test *test, sc_litmus_mode mode,
                  sc_litmus_scope scope, uint32_t histogram[SC_LITMUS_OUTCOMES], sc_error *error)
{
    size_t data_bytes = ((size_t)litmus->iterations + 1) * LITMUS_STRIDE * sizeof(uint32_t);
    size_t result_bytes = (size_t)litmus->iterations * 4 * sizeof(uint32_t);
    sc_dim3 grid = {scope == SC_LITMUS_CTA ? 1 : test->roles, 1, 1};
    sc_dim3 block = {scope == SC_LITMUS_CTA ? WARP_LANES * test->roles : WARP_LANES, 1, 1};
    sc_kernel_arg args[] = {sc_arg_ptr(litmus->data), sc_arg_ptr(litmus->results), sc_arg_u32(litmus->iterations),
                            sc_arg_u32(mode | (litmus->rendezvous ? LITMUS_RENDEZVOUS : 0)), sc_arg_u32(scope)};
    if (sc_memset_device(litmus->device, litmus->data, 0, data_bytes, error) < 0 ||
        sc_memset_device(litmus->device, litmus->results, 0, result_bytes, error) < 0 ||
        sc_launch_kernel(litmus->device, litmus->module, test->kernel, grid, block, 0, args, 5, error) < 0 ||
        sc_memcpy_from_device(litmus->device, litmus->host_results, litmus->results, result_bytes, error) < 0)
        return -1;
    for (uint32_t i = 0; i < litmus->iterations; i++)
        histogram[outcome_of(litmus->host_results + 4 * i, test->results)]++;
    return 0;
}

/* ---- the workload ---- */

/* Outcome histograms of every variant. */
typedef uint32_t litmus_histograms[SC_LITMUS_TEST_COUNT][SC_LITMUS_MODE_COUNT][SC_LITMUS_SCOPE_COUNT]
                                  [SC_LITMUS_OUTCOMES];

static int litmus_on_device(sc_device *device, sc_scratch *scratch, uint32_t iterations, litmus_histograms counts,
                            sc_error *error)
{
    sc_litmus_device litmus;
    if (sc_litmus_prepare(device, scratch, iterations, &litmus, error) < 0)
        return -1;
    for (uint32_t t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        for (sc_litmus_mode mode = 0; mode < SC_LITMUS_MODE_COUNT; mode++)
            for (sc_litmus_scope scope = 0; scope < SC_LITMUS_SCOPE_COUNT; scope++)
                if (sc_litmus_runs_in(&sc_litmus_tests[t], mode) &&
                    sc_litmus_run(&litmus, &sc_litmus_tests[t], mode, scope, counts[t][mode][scope], error) < 0)
                    return -1;
    return 0;
}

/* Fails the check on the first variant showing a forbidden weak outcome. */
static bool find_forbidden(litmus_histograms counts, bool sequentially_consistent, uint32_t iterations,
                           sc_check_result *check)
{
    for (uint32_t t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        for (sc_litmus_mode mode = 0; mode < SC_LITMUS_MODE_COUNT; mode++)
            for (sc_litmus_scope scope = 0; scope < SC_LITMUS_SCOPE_COUNT; scope++) {
                const sc_litmus_test *test = &sc_litmus_tests[t];
                uint32_t seen = counts[t][mode][scope][test->weak_outcome];
                bool forbidden = sequentially_consistent || sc_litmus_ptx_forbids(test, mode);
                if (seen > 0 && forbidden) {
                    sc_check_fail(check, "%s/%s/%s: forbidden outcome %#x seen in %u of %u runs%s", test->name,
                                  sc_litmus_scope_names[scope], sc_litmus_mode_names[mode], test->weak_outcome, seen,
                                  iterations, sequentially_consistent ? " (sequential consistency)" : "");
                    return true;
                }
            }
    return false;
}

static int append_mp_histogram(char *detail, int used, size_t size, const uint32_t *mp, sc_litmus_mode mode)
{
    if (used >= (int)size)
        return used;
    return used + snprintf(detail + used, size - (size_t)used, "; MP/gpu/%s r0r1 00:%u 10:%u 01:%u 11:%u",
                           sc_litmus_mode_names[mode], mp[0], mp[1], mp[2], mp[3]);
}

static void describe_outcomes(litmus_histograms counts, uint32_t iterations, sc_check_result *check)
{
    uint32_t variants = 0;
    for (uint32_t t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        for (sc_litmus_mode mode = 0; mode < SC_LITMUS_MODE_COUNT; mode++)
            variants += sc_litmus_runs_in(&sc_litmus_tests[t], mode) ? SC_LITMUS_SCOPE_COUNT : 0;
    int used = snprintf(check->detail, sizeof check->detail, "ok: %u variants x %u runs; weak outcomes:", variants,
                        iterations);
    for (uint32_t t = 0; t < SC_LITMUS_TEST_COUNT && used < (int)sizeof check->detail; t++) {
        uint32_t weak = 0;
        for (sc_litmus_mode mode = 0; mode < SC_LITMUS_MODE_COUNT; mode++)
            for (sc_litmus_scope scope = 0; scope < SC_LITMUS_SCOPE_COUNT; scope++)
                weak += counts[t][mode][scope][sc_litmus_tests[t].weak_outcome];
        used += snprintf(check->detail + used, sizeof check->detail - (size_t)used, " %s %u", sc_litmus_tests[t].name,
                         weak);
    }
    used = append_mp_histogram(check->detail, used, sizeof check->detail, counts[0][SC_LITMUS_RELAXED][SC_LITMUS_GPU],
                               SC_LITMUS_RELAXED);
    append_mp_histogram(check->detail, used, sizeof check->detail, counts[0][SC_LITMUS_CACHED][SC_LITMUS_GPU],
                        SC_LITMUS_CACHED);
}

static int run_litmus(sc_device *device, const sc_workload_params *params, sc_check_result *check,
                      sc_error *error)
{
    uint32_t iterations = sc_size_pick(params->size, 64, 512, 2048, 2048);
    sc_scratch scratch = {0};
    litmus_histograms *counts = sc_scratch_alloc(&scratch, sizeof *counts);
    int status = litmus_on_device(device, &scratch, iterations, *counts, error);
    if (status == 0) {
        bool sequentially_consistent = params->sequentially_consistent || sc_device_sequentially_consistent(device);
        check->passed = true;
        if (!find_forbidden(*counts, sequentially_consistent, iterations, check))
            describe_outcomes(*counts, iterations, check);
    }
    sc_scratch_release(&scratch);
    return status;
}

const sc_workload sc_workload_litmus = {
    .name = "litmus",
    .description = "MP, SB, LB, IRIW, CoRR at CTA and GPU scope, relaxed / fenced / acquire-release; MP and SB with cached data",
    .behaviour = "memory-model conformance: forbidden outcomes must never appear",
    .run = run_litmus,
};
