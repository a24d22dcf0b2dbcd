/* test_litmus_timing.c — the MP litmus test on the detailed timing model (gtx480) over jitter
 * seeds 1..50, a fresh device per seed, at GPU scope: with acquire/release, and with the
 * consumer's data already cached but the flag polled with ld.acquire, the forbidden outcome (flag
 * seen, data old) never appears under wt or nol1; with the data cached and no acquire, the stale
 * outcome appears under wt for at least one seed (its non-coherent L1 still holds the old line)
 * and never under nol1 (every load reads the L2). Also checks that GPU scope runs producer and
 * consumer on different CUs and CTA scope on one, since the cached variants only mean something
 * across L1s.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "protocols/mechanism.h"
#include "session/run_timing.h"
#include "timing/timing_engine.h"
#include "workloads/litmus.h"

#define SEEDS 50
#define ITERATIONS 16
#define FLAG_AND_DATA 0x3   /* r0 = 1 (flag seen), r1 = 1 (new data) */

static const sc_litmus_test *mp_test(void)
{
    for (unsigned t = 0; t < SC_LITMUS_TEST_COUNT; t++)
        if (!strcmp(sc_litmus_tests[t].name, "MP"))
            return &sc_litmus_tests[t];
    fail_msg("no MP in the litmus table");
    return NULL;
}

/* One run of MP on a fresh gtx480 device under `mechanism` and jitter `seed`: adds the outcomes
 * to `histogram` and, if `busy_cus` is given, sets bit c for every CU that was not idle all run. */
static void run_mp(sc_config *config, const char *mechanism, uint64_t seed, sc_litmus_mode mode, sc_litmus_scope scope,
                   uint32_t histogram[SC_LITMUS_OUTCOMES], uint32_t *busy_cus)
{
    sc_error error = {{0}};
    void *engine;
    sc_device *device = run_timing_device(config, mechanism, seed, &engine, &error);
    if (!device)
        fail_msg("device: %s", error.message);
    sc_scratch scratch = {0};
    sc_litmus_device litmus;
    if (sc_litmus_prepare(device, &scratch, ITERATIONS, &litmus, &error) < 0 ||
        sc_litmus_run(&litmus, mp_test(), mode, scope, histogram, &error) < 0)
        fail_msg("MP/%s/%s under %s, seed %llu: %s", sc_litmus_scope_names[scope], sc_litmus_mode_names[mode],
                 mechanism, (unsigned long long)seed, error.message);
    if (busy_cus) {
        timing_report report;
        timing_engine_report(engine, &report);
        for (unsigned cu = 0; cu < report.cu_count && cu < 32; cu++)
            *busy_cus |= (uint32_t)(report.per_cu[cu].category[GSI_IDLE] < report.cycles) << cu;
    }
    sc_scratch_release(&scratch);
    sc_device_destroy(device);
}

/* MP at GPU scope under seeds 1..SEEDS: the summed histogram and the seeds showing the weak outcome. */
static unsigned mp_over_seeds(sc_config *config, const char *mechanism, sc_litmus_mode mode,
                              uint32_t histogram[SC_LITMUS_OUTCOMES])
{
    unsigned seeds_with_weak = 0;
    uint32_t weak = mp_test()->weak_outcome;
    memset(histogram, 0, SC_LITMUS_OUTCOMES * sizeof *histogram);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        uint32_t before = histogram[weak];
        run_mp(config, mechanism, seed, mode, SC_LITMUS_GPU, histogram, NULL);
        seeds_with_weak += histogram[weak] > before;
    }
    return seeds_with_weak;
}

/* Both mechanisms, both modes where the PTX model forbids MP's weak outcome with a flag that is
 * released and acquired: acqrel (each location read once) and cached-acq (the data line already
 * in the L1, so only the acquire's invalidation keeps wt correct). */
static void test_acquire_never_forbidden(void **state)
{
    static const char *const mechanisms[] = {"wt", "nol1"};
    static const sc_litmus_mode modes[] = {SC_LITMUS_ACQREL, SC_LITMUS_CACHED_ACQUIRE};
    for (size_t m = 0; m < sizeof mechanisms / sizeof mechanisms[0]; m++)
        for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
            uint32_t histogram[SC_LITMUS_OUTCOMES];
            unsigned seeds = mp_over_seeds(*state, mechanisms[m], modes[k], histogram);
            if (seeds)
                fail_msg("MP/gpu/%s under %s: forbidden outcome in %u of %d seeds", sc_litmus_mode_names[modes[k]],
                         mechanisms[m], seeds, SEEDS);
            assert_true(histogram[FLAG_AND_DATA] > 0);   /* the consumer does see the flag */
            assert_true(sc_litmus_ptx_forbids(mp_test(), modes[k]));
        }
}

static void test_cached_stale_under_wt_only(void **state)
{
    uint32_t histogram[SC_LITMUS_OUTCOMES];
    unsigned wt_seeds = mp_over_seeds(*state, "wt", SC_LITMUS_CACHED, histogram);
    if (wt_seeds == 0)
        fail_msg("MP/gpu/cached under wt: no stale read in %d seeds", SEEDS);
    unsigned nol1_seeds = mp_over_seeds(*state, "nol1", SC_LITMUS_CACHED, histogram);
    if (nol1_seeds)
        fail_msg("MP/gpu/cached under nol1: stale read in %u of %d seeds", nol1_seeds, SEEDS);
    assert_true(histogram[FLAG_AND_DATA] > 0);
    assert_false(sc_litmus_ptx_forbids(mp_test(), SC_LITMUS_CACHED));   /* the workload must not fail on it */
}

static void test_scopes_place_roles(void **state)
{
    uint32_t histogram[SC_LITMUS_OUTCOMES] = {0}, gpu_cus = 0, cta_cus = 0;
    run_mp(*state, "wt", 1, SC_LITMUS_CACHED, SC_LITMUS_GPU, histogram, &gpu_cus);
    run_mp(*state, "wt", 1, SC_LITMUS_CACHED, SC_LITMUS_CTA, histogram, &cta_cus);
    assert_int_equal(gpu_cus, 0x3);
    assert_int_equal(cta_cus, 0x1);
}

static int load_config(void **state)
{
    sc_error error = {{0}};
    *state = sc_config_load("gtx480", NULL, NULL, 0, &error);
    if (!*state)
        fail_msg("gtx480: %s", error.message);
    return 0;
}

static int free_config(void **state)
{
    sc_config_free(*state);
    return 0;
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_acquire_never_forbidden),
        cmocka_unit_test(test_cached_stale_under_wt_only),
        cmocka_unit_test(test_scopes_place_roles),
    };
    return cmocka_run_group_tests(tests, load_config, free_config);
}
