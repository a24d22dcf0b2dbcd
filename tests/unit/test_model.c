/* test_model.c — the fast layer: stack distances and reuse histograms against a direct LRU
 * simulation (fully associative: exact at bucket boundaries), epoch and invalidation crossings,
 * profile JSON round trips, parameter files, and the models' invariants (stall categories sum
 * to the cycles, no-L1 has no L1 hits, evaluation is deterministic), where the memory side
 * serves L2 misses, the L2's write-backs, the profile's record of host writes, the bursts' rounds
 * on the L2 banks, the L2 and L3 banks the CUs' lines in flight use, the store buffers' flush at kernel end, what qr's releases, barriers and
 * atomics cost, mesi's write-through invalidations, the gaps' shortfall, the SC core's order,
 * DeNovo's registrations that do not wait for DRAM under a write-through L2, rcc-wo's own-line
 * hold of the load/store unit, the RCC models' reuses a host write drops (rcc.host_write_drop) and
 * the copies the L2's turnover expires,
 * the lease protocols' copies that lapse with time, the ownership protocols' transfers of a hot
 * line, and the local-memory organisations: the DMA engine's transfers, the stash's first
 * touches and dirty words, the banked scratchpad's conflicts, and the DRAM stream's row locality
 * and read/write turnarounds, and a read's lines that miss together and wait for each other at
 * the CU's port (load_misses.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/random.h"
#include "model/burst_rounds.h"
#include "model/dram_rows.h"
#include "model/dram_turnarounds.h"
#include "model/inflight_banks.h"
#include "model/model.h"
#include "model/model_core.h"
#include "model/fill_tags.h"
#include "model/group_memo.h"
#include "model/load_misses.h"
#include "model/oldest_first.h"
#include "model/set_lru.h"
#include "model/stack_distance.h"
#include "timing/memory_system.h"
#include "protocols/common/lease_model.h"
#include "protocols/common/ownership_model.h"
#include "protocols/common/rcc_model.h"
#include "protocols/mechanism.h"

/* Hits of a fully-associative LRU cache of `capacity` lines on `stream`, simulated directly. */
static double lru_hits(const uint64_t *stream, int length, int capacity)
{
    uint64_t *stack = calloc((size_t)capacity, sizeof *stack);
    int used = 0;
    double hits = 0;
    for (int i = 0; i < length; i++) {
        int found = -1;
        for (int j = 0; j < used; j++)
            if (stack[j] == stream[i])
                found = j;
        if (found >= 0)
            hits++;
        int from = found >= 0 ? found : (used < capacity ? used++ : capacity - 1);
        memmove(stack + 1, stack, (size_t)from * sizeof *stack);
        stack[0] = stream[i];
    }
    free(stack);
    return hits;
}

static void histogram_matches_lru_simulation(void **state)
{
    enum { LENGTH = 20000 };
    uint64_t *stream = malloc(LENGTH * sizeof *stream), seed = 7;
    stack_distance stack;
    stack_distance_init(&stack);
    reuse_histogram histogram = {0};
    for (int i = 0; i < LENGTH; i++) {
        /* A mix of a hot set, a medium set and a wide one, so distances spread over many octaves. */
        uint64_t r = sc_splitmix64(&seed);
        stream[i] = r % 3 == 0 ? r % 16 : r % 3 == 1 ? 100 + r % 300 : 1000 + r % 3000;
        stack_reuse reuse = stack_distance_access(&stack, stream[i], 0, NULL);
        if (reuse.distance == STACK_DISTANCE_COLD)
            histogram.cold++;
        else
            reuse_add(&histogram, reuse.distance, 1);
    }
    reuse_summary summary;
    reuse_summarize(&histogram, &summary);
    assert_true(summary.total == LENGTH);
    assert_true(stack_distance_footprint(&stack) <= 4016);
    const int capacities[] = {1, 5, 8, 12, 16, 48, 96, 384, 1024, 3072};
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
        double simulated = lru_hits(stream, LENGTH, capacities[c]);
        double predicted = reuse_expected_hits(&summary, (uint64_t)capacities[c]);
        assert_float_equal(predicted, simulated, 1e-9);
    }
    stack_distance_release(&stack);
    free(stream);
}

static void buckets_tile_the_distances(void **state)
{
    for (int b = 0; b + 1 < REUSE_BUCKETS; b++) {
        assert_true(reuse_bucket_lower(b) < reuse_bucket_upper(b));
        assert_int_equal(reuse_bucket_upper(b), reuse_bucket_lower(b + 1));
        assert_int_equal(reuse_bucket_of(reuse_bucket_lower(b)), b);
        assert_int_equal(reuse_bucket_of(reuse_bucket_upper(b) - 1), b);
    }
    assert_int_equal(reuse_bucket_lower(reuse_bucket_of(384)), 384);   /* 48 KiB of 128 B lines: a boundary */
}

/* 400 random distances, a seventh of them exact (below REUSE_EXACT), the rest up to 70,000 lines,
 * with counts 1 to 5, and 3 cold accesses. */
static reuse_histogram random_reuses(void)
{
    reuse_histogram histogram = {0};
    uint64_t seed = 11;
    for (int i = 0; i < 400; i++) {
        uint64_t r = sc_splitmix64(&seed);
        reuse_add(&histogram, r % 7 == 0 ? r % 8 : (r >> 8) % 70000, 1.0 + (double)(r % 5));
    }
    histogram.cold = 3;
    return histogram;
}

/* The summary's hits at any capacity are every bucket below it in full and the share of the
 * bucket holding it (uniform inside a bucket), summed here bucket by bucket over the histogram. */
static void summary_hits_interpolate_every_capacity(void **state)
{
    reuse_histogram histogram = random_reuses();
    reuse_summary summary;
    reuse_summarize(&histogram, &summary);
    assert_true(summary.size > 20 && summary.size < REUSE_BUCKETS);
    /* Every 13th capacity up to past the largest distance (inside buckets and on their bounds). */
    for (uint64_t lines = 0; lines < 80000; lines += 13) {
        double expected = 0;
        for (int b = 0; b < REUSE_BUCKETS; b++) {
            uint64_t lower = reuse_bucket_lower(b), upper = reuse_bucket_upper(b);
            double share = lines >= upper ? 1.0 : lines <= lower ? 0.0 : (double)(lines - lower) / (double)(upper - lower);
            expected += histogram.count[b] * share;
        }
        assert_float_equal(reuse_expected_hits(&summary, lines), expected, 1e-9 * (1 + expected));
    }
    assert_float_equal(reuse_expected_hits(&summary, UINT64_MAX - 1), summary.total - histogram.cold, 1e-9);
    reuse_summary empty;
    reuse_summarize(&(reuse_histogram){0}, &empty);
    assert_true(reuse_expected_hits(&empty, 1000) == 0.0);
}

static void crossings_are_reported(void **state)
{
    stack_distance stack;
    stack_distance_init(&stack);
    assert_true(stack_distance_access(&stack, 1, 0, NULL).distance == STACK_DISTANCE_COLD);
    stack_distance_access(&stack, 2, 0, NULL);
    stack_reuse same_epoch = stack_distance_access(&stack, 1, 0, NULL);
    assert_int_equal(same_epoch.distance, 1);
    assert_false(same_epoch.crossed);
    stack_reuse next_epoch = stack_distance_access(&stack, 2, 1, NULL);   /* an acquire came between */
    assert_true(next_epoch.crossed);
    stack_distance_invalidate(&stack, 1);                                /* an atomic dropped line 1 */
    assert_true(stack_distance_access(&stack, 1, 1, NULL).crossed);
    assert_false(stack_distance_access(&stack, 1, 1, NULL).crossed);
    stack_distance_release(&stack);
}

/* A load of `line` in `epoch` on tags filled at once: whether it hit; a miss installs the line. */
static bool load_filled_at_once(set_lru *cache, uint64_t line, uint32_t epoch)
{
    if (set_lru_lookup(cache, line, epoch))
        return true;
    set_lru_fill(cache, line, epoch);
    return false;
}

/* A cyclic working set one line larger than a 4-way cache: the fully associative stack puts every
 * reuse at the cache's lines (all miss), the set-associative tags keep every set but the one
 * holding five lines; an acquire's new epoch and an atomic's invalidation empty them as the
 * detailed L1's flash invalidation and drop do. */
static void set_associative_tags_keep_sets_that_fit(void **state)
{
    (void)state;
    set_lru cache;
    assert_int_equal(set_lru_init(&cache, 64, 4), 0);
    stack_distance stack;
    stack_distance_init(&stack);
    int set_misses = 0, stack_misses = 0;
    for (int round = 0; round < 10; round++)
        for (uint64_t line = 0; line <= 64; line++) {
            set_misses += !load_filled_at_once(&cache, line, 0);
            stack_reuse reuse = stack_distance_access(&stack, line, 0, NULL);
            stack_misses += reuse.distance == STACK_DISTANCE_COLD || reuse.distance >= 64;
        }
    assert_int_equal(stack_misses, 650);
    assert_int_equal(set_misses, 65 + 9 * 5);   /* the first touches, then set 0's five lines */
    assert_true(load_filled_at_once(&cache, 1, 0));
    assert_false(load_filled_at_once(&cache, 1, 1));   /* an acquire came between */
    assert_true(load_filled_at_once(&cache, 1, 1));
    set_lru_invalidate(&cache, 1);
    assert_false(load_filled_at_once(&cache, 1, 1));
    set_lru_free(&cache);
    stack_distance_release(&stack);
}

static model_profile *profile_set(const char *system, const char *workload, const char *size, const char **sets,
                                  int set_count, sc_config **config);

/* A profile's weak loads into the L1, those its configured L1 misses, and the first touches. */
typedef struct l1_load_counts {
    double loads, misses, cold;
} l1_load_counts;

/* The L1 load counts of a built-in workload's small profile on `system` with `sets` applied. */
static l1_load_counts profile_l1_counts(const char *system, const char *workload, const char **sets, int set_count)
{
    sc_config *config;
    model_profile *profile = profile_set(system, workload, "small", sets, set_count, &config);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    l1_load_counts counts = {0, 0, 0};
    for (int k = 0; k < profile->kernel_count; k++) {
        const model_kernel_profile *kernel = &profile->kernels[k];
        counts.loads += kernel->l1_summary.total;
        counts.misses += kernel->l1_summary.total - model_l1_hits(&kernel->l1_summary, &point);
        counts.cold += kernel->l1_loads.cold;
    }
    profile_free(profile);
    sc_config_free(config);
    return counts;
}

/* kmeans's two CTAs a CU at an 8 KiB, 4-way L1 (rcc-gpu, 10 CUs) reuse 64 point lines and a
 * centroid line in turn: the detailed L1 misses 2,937 loads (2,580 of them first touches), the
 * fully associative stack 28,640; the profile's misses at the configured L1 are the
 * set-associative L1's. */
static void profile_hits_are_the_set_associative_l1s(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.cu_count=10", "l1.size=8KiB"};
    l1_load_counts counts = profile_l1_counts("rcc-gpu", "kmeans", sets, 2);
    assert_true(counts.loads > 100000);
    assert_true(counts.misses < 3 * counts.cold);
}

/* Two ways of one set: a miss's line takes a way only when its fill returns, so the lines the set
 * holds stay hits while it is in flight and a load of it then merges; the victim is the least
 * recently used way at the fill; a fill after an acquire or after the CU's atomic on its line is
 * not installed. */
static void fill_tags_install_when_the_fill_returns(void **state)
{
    (void)state;
    fill_tags cache;
    uint64_t fill_at = 0;
    enum { A = 0, B = 1, C = 2, D = 3, E = 4 };
    assert_int_equal(fill_tags_init(&cache, 2, 2, 4), 0);
    assert_int_equal(fill_tags_load(&cache, A, 0, 0, &fill_at), FILL_TAGS_MISS);
    fill_tags_miss(&cache, A, 0, 10);
    assert_int_equal(fill_tags_load(&cache, B, 0, 1, &fill_at), FILL_TAGS_MISS);
    fill_tags_miss(&cache, B, 0, 11);
    assert_int_equal(fill_tags_load(&cache, A, 0, 5, &fill_at), FILL_TAGS_MERGE);
    assert_int_equal(fill_at, 10);
    assert_int_equal(fill_tags_load(&cache, A, 0, 12, &fill_at), FILL_TAGS_HIT);
    assert_int_equal(fill_tags_load(&cache, B, 0, 13, &fill_at), FILL_TAGS_HIT);
    assert_int_equal(fill_tags_load(&cache, C, 0, 14, &fill_at), FILL_TAGS_MISS);
    fill_tags_miss(&cache, C, 0, 114);
    assert_int_equal(fill_tags_load(&cache, A, 0, 20, &fill_at), FILL_TAGS_HIT);   /* filled at issue: evicted */
    assert_int_equal(fill_tags_load(&cache, C, 0, 21, &fill_at), FILL_TAGS_MERGE);
    assert_int_equal(fill_tags_load(&cache, C, 0, 120, &fill_at), FILL_TAGS_HIT);
    assert_int_equal(fill_tags_load(&cache, A, 0, 121, &fill_at), FILL_TAGS_HIT);   /* B was the LRU at 114 */
    assert_int_equal(fill_tags_load(&cache, B, 0, 122, &fill_at), FILL_TAGS_MISS);
    fill_tags_miss(&cache, D, 0, 130);
    fill_tags_invalidate(&cache, D);
    assert_int_equal(fill_tags_load(&cache, D, 0, 140, &fill_at), FILL_TAGS_MISS);
    fill_tags_miss(&cache, E, 0, 150);
    assert_int_equal(fill_tags_load(&cache, E, 1, 160, &fill_at), FILL_TAGS_MISS);   /* an acquire came between */
    fill_tags_free(&cache);
}

/* stencil's rows crowd a few sets of a CU's L1 (each CU holds a column of CTAs); a miss installed
 * at issue evicts a line the CU's other warps still reuse while it is in flight, the detailed L1
 * installs it when the fill returns. Detailed wt runs miss 50% of the L1 loads on gtx480 at a
 * 12 KiB L1 (27,774 of 55,168) and 63% on sahc-apu at 8 KiB (39,648 of 63,360); the profile's
 * tags filled at issue missed 78% and 89%, filled at the fill's return 54% and 60%. */
static void profile_l1_fills_when_the_data_returns(void **state)
{
    (void)state;
    const char *gtx480[] = {"l1.size=12KiB"}, *sahc_apu[] = {"l1.size=8KiB"};
    l1_load_counts on_gtx480 = profile_l1_counts("gtx480", "stencil", gtx480, 1);
    l1_load_counts on_sahc_apu = profile_l1_counts("sahc-apu", "stencil", sahc_apu, 1);
    assert_true(on_gtx480.misses < 0.65 * on_gtx480.loads);
    assert_true(on_sahc_apu.misses < 0.75 * on_sahc_apu.loads);
}

/* A profile of a built-in workload at a size on a system preset with `sets` (key=value) applied,
 * taken without a database. */
static model_profile *profile_set(const char *system, const char *workload, const char *size, const char **sets,
                                  int set_count, sc_config **config)
{
    sc_error error = {{0}};
    *config = sc_config_load(system, NULL, sets, set_count, &error);
    assert_non_null(*config);
    sc_workload_ref ref;
    assert_int_equal(sc_workload_ref_resolve(workload, NULL, &ref, &error), 0);
    model_profile *profile = model_profile_obtain(NULL, &ref, size, 1, *config, &error);
    if (!profile)
        fail_msg("%s", error.message);
    return profile;
}

static model_profile *profile_sized(const char *system, const char *workload, const char *size, sc_config **config)
{
    return profile_set(system, workload, size, NULL, 0, config);
}

static model_profile *profile_on(const char *system, const char *workload, sc_config **config)
{
    return profile_sized(system, workload, "tiny", config);
}

static model_profile *profile_of(const char *workload, sc_config **config)
{
    return profile_on("gtx480", workload, config);
}

/* A workload's profile at a size on a preset, the preset's model point and wt's initial parameters. */
static model_profile *wt_profile_sized(const char *system, const char *workload, const char *size, sc_config **config,
                                       model_point *point, model_param_spec *spec)
{
    model_profile *profile = profile_sized(system, workload, size, config);
    sc_error error = {{0}};
    assert_int_equal(model_point_from_config(*config, point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find("wt"), *config, point, &error), 0);
    assert_int_equal(model_param_spec_load(sc_mechanism_find("wt")->params_file, spec, &error), 0);
    return profile;
}

/* A workload's tiny profile on gtx480, the preset's model point and wt's initial parameters. */
static model_profile *wt_profile_of(const char *workload, sc_config **config, model_point *point, model_param_spec *spec)
{
    return wt_profile_sized("gtx480", workload, "tiny", config, point, spec);
}

/* A memo finds a value only in the setting and under the key it was stored with; past its
 * maximum it forgets its values (then its settings) and goes on storing. */
static void group_memo_finds_a_key_in_its_setting(void **state)
{
    (void)state;
    group_memo *memo = group_memo_create();
    assert_non_null(memo);
    double setting_a[4] = {1, 2, 3, 4}, setting_b[4] = {1, 2, 3, 5};
    int a = group_memo_setting(memo, setting_a, sizeof setting_a), b = group_memo_setting(memo, setting_b, sizeof setting_b);
    assert_int_not_equal(a, b);
    assert_int_equal(group_memo_setting(memo, setting_a, sizeof setting_a), a);
    uint64_t key[6] = {7, 8, 9, 10, 11, 12};
    assert_null(group_memo_find(memo, a, key, sizeof key));
    double *value = group_memo_store(memo, a, key, sizeof key, 3 * sizeof(double));
    assert_non_null(value);
    value[2] = 42;
    assert_null(group_memo_find(memo, b, key, sizeof key));
    double *found = group_memo_find(memo, a, key, sizeof key);
    assert_non_null(found);
    assert_float_equal(found[2], 42, 0);
    key[5]++;
    assert_null(group_memo_find(memo, a, key, sizeof key));
    /* 3,000 keys past its values' maximum: the first ones forgotten, the last ones found. */
    int keys = GROUP_MEMO_MAX_VALUES + 3000;
    for (int i = 0; i < keys; i++) {
        key[0] = (uint64_t)i;
        double *slot = group_memo_store(memo, b, key, sizeof key, 3 * sizeof(double));
        assert_non_null(slot);
        slot[0] = i;
    }
    key[0] = 0;
    assert_null(group_memo_find(memo, b, key, sizeof key));
    for (int i = keys - 3000; i < keys; i++) {
        key[0] = (uint64_t)i;
        found = group_memo_find(memo, b, key, sizeof key);
        assert_non_null(found);
        assert_float_equal(found[0], i, 0);
    }
    assert_true(group_memo_found(memo) >= 3001);
    /* Past its settings' maximum it forgets everything. */
    for (int i = 0; i < GROUP_MEMO_MAX_SETTINGS; i++) {
        setting_b[0] = 100 + i;
        group_memo_setting(memo, setting_b, sizeof setting_b);
    }
    key[0] = (uint64_t)keys - 1;
    assert_null(group_memo_find(memo, b, key, sizeof key));
    assert_int_equal(group_memo_setting(memo, setting_a, sizeof setting_a), 2);   /* after the last two */
    group_memo_clear(memo);
    assert_int_equal(group_memo_setting(memo, setting_a, sizeof setting_a), 0);
    assert_null(group_memo_attach(memo));
    assert_ptr_equal(group_memo_attached(), memo);
    assert_ptr_equal(group_memo_attach(NULL), memo);
    group_memo_free(memo);
}

/* A sweep's memo changes no prediction, byte for byte: lud (9 groups), sort on qr-apu (a
 * write-through L2: the last group's backlog) and implicit-dma (DMA reads), under wt and under
 * tc-strong (the timed path: several solves a group), each at 128 points (the L1 at 8 sizes, the
 * L2 from the preset's to 1/128 of it, two L2 latencies; the issue spread, which moves only the GSI
 * split, at two values) evaluated without the memo and with it. implicit-dma's DMA reads are given
 * a reuse distance of a quarter of the preset's L2, so that the L2's size moves them (its chunks
 * are otherwise read once: DRAM reads at any L2) while its demand stays the same (it has no
 * global accesses): a memo keyed without them would give every L2 the first one's. */
static void a_sweeps_memo_changes_no_prediction(void **state)
{
    (void)state;
    const char *systems[] = {"gtx480", "qr-apu", "gsi"}, *workloads[] = {"lud", "sort", "implicit-dma"};
    const char *mechanisms[] = {"wt", "tc-strong"};
    enum { POINTS = 128 };
    for (int w = 0; w < 3; w++) {
        sc_config *config;
        model_profile *profile = profile_on(systems[w], workloads[w], &config);
        sc_error config_error = {{0}};
        model_point preset;
        assert_int_equal(model_point_from_config(config, &preset, &config_error), 0);
        for (int g = 0; g < profile->kernel_count; g++) {
            model_kernel_profile *k = &profile->kernels[g];
            if (k->dma_lines <= 0)
                continue;
            reuse_histogram reads = {0};
            reuse_add(&reads, (uint64_t)(preset.l2_lines / 4), k->dma_lines);
            reuse_summarize(&reads, &k->dma_read_summary);
        }
        for (int m = 0; m < 2; m++) {
            const model_mechanism *mechanism = model_mechanism_find(mechanisms[m]);
            sc_error error = {{0}};
            model_point base, points[POINTS];
            model_param_spec spec;
            model_params params[2];
            assert_int_equal(model_point_from_config(config, &base, &error), 0);
            assert_int_equal(model_point_of_mechanism(mechanism, config, &base, &error), 0);
            assert_int_equal(model_param_spec_load(sc_mechanism_find(mechanisms[m])->params_file, &spec, &error), 0);
            params[0] = params[1] = spec.initial;
            params[1].value[MODEL_ISSUE_SPREAD] = 0.5 * (spec.initial.value[MODEL_ISSUE_SPREAD] + 1.0);
            for (int i = 0; i < POINTS; i++) {
                points[i] = base;
                points[i].l1_lines = base.l1_lines * (0.25 + 0.25 * (i % 8));
                points[i].l2_lines = floor(base.l2_lines / (double)(1 << (i / 8 % 8)));
                points[i].l2_latency = base.l2_latency * (i < POINTS / 2 ? 1.0 : 1.5);
            }
            model_prediction alone[POINTS], swept;
            for (int i = 0; i < POINTS; i++)
                mechanism->evaluate(profile, &points[i], &params[i % 3 == 0], &alone[i]);
            group_memo *memo = group_memo_create();
            assert_null(group_memo_attach(memo));
            for (int i = 0; i < POINTS; i++) {
                mechanism->evaluate(profile, &points[i], &params[i % 3 == 0], &swept);
                assert_memory_equal(&swept, &alone[i], sizeof swept);
            }
            assert_ptr_equal(group_memo_attach(NULL), memo);
            assert_true(group_memo_found(memo) > 0);
            group_memo_free(memo);
        }
        profile_free(profile);
        sc_config_free(config);
    }
}

static void stalls_sum_to_cycles(void **state)
{
    const char *workloads[] = {"vecadd", "reduction", "histogram", "matmul"};
    model_param_spec spec;
    sc_error error = {{0}};
    for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++) {
        sc_config *config;
        model_profile *profile = profile_of(workloads[w], &config);
        model_point shared;
        assert_int_equal(model_point_from_config(config, &shared, &error), 0);
        const char *mechanisms[] = {"wt", "nol1", "rfo", "qr"};
        for (int m = 0; m < 4; m++) {
            model_point point = shared;
            assert_int_equal(model_point_of_mechanism(model_mechanism_find(mechanisms[m]), config, &point, &error), 0);
            assert_int_equal(model_param_spec_load(sc_mechanism_find(mechanisms[m])->params_file, &spec, &error), 0);
            model_prediction prediction, again;
            model_mechanism_find(mechanisms[m])->evaluate(profile, &point, &spec.initial, &prediction);
            model_mechanism_find(mechanisms[m])->evaluate(profile, &point, &spec.initial, &again);
            assert_memory_equal(&prediction, &again, sizeof prediction);
            double sum = 0;
            for (int c = 0; c < GSI_CATEGORY_COUNT; c++) {
                assert_true(prediction.stalls[c] >= -1e-9 * prediction.cycles);
                sum += prediction.stalls[c];
            }
            assert_true(prediction.cycles > 0);
            assert_float_equal(sum, prediction.cycles, 1e-9 * prediction.cycles);
            if (m == 1)
                assert_float_equal(prediction.l1_hits, 0, 0);
        }
        profile_free(profile);
        sc_config_free(config);
    }
}

/* Evaluates one mechanism's model at the preset point with its initial parameters. */
static model_prediction predict(const char *mechanism, const model_profile *profile, const sc_config *config)
{
    sc_error error = {{0}};
    model_point point;
    model_param_spec spec;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find(mechanism), config, &point, &error), 0);
    assert_int_equal(model_param_spec_load(sc_mechanism_find(mechanism)->params_file, &spec, &error), 0);
    model_prediction prediction;
    model_mechanism_find(mechanism)->evaluate(profile, &point, &spec.initial, &prediction);
    return prediction;
}

/* histogram's second kernel re-reads the chunk the first one read, on the same CUs (16 CTAs on 8
 * CUs: the round-robin placement comes back to CU 0 at every launch): wt's L1 loses those lines
 * at the kernel start, qr's keeps them. Each CU's part of the chunk is the L1's size (256 lines),
 * and rfo's L1 also holds the bins' line its atomics' GetMs install, so the chunk no longer fits
 * and every re-read misses (detailed, rfo, small: 0 L1 hits of 16,384 load lines); rfo also
 * fetches every written line for ownership and sends a Put for every line it replaces, so more
 * bytes cross the NoC. */
static void kept_l1_models(void **state)
{
    sc_config *config;
    model_profile *profile = profile_sized("qr-apu", "histogram", "small", &config);
    model_prediction wt = predict("wt", profile, config), rfo = predict("rfo", profile, config),
                     qr = predict("qr", profile, config);
    assert_true(qr.l1_hits > wt.l1_hits);
    assert_true(rfo.l1_hits < 0.01 * qr.l1_hits);
    assert_true(rfo.noc_bytes_to_cus + rfo.noc_bytes_from_cus > qr.noc_bytes_to_cus + qr.noc_bytes_from_cus);
    profile_free(profile);
    sc_config_free(config);
}

/* stencil's 64 CTAs on gtx480 (4 at once per CU): at 16 CUs every CTA fits at once and each launch
 * places CTA i on CU i, so qr's rL1 keeps the lines a CTA read in the launch before (the power
 * map); at 8 CUs the later CTAs go where a slot frees first and the next launch starts after
 * the last of them, so the reuses across a kernel start miss, as wt's do (detailed, small, 48 KiB:
 * 33,709 L1 hits and merges under qr, 33,351 under wt; the stacks kept 37,876). */
static void qr_loses_kernel_crossing_reuses_in_later_rounds(void **state)
{
    (void)state;
    const char *eight[] = {"gpu.cu_count=8"}, *sixteen[] = {"gpu.cu_count=16"};
    sc_config *config;
    model_profile *profile = profile_set("gtx480", "stencil", "small", eight, 1, &config);
    model_prediction wt = predict("wt", profile, config), qr = predict("qr", profile, config);
    assert_float_equal(qr.l1_hits, wt.l1_hits, 1e-9 * wt.l1_hits);
    profile_free(profile);
    sc_config_free(config);
    profile = profile_set("gtx480", "stencil", "small", sixteen, 1, &config);
    wt = predict("wt", profile, config);
    qr = predict("qr", profile, config);
    assert_true(qr.l1_hits > 1.1 * wt.l1_hits);
    profile_free(profile);
    sc_config_free(config);
}

/* vecadd's inputs are copied in by the host, so on qr-apu the CPU cluster owns them and answers
 * the GPU's first reads under every mechanism; gtx480 has no CPU cluster and no L3. */
static void host_data_comes_from_the_cpu(void **state)
{
    sc_config *apu_config, *gpu_config;
    model_profile *apu = profile_on("qr-apu", "vecadd", &apu_config), *gpu = profile_on("gtx480", "vecadd", &gpu_config);
    const char *mechanisms[] = {"wt", "nol1", "rfo", "qr"};
    for (int m = 0; m < 4; m++) {
        model_prediction on_apu = predict(mechanisms[m], apu, apu_config), on_gpu = predict(mechanisms[m], gpu, gpu_config);
        assert_true(on_apu.cpu_probe_hits > 0);
        assert_true(on_apu.cpu_probe_hits <= on_apu.l2_misses);
        assert_float_equal(on_gpu.cpu_probe_hits + on_gpu.l3_hits + on_gpu.l3_misses, 0, 0);
    }
    profile_free(apu);
    profile_free(gpu);
    sc_config_free(apu_config);
    sc_config_free(gpu_config);
}

/* sort re-reads in every launch what the previous launch stored: under qr the wL2 evictions
 * invalidated the rL2's copies, so those reads go to the memory side, where the L3 holds the
 * lines an earlier read fetched; wt's write-through L2 keeps its copies. */
static void qr_rereads_written_lines_from_the_l3(void **state)
{
    sc_config *config;
    model_profile *profile = profile_sized("qr-apu", "sort", "small", &config);
    model_prediction wt = predict("wt", profile, config), qr = predict("qr", profile, config);
    assert_true(qr.l3_hits > 0);
    assert_true(qr.l3_hits > wt.l3_hits);
    profile_free(profile);
    sc_config_free(config);
}

/* qr's releases: under gpu.barrier_release_scope global matmul's barriers are releases (a marker
 * batch to every bank, waited for; at most one per warp, as each warp stores once) and cost more
 * than under cta; reduction's warps store nothing, so its barriers cost nothing more; a
 * longer marker latency (directory.latency) lengthens every release, the kernel end's too, and
 * the waits are synchronisation; the barriers' markers and acknowledgements cross the NoC.
 * histogram's atomics are written through to DRAM beside the written lines. */
static void qr_releases_barriers_and_atomics_cost(void **state)
{
    sc_config *config;
    sc_error error = {{0}};
    model_profile *profile = profile_on("qr-apu", "reduction", &config);
    model_prediction plain = predict("qr", profile, config);
    assert_int_equal(sc_config_set(config, "gpu.barrier_release_scope", "cta", &error), 0);
    assert_float_equal(predict("qr", profile, config).cycles, plain.cycles, 1e-9 * plain.cycles);
    profile_free(profile);
    sc_config_free(config);

    profile = profile_on("qr-apu", "matmul", &config);
    assert_int_equal(sc_config_set(config, "gpu.barrier_release_scope", "global", &error), 0);
    model_prediction global = predict("qr", profile, config);
    assert_int_equal(sc_config_set(config, "gpu.barrier_release_scope", "cta", &error), 0);
    model_prediction cta = predict("qr", profile, config);
    assert_true(global.cycles > cta.cycles);
    assert_true(global.stalls[GSI_SYNC] > cta.stalls[GSI_SYNC]);
    assert_true(global.noc_bytes_from_cus > cta.noc_bytes_from_cus);   /* the barriers' markers */
    assert_true(global.noc_bytes_to_cus > cta.noc_bytes_to_cus);       /* and their acknowledgements */
    assert_int_equal(sc_config_set(config, "directory.latency", "100", &error), 0);
    model_prediction slow = predict("qr", profile, config);
    assert_true(slow.cycles > cta.cycles);
    assert_true(slow.stalls[GSI_SYNC] > cta.stalls[GSI_SYNC]);
    profile_free(profile);
    sc_config_free(config);

    profile = profile_sized("qr-apu", "histogram", "small", &config);
    model_prediction qr = predict("qr", profile, config);
    double atomic_lines = 0, written_lines = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        const model_kernel_profile *kernel = &profile->kernels[k];
        atomic_lines += kernel->lines[MODEL_ATOMIC];
        written_lines += fmin(kernel->lines[MODEL_STORE] + kernel->lines[MODEL_STORE_STRONG], kernel->written_lines);
    }
    assert_true(atomic_lines > 0);
    assert_float_equal(qr.dram_write_bytes, (written_lines + atomic_lines) * profile->line_bytes, 1e-6);
    profile_free(profile);
    sc_config_free(config);
}

/* qr's global barrier is one release of the work-group when its last warp arrives
 * (gpu.barrier_release_granularity work_group, U10's default): backprop's work-groups, whose warps
 * store between barriers, send one marker batch per barrier where under wavefront each warp sent
 * its own, so fewer markers and acknowledgements cross the NoC; under scope cta no barrier sends
 * any. */
static void qr_barrier_releases_once_per_work_group(void **state)
{
    sc_config *config;
    sc_error error = {{0}};
    model_profile *profile = profile_on("qr-apu", "backprop", &config);
    assert_int_equal(sc_config_set(config, "gpu.barrier_release_granularity", "work_group", &error), 0);
    model_prediction group = predict("qr", profile, config);
    assert_int_equal(sc_config_set(config, "gpu.barrier_release_granularity", "wavefront", &error), 0);
    model_prediction wavefront = predict("qr", profile, config);
    assert_int_equal(sc_config_set(config, "gpu.barrier_release_scope", "cta", &error), 0);
    model_prediction cta = predict("qr", profile, config);
    assert_true(wavefront.noc_bytes_from_cus > group.noc_bytes_from_cus);   /* the barriers' markers */
    assert_true(wavefront.noc_bytes_to_cus > group.noc_bytes_to_cus);       /* and their acknowledgements */
    assert_true(group.noc_bytes_from_cus > cta.noc_bytes_from_cus);
    assert_true(group.stalls[GSI_SYNC] > cta.stalls[GSI_SYNC]);             /* the warps wait for it */
    profile_free(profile);
    sc_config_free(config);
}

/* histogram's host copies a new chunk into the same staging buffer before each pair of launches:
 * the L1 reuses across those copies are recorded (the L1s of mechanisms without a directory are
 * flash-invalidated then), the reuses of the second kernel of a pair are not. */
static void host_writes_are_recorded(void **state)
{
    sc_config *config;
    model_profile *profile = profile_sized("qr-apu", "histogram", "small", &config);
    double flushed = 0, own_line = 0, loads = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        flushed += profile->kernels[k].l1_host_flushed_summary.total;
        own_line += profile->kernels[k].l1_host_written_summary.total;
        loads += profile->kernels[k].l1_summary.total;
    }
    assert_true(flushed > 0);
    assert_true(own_line <= flushed);
    assert_true(flushed < loads);
    profile_free(profile);
    sc_config_free(config);
}

/* rcc.host_write_drop and tc.host_write_drop: under `all` (every copy of every L1 dropped at a
 * host write) the RCC and the lease models lose the L1 reuses across kmeans's host writes of the centroids between its launches,
 * under `written` only those of the centroids' own lines, so `all` predicts fewer L1 hits (the
 * points, reused every launch, are lost too); vecadd, whose host writes all come before its one
 * launch, predicts the same either way. */
static void host_write_drop_loses_the_dropped_reuses(void **state)
{
    sc_error error = {{0}};
    const char *mechanisms[] = {"rcc", "rcc-wo", "tc-weak", "tc-strong"};
    const char *keys[] = {"rcc.host_write_drop", "rcc.host_write_drop", "tc.host_write_drop", "tc.host_write_drop"};
    for (int m = 0; m < 4; m++) {
        sc_config *config;
        model_profile *profile = profile_sized("rcc-gpu", "kmeans", "small", &config);
        model_prediction all = predict(mechanisms[m], profile, config);
        assert_int_equal(sc_config_set(config, keys[m], "written", &error), 0);
        model_prediction written = predict(mechanisms[m], profile, config);
        assert_true(all.l1_hits < written.l1_hits);
        profile_free(profile);
        sc_config_free(config);
        profile = profile_sized("rcc-gpu", "vecadd", "tiny", &config);
        all = predict(mechanisms[m], profile, config);
        assert_int_equal(sc_config_set(config, keys[m], "written", &error), 0);
        written = predict(mechanisms[m], profile, config);
        assert_float_equal(all.l1_hits, written.l1_hits, 0);
        assert_float_equal(all.cycles, written.cycles, 0);
        profile_free(profile);
        sc_config_free(config);
    }
}

/* kmeans on rcc-gpu (small, 16 CUs: a CTA of 4 warps a CU): a warp's point loads each touch the
 * warp's 8 point lines, which its first point load filled together, and its centroid loads one
 * line; the host writes the centroids before every launch, flushing every L1 (tc.host_write_drop
 * and rcc.host_write_drop all). So each launch a warp misses its 8 lines in one read, and a lease
 * that lapses takes the 8 together (detailed at 32 KiB, 2 MiB L2, 1342 MHz: rcc-wo 2,720 L1
 * misses in 19,026 cycles; tc-weak 5,361 misses, 2,641 of them lapsed copies, in 24,868). The
 * profile groups the kept tags' hits by their fill: 4.5 lines a group, the mean of 8 and 1 over
 * a warp's 40 point and 40 centroid loads. The models that lose lines together (rcc and rcc-wo by
 * the host's flush, tc-weak and tc-strong by it and by lapses) send a whole group's lines in one
 * read; with every line a group of its own (as independent lines were) more reads wait for the
 * L2, and the predictions are slower. wt keeps no line across the host's write and is the same
 * either way. */
static void lines_an_l1_loses_together_miss_together(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("rcc-gpu", "kmeans", "small", &config);
    model_kernel_profile *assign = &profile->kernels[0];
    double hit_lines = assign->l1_hit_gap_summary.total, groups = assign->l1_hit_fill_groups;
    assert_float_equal(hit_lines / groups, 4.5, 0.05);
    const char *mechanisms[] = {"rcc", "rcc-wo", "tc-weak", "tc-strong", "wt"};
    model_prediction together[5];
    for (int m = 0; m < 5; m++)
        together[m] = predict(mechanisms[m], profile, config);
    assign->l1_hit_fill_groups = hit_lines;
    for (int m = 0; m < 5; m++) {
        model_prediction alone = predict(mechanisms[m], profile, config);
        if (m < 4)   /* at the initial parameters: 18,969 together and 22,347 alone under rcc-wo */
            assert_true(together[m].cycles * 1.15 < alone.cycles);
        else
            assert_memory_equal(&together[m], &alone, sizeof alone);
    }
    profile_free(profile);
    sc_config_free(config);
}

/* matmul's CTAs (16x16 threads: 8 warps) load one tile of A and one of B per step, then pass two
 * barriers: the interval closed by the first barrier is a burst holding every load line of the
 * step, the one closed by the second reads nothing. tiny is 32x32: 4 CTAs, 2 steps. reduction's
 * CTAs read their whole slice before the first barrier of the tree: one burst each. */
static void barrier_bursts_are_recorded(void **state)
{
    sc_config *config;
    model_profile *matmul = profile_of("matmul", &config);
    const model_kernel_profile *tiled = &matmul->kernels[0];
    assert_float_equal(tiled->barrier_bursts, tiled->ctas * 2, 0);
    assert_float_equal(tiled->barrier_burst_lines, tiled->lines[MODEL_LOAD], 0);
    assert_true(tiled->barrier_burst_instructions < tiled->warp_instructions / 2);
    profile_free(matmul);
    sc_config_free(config);
    model_profile *reduction = profile_of("reduction", &config);
    for (int k = 0; k < reduction->kernel_count; k++)
        assert_float_equal(reduction->kernels[k].barrier_bursts, reduction->kernels[k].ctas * reduction->kernels[k].launches, 0);
    profile_free(reduction);
    sc_config_free(config);
}

/* The L2 writes a dirty line back to DRAM only when it evicts it. vecadd writes each output line
 * once and never reads it again on the GPU: an L2 of 4 lines writes back every written line but
 * the last few the run touches, one holding the footprint none, and those between fewer as they
 * grow. */
static void dirty_lines_are_written_back_when_evicted(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = wt_profile_of("vecadd", &config, &point, &spec);
    double stored = 0, footprint = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        stored += profile->kernels[k].lines[MODEL_STORE];
        footprint += profile->kernels[k].footprint_lines;
    }
    assert_true(stored > 0);
    double before = INFINITY;
    const double capacities[] = {4, 64, 256, footprint};
    for (int c = 0; c < 4; c++) {
        point.l2_lines = capacities[c];
        model_prediction prediction;
        model_mechanism_find("wt")->evaluate(profile, &point, &spec.initial, &prediction);
        double written_back = prediction.dram_write_bytes / point.line_bytes;
        if (c == 0)
            assert_true(written_back >= stored - 4 && written_back <= stored);
        if (c == 3)
            assert_float_equal(written_back, 0, 0);
        assert_true(written_back <= before);
        before = written_back;
    }
    profile_free(profile);
    sc_config_free(config);
}

/* Round k holds every CTA's k-th closed burst; a burst never closed by a barrier is none. */
static void burst_rounds_peak_per_bank_count(void **state)
{
    burst_rounds rounds;
    burst_rounds_begin(&rounds, 2);
    const uint64_t first0[] = {0, 6, 12}, second0[] = {1, 2}, first1[] = {3, 9};
    for (int i = 0; i < 3; i++)
        burst_rounds_add(&rounds, 0, first0[i]);
    burst_rounds_close(&rounds, 0);
    for (int i = 0; i < 2; i++)
        burst_rounds_add(&rounds, 1, first1[i]);
    burst_rounds_close(&rounds, 1);
    for (int i = 0; i < 2; i++)
        burst_rounds_add(&rounds, 0, second0[i]);
    burst_rounds_close(&rounds, 0);
    burst_rounds_close(&rounds, 0);   /* no lines since: no burst */
    burst_rounds_add(&rounds, 1, 7);
    burst_rounds_close(&rounds, 1);
    burst_rounds_add(&rounds, 0, 5);  /* never closed */
    double peaks[BURST_BANK_COUNTS] = {0};
    burst_rounds_end(&rounds, peaks);
    /* round 0 = {0, 6, 12, 3, 9}, round 1 = {1, 2, 7} */
    assert_float_equal(peaks[0], 8, 0);
    assert_float_equal(peaks[1], 3 + 2, 0);
    assert_float_equal(peaks[2], 5 + 2, 0);
    assert_float_equal(peaks[5], 3 + 2, 0);
    assert_float_equal(peaks[7], 1 + 1, 0);
}

/* matmul at 12 CUs on gtx480: every CU holds 3 of the 36 CTAs, all started together, and each CTA
 * loads a tile of A and one of B in each of its 6 rounds, two A rows of every three on the same
 * two of the six L2 banks. In the first round the GPU's bursts coincide and the last line waits
 * for the whole round on the hottest bank; after it the CTAs drift apart (detailed, wt: their
 * first barriers lie within 1,145 cycles of each other, their last ones within 2,627), and a
 * round drains its CU's own lines and what of the others' falls within it (docs/calibration.md,
 * session 25). With the profile's 6 rounds a CTA the launch is faster than if every round were
 * a first one (the profile's rounds read as 1 a CTA; the group's burst terms, prepared from the
 * profile, unchanged); without the term the two are the same. */
static void gpu_bursts_coincide_in_the_first_round(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.cu_count=12"};
    sc_config *config;
    model_profile *profile = profile_set("gtx480", "matmul", "small", sets, 1, &config);
    model_kernel_profile *tiled = &profile->kernels[0];
    assert_float_equal(tiled->barrier_bursts, 6 * tiled->ctas * tiled->launches, 0);
    model_prediction drifting = predict("wt", profile, config);
    tiled->barrier_bursts = tiled->ctas * tiled->launches;
    model_prediction coinciding = predict("wt", profile, config);
    assert_true(drifting.cycles < 0.95 * coinciding.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* Under greedy-then-oldest issue the i oldest of a CU's CTAs run as if the younger were not
 * there: CTAs whose rates add up (a latency-bound CU) all finish at W / R(1); where the third
 * CTA adds nothing (R = 1, 1.5, 1.5 warp instructions a cycle, W = 3) the oldest finishes at 3,
 * the second at 4.5 (6 = 1.5 x 3 + 1 x (t2 - 3)) and the last at 6.75 (9 = 1.5 x 3 + 1.5 x 1.5 +
 * 1 x (t3 - 4.5)), later than round-robin's 9 / 1.5 = 6. */
static void oldest_ctas_finish_first(void **state)
{
    (void)state;
    double finish[3];
    oldest_first_finish((const double[]){1.0, 2.0, 3.0}, 3, 3.0, finish);
    for (int i = 0; i < 3; i++)
        assert_float_equal(finish[i], 3.0, 1e-12);
    oldest_first_finish((const double[]){1.0, 1.5, 1.5}, 3, 3.0, finish);
    assert_float_equal(finish[0], 3.0, 1e-12);
    assert_float_equal(finish[1], 4.5, 1e-12);
    assert_float_equal(finish[2], 6.75, 1e-12);
}

/* matmul on gsi (gpu.scheduler gto) at 12 CUs: each CU holds three CTAs, whose tile products
 * share its load/store unit. Under greedy-then-oldest issue they finish one after another and
 * the last runs its last rounds alone (detailed nol1: 5,038, 6,465 and 8,286 cycles; the
 * launch 8,482; docs/calibration.md, session 29), so the launch takes longer than with the same
 * CTAs sharing the CU evenly to the end (the point's oldest_first off); without the term the
 * two are the same. */
static void gto_ctas_finish_one_after_another(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.cu_count=12"};
    sc_config *config;
    model_profile *profile = profile_set("gsi", "matmul", "small", sets, 1, &config);
    sc_error error = {{0}};
    model_point point;
    model_param_spec spec;
    const model_mechanism *nol1 = model_mechanism_find("nol1");
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(nol1, config, &point, &error), 0);
    assert_int_equal(model_param_spec_load(sc_mechanism_find("nol1")->params_file, &spec, &error), 0);
    assert_true(point.oldest_first);
    model_prediction oldest_first, even;
    nol1->evaluate(profile, &point, &spec.initial, &oldest_first);
    point.oldest_first = false;
    nol1->evaluate(profile, &point, &spec.initial, &even);
    assert_true(oldest_first.cycles > 1.05 * even.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* matmul small on rcc-gpu at a 24 KiB L1: at 12 CUs a CU holds CTAs i, i+12 and i+24, which read
 * the same B tiles; under loose round-robin issue they reach them in step, two of the three merge
 * with the first one's miss in flight (144 of the 216 bursts, 40 under gto), and all three end
 * their bursts with the same fill (the detailed run: 15,618 cycles, 11,676 under gto;
 * docs/calibration.md, session 32). At 14 CUs no two CTAs of a CU read the same tiles. The profile counts the bursts with a merged read, and the
 * share of the bursts the CU's CTAs wait out together leaves its stations idle: with those bursts
 * counted the prediction is slower. */
static void in_step_ctas_wait_out_their_bursts_together(void **state)
{
    (void)state;
    const char *lrr_sets[] = {"gpu.cu_count=12", "l1.size=24576"};
    const char *gto_sets[] = {"gpu.cu_count=12", "l1.size=24576", "gpu.scheduler=gto"};
    const char *apart_sets[] = {"gpu.cu_count=14", "l1.size=24576"};
    sc_config *config, *gto_config, *apart_config;
    model_profile *profile = profile_set("rcc-gpu", "matmul", "small", lrr_sets, 2, &config);
    model_profile *gto = profile_set("rcc-gpu", "matmul", "small", gto_sets, 3, &gto_config);
    model_profile *apart = profile_set("rcc-gpu", "matmul", "small", apart_sets, 2, &apart_config);
    model_kernel_profile *tiled = &profile->kernels[0];
    assert_float_equal(tiled->barrier_bursts_merged, 2.0 / 3.0 * tiled->barrier_bursts, 0);
    assert_true(tiled->barrier_bursts_merged > 3 * gto->kernels[0].barrier_bursts_merged);
    assert_float_equal(apart->kernels[0].barrier_bursts_merged, 0, 0);
    model_prediction in_step = predict("wt", profile, config);
    tiled->barrier_bursts_merged = 0;
    model_prediction drifting = predict("wt", profile, config);
    assert_true(in_step.cycles > 1.1 * drifting.cycles);
    profile_free(apart);
    sc_config_free(apart_config);
    profile_free(gto);
    sc_config_free(gto_config);
    profile_free(profile);
    sc_config_free(config);
}

/* Under loose round-robin issue a CU's in-step CTAs (matmul small at 12 CUs, 24 KiB: each CU's
 * three CTAs read one B tile column) wait out their bursts' loads together, every warp of theirs
 * waiting, and then compute together on the CU's stations: the loads' waits add to the round
 * rather than overlap the other CTAs' compute, and GSI charges those cycles to the waits (the
 * detailed run under rcc: 13,988 cycles against 10,031 under gto; sync 40.9%, no_stall 54.8%). */
static void in_step_ctas_wait_out_their_loads_off_the_stations(void **state)
{
    (void)state;
    const char *lrr_sets[] = {"gpu.cu_count=12", "l1.size=24576"};
    sc_config *config;
    model_profile *profile = profile_set("rcc-gpu", "matmul", "small", lrr_sets, 2, &config);
    model_kernel_profile *tiled = &profile->kernels[0];
    model_prediction in_step = predict("rcc", profile, config);
    double merged = tiled->barrier_bursts_merged;
    tiled->barrier_bursts_merged = 0;
    model_prediction drifting = predict("rcc", profile, config);
    tiled->barrier_bursts_merged = merged;
    /* rcc's initial parameters: 11,904 cycles against 9,382 drifting, sync 48%; with only the
     * barrier wait beyond the loads off the stations 10,778 cycles, sync 3%. */
    assert_true(in_step.cycles > 1.2 * drifting.cycles);
    assert_true(in_step.stalls[GSI_SYNC] > 0.3 * in_step.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* A launch's first CTAs start together and run their warps' leads (the instructions before the
 * first access) in step on the SIMD units before any line is asked for: stencil small on qr-apu
 * at 6 CUs (a 64-thread warp's 23 ALU instructions before its first load, 32 warps a CU) under
 * nol1, whose CU's port in is saturated by the rest of each launch: the detailed run takes 45,890
 * cycles, its port carrying nothing for the first ~700 cycles of each launch. */
static void first_ctas_run_their_leads_before_their_memory_work(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.cu_count=6", "l1.size=16384", "l2.size=393216", "dram.clock=415MHz", "noc.latency=11"};
    sc_config *config;
    model_profile *profile = profile_set("qr-apu", "stencil", "small", sets, 5, &config);
    model_kernel_profile *step = &profile->kernels[0];
    assert_true(step->first_access_warps > 0);
    assert_float_equal(step->first_access_lead_alu / step->first_access_warps, 23, 0.5);
    model_prediction leads = predict("nol1", profile, config);
    double warps = step->first_access_warps;
    step->first_access_warps = 0;
    model_prediction overlapped = predict("nol1", profile, config);
    step->first_access_warps = warps;
    assert_true(leads.cycles > 1.1 * overlapped.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* A write-through L2 writes a store it misses around itself (timing/l2_bank.c): stencil's first
 * launch writes the grid the host left out of the L2, so the second launch's reads of it (1,024
 * lines at small) miss and go to DRAM, where a write-allocating L2 would hit them. */
static void write_through_l2_misses_the_lines_written_around_it(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_set("qr-apu", "stencil", "small", NULL, 0, &config);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_float_equal(point.l2_write_through, 1, 0);
    double around = 0, allocating = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        const model_kernel_profile *kernel = &profile->kernels[k];
        model_demand with = {0}, without = {0};
        model_memory_split(kernel, &point, kernel->lines[MODEL_LOAD], false, true, &with);
        model_memory_split(kernel, &point, kernel->lines[MODEL_LOAD], false, false, &without);
        around += with.read_lines_dram, allocating += without.read_lines_dram;
    }
    assert_float_equal(around - allocating, 1024, 64);
    profile_free(profile);
    sc_config_free(config);
}

/* Every round of matmul's bursts has all its lines on one bank when there is one, and at least
 * an even share of them on its most loaded bank. */
static void matmul_bursts_have_peak_banks(void **state)
{
    sc_config *config;
    model_profile *matmul = profile_of("matmul", &config);
    const model_kernel_profile *tiled = &matmul->kernels[0];
    assert_true(tiled->barrier_burst_lines > 0);
    assert_float_equal(tiled->burst_bank_peak_lines[0], tiled->barrier_burst_lines, 0);
    for (int b = 1; b <= BURST_BANK_COUNTS; b++) {
        assert_true(tiled->burst_bank_peak_lines[b - 1] >= tiled->barrier_burst_lines / b - 1e-9);
        assert_true(tiled->burst_bank_peak_lines[b - 1] <= tiled->barrier_burst_lines);
    }
    profile_free(matmul);
    sc_config_free(config);
}

/* wt's weak stores wait in the store buffer until the release at kernel end sends them: the same
 * stores made strong (written through at once) differ by exactly the flush, per launch
 * (min(entries, buffered lines per CU) lines from each of the P CUs, through a CU's port and the
 * banks' in-ports, then an L2 trip). */
static void store_buffers_flush_at_kernel_end(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = wt_profile_of("vecadd", &config, &point, &spec);
    const model_mechanism *wt = model_mechanism_find("wt");
    model_prediction buffered, strong;
    wt->evaluate(profile, &point, &spec.initial, &buffered);
    double flush = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        model_kernel_profile *group = &profile->kernels[k];
        double cus = fmin(point.cu_count, group->ctas);
        double lines = fmin(point.store_buffer_entries, group->lines[MODEL_STORE] / (group->launches * cus));
        assert_true(lines > 0);
        flush += group->launches * ((lines + cus * lines / point.l2_banks) * point.noc_data_cycles + point.l2_latency);
        group->lines[MODEL_STORE_STRONG] += group->lines[MODEL_STORE];
        group->lines[MODEL_STORE] = 0;
    }
    wt->evaluate(profile, &point, &spec.initial, &strong);
    assert_float_equal(buffered.cycles - strong.cycles, flush, 1e-6 * buffered.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* Every kmeans thread reads the same centroid line: under nol1 those loads all reach its one L2
 * bank, whose out port then sets the pace; without the hot spot the model is faster. */
static void read_hot_spot_slows_nol1(void **state)
{
    sc_config *config;
    model_profile *profile = profile_sized("gtx480", "kmeans", "small", &config);
    assert_true(profile->kernels[0].load_hottest_share > 0.05);
    model_prediction hot = predict("nol1", profile, config);
    for (int k = 0; k < profile->kernel_count; k++)
        profile->kernels[k].load_hottest_share = 0;
    model_prediction spread = predict("nol1", profile, config);
    assert_true(hot.cycles > 1.1 * spread.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* The missing reads of a group (load_misses.h): at the profile's own misses, its loads that miss;
 * at fewer lines, as many lines per missing read; at more, the other reads' lines miss
 * independently, and at every line, every read. A missing read of 32 lines the L2 hits waits 15.5
 * messages at the port on average, of 16 it hits 7.5; one the L2 misses entirely or of one line,
 * none. */
static void missing_reads_group_the_lines(void **state)
{
    (void)state;
    model_group_terms terms = {.missing_reads = 10, .missing_read_lines = 300};
    assert_float_equal(load_misses_reads(&terms, 100, 1000, 300), 10, 1e-12);
    assert_float_equal(load_misses_reads(&terms, 100, 1000, 150), 5, 1e-12);
    assert_float_equal(load_misses_reads(&terms, 100, 1000, 1000), 100, 1e-12);
    double some = load_misses_reads(&terms, 100, 1000, 370);
    assert_float_equal(some, 10 + 90 * (1 - pow(0.9, 700.0 / 90)), 1e-9);
    model_group_terms unprofiled = {0};
    assert_float_equal(load_misses_reads(&unprofiled, 100, 1000, 300), 100 * (1 - pow(0.7, 10)), 1e-9);
    assert_float_equal(load_misses_port_wait(32, 1, 3), 46.5, 1e-12);
    assert_float_equal(load_misses_port_wait(32, 0.5, 3), 22.5, 1e-12);
    assert_float_equal(load_misses_port_wait(32, 0, 3), 0, 0);
    assert_float_equal(load_misses_port_wait(1, 1, 3), 0, 0);
}

/* The profile of kmeans on qr-apu at an 8 KiB L1 and 7 CUs. */
static model_profile *kmeans_at_seven_cus(const char *bytes_per_cycle, sc_config **config)
{
    const char *sets[] = {"gpu.cu_count=7", "l1.size=8KiB", "l2.size=131072", "dram.clock=277MHz", "noc.latency=19",
                          bytes_per_cycle};
    return profile_set("qr-apu", "kmeans", "small", sets, 6, config);
}

/* kmeans's point loads (64 lanes of 32 bytes: 32 lines) at an 8 KiB L1 on qr-apu's 7 CUs miss
 * their lines together: the loads the profile's L1 misses hold many lines each (13.7: 1,875 loads
 * of 12,800 miss, 25,763 lines), where independent lines would put about 2 in each of most loads;
 * and a CU holding 3 CTAs (6 warps' points, 192 lines in 128) misses 2.3 times the GPU's lines per
 * instruction (2,214 lines a launch; the detailed run's fills give 2,200, and 125 on a CU of 2
 * CTAs). */
static void kmeans_point_loads_miss_together(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = kmeans_at_seven_cus("noc.bytes_per_cycle=32", &config);
    double loads = 0, missing = 0, lines = 0;
    for (int g = 0; g < profile->kernel_count; g++) {
        const model_kernel_profile *k = &profile->kernels[g];
        loads += k->instructions[MODEL_LOAD];
        missing += k->l1_missing_loads;
        lines += k->l1_missing_load_lines;
    }
    assert_true(missing > 0);
    assert_true(lines / missing > 8.0);
    assert_true(missing < 0.5 * loads);
    assert_true(profile->kernels[0].terms.busiest_miss_share > 1.05);
    profile_free(profile);
    sc_config_free(config);
}

/* The CU's port in paces kmeans's point loads at 7 CUs (wt, qr-apu, 8 KiB L1): their 32 answers
 * leave it one message apart, so the detailed run takes 39,293 cycles at 32 bytes a port cycle and
 * 27,030 at 128; the model follows the port (38,749 and 20,540 cycles here; 3% apart before the
 * answers' wait), and the busiest CU's misses (3 CTAs on a CU against 2) make it slower than the
 * GPU's mean miss ratio would (18,940). */
static void kmeans_answers_wait_at_the_cus_port(void **state)
{
    (void)state;
    sc_config *narrow_config, *wide_config;
    model_profile *narrow = kmeans_at_seven_cus("noc.bytes_per_cycle=32", &narrow_config);
    model_profile *wide = kmeans_at_seven_cus("noc.bytes_per_cycle=128", &wide_config);
    double narrow_cycles = predict("wt", narrow, narrow_config).cycles, wide_cycles = predict("wt", wide, wide_config).cycles;
    assert_true(narrow_cycles > 1.3 * wide_cycles);
    for (int g = 0; g < narrow->kernel_count; g++)
        narrow->kernels[g].busiest_cu_l1_missing_lines = 0;
    profile_prepare(narrow);
    double mean_cycles = predict("wt", narrow, narrow_config).cycles;
    assert_true(narrow_cycles > 1.5 * mean_cycles);
    profile_free(narrow);
    profile_free(wide);
    sc_config_free(narrow_config);
    sc_config_free(wide_config);
}

/* nol1 has no L1 to miss: every CU sends all its lines on, the busiest as many per instruction as
 * the mean, so the configured L1's busiest-CU misses leave its prediction as it is (they took
 * kmeans at 7 CUs on qr-apu from 125,087 to 316,333 cycles against 125,582 detailed), while wt's
 * rises with them. */
static void nol1_has_no_busiest_cu_misses(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = kmeans_at_seven_cus("noc.bytes_per_cycle=32", &config);
    double nol1_cycles = predict("nol1", profile, config).cycles, wt_cycles = predict("wt", profile, config).cycles;
    for (int g = 0; g < profile->kernel_count; g++)
        profile->kernels[g].busiest_cu_l1_missing_lines = 0;
    profile_prepare(profile);
    assert_float_equal(predict("nol1", profile, config).cycles, nol1_cycles, 1e-9 * nol1_cycles);
    assert_true(wt_cycles > 1.5 * predict("wt", profile, config).cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* The CUs holding fewer CTAs are charged their own view's stalls: kmeans on gsi at 14 CUs (16 CTAs
 * of 4 warps: 2 CUs hold 8 warps, 12 hold 4) under nol1, each point load 32 lines through 32
 * MSHRs. The 8-warp CUs queue for their MSHRs, the 4-warp CUs mostly wait for their data; the
 * detailed run (14 CUs, 32 KiB L1, 3 MiB L2, 1244 MHz DRAM, noc.latency 5) spends 60.3% of its CU
 * cycles in mem_data and 9.4% in mem_struct. Charging every CU the busiest CU's split (the
 * cherry-pick of the busiest CU's misses onto main, d16a74c, lost the fewer view's copy) gave
 * mem_data 3.5% and mem_struct 45.9% with main's fit of the cell (/work/acc25/nol1-gsi.db;
 * docs/calibration.md, session 29). */
static void fewer_ctas_cus_keep_their_own_stalls(void **state)
{
    (void)state;
    sc_config *config;
    const char *sets[] = {"gpu.cu_count=14", "l1.size=32KiB", "l2.size=3MiB", "dram.clock=1244MHz", "noc.latency=5"};
    model_profile *profile = profile_set("gsi", "kmeans", "small", sets, 5, &config);
    model_prediction prediction = predict("nol1", profile, config);
    double mem_data = prediction.stalls[GSI_MEM_DATA] / prediction.cycles;
    double mem_struct = prediction.stalls[GSI_MEM_STRUCT] / prediction.cycles;
    assert_true(mem_data > 2.0 * mem_struct);
    profile_free(profile);
    sc_config_free(config);
}

static double histogram_total(const model_profile *profile, size_t offset)
{
    double total = 0;
    for (int k = 0; k < profile->kernel_count; k++)
        total += reuse_total((const reuse_histogram *)((const char *)&profile->kernels[k] + offset));
    return total;
}

/* Empties a histogram of every group, and its summary. */
static void clear_histogram(model_profile *profile, size_t histogram_offset, size_t summary_offset)
{
    for (int k = 0; k < profile->kernel_count; k++) {
        char *kernel = (char *)&profile->kernels[k];
        memset(kernel + histogram_offset, 0, sizeof(reuse_histogram));
        reuse_summarize((const reuse_histogram *)(kernel + histogram_offset), (reuse_summary *)(kernel + summary_offset));
    }
}

/* A term of `mechanism` that the profile's histogram at `histogram_offset` feeds: emptying it
 * lowers the mechanism's cycles and its `stall` cycles, and leaves `other`'s prediction as it was. */
static void assert_histogram_term(model_profile *profile, const sc_config *config, const char *mechanism,
                                  const char *other, size_t histogram_offset, size_t summary_offset, gsi_category stall)
{
    assert_true(histogram_total(profile, histogram_offset) > 0);
    model_prediction with = predict(mechanism, profile, config), other_with = predict(other, profile, config);
    clear_histogram(profile, histogram_offset, summary_offset);
    model_prediction without = predict(mechanism, profile, config);
    assert_true(with.cycles > without.cycles);
    assert_true(with.stalls[stall] > without.stalls[stall]);
    assert_float_equal(predict(other, profile, config).cycles, other_with.cycles, 1e-12 * other_with.cycles);
}

/* Empties every group's l1_hit_gaps: the lease models' L1 copies no longer lapse. */
static void clear_hit_gaps(model_profile *profile)
{
    clear_histogram(profile, offsetof(model_kernel_profile, l1_hit_gaps), offsetof(model_kernel_profile, l1_hit_gap_summary));
}

/* mesi's write-through form (rcc-gpu's mesi.stores) against tc-strong's split without its lapsed
 * leases (no l1_hit_gaps), which differs from it only where the directory acts: each store of any CU to a line costs the later loads of the
 * line their L1 hits (each such load's line crosses the NoC to the CU in place of a hit), and
 * each write that finds other CUs' readers sends each of them an invalidation (into its L1) that
 * it acknowledges (out of it). No read is forwarded to an owner, so the directory's latency does
 * not change the write-through form; the write-back form forwards the reads of lines another CU
 * wrote last (stn's halos). */
static void mesi_write_through_invalidates_sharers(void **state)
{
    sc_config *config;
    sc_error error = {{0}};
    model_profile *profile = profile_sized("rcc-gpu", "stn", "tiny", &config);
    double invalidations = 0, stores = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        invalidations += profile->kernels[k].write_invalidations;
        stores += profile->kernels[k].lines[MODEL_STORE] + profile->kernels[k].lines[MODEL_STORE_STRONG] +
                  profile->kernels[k].lines[MODEL_ATOMIC];
    }
    assert_true(invalidations > 0);
    assert_true(invalidations <= (profile->cu_count - 1) * stores);
    assert_string_equal(sc_config_string(config, "mesi.stores"), "write_through");
    clear_hit_gaps(profile);
    model_prediction mesi = predict("mesi", profile, config), tcs = predict("tc-strong", profile, config);
    double line_message = profile->line_bytes + MEMORY_MESSAGE_HEADER_BYTES;
    assert_true(tcs.l1_hits > mesi.l1_hits);
    assert_float_equal(mesi.noc_bytes_to_cus - tcs.noc_bytes_to_cus,
                       (tcs.l1_hits - mesi.l1_hits) * line_message + invalidations * MEMORY_MESSAGE_HEADER_BYTES,
                       1e-6 * mesi.noc_bytes_to_cus);
    assert_float_equal(mesi.noc_bytes_from_cus - tcs.noc_bytes_from_cus,
                       (tcs.l1_hits - mesi.l1_hits + invalidations) * MEMORY_MESSAGE_HEADER_BYTES,
                       1e-6 * mesi.noc_bytes_from_cus);
    /* A write that finds sharers waits for their acks, which leave the directory after its latency. */
    assert_int_equal(sc_config_set(config, "directory.latency", "1000", &error), 0);
    model_prediction slow_invalidations = predict("mesi", profile, config);
    assert_true(slow_invalidations.cycles > mesi.cycles);
    assert_true(slow_invalidations.stalls[GSI_SYNC] > mesi.stalls[GSI_SYNC]);
    assert_int_equal(sc_config_set(config, "mesi.stores", "write_back", &error), 0);
    model_prediction owned_slow = predict("mesi", profile, config);
    assert_int_equal(sc_config_set(config, "directory.latency", "0", &error), 0);
    assert_true(owned_slow.cycles > predict("mesi", profile, config).cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* The shortfall of a latency beyond each gap's instructions, and the multiples of a period each
 * gap reaches (reuse_floor_sum), against the sums gap by gap: exact gaps (below REUSE_EXACT) at
 * their value, wider buckets spread evenly, cold entries nothing. */
static void shortfall_sums_each_gap(void **state)
{
    reuse_histogram gaps = {0};
    reuse_add(&gaps, 0, 3);
    reuse_add(&gaps, 2, 2);
    reuse_add(&gaps, 5, 1);
    gaps.cold = 7;
    reuse_summary summary;
    reuse_summarize(&gaps, &summary);
    double count, distances;
    /* Budget 40 at 10 cycles per instruction: gaps 0, 2 fall short (40, 20), gap 5 does not. */
    assert_float_equal(reuse_shortfall(&summary, 40, 10, &count, &distances), 3 * 40 + 2 * 20, 1e-12);
    assert_float_equal(count, 5, 1e-12);
    assert_float_equal(distances, 4, 1e-12);
    assert_float_equal(reuse_shortfall(&summary, 70, 10, &count, &distances), 3 * 70 + 2 * 50 + 20, 1e-12);
    /* One wide bucket [16, 18) at 1 cycle per instruction and budget 17: half of it falls short,
     * by 17 - 16.5 on average. */
    reuse_histogram wide = {0};
    reuse_add(&wide, 16, 4);
    assert_int_equal(reuse_bucket_upper(reuse_bucket_of(16)), 18);
    reuse_summarize(&wide, &summary);
    assert_float_equal(reuse_shortfall(&summary, 17, 1, &count, &distances), 2 * 0.5, 1e-12);
    assert_float_equal(count, 2, 1e-12);
    assert_float_equal(distances, 2 * 16.5, 1e-12);
    /* The multiples of a period the distances reach: [16, 18) spread evenly reaches 1 multiple of
     * 17 on [17, 18), half of it; exact gaps 0, 2, 5 reach 0, 1, 2 multiples of 2. */
    assert_float_equal(reuse_floor_sum(&summary, 17), 4 * 0.5, 1e-12);
    reuse_summarize(&gaps, &summary);
    assert_float_equal(reuse_floor_sum(&summary, 2), 3 * 0 + 2 * 1 + 1 * 2, 1e-12);
    assert_float_equal(reuse_floor_sum(&summary, 0), 0, 0);
}

/* The shortfall as a walk over every bucket, each non-empty one's share below reach added in
 * increasing distance (the arithmetic reuse_shortfall's table of sums must reproduce bit for bit). */
static double shortfall_by_walk(const reuse_histogram *h, double budget, double per_distance, double *count,
                                double *distances)
{
    double reach = budget / per_distance;
    *count = *distances = 0.0;
    for (int b = 0; b < REUSE_BUCKETS; b++) {
        double lower = (double)reuse_bucket_lower(b), upper = (double)reuse_bucket_upper(b), entry = h->count[b];
        if (!(entry > 0) || !(lower < reach))
            continue;
        if (upper - lower <= 1.0) {
            *count += entry;
            *distances += entry * lower;
            continue;
        }
        double end = reach < upper ? reach : upper, share = (end - lower) / (upper - lower);
        *count += entry * share;
        *distances += entry * share * 0.5 * (lower + end);
    }
    return *count * budget - *distances * per_distance;
}

/* reuse_shortfall's sums of whole buckets give exactly the walk's values, at budgets inside
 * buckets, on their bounds, below the first and past the last distance. */
static void shortfall_sums_match_the_walk(void **state)
{
    (void)state;
    reuse_histogram histogram = random_reuses();
    reuse_summary summary;
    reuse_summarize(&histogram, &summary);
    double per_distance[] = {1.0, 0.37, 3.0, 1e-3};
    for (size_t p = 0; p < sizeof per_distance / sizeof per_distance[0]; p++)
        for (double reach = 0; reach < 90000; reach = reach * 1.07 + 0.5) {
            double budgets[] = {reach * per_distance[p], (double)reuse_bucket_lower(reuse_bucket_of((uint64_t)reach)) * per_distance[p]};
            for (int b = 0; b < 2; b++) {
                double count, distances, walk_count, walk_distances;
                double value = reuse_shortfall(&summary, budgets[b], per_distance[p], &count, &distances);
                double walk = shortfall_by_walk(&histogram, budgets[b], per_distance[p], &walk_count, &walk_distances);
                assert_true(value == walk && count == walk_count && distances == walk_distances);
            }
        }
    double count, distances, walk_count, walk_distances;
    reuse_shortfall(&summary, INFINITY, 1.0, &count, &distances);
    shortfall_by_walk(&histogram, INFINITY, 1.0, &walk_count, &walk_distances);
    assert_true(count == walk_count && distances == walk_distances && count > 0);
}

/* The profile of a workload with its order histograms scaled by `factor` (0: none). */
static void scale_order(model_profile *profile, double factor, bool own_line)
{
    for (int k = 0; k < profile->kernel_count; k++)
        for (int b = 0; b < REUSE_BUCKETS; b++) {
            model_kernel_profile *kernel = &profile->kernels[k];
            if (own_line) {
                kernel->own_line_loads.count[b] *= factor;
            } else {
                kernel->order_after_reads.count[b] *= factor;
                kernel->order_after_writes.count[b] *= factor;
            }
        }
    profile_prepare(profile);
}

/* An SC core (rcc, tc-strong, mesi) holds a warp's next global or shared access until its
 * previous global access completes: vecadd's warps wait between their two loads (its store is a
 * warp's last access), charged to sync, and the wait grows with the serialised accesses; rcc-wo, rcc's weak
 * twin on the same split, has no such wait. */
static void sc_cores_serialise_global_accesses(void **state)
{
    sc_config *config;
    model_profile *profile = profile_sized("rcc-gpu", "vecadd", "tiny", &config);
    double reads = 0, ordered_reads = histogram_total(profile, offsetof(model_kernel_profile, order_after_reads));
    for (int k = 0; k < profile->kernel_count; k++)
        reads += profile->kernels[k].instructions[MODEL_LOAD] + profile->kernels[k].instructions[MODEL_ATOMIC];
    assert_true(ordered_reads > 0 && ordered_reads <= reads);
    model_prediction weak = predict("rcc-wo", profile, config), sc = predict("rcc", profile, config);
    assert_true(sc.cycles > weak.cycles);
    assert_true(sc.stalls[GSI_SYNC] > weak.stalls[GSI_SYNC]);
    const char *strong[] = {"rcc", "tc-strong", "mesi"};
    for (size_t m = 0; m < sizeof strong / sizeof strong[0]; m++) {
        model_prediction once = predict(strong[m], profile, config);
        double sum = 0;
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            sum += once.stalls[c];
        assert_float_equal(sum, once.cycles, 1e-9 * once.cycles);
        scale_order(profile, 2.0, false);
        model_prediction twice = predict(strong[m], profile, config);
        scale_order(profile, 0.5, false);
        assert_true(twice.stalls[GSI_SYNC] > once.stalls[GSI_SYNC]);
        assert_true(twice.cycles > once.cycles);
    }
    scale_order(profile, 0.0, false);   /* no access followed by another: nothing to wait for */
    model_prediction unordered = predict("rcc", profile, config);
    assert_true(unordered.stalls[GSI_SYNC] < sc.stalls[GSI_SYNC]);
    profile_free(profile);
    sc_config_free(config);
}

/* The profile with its warps' final stores (order_final_writes) scaled by `factor`. */
static void scale_final_writes(model_profile *profile, double factor)
{
    for (int k = 0; k < profile->kernel_count; k++) {
        for (int b = 0; b < REUSE_BUCKETS; b++)
            profile->kernels[k].order_final_writes.count[b] *= factor;
        profile->kernels[k].order_final_write_leads *= factor;
    }
    profile_prepare(profile);
}

/* An SC core's warp slot keeps its warp's last store in flight after the warp exits, and the next
 * warp placed in the slot waits for it at its first access (timing_internal.h: a warp inherits
 * its slot's accesses in flight); the kernel-end release waits for the last ones. vecadd's warps
 * all end with their store, after a lead of address arithmetic. At 1 CU holding 1 CTA at once
 * its 4 CTAs follow each other in the same slots: the SC models (tc-strong, whose store waits for
 * the lease its own load of y took in saxpy, and rcc) take more cycles and more sync with the
 * term than without, tc-strong's far more at a long lease; at 4 CUs (no successor) only the
 * kernel-end wait remains; tc-weak, without an SC core, is unchanged. */
static void sc_core_slots_inherit_final_stores(void **state)
{
    const char *one_slot[] = {"gpu.cu_count=1", "gpu.max_ctas_per_cu=1"};
    sc_config *config;
    model_profile *profile = profile_set("gtx480", "vecadd", "tiny", one_slot, 2, &config);
    double warps = 0, finals = histogram_total(profile, offsetof(model_kernel_profile, order_final_writes));
    for (int k = 0; k < profile->kernel_count; k++)
        warps += profile->kernels[k].ctas * profile->kernels[k].warps_per_cta * profile->kernels[k].launches;
    assert_float_equal(finals, warps, 1e-9);
    assert_true(profile->kernels[0].order_final_write_leads >= finals);   /* each warp computes its address first */
    const char *mechanisms[] = {"tc-strong", "rcc"};
    model_prediction with[2], without[2];
    model_prediction weak = predict("tc-weak", profile, config);
    for (int m = 0; m < 2; m++)
        with[m] = predict(mechanisms[m], profile, config);
    scale_final_writes(profile, 0.0);
    for (int m = 0; m < 2; m++) {
        without[m] = predict(mechanisms[m], profile, config);
        assert_true(with[m].cycles > without[m].cycles);
        assert_true(with[m].stalls[GSI_SYNC] > without[m].stalls[GSI_SYNC]);
        double sum = 0;
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            sum += with[m].stalls[c];
        assert_float_equal(sum, with[m].cycles, 1e-9 * with[m].cycles);
    }
    /* saxpy's stores wait for their own lease: hundreds of cycles per slot succession. */
    assert_true(with[0].cycles - without[0].cycles > 3 * (with[1].cycles - without[1].cycles));
    assert_float_equal(predict("tc-weak", profile, config).cycles, weak.cycles, 1e-12 * weak.cycles);
    profile_free(profile);
    sc_config_free(config);

    /* 4 CUs: every CTA has a CU of its own, so only the kernel end waits. */
    const char *own_cus[] = {"gpu.cu_count=4"};
    profile = profile_set("gtx480", "vecadd", "tiny", own_cus, 1, &config);
    model_prediction end_with = predict("rcc", profile, config);
    scale_final_writes(profile, 0.0);
    model_prediction end_without = predict("rcc", profile, config);
    assert_true(end_with.cycles > end_without.cycles);
    assert_true(end_with.stalls[GSI_SYNC] > end_without.stalls[GSI_SYNC]);
    profile_free(profile);
    sc_config_free(config);
}

/* rcc-wo orders a warp's load behind its own write to the line in flight (rcc_core.c): sort's
 * warps reload lines they have just written, vecadd's never do; the refused load holds the CU's
 * load/store unit, a memory-structural stall, and only rcc-wo has it as a term of its own (under
 * rcc the SC core's order already holds such a load). */
static void rcc_wo_loads_wait_for_own_writes(void **state)
{
    sc_config *config;
    model_profile *vecadd = profile_sized("rcc-gpu", "vecadd", "tiny", &config);
    assert_true(histogram_total(vecadd, offsetof(model_kernel_profile, own_line_loads)) == 0);
    profile_free(vecadd);
    sc_config_free(config);
    model_profile *sort = profile_sized("rcc-gpu", "sort", "tiny", &config);
    assert_true(histogram_total(sort, offsetof(model_kernel_profile, own_line_loads)) > 0);
    model_prediction waits = predict("rcc-wo", sort, config);
    model_prediction rcc = predict("rcc", sort, config);
    scale_order(sort, 0.0, true);
    model_prediction none = predict("rcc-wo", sort, config);
    assert_true(waits.cycles > none.cycles);
    assert_true(waits.stalls[GSI_MEM_STRUCT] > none.stalls[GSI_MEM_STRUCT]);
    assert_float_equal(predict("rcc", sort, config).cycles, rcc.cycles, 1e-12 * rcc.cycles);
    profile_free(sort);
    sc_config_free(config);
}

/* A point with nothing but gtx480's 2048-cycle lease, for the lease terms alone. */
/* RCC's L2 evictions expire the L1's copies (rcc_model.h's rcc_turnover_lapsed_share): an L2 of
 * l lines whose group fills F lines over the busiest CU's I instructions pushes a line out
 * sum over k < l of total / misses(k) accesses after its last touch, and a reuse g instructions
 * after its line's previous load at the CU lapses with probability min(1, g / T) once the L2 is
 * full (a share (F - l) / F of the group). An L2 that holds every line it fills expires nothing.
 * spmv small (gtx480's detailed rcc run at 11 CUs, 96 KiB L1: 61,229 L1 hits at a 192 KiB L2,
 * 637,059 at 1152 KiB) loses its L1 hits under rcc at a small L2 and keeps them at a large one,
 * and the L2 renews the lapsed copies it holds without their data (rcc.renewal: fewer bytes to
 * the CUs than with the line); wt's L1 does not depend on the L2. */
static void rcc_l2_turnover_expires_l1_copies(void **state)
{
    (void)state;
    static model_kernel_profile kernel;
    memset(&kernel, 0, sizeof kernel);
    model_point point;
    memset(&point, 0, sizeof point);
    point.l2_lines = 100;
    kernel.busiest_cu_instructions = 1000;
    kernel.l2_reads.cold = 300;                   /* every access misses: out after 100 of 300 accesses */
    reuse_summarize(&kernel.l2_reads, &kernel.l2_read_summary);
    reuse_add(&kernel.l1_hit_gaps, 5, 10);        /* lapsed with probability 5 / (1000 / 3) */
    reuse_add(&kernel.l1_hit_gaps, 1000, 5);      /* beyond a turnover: lapsed for certain */
    reuse_summarize(&kernel.l1_hit_gaps, &kernel.l1_hit_gap_summary);
    double turnover = 1000.0 / 3;
    assert_float_equal(rcc_turnover_lapsed_share(&kernel, &point), 2.0 / 3 * (10 * 5 / turnover + 5) / 15, 1e-12);
    reuse_add(&kernel.l2_reads, 50, 300);         /* half the accesses reach depth 50 only */
    reuse_summarize(&kernel.l2_reads, &kernel.l2_read_summary);
    turnover = 50 * (600.0 / 600 + 600.0 / 300) * 1000 / 600;   /* 50 depths at 600 movers, 50 at 300 */
    double share = rcc_turnover_lapsed_share(&kernel, &point);
    assert_float_equal(share, 2.0 / 3 * (10 * 5 / turnover + 5) / 15, 0.02 * share);   /* the bucket of 50 spreads */
    point.l2_lines = 300;                         /* holds every line it fills */
    assert_float_equal(rcc_turnover_lapsed_share(&kernel, &point), 0.0, 0.0);

    const char *small[] = {"l1.size=96KiB", "l2.size=192KiB", "gpu.cu_count=11"};
    const char *large[] = {"l1.size=96KiB", "l2.size=1152KiB", "gpu.cu_count=11"};
    const char *no_renewal[] = {"l1.size=96KiB", "l2.size=192KiB", "gpu.cu_count=11", "rcc.renewal=false"};
    sc_config *small_config, *large_config, *no_renewal_config;
    model_profile *profile = profile_set("gtx480", "spmv", "small", small, 3, &small_config);
    large_config = sc_config_load("gtx480", NULL, large, 3, &(sc_error){{0}});
    no_renewal_config = sc_config_load("gtx480", NULL, no_renewal, 4, &(sc_error){{0}});
    assert_non_null(large_config);
    assert_non_null(no_renewal_config);
    const char *mechanisms[] = {"rcc", "rcc-wo"};
    for (int m = 0; m < 2; m++) {
        model_prediction turned = predict(mechanisms[m], profile, small_config);
        model_prediction held = predict(mechanisms[m], profile, large_config);
        model_prediction resent = predict(mechanisms[m], profile, no_renewal_config);
        assert_true(turned.l1_hits < 0.5 * held.l1_hits);
        assert_true(turned.cycles > held.cycles);
        assert_float_equal(resent.l1_hits, turned.l1_hits, 0);
        assert_true(resent.noc_bytes_to_cus > turned.noc_bytes_to_cus);
        assert_true(resent.cycles > turned.cycles);
    }
    assert_float_equal(predict("wt", profile, small_config).l1_hits, predict("wt", profile, large_config).l1_hits, 0);
    profile_free(profile);
    sc_config_free(small_config);
    sc_config_free(large_config);
    sc_config_free(no_renewal_config);
}

static model_point lease_point(void)
{
    model_point point;
    memset(&point, 0, sizeof point);
    point.protocol_terms[LEASE_TERM_CYCLES] = 2048;
    return point;
}

/* The lease protocols' L1 copies lapse tc.lease_cycles after their grant, and TC-Strong's writes
 * wait at the L2 for the line's lease (lease_model.h): a
 * reuse g instructions after its line's previous load at the CU lapses with probability
 * min(1, g c / L) at c cycles per CU instruction. Some of spmv's reuses of its vector come late
 * enough to lapse at gtx480's 2048-cycle lease, so both lease models predict fewer L1 hits and
 * more cycles than without the term, and fewer hits still at a shorter lease. */
/* The serve calls of a timed evaluation, by group: TC-Strong's split (tc_strong_model.c), counted. */
enum { COUNTED_GROUPS = 32 };
static const model_kernel_profile *counted_first_group;
static int counted_serves[COUNTED_GROUPS];
static void counted_tc_strong_serve(const model_kernel_profile *kernel, const model_point *point,
                                    double cu_instruction_cycles, model_demand *out)
{
    counted_serves[kernel - counted_first_group]++;
    lease_serve(kernel, point, cu_instruction_cycles, out);
    out->one_access_at_a_time = true;
    out->write_wait = lease_write_wait(kernel, point, cu_instruction_cycles);
}

/* TC-Strong's split as if no lease ever ran out: the same whatever the cycles (for the untimed
 * core, and for a timed evaluation that must see it settle at once). */
static void tc_strong_serve_at_zero(const model_kernel_profile *kernel, const model_point *point, model_demand *out)
{
    counted_tc_strong_serve(kernel, point, 0.0, out);
}

static void tc_strong_serve_untimed(const model_kernel_profile *kernel, const model_point *point,
                                    double cu_instruction_cycles, model_demand *out)
{
    (void)cu_instruction_cycles;
    tc_strong_serve_at_zero(kernel, point, out);
}

/* tc-strong's model point and initial parameters on `config`. */
static void tc_strong_point(const sc_config *config, model_point *point, model_param_spec *spec)
{
    sc_error error = {{0}};
    assert_int_equal(model_point_from_config(config, point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find("tc-strong"), config, point, &error), 0);
    assert_int_equal(model_param_spec_load(sc_mechanism_find("tc-strong")->params_file, spec, &error), 0);
}

/* A timed group settles at the fixed point of its cycles per instruction in a few evaluations
 * (model_core_evaluate_timed's secant steps): under TC-Strong at size tiny lud's three groups take
 * 5, 5 and 4, cl's two 8 and 5. Serving each group at the cycles its last evaluation
 * predicted took 7, 6 and 6 for lud, and cl's first group never settled: its cycles per
 * instruction swung around the fixed point (43.8, 28.3, ...) until the 30th evaluation. A group
 * whose split does not depend on the cycles settles in one evaluation: served at the cycles it
 * predicted, it is served the split it was evaluated with (two evaluations before session 25). */
static void timed_groups_settle_in_few_evaluations(void **state)
{
    const char *workloads[] = {"lud", "cl"};
    const int most_evaluations[] = {5, 8};
    for (int w = 0; w < 2; w++) {
        sc_config *config;
        model_profile *profile = profile_of(workloads[w], &config);
        assert_true(profile->kernel_count <= COUNTED_GROUPS);
        model_point point;
        model_param_spec spec;
        tc_strong_point(config, &point, &spec);
        counted_first_group = profile->kernels;
        memset(counted_serves, 0, sizeof counted_serves);
        model_prediction counted;
        int evaluations = model_core_evaluate_timed(profile, &point, &spec.initial, counted_tc_strong_serve, &counted);
        model_prediction mechanism = predict("tc-strong", profile, config);
        assert_memory_equal(&counted, &mechanism, sizeof counted);
        int serves = 0;
        for (int g = 0; g < profile->kernel_count; g++) {
            assert_in_range(counted_serves[g], 1, most_evaluations[w]);
            serves += counted_serves[g];
        }
        assert_int_equal(evaluations, serves);   /* every split moved with the cycles: one serve an evaluation */

        model_prediction settled, untimed;
        assert_int_equal(model_core_evaluate_timed(profile, &point, &spec.initial, tc_strong_serve_untimed, &settled),
                         profile->kernel_count);
        model_core_evaluate(profile, &point, &spec.initial, tc_strong_serve_at_zero, &untimed);
        assert_memory_equal(&settled, &untimed, sizeof settled);
        profile_free(profile);
        sc_config_free(config);
    }
}

static void leases_lapse_and_hold_writes(void **state)
{
    model_kernel_profile kernel;
    memset(&kernel, 0, sizeof kernel);
    model_point point = lease_point();
    /* At 512 cycles an instruction a lease of 2048 cycles lasts 4 instructions from the fill: a
     * reuse lapses where the copy's age crosses 4 (8, ...) since its previous load. */
    const uint64_t reuses[3][4] = {
        /* gap, age, previous age, count */
        {2, 3, 1, 10},   /* within the fill's lease: none lapses (uniform age: half of them) */
        {2, 5, 3, 6},    /* the age crosses the lease: every one lapses (uniform age: half) */
        {4, 4, 0, 4},    /* a gap of a lease: lapsed for certain */
    };
    for (int r = 0; r < 3; r++) {
        reuse_add(&kernel.l1_hit_gaps, reuses[r][0], (double)reuses[r][3]);
        reuse_add(&kernel.l1_hit_ages, reuses[r][1], (double)reuses[r][3]);
        reuse_add(&kernel.l1_hit_previous_ages, reuses[r][2], (double)reuses[r][3]);
    }
    reuse_summarize(&kernel.l1_hit_gaps, &kernel.l1_hit_gap_summary);
    reuse_summarize(&kernel.l1_hit_ages, &kernel.l1_hit_age_summary);
    reuse_summarize(&kernel.l1_hit_previous_ages, &kernel.l1_hit_previous_age_summary);
    assert_float_equal(lease_lapsed_share(&kernel, &point, 512.0), (6 + 4) / 20.0, 1e-12);
    assert_float_equal(lease_lapsed_share(&kernel, &point, 0.0), 0.0, 0.0);
    memset(&kernel, 0, sizeof kernel);
    kernel.lines[MODEL_STORE] = 4;
    reuse_add(&kernel.write_lease_gaps, 4, 1);      /* waits 2048 - 400 cycles */
    reuse_add(&kernel.write_lease_gaps, 1000, 2);   /* the lease is over */
    reuse_summarize(&kernel.write_lease_gaps, &kernel.write_lease_gap_summary);
    assert_float_equal(lease_write_wait(&kernel, &point, 100.0), (2048 - 400.0) / 4, 1e-9);

    const char *short_lease[] = {"tc.lease_cycles=256"};
    sc_config *config, *short_config;
    model_profile *profile = profile_sized("gtx480", "spmv", "tiny", &config);
    short_config = sc_config_load("gtx480", NULL, short_lease, 1, &(sc_error){{0}});
    assert_non_null(short_config);
    assert_true(histogram_total(profile, offsetof(model_kernel_profile, l1_hit_gaps)) > 0);
    const char *mechanisms[] = {"tc-weak", "tc-strong"};
    model_prediction lapsing[2], shorter[2];
    for (int m = 0; m < 2; m++) {
        lapsing[m] = predict(mechanisms[m], profile, config);
        shorter[m] = predict(mechanisms[m], profile, short_config);
        double sum = 0;
        for (int c = 0; c < GSI_CATEGORY_COUNT; c++)
            sum += lapsing[m].stalls[c];
        assert_float_equal(sum, lapsing[m].cycles, 1e-9 * lapsing[m].cycles);
        assert_true(shorter[m].l1_hits < lapsing[m].l1_hits);
    }
    clear_hit_gaps(profile);   /* no gaps: every kept reuse hits, at the shorter lease too */
    for (int m = 0; m < 2; m++) {
        model_prediction kept = predict(mechanisms[m], profile, short_config);
        assert_true(shorter[m].l1_hits < kept.l1_hits);
        assert_true(shorter[m].cycles > kept.cycles);
    }
    profile_free(profile);
    sc_config_free(config);
    sc_config_free(short_config);

    /* sort's radix_offsets writes each counts line right after loading it: TC-Strong's SC core
     * waits for each such store's lease wait (sync); TC-Weak's stores do not wait. */
    profile = profile_sized("gtx480", "sort", "tiny", &config);
    assert_histogram_term(profile, config, "tc-strong", "tc-weak", offsetof(model_kernel_profile, write_lease_gaps),
                          offsetof(model_kernel_profile, write_lease_gap_summary), GSI_SYNC);
    profile_free(profile);
    sc_config_free(config);
}

/* TC-Weak's kernel end waits for its writes' GWCT, the lease of the line's latest load
 * (lease_model.h): a launch whose latest load of a line it then wrote came e instructions before
 * its end waits max(0, L - e c). sort's radix_offsets loads each counts line and writes it back
 * at its end, so tc-weak's launches wait (GSI sync, the kernel-end release), and tc-strong's,
 * whose stores wait at the L2 instead, do not. */
static void tc_weak_kernel_end_waits_for_gwct(void **state)
{
    model_kernel_profile kernel;
    memset(&kernel, 0, sizeof kernel);
    model_point point = lease_point();
    kernel.launches = 4;
    reuse_add(&kernel.kernel_end_lease_ages, 3, 2);      /* each waits 2048 - 300 cycles */
    reuse_add(&kernel.kernel_end_lease_ages, 100, 1);    /* its lease is over */
    reuse_summarize(&kernel.kernel_end_lease_ages, &kernel.kernel_end_lease_age_summary);
    assert_float_equal(lease_kernel_end_wait(&kernel, &point, 100.0), 2 * (2048 - 300.0) / 4, 1e-9);
    assert_float_equal(lease_kernel_end_wait(&kernel, &point, 0.0), 0.0, 0.0);

    sc_config *config;
    model_profile *profile = profile_sized("gtx480", "sort", "tiny", &config);
    assert_histogram_term(profile, config, "tc-weak", "tc-strong", offsetof(model_kernel_profile, kernel_end_lease_ages),
                          offsetof(model_kernel_profile, kernel_end_lease_age_summary), GSI_SYNC);
    profile_free(profile);
    sc_config_free(config);
}

/* Both lease protocols' kernel ends wait for the leases an earlier launch's reads took on the
 * lines the launch writes (kernel_end_earlier_lease_ages): stencil reads in each launch the grid
 * the next one writes. Each such launch's lease has L - e c left at its end counting only the
 * launches' busy time (lease_earlier_left); the core takes off the time between the launches and
 * the launch before's own wait (half of what is left: the launches alternate between waiting and
 * not). Measured (sahc-apu, stencil small at 32 CUs and 64 KiB, detailed): tc-weak 9,786 cycles,
 * 5,462 of them sync (release) a CU; its odd launches 1,802-1,826 cycles, the even ones 613-667;
 * with tc.lease_cycles 512 / 1024 / 4096: 4,958 / 5,690 / 17,978. */
static void lease_kernel_end_waits_for_earlier_leases(void **state)
{
    (void)state;
    model_kernel_profile kernel;
    memset(&kernel, 0, sizeof kernel);
    model_point point = lease_point();
    kernel.launches = 8;
    reuse_add(&kernel.kernel_end_earlier_lease_ages, 4, 7);   /* each has 2048 - 400 cycles left */
    reuse_summarize(&kernel.kernel_end_earlier_lease_ages, &kernel.kernel_end_earlier_lease_age_summary);
    model_demand demand = {0};
    lease_earlier_left(&kernel, &point, 100.0, &demand);
    assert_float_equal(demand.earlier_lease_left, 7 * (2048 - 400.0) / 8, 1e-9);
    assert_float_equal(demand.earlier_lease_launches, 7.0 / 8, 1e-12);

    sc_config *config;
    const char *sets[] = {"gpu.cu_count=32", "l1.size=64KiB"};
    model_profile *profile = profile_set("sahc-apu", "stencil", "small", sets, 2, &config);
    assert_int_equal(profile->kernel_count, 1);   /* stencil_step's eight launches */
    const model_kernel_profile *step = &profile->kernels[0];
    assert_float_equal(reuse_total(&step->kernel_end_earlier_lease_ages), step->launches - 1, 0.0);
    model_kernel_profile recorded = *step;
    assert_histogram_term(profile, config, "tc-weak", "mesi", offsetof(model_kernel_profile, kernel_end_earlier_lease_ages),
                          offsetof(model_kernel_profile, kernel_end_earlier_lease_age_summary), GSI_SYNC);
    profile->kernels[0] = recorded;   /* the ages the term above emptied */
    assert_histogram_term(profile, config, "tc-strong", "rfo",
                          offsetof(model_kernel_profile, kernel_end_earlier_lease_ages),
                          offsetof(model_kernel_profile, kernel_end_earlier_lease_age_summary), GSI_SYNC);
    profile_free(profile);
    sc_config_free(config);
}

static void profile_json_round_trip(void **state)
{
    sc_config *config;
    model_profile *profile = profile_of("histogram", &config);
    char *json = profile_to_json(profile);
    sc_error error = {{0}};
    model_profile *back = profile_from_json(json, &error);
    assert_non_null(back);
    assert_int_equal(back->kernel_count, profile->kernel_count);
    assert_string_equal(back->key, profile->key);
    for (int k = 0; k < profile->kernel_count; k++) {
        assert_memory_equal(&back->kernels[k].l1_loads, &profile->kernels[k].l1_loads, sizeof(reuse_histogram));
        assert_memory_equal(&back->kernels[k].l2_reads, &profile->kernels[k].l2_reads, sizeof(reuse_histogram));
        assert_true(back->kernels[k].warp_instructions == profile->kernels[k].warp_instructions);
        assert_true(back->kernels[k].lines[MODEL_ATOMIC] == profile->kernels[k].lines[MODEL_ATOMIC]);
    }
    assert_true(profile->kernels[0].lines[MODEL_ATOMIC] > 0);   /* the histogram kernels use atomics */
    assert_null(profile_from_json("{\"workload\": 3}", &error));
    assert_non_null(strstr(error.message, "workload"));
    free(json);
    profile_free(back);
    profile_free(profile);
    sc_config_free(config);
}

static void profile_key_names_what_invalidates_it(void **state)
{
    sc_error error = {{0}};
    const char *sets[] = {"gpu.cu_count=8", "l2.size=393216", "gpu.registers_per_cu=16384"};
    sc_config *base = sc_config_load("gtx480", NULL, NULL, 0, &error), *fewer = sc_config_load("gtx480", NULL, sets, 1, &error);
    sc_config *smaller_l2 = sc_config_load("gtx480", NULL, sets + 1, 1, &error);
    sc_config *fewer_registers = sc_config_load("gtx480", NULL, sets + 2, 1, &error);
    char a[PROFILE_KEY_BYTES], b[PROFILE_KEY_BYTES], c[PROFILE_KEY_BYTES], g[PROFILE_KEY_BYTES];
    profile_key_of(base, a);
    profile_key_of(fewer, b);
    profile_key_of(smaller_l2, c);
    profile_key_of(fewer_registers, g);
    assert_string_not_equal(a, b);    /* CU count changes the CTA placement: new profile */
    assert_string_equal(a, c);        /* cache capacity does not */
    assert_string_not_equal(a, g);    /* registers change the CTAs a CU holds */
    assert_non_null(strstr(a, "warps=48 registers=32768 shared=16384 "));
    assert_non_null(strstr(a, "schedulers=2 issue=1 banks=1 "));   /* they set the interleaving */
    assert_non_null(strstr(a, "scheduler=lrr l1=49152 ways=6 mshrs=32 "));   /* L1 misses set the warp order */
    sc_config *gsi = sc_config_load("gsi", NULL, NULL, 0, &error);
    const char *smaller_l1_set[] = {"l1.size=8192"};
    sc_config *smaller_l1 = sc_config_load("gsi", NULL, smaller_l1_set, 1, &error);
    sc_config *smaller_lrr_l1 = sc_config_load("gtx480", NULL, smaller_l1_set, 1, &error);
    char d[PROFILE_KEY_BYTES], e[PROFILE_KEY_BYTES], f[PROFILE_KEY_BYTES];
    profile_key_of(gsi, d);
    profile_key_of(smaller_l1, e);
    profile_key_of(smaller_lrr_l1, f);
    assert_non_null(strstr(d, "scheduler=gto l1=32768 ways=8 mshrs=32 "));
    assert_string_not_equal(d, e);
    assert_string_not_equal(a, f);
    sc_config_free(smaller_lrr_l1);
    sc_config_free(gsi);
    sc_config_free(smaller_l1);
    sc_config_free(base);
    sc_config_free(fewer);
    sc_config_free(smaller_l2);
    sc_config_free(fewer_registers);
}

/* The local-memory organisations (docs/local-memory.md) on gsi's one SM (Fig 6.3's setup): the
 * implicit kernel at tiny is 4 CTAs of 256 threads, each mapping 1 KiB (16 lines of 64 bytes). */
static const char *one_sm[] = {"gpu.cu_count=1"};

/* A copy of a profile's one kernel group without its mapping's transfers: what the model saw
 * before it knew the DMA engine (every mapped access a free local hit). */
static model_profile without_dma(const model_profile *profile, model_kernel_profile *group)
{
    model_profile copy = *profile;
    *group = profile->kernels[0];
    group->dma_lines = group->dma_writeback_lines = 0;
    copy.kernels = group;
    return copy;
}

/* Scratchpad+DMA: the profile holds each CTA's chunk lines (read, written back) and no global
 * access of the warps; under every mechanism the mapped launch costs at least the transfer more
 * than the same launch without it: one wave of 4 CTAs, 64 reads presented one per cycle, the
 * last answered at least an L2 hit later, all of it mem_struct (the whole SM blocked, §4.5). */
static void dma_transfers_block_the_sm(void **state)
{
    sc_config *config;
    model_profile *profile = profile_set("gsi", "implicit-dma", "tiny", one_sm, 1, &config);
    assert_int_equal(profile->kernel_count, 1);
    const model_kernel_profile *k = &profile->kernels[0];
    assert_float_equal(k->mapped_bytes_per_cta, 1024, 0);
    assert_float_equal(k->dma_lines, 4 * 16, 0);
    assert_float_equal(k->dma_writeback_lines, 4 * 16, 0);
    assert_float_equal(k->dma_read_summary.total, 4 * 16, 1e-9);
    for (int a = 0; a < MODEL_ACCESS_COUNT; a++)
        assert_float_equal(k->lines[a], 0, 0);
    assert_float_equal(k->stash_first_touch_loads + k->stash_dirty_words, 0, 0);
    model_kernel_profile bare_group;
    model_profile bare = without_dma(profile, &bare_group);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    double transfer = 4 * 16 - 1 + point.l2_latency;
    int count;
    const sc_mechanism *const *mechanisms = sc_mechanism_list(&count);
    for (int m = 0; m < count; m++) {
        if (!model_mechanism_find(mechanisms[m]->name))
            continue;   /* a mechanism without a model */
        const char *name = mechanisms[m]->name;
        model_prediction mapped = predict(name, profile, config), unmapped = predict(name, &bare, config);
        assert_true(mapped.cycles >= unmapped.cycles + transfer);
        assert_true(mapped.stalls[GSI_MEM_STRUCT] >= unmapped.stalls[GSI_MEM_STRUCT] + transfer);
        assert_true(mapped.noc_bytes_to_cus > unmapped.noc_bytes_to_cus);
    }
    /* Blocking only the accessing warps (D2MA's option) costs less than blocking the SM once there
     * are later waves; at one wave both wait for the whole transfer. */
    sc_config *core_config;
    const char *warp_sets[] = {"gpu.cu_count=1", "local_memory.dma_blocking=warp"};
    model_profile *waves = profile_set("gsi", "implicit-dma", "small", one_sm, 1, &core_config);   /* 10 waves of 6 */
    sc_config *warp_config = sc_config_load("gsi", NULL, warp_sets, 2, &error);
    assert_true(predict("denovo", waves, warp_config).cycles < predict("denovo", waves, core_config).cycles);
    assert_float_equal(predict("denovo", profile, warp_config).cycles, predict("denovo", profile, core_config).cycles,
                       1e-9);
    profile_free(waves);
    sc_config_free(warp_config);
    sc_config_free(core_config);
    profile_free(profile);
    sc_config_free(config);
}

/* Stash: each mapped word's first access is a strong global load of its line (one per line of the
 * chunk: 256 consecutive words per CTA), its later accesses local hits; every store also reaches
 * the store path, its words dirty. The first touches add line requests that hold MSHRs and that
 * warps wait for, and the stores the kernel-end flush: more cycles, memory and sync stalls than
 * the local hits the model saw before. */
static void stash_first_touches_are_global_loads(void **state)
{
    sc_config *config;
    model_profile *profile = profile_set("gsi", "implicit-stash", "tiny", one_sm, 1, &config);
    const model_kernel_profile *k = &profile->kernels[0];
    assert_float_equal(k->mapped_bytes_per_cta, 1024, 0);
    assert_float_equal(k->dma_lines, 0, 0);
    assert_float_equal(k->stash_first_touch_lines, 4 * 16, 0);
    assert_float_equal(k->lines[MODEL_LOAD_STRONG], 4 * 16, 0);
    assert_float_equal(k->instructions[MODEL_LOAD_STRONG], k->stash_first_touch_loads, 0);
    assert_float_equal(k->stash_first_touch_loads, 4 * 8, 0);   /* one per warp: 32 words, 2 lines */
    assert_float_equal(k->stash_dirty_words, 4 * 256, 0);
    assert_float_equal(k->stash_store_lines, 4 * 16, 0);
    assert_float_equal(k->lines[MODEL_STORE], 4 * 16, 0);
    /* The same kernel with every mapped access local (the DMA profile less its transfers). */
    sc_config *dma_config;
    model_profile *dma = profile_set("gsi", "implicit-dma", "tiny", one_sm, 1, &dma_config);
    model_kernel_profile bare_group;
    model_profile bare = without_dma(dma, &bare_group);
    model_point point;
    sc_error error = {{0}};
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    model_prediction stash = predict("denovo", profile, config), local = predict("denovo", &bare, config);
    assert_true(stash.cycles >= local.cycles + point.l2_latency);
    assert_true(stash.stalls[GSI_MEM_DATA] > local.stalls[GSI_MEM_DATA]);
    assert_true(stash.stalls[GSI_MEM_STRUCT] > local.stalls[GSI_MEM_STRUCT]);
    /* Under denovo the dirty words wait in the store buffer until the kernel-end flush registers them. */
    assert_true(stash.stalls[GSI_SYNC] > local.stalls[GSI_SYNC]);
    assert_true(stash.l2_hits + stash.l2_misses >= 4 * 16);
    profile_free(dma);
    sc_config_free(dma_config);
    profile_free(profile);
    sc_config_free(config);
}

/* The banked scratchpad: the profile's conflict cycles (none in implicit's one word per thread)
 * hold the load/store unit and delay the results where local_memory.timing is banked, and cost
 * nothing where it is fixed. */
static void bank_conflicts_cost_on_a_banked_scratchpad(void **state)
{
    sc_config *config;
    model_profile *profile = profile_set("gsi", "implicit", "tiny", one_sm, 1, &config);
    assert_float_equal(profile->kernels[0].shared_conflict_cycles, 0, 0);
    assert_true(profile->kernels[0].shared_accesses > 0);
    model_prediction clean = predict("denovo", profile, config);
    profile->kernels[0].shared_conflict_cycles = 31 * profile->kernels[0].shared_accesses;   /* all 32-way */
    model_prediction conflicted = predict("denovo", profile, config);
    assert_true(conflicted.cycles > clean.cycles + profile->kernels[0].shared_accesses);
    assert_true(conflicted.stalls[GSI_MEM_STRUCT] > clean.stalls[GSI_MEM_STRUCT]);
    sc_error error = {{0}};
    const char *fixed_sets[] = {"gpu.cu_count=1", "local_memory.timing=fixed"};
    sc_config *fixed = sc_config_load("gsi", NULL, fixed_sets, 2, &error);
    model_prediction fixed_conflicted = predict("denovo", profile, fixed);
    profile->kernels[0].shared_conflict_cycles = 0;
    assert_float_equal(fixed_conflicted.cycles, predict("denovo", profile, fixed).cycles, 1e-9);
    sc_config_free(fixed);
    profile_free(profile);
    sc_config_free(config);
}

/* qr-apu's point for `mechanism` (its L2 writes through; rfo's directory makes it write-back
 * whatever the preset says) with DRAM 8 times slower, and the mechanism's initial parameters. */
static void point_with_slow_dram(const sc_config *config, const char *mechanism, model_point *point,
                                 model_param_spec *spec)
{
    sc_error error = {{0}};
    assert_int_equal(model_point_from_config(config, point, &error), 0);
    model_point rfo_point = *point;
    assert_float_equal(point->l2_write_through, 1, 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find("rfo"), config, &rfo_point, &error), 0);
    assert_float_equal(rfo_point.l2_write_through, 0, 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find(mechanism), config, point, &error), 0);
    assert_int_equal(model_param_spec_load(sc_mechanism_find(mechanism)->params_file, spec, &error), 0);
    point->dram_line_cycles *= 8;
}

/* sort's profile on qr-apu, and the point for `mechanism` with DRAM 8 times slower. */
static model_profile *sort_with_slow_dram(const char *mechanism, sc_config **config, model_point *point,
                                          model_param_spec *spec)
{
    model_profile *profile = profile_on("qr-apu", "sort", config);
    point_with_slow_dram(*config, mechanism, point, spec);
    return profile;
}

/* The lines a group's stores and atomics write. */
static double written_lines(const model_kernel_profile *group)
{
    return group->lines[MODEL_STORE] + group->lines[MODEL_STORE_STRONG] + group->lines[MODEL_ATOMIC];
}

/* How long the kernel-end releases of a write-through L2 wait at least for the profile's written
 * lines: per launch, those beyond the DRAM queues' room at the channels' rate (at least a burst a
 * line, dram_rows.h); `written` gets the lines. */
static double write_through_wait(const model_profile *profile, const model_point *point, double *written)
{
    double line_cycles = point->dram_line_cycles / point->dram_channels;
    double wait = 0;
    *written = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        const model_kernel_profile *group = &profile->kernels[k];
        double lines = written_lines(group);
        *written += lines;
        wait += group->launches * fmax(lines / group->launches - point->dram_queue_lines, 0.0) * line_cycles;
    }
    return wait;
}

/* qr-apu's L2 writes through (l2.write_policy): each of sort's stores goes on to DRAM as the L2
 * takes it (radix_count and radix_offsets write every count, a word, to a line of its own). The
 * warps do not wait for those writes, but the release at kernel end waits until the DRAM queues
 * have room for the last, so with DRAM 8 times slower every launch lasts at least its written lines
 * beyond the queues' room at the channels' rate, and every written line is a DRAM write; with a
 * write-back L2 (sort's lines stay in it) the CUs are busy as long and the launches are shorter by
 * that wait, sync on the CUs that ran CTAs and idle on the others. */
static void write_through_l2_waits_for_dram(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = sort_with_slow_dram("wt", &config, &point, &spec);
    double written, floor = write_through_wait(profile, &point, &written);
    assert_true(floor > 0);
    const model_mechanism *wt = model_mechanism_find("wt");
    model_prediction through, back;
    wt->evaluate(profile, &point, &spec.initial, &through);
    assert_true(through.cycles >= floor);
    assert_float_equal(through.dram_write_bytes, written * point.line_bytes, 1e-9 * written * point.line_bytes);
    point.l2_write_through = 0;
    wt->evaluate(profile, &point, &spec.initial, &back);
    assert_true(back.cycles < through.cycles);
    /* The wait is sync on the active CUs, idle on the rest; the write-through L2 also misses the
     * lines the launches before wrote around it (write_through_l2_misses_the_lines_written_around_it),
     * so its CUs are busy at least as long. */
    assert_true(through.stalls[GSI_SYNC] > back.stalls[GSI_SYNC]);
    assert_true(through.stalls[GSI_SYNC] + through.stalls[GSI_IDLE] - back.stalls[GSI_SYNC] - back.stalls[GSI_IDLE] <=
                through.cycles - back.cycles + 1e-6 * through.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* DeNovo on qr-apu: every store registers its words at the L2, which sends them on to DRAM (its
 * L2 writes through) but acknowledges the registration at once, without waiting for room in the
 * DRAM queues as it does for a write (denovo_l2.c, l2_bank.c). So the kernel-end release does not
 * wait behind the written-through lines: sort (no atomics, and no DRAM reads at this size) takes
 * the same cycles with DRAM 8 times slower, far less than wt's wait for the same lines, and the
 * registered lines are still DRAM writes. Measured in the detailed runs: halving qr-apu's DRAM
 * clock leaves every denovo sort launch after the first two (their cold reads) at the same cycles
 * and doubles every wt launch (docs/denovo.md). */
static void denovo_registrations_do_not_wait_for_dram(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = sort_with_slow_dram("denovo", &config, &point, &spec);
    for (int k = 0; k < profile->kernel_count; k++)
        assert_float_equal(profile->kernels[k].lines[MODEL_ATOMIC], 0, 0);
    double registered, wt_wait = write_through_wait(profile, &point, &registered);
    assert_true(wt_wait > 0);
    const model_mechanism *denovo = model_mechanism_find("denovo");
    model_prediction slow, preset;
    denovo->evaluate(profile, &point, &spec.initial, &slow);
    model_point preset_point = point;
    preset_point.dram_line_cycles /= 8;
    denovo->evaluate(profile, &preset_point, &spec.initial, &preset);
    assert_float_equal(slow.cycles, preset.cycles, 1e-9 * preset.cycles);
    assert_true(slow.cycles < wt_wait);
    assert_float_equal(slow.dram_write_bytes, registered * point.line_bytes, 1e-9 * registered * point.line_bytes);
    profile_free(profile);
    sc_config_free(config);
}

/* stencil on qr-apu at 7 CUs, an 8 KiB L1 and a 128 KiB L2 (its two grids fill the L2, so every
 * launch reads from DRAM) under denovo: each registration's words and each owned line an L1
 * replaces go on to DRAM through the write-through L2 without waiting (posted writes), and the
 * channels take a launch's DRAM reads behind the writes posted before them (the detailed run:
 * 16,038 DRAM writes for 8,192 registrations; 61,227 cycles, 29,008 at 4 times the DRAM clock).
 * So the DRAM writes are more than the registrations, and with DRAM 8 times slower each launch
 * lasts at least until the channels have taken the DRAM lines ahead of its last read. */
static void denovo_reads_queue_behind_posted_writes(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.cu_count=7", "l1.size=8KiB", "l2.size=128KiB"};
    sc_config *config;
    model_profile *profile = profile_set("qr-apu", "stencil", "small", sets, 3, &config);
    model_point point;
    model_param_spec spec;
    point_with_slow_dram(config, "denovo", &point, &spec);
    assert_int_equal(profile->kernel_count, 1);
    const model_kernel_profile *group = &profile->kernels[0];
    model_prediction slow;
    model_mechanism_find("denovo")->evaluate(profile, &point, &spec.initial, &slow);
    double registered = group->lines[MODEL_STORE] + group->lines[MODEL_STORE_STRONG];
    assert_true(slow.dram_write_bytes > 1.5 * registered * point.line_bytes);
    double reads = slow.dram_read_bytes / point.line_bytes / group->launches;
    double lines = (slow.dram_read_bytes + slow.dram_write_bytes) / point.line_bytes;
    double line_cycles = point.dram_line_cycles / point.dram_channels;   /* the channels at their peak */
    assert_true(reads >= 1);
    assert_true(slow.cycles >= lines * reads / (reads + 1) * line_cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* histogram on qr-apu under `mechanism` with DRAM 8 times slower: the cycles its hot line's atomics
 * beyond their channel's queues take at one channel's line time (`floor`), and the predictions
 * with the preset's write-through L2 (`through`), with a write-back one (`back`) and with the
 * write-through L2 and every other line missing its DRAM row (`slow_rows`, dram_rows.h). */
typedef struct hot_atomics_runs {
    double floor;
    model_prediction through, back, slow_rows;
} hot_atomics_runs;

static hot_atomics_runs hot_atomics_with_slow_dram(const char *mechanism)
{
    sc_config *config;
    model_profile *profile = profile_sized("qr-apu", "histogram", "small", &config);
    model_point point;
    model_param_spec spec;
    point_with_slow_dram(config, mechanism, &point, &spec);
    hot_atomics_runs runs = {0};
    double queued = point.dram_queue_lines / point.dram_channels;
    for (int k = 0; k < profile->kernel_count; k++) {
        const model_kernel_profile *group = &profile->kernels[k];
        double hot = group->lines[MODEL_ATOMIC] * group->atomic_hottest_share / group->launches;
        runs.floor += group->launches * fmax(hot - queued, 0.0) * point.dram_line_cycles;
    }
    const model_mechanism *model = model_mechanism_find(mechanism);
    model->evaluate(profile, &point, &spec.initial, &runs.through);
    for (int k = 0; k < profile->kernel_count; k++)
        profile->kernels[k].terms.dram_row_hit_share = 0;
    model->evaluate(profile, &point, &spec.initial, &runs.slow_rows);
    point.l2_write_through = 0;
    model->evaluate(profile, &point, &spec.initial, &runs.back);
    profile_free(profile);
    sc_config_free(config);
    return runs;
}

/* histogram_global's atomics all fall on one line (16 bins), whose writes a write-through L2 sends
 * to one DRAM channel: once they have filled that channel's queues, its bank performs them no
 * faster than the channel takes a line, and the warps wait for their atomics. With DRAM 8 times
 * slower the workload lasts at least the hot line's atomics beyond the channel's queues at one
 * channel's line time; with a write-back L2 it is much faster. The line's writes all hit the open
 * row, so the channel takes them at the bus's rate whatever the other traffic's row misses cost:
 * every other line missing its row adds far less than the hot line's wait again. */
static void write_through_hot_atomics_wait_for_one_channel(void **state)
{
    hot_atomics_runs wt = hot_atomics_with_slow_dram("wt");
    assert_true(wt.floor > 0);
    assert_true(wt.through.cycles >= wt.floor);
    assert_true(wt.back.cycles < wt.floor);
    assert_true(wt.slow_rows.cycles < wt.through.cycles + 0.25 * wt.floor);
}

/* qr performs an atomic at the L2 bank and writes its result through to memory whatever the L2's
 * write policy (qr_write_path.c, step 6: the detailed histogram's DRAM writes equal its L2 atomics
 * on qr-apu, gtx480 and gsi), as wt's write-through L2 does: histogram_global's hot line sends its
 * atomics to one DRAM channel, and the workload lasts at least those beyond the channel's queues at
 * one channel's line time, with either L2 (qr-apu at dram.clock 204MHz: 450 DRAM writes a launch
 * in 9,200 cycles, 20 GPU cycles a write, the channel's line time 19.6). */
static void qr_hot_atomics_wait_for_one_channel(void **state)
{
    hot_atomics_runs qr = hot_atomics_with_slow_dram("qr");
    assert_true(qr.floor > 0);
    assert_true(qr.through.cycles >= qr.floor);
    assert_true(qr.back.cycles >= qr.floor);
}

/* sort's radix_offsets is one CTA of 4 warps on sahc-apu (64-wide warps): its count stores, a line
 * each, all leave through its one CU's port, a data message each. A port carries at most one
 * message per its message cycles, so each launch lasts at least those cycles, whatever the
 * queueing estimate says (Schweitzer's v = c U reaches 1 only at U = N / (N-1), 4/3 with 4 warps,
 * and the stores' port queue is not on the warps' cycle). */
static void stations_carry_at_most_their_capacity(void **state)
{
    sc_config *config;
    model_profile *profile = profile_sized("sahc-apu", "sort", "small", &config);
    model_point point;
    sc_error error = {{0}};
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    model_profile alone = *profile;
    alone.kernel_count = 1;
    for (int k = 0; k < profile->kernel_count; k++)
        if (profile->kernels[k].ctas == 1)
            alone.kernels = &profile->kernels[k];
    assert_float_equal(alone.kernels->ctas, 1, 0);
    double port_cycles = written_lines(alone.kernels) * point.noc_data_cycles;
    assert_true(port_cycles > 0);
    assert_true(predict("wt", &alone, config).cycles >= port_cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* Fills every group's l1_loads_kept with its l1_loads: the lease models read the L1's tags as if
 * they were restarted at every acquire and kept a line the CU stores to (the base of session 25). */
static void keep_epoch_tags(model_profile *profile)
{
    for (int k = 0; k < profile->kernel_count; k++) {
        model_kernel_profile *group = &profile->kernels[k];
        group->l1_loads_kept = group->l1_loads;
        reuse_summarize(&group->l1_loads_kept, &group->l1_kept_summary);
    }
}

/* The lease protocols' L1 keeps its lines across acquires (only time and the CU's own writes take
 * a copy away) and is write-no-allocate: a CU's store drops its copy (lease.h, rows V x Store).
 * The profile's l1_loads_kept sees every reuse on such tags. sort's radix_offsets (one CTA of 256
 * threads on sahc-apu) reads each of its 256 count lines 16 times, then reads and rewrites each
 * entry in turn, so its second pass's loads 2 to 16 of each line miss the kept tags (15 x 256 a
 * launch) where the per-acquire tags (l1_loads) hit them. stencil's reads of the buffer its
 * previous launch wrote cross the launch's acquire: l1_loads counts them at their fully
 * associative distance, within the L1, where the kept tags' crowded sets (a column of CTAs' rows
 * in a few sets) evict many of them (7,600 of 56,480 hits at the preset). Fed the kept tags,
 * both lease models predict fewer hits and more cycles than fed the per-acquire ones; wt, which
 * reads no kept reuse, is unchanged. */
static void lease_l1_keeps_lines_across_acquires(void **state)
{
    const char *workloads[] = {"sort", "stencil"};
    const char *mechanisms[] = {"tc-weak", "tc-strong"};
    for (int w = 0; w < 2; w++) {
        sc_config *config;
        model_profile *profile = profile_sized("sahc-apu", workloads[w], "small", &config);
        model_point point;
        sc_error error = {{0}};
        assert_int_equal(model_point_from_config(config, &point, &error), 0);
        for (int k = 0; k < profile->kernel_count; k++) {
            const model_kernel_profile *group = &profile->kernels[k];
            double lost = model_l1_hits(&group->l1_summary, &point) - model_l1_hits(&group->l1_kept_summary, &point);
            if (w == 0 && group->ctas == 1)
                assert_true(lost >= 15 * 256 * group->launches);
            if (w == 1)
                assert_true(lost > 0.1 * model_l1_hits(&group->l1_summary, &point));
        }
        model_prediction with[2], wt = predict("wt", profile, config);
        for (int m = 0; m < 2; m++)
            with[m] = predict(mechanisms[m], profile, config);
        keep_epoch_tags(profile);
        for (int m = 0; m < 2; m++) {
            model_prediction without = predict(mechanisms[m], profile, config);
            assert_true(with[m].l1_hits < without.l1_hits);
            assert_true(with[m].cycles > without.cycles);
        }
        assert_float_equal(predict("wt", profile, config).cycles, wt.cycles, 0);
        profile_free(profile);
        sc_config_free(config);
    }
}

/* The RCC L1 keeps its lines across kernels in its sets (session 30, docs/calibration.md: "reduction
 * at 32 CUs on sahc-apu"). reduction small on sahc-apu at 32 CUs: CU c runs CTAs c and c + 32 in
 * both launches, and reduce_shuffle rereads the 512 lines reduce_shared read there, 16 a loop
 * step, 1,024 lines apart: with a 64 KiB 8-way L1 (128 sets) they fall into 16 sets, 32 lines a
 * set, and none is left for the second launch (the detailed L1 hits none of its 16,384 loads),
 * where the per-acquire stack counts every one at its fully associative distance (511 < 1,024
 * lines). With 64 ways (16 sets, 64 lines a set) the lines survive and the L1 hits them all (the
 * detailed run's 16,384). Both RCC models read the kept tags; wt, whose L1 drops every line at
 * the kernel's acquire, hits none either way. */
static void rcc_l1_keeps_its_sets_across_kernels(void **state)
{
    (void)state;
    const char *mechanisms[] = {"rcc", "rcc-wo", "wt"};
    const char *eight_ways[] = {"gpu.cu_count=32", "l1.size=65536"};
    const char *sixty_four_ways[] = {"gpu.cu_count=32", "l1.size=65536", "l1.associativity=64"};
    sc_config *crowded_config, *roomy_config;
    model_profile *crowded = profile_set("sahc-apu", "reduction", "small", eight_ways, 2, &crowded_config);
    model_profile *roomy = profile_set("sahc-apu", "reduction", "small", sixty_four_ways, 3, &roomy_config);
    for (int m = 0; m < 3; m++) {
        model_prediction in_sets = predict(mechanisms[m], crowded, crowded_config);
        model_prediction in_ways = predict(mechanisms[m], roomy, roomy_config);
        assert_true(in_sets.l1_hits < 1.0);
        if (m < 2)
            assert_float_equal(in_ways.l1_hits, 16384, 1.0);
        else
            assert_true(in_ways.l1_hits < 1.0);
    }
    profile_free(crowded);
    profile_free(roomy);
    sc_config_free(crowded_config);
    sc_config_free(roomy_config);
}

/* histogram with a slow directory (200 cycles) on `system` with `sets` besides: the forward
 * latency times its hot line's transfers, per launch `per_warp` one for each warp, or else one
 * for each CU's visit in each of the warps' atomic rounds (the CUs' turns times the line's
 * atomics per warp, at least one), or (`per_warp` and `per_visit`) the fewer of the two; at most
 * one per atomic on the line. */
static double hot_line_floor(const char *mechanism, const char *system, const char *cus, bool per_warp,
                             bool per_visit, model_prediction *prediction)
{
    sc_config *config;
    const char *sets[] = {"directory.latency=200", cus};
    model_profile *profile = profile_set(system, "histogram", "small", sets, cus ? 2 : 1, &config);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find(mechanism), config, &point, &error), 0);
    double floor = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        const model_kernel_profile *group = &profile->kernels[k];
        double hot = group->lines[MODEL_ATOMIC] * group->atomic_hottest_share / group->launches;
        double warps = group->ctas * group->warps_per_cta;
        double visits = fmin(group->ctas, point.cu_count) * fmax(hot / warps, 1.0);
        double transfers = per_warp && per_visit ? fmin(warps, visits) : per_warp ? warps : visits;
        floor += group->launches * fmin(hot, transfers) * point.protocol_terms[OWNERSHIP_TERM_FORWARD_LATENCY];
    }
    *prediction = predict(mechanism, profile, config);
    profile_free(profile);
    sc_config_free(config);
    return floor;
}

/* histogram's atomics all fall on one line (16 bins). Under rfo each warp's atomics take that line
 * into its L1 at most once per launch (sahc-apu: one CTA of 4 warps a CU), each transfer a forward
 * through the blocking directory, which defers the next GetM until the owner has answered: with a
 * slow directory the workload lasts at least those transfers one after another, each the forward
 * latency. */
static void ownership_hot_line_moves_one_transfer_at_a_time(void **state)
{
    (void)state;
    model_prediction rfo;
    double floor = hot_line_floor("rfo", "sahc-apu", NULL, true, true, &rfo);
    assert_true(floor > 0);
    assert_true(rfo.cycles >= floor);
}

/* Under mesi's SC cores a warp has one access in flight, so an L1 that takes histogram's bin line
 * performs one atomic of each of its warps and loses the line to the next GetM: on sahc-apu (one
 * CTA of 4 warps a CU) histogram_global's 512 atomics a launch make 128 transfers, not one per
 * warp (64; measured 128). */
static void sc_cores_take_the_hot_line_once_per_atomic_round(void **state)
{
    (void)state;
    model_prediction mesi, unused;
    double floor = hot_line_floor("mesi", "sahc-apu", NULL, false, true, &mesi);
    assert_true(floor > hot_line_floor("mesi", "sahc-apu", NULL, true, false, &unused));
    assert_true(mesi.cycles >= floor);
}

/* The line visits each CU once a round, and a visit performs an atomic of each of the CU's
 * warps: on gtx480 at 7 CUs (2-3 CTAs of 8 warps a CU) histogram_global's 1,024 atomics a launch
 * make 56 transfers, not one per warp (128; measured 56 under rfo and mesi). With a slow
 * directory the model lasts at least those transfers and less than one per warp. */
static void hot_line_visits_each_cu_once_a_round(void **state)
{
    (void)state;
    const char *mechanisms[] = {"rfo", "mesi"};
    for (int m = 0; m < 2; m++) {
        model_prediction prediction, unused;
        double floor = hot_line_floor(mechanisms[m], "gtx480", "gpu.cu_count=7", false, true, &prediction);
        double per_warp = hot_line_floor(mechanisms[m], "gtx480", "gpu.cu_count=7", true, false, &unused);
        assert_true(prediction.cycles >= floor);
        assert_true(prediction.cycles < per_warp);
    }
}

/* The group of `profile` named `name` (asserted present). */
static const model_kernel_profile *group_named(const model_profile *profile, const char *name)
{
    for (int k = 0; k < profile->kernel_count; k++)
        if (!strcmp(profile->kernels[k].name, name))
            return &profile->kernels[k];
    fail_msg("no group %s", name);
    return NULL;
}

/* Each CU's stack of the lines it stores to, restarted at every launch (sort, small, sahc-apu: 16
 * CTAs of radix_count on 16 of the 32 CUs, each writing one count into each of the 256 count
 * lines; radix_offsets' one CTA writing each of its 256 lines 16 times over): radix_count's lines
 * are cold once per CU that writes them, 16 times the lines written; radix_offsets' are cold once
 * a launch, and its rewrites come after other lines, so an L1 of 64 lines loses some of them. */
static void each_cus_written_lines_are_profiled(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("sahc-apu", "sort", "small", &config);
    const model_kernel_profile *count = group_named(profile, "radix_count");
    assert_float_equal(count->written_lines, 4 * 256, 0);
    assert_float_equal(count->l1_writes.cold, 16 * count->written_lines, 0);
    const model_kernel_profile *offsets = group_named(profile, "radix_offsets");
    assert_float_equal(offsets->l1_writes.cold, offsets->written_lines, 0);
    assert_float_equal(offsets->l1_write_summary.total, offsets->lines[MODEL_STORE], 0);
    assert_true(reuse_expected_misses(&offsets->l1_write_summary, 64) > 1.5 * offsets->written_lines);
    assert_float_equal(reuse_expected_misses(&offsets->l1_write_summary, 1024), offsets->written_lines, 0);
    profile_free(profile);
    sc_config_free(config);
}

/* A warp instruction's lines beyond the L1 ask for MSHRs together, M at a time, and its last
 * line is answered floor((L - 1) / M) holds after its first (batch_rounds): sort's radix_offsets
 * (one CTA of four 64-wide wavefronts on sahc-apu) reads each thread's count line, 64 lines a
 * load, and under RCC its loop-2 loads miss them all (the L1 drops a line at its own store's
 * ack; the model's mean is 33 lines beyond the L1 a load). On 16 MSHRs each such load waits two
 * holds more and on 32 one; the launch is longer where that wait carries the warps' cycle past
 * the CU's busiest station (at the preset's point only on 16 MSHRs: on 32 its NoC ports bound it,
 * docs/calibration.md, "sort on sahc-apu: an instruction's lines wait for the L1's MSHRs"). The
 * wait is mem_struct (MSHRs full). Measured (detailed, rcc, the README row's worst point):
 * radix_offsets 26,254 / 24,081 cycles a launch at 16 / 32 MSHRs. */
static void instructions_wait_for_mshrs_in_rounds(void **state)
{
    (void)state;
    const char *mshrs[][1] = {{"l1.mshrs=16"}, {"l1.mshrs=32"}};
    model_prediction predicted[2];
    for (int i = 0; i < 2; i++) {
        sc_config *config;
        model_profile *profile = profile_set("sahc-apu", "sort", "small", mshrs[i], 1, &config);
        predicted[i] = predict("rcc", profile, config);
        profile_free(profile);
        sc_config_free(config);
    }
    assert_true(predicted[0].cycles > predicted[1].cycles);
    assert_true(predicted[0].stalls[GSI_MEM_STRUCT] > predicted[1].stalls[GSI_MEM_STRUCT]);
}

/* QuickRelease's wL1 combines a CU's stores until it evicts the line, so a line 16 CUs write in a
 * launch crosses the NoC 16 times (and is broadcast-invalidated 16 times), and a wL1 too small
 * for the lines a CU cycles its stores over sends them out again: sort's written lines leave the
 * CUs as l1_writes says at the wL1's 64 lines (sahc-apu's l1.write_cache_size 4 KiB), fewer with a
 * 64 KiB wL1. Measured (qr, sahc-apu preset, detailed): radix_count 4,302-4,429 cycles a launch,
 * its CUs in the kernel-end release 94% of their cycles, 1,347,584 NoC bytes a launch. */
static void qr_writes_out_each_cus_lines(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("sahc-apu", "sort", "small", &config);
    double written_out = 0, written = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        written_out += reuse_expected_misses(&profile->kernels[k].l1_write_summary, 64);
        written += profile->kernels[k].written_lines;
    }
    assert_true(written_out > 8 * written);
    model_prediction small = predict("qr", profile, config);
    double line_message = 64 + MEMORY_MESSAGE_HEADER_BYTES;
    assert_true(small.noc_bytes_from_cus >= written_out * line_message);
    const char *sets[] = {"l1.write_cache_size=64KiB"};
    sc_config *large_config = sc_config_load("sahc-apu", NULL, sets, 1, &(sc_error){{0}});
    assert_non_null(large_config);
    model_prediction large = predict("qr", profile, large_config);
    assert_true(large.noc_bytes_from_cus < small.noc_bytes_from_cus);
    profile_free(profile);
    sc_config_free(config);
    sc_config_free(large_config);
}

/* A wL2 eviction's invalidation reaches every rL1, so each CU's in port takes one copy whether the
 * other CUs run CTAs or idle: sort's 16-CTA launches take as long with 64 CUs as with 32 (the
 * detailed qr runs of sort on sahc-apu take 140,940-141,372 cycles at 16 to 32 CUs, 30 held-out
 * points; the model gave 88,209 at 16 and 105,442 at 32). */
static void broadcast_invalidations_load_each_port_once(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("sahc-apu", "sort", "small", &config);
    const char *sets[] = {"gpu.cu_count=64"};
    sc_config *doubled_config = sc_config_load("sahc-apu", NULL, sets, 1, &(sc_error){{0}});
    assert_non_null(doubled_config);
    model_prediction preset = predict("qr", profile, config), doubled = predict("qr", profile, doubled_config);
    assert_float_equal(doubled.cycles, preset.cycles, 1e-9 * preset.cycles);
    profile_free(profile);
    sc_config_free(config);
    sc_config_free(doubled_config);
}

/* A launch lasts at least its longest warp alone (model_core.c, longest_warp_alone). radix_move's
 * rank loop counts the digits of the threads before each thread, so on sahc-apu (64-thread warps,
 * 4 a CTA) warp 3 loops 255 times and warp 0 63: the profile's longest warp issues more than 1.5
 * times its CTA's mean, while radix_count's warps are even. Made even, radix_move predicts fewer
 * cycles under wt (detailed at the preset: 5,203 cycles a launch; the warps' mean at the
 * network's rate 2,689). */
static void a_launch_lasts_its_longest_warp(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("sahc-apu", "sort", "small", &config);
    model_kernel_profile *move = (model_kernel_profile *)group_named(profile, "radix_move");
    const model_kernel_profile *count = group_named(profile, "radix_count");
    double move_mean = move->warp_instructions / (move->ctas * move->warps_per_cta);
    double count_mean = count->warp_instructions / (count->ctas * count->warps_per_cta);
    assert_true(move->longest_warp_instructions > 1.5 * move_mean);
    assert_float_equal(count->longest_warp_instructions, count_mean, 1e-9 * count_mean);
    double beyond_mean = move->longest_warp_instructions - move_mean;   /* over its launches */
    model_prediction uneven = predict("wt", profile, config);
    move->longest_warp_instructions = move_mean;
    model_core_prepare_group(move);
    model_prediction even = predict("wt", profile, config);
    assert_true(uneven.cycles - even.cycles > beyond_mean);   /* more than a cycle each */
    profile_free(profile);
    sc_config_free(config);
}

/* The longest warp alone pays each of its instructions the cycle without memory waits and each of
 * its global accesses their unloaded wait (model_core.c, longest_warp_alone), not its instruction
 * count at the mean instruction's cycle. reduction on rcc-gpu (the point of the lead's session
 * 28: 16 CUs, 16 KiB L1): reduce_shared's warp 0 runs the shared-memory tree's last levels and
 * the atomic, more than 20 instructions beyond the mean warp but at most one global access more.
 * radix_move (sort, sahc-apu, wt) floors its launch at its longest warp: that warp's extra rank
 * loop iterations read shared memory; made global accesses, the same count of instructions takes
 * longer, more than a cycle each. */
static void a_longest_warp_pays_its_own_accesses(void **state)
{
    (void)state;
    sc_config *config;
    const char *point[] = {"l1.size=16384", "l2.size=786432", "gpu.cu_count=16", "dram.clock=909MHz", "noc.latency=10"};
    model_profile *reduction = profile_set("rcc-gpu", "reduction", "small", point, 5, &config);
    const model_kernel_profile *tree = group_named(reduction, "reduce_shared");
    double warps = tree->ctas * tree->warps_per_cta;
    double mean_global = 0;
    for (int a = 0; a < MODEL_ACCESS_COUNT; a++)
        mean_global += tree->instructions[a] / warps;
    assert_true(tree->longest_warp_instructions > tree->launches * (tree->warp_instructions / warps + 20.0));
    assert_true(tree->longest_warp_global_accesses <= tree->launches * (mean_global + 1.0));
    profile_free(reduction);
    sc_config_free(config);

    model_profile *sort = profile_sized("sahc-apu", "sort", "small", &config);
    model_kernel_profile *move = (model_kernel_profile *)group_named(sort, "radix_move");
    double move_mean = move->warp_instructions / (move->ctas * move->warps_per_cta);
    double beyond_mean = move->longest_warp_instructions - move_mean;   /* over its launches */
    model_prediction shared_extras = predict("wt", sort, config);
    move->longest_warp_global_accesses += beyond_mean;
    model_core_prepare_group(move);
    model_prediction global_extras = predict("wt", sort, config);
    assert_true(global_extras.cycles - shared_extras.cycles > beyond_mean);
    profile_free(sort);
    sc_config_free(config);
}

/* rfo: each CU that stores to a line in a launch fetches it for ownership (GetM), and every GetM
 * after the launch's first for the line finds it in another CU's L1, which the directory
 * forwards it to: radix_move's 16 CTAs each store keys into most of the output lines. Measured
 * (rfo, gtx480 preset, detailed): radix_move 23,496 cycles a launch, its CUs' memory-data stalls
 * mostly remote L1. */
static void ownership_is_taken_by_each_writing_cu(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("gtx480", "sort", "small", &config);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find("rfo"), config, &point, &error), 0);
    const model_kernel_profile *move = group_named(profile, "radix_move");
    assert_true(move->l1_writes.cold > 4 * move->written_lines);
    model_demand demand = {0};
    ownership_serve(move, &point, (ownership_choices){.l3_takes_writes = true}, &demand);
    double beyond = demand.read_lines_l2 + demand.read_lines_cpu + demand.read_lines_l3 + demand.read_lines_dram;
    double loads_beyond = move->lines[MODEL_LOAD] + move->lines[MODEL_LOAD_STRONG] - demand.read_lines_l1 +
                          move->lines[MODEL_ATOMIC];
    assert_float_equal(beyond - loads_beyond, move->l1_writes.cold, 1e-9 * beyond);
    assert_float_equal(demand.read_lines_forwarded,
                       fmin(move->remote_read_after_write + move->l1_writes.cold - move->written_lines, demand.read_lines_l2),
                       1e-9 * beyond);
    profile_free(profile);
    sc_config_free(config);
}

/* mesi and rfo: the CUs' L1s keep their lines across launches, a CU's store installs its line
 * (the GetM's data) and another CU's write invalidates the copy (l1_loads_owned). stencil's CUs
 * read in each launch rows of the tile they wrote in the launch before (hits the load stacks
 * count from the CU's previous load, two launches back), and first read the halo rows their
 * neighbours wrote (misses the load stacks have too). Measured (mesi, sahc-apu, stencil small at
 * 21 CUs and 16 KiB, detailed): 37,578 L1 hits of 63,360 load lines; main's model took the
 * load stacks' 31,744 hits less every load of a line another CU wrote last (14,224): 17,520. */
static void ownership_l1_takes_own_stores_and_drops_remote_writes(void **state)
{
    (void)state;
    sc_config *config;
    const char *sets[] = {"gpu.cu_count=21", "l1.size=16KiB"};
    model_profile *profile = profile_set("sahc-apu", "stencil", "small", sets, 2, &config);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find("mesi"), config, &point, &error), 0);
    assert_int_equal(profile->kernel_count, 1);
    const model_kernel_profile *step = &profile->kernels[0];
    assert_true(step->remote_read_after_write > 10000);
    double owned = model_l1_hits(&step->l1_owned_summary, &point);
    assert_true(owned > model_l1_hits(&step->l1_summary, &point) + 2000);
    assert_true(owned > 35000 && owned < 40000);
    model_demand demand = {0};
    ownership_serve(step, &point, (ownership_choices){.read_writes_home = true}, &demand);
    assert_float_equal(demand.read_lines_l1, owned - model_l1_hits(&step->l1_host_written_summary, &point), 1e-9 * owned);
    profile_free(profile);
    sc_config_free(config);
}

/* mesi and rfo: the memory-side L3 holds the lines the GPU wrote. rfo's L3 takes the writes;
 * mesi's does not, but each written line was fetched for ownership through it (the GetM's home
 * read allocates the line in the L3 on its DRAM fill, and the L2's write-back updates that copy
 * in place). Measured (mesi, qr-apu, vecadd small at 6 CUs, 32 KiB L1 and 384 KiB L2, detailed):
 * saxpy rereads the 4,096 lines of c vecadd wrote with 3,256 L3 hits, 840 L2 hits and no DRAM
 * read; the model sent them all to DRAM (4,096 DRAM reads in saxpy, as many as vecadd's GetMs
 * make in the detailed run). */
static void ownership_l3_holds_the_written_lines(void **state)
{
    (void)state;
    sc_config *config;
    const char *sets[] = {"gpu.cu_count=6", "l1.size=32KiB", "l2.size=384KiB"};
    model_profile *profile = profile_set("qr-apu", "vecadd", "small", sets, 3, &config);
    const model_kernel_profile *saxpy = group_named(profile, "saxpy");
    double c_lines = saxpy->lines[MODEL_STORE];
    assert_float_equal(c_lines, 4096, 0);
    const char *mechanisms[] = {"mesi", "rfo"};
    for (size_t m = 0; m < sizeof mechanisms / sizeof mechanisms[0]; m++) {
        model_prediction prediction = predict(mechanisms[m], profile, config);
        assert_true(prediction.l3_hits > 0.9 * c_lines);
        assert_true(prediction.dram_read_bytes < 0.1 * c_lines * 64);
    }
    profile_free(profile);
    sc_config_free(config);
}

/* The DRAM stream's row locality (model/dram_rows.h). The replay maps lines as the detailed
 * channels do: on rcc-gpu (8 channels, 128-byte lines, 2 KiB rows, 16 banks) 256 consecutive lines
 * open 16 rows, one per (channel, bank), and every other line finds its row open; lines a whole
 * channel-and-bank round apart (8 x 16 rows of 16 lines) share a bank and miss its open row. The
 * profiler replays reduction's cold reads: nearly all row hits, the miss share one row in 16. The
 * channel takes a line at its burst when the activates keep up (every preset at reduction's
 * share), and at the activate interval for a stream that misses every row (sahc-apu: 64-byte
 * bursts of one DRAM cycle, tFAW 30 a quarter of which per activate, refreshes tRFC 107 every
 * tREFI 5,200), so a group whose every line misses its row takes longer on a DRAM-bound point
 * (vecadd on gtx480 with DRAM 8 times slower). */
static void dram_rows_set_a_channels_time_per_line(void **state)
{
    sc_error error = {{0}};
    sc_config *rcc_gpu = sc_config_load("rcc-gpu", NULL, NULL, 0, &error);
    dram_row_buffers rows;
    assert_int_equal(dram_row_buffers_init(&rows, rcc_gpu, &error), 0);
    int hits = 0;
    for (uint64_t line = 0; line < 256; line++)
        hits += dram_row_buffers_access(&rows, line);
    assert_int_equal(hits, 256 - 16);
    for (uint64_t line = 0; line < 4; line++)
        assert_false(dram_row_buffers_access(&rows, 256 + line * 8 * 16 * 16));
    dram_row_buffers_free(&rows);
    sc_config_free(rcc_gpu);

    sc_config *config;
    model_profile *profile = profile_sized("rcc-gpu", "reduction", "small", &config);
    double lines = 0, row_hits = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        lines += profile->kernels[k].dram_stream_lines;
        row_hits += profile->kernels[k].dram_stream_row_hits;
    }
    assert_true(lines > 256);
    assert_true(fabs((lines - row_hits) / lines - 1.0 / 16) < 0.01);
    assert_true(fabs(profile->kernels[0].terms.dram_row_hit_share - row_hits / lines) < 0.01);
    profile_free(profile);
    sc_config_free(config);

    model_point point;
    sc_config *sahc_apu = sc_config_load("sahc-apu", NULL, NULL, 0, &error);
    assert_int_equal(model_point_from_config(sahc_apu, &point, &error), 0);
    double gpu_per_dram = sc_config_float(sahc_apu, "gpu.clock") / sc_config_float(sahc_apu, "dram.clock");
    assert_float_equal(point.dram_activate_cycles, 30.0 / 4 * gpu_per_dram, 1e-9);
    assert_float_equal(point.dram_refresh_share, 107.0 / 5200, 1e-12);
    double refreshed = 1 / (1 - 107.0 / 5200);
    assert_float_equal(dram_channel_line_cycles(&point, 1.0, 0.0, 1.0), point.dram_line_cycles * refreshed, 1e-9);
    assert_float_equal(dram_channel_line_cycles(&point, 0.0, 0.0, 1.0), point.dram_activate_cycles * refreshed, 1e-9);
    assert_float_equal(dram_channel_line_cycles(&point, 15.0 / 16, 0.0, 1.0), point.dram_line_cycles * refreshed, 1e-9);
    sc_config_free(sahc_apu);

    /* gtx480: a line's burst is 4 DRAM cycles, an activate every tRRD = 6. */
    model_param_spec spec;
    profile = wt_profile_of("vecadd", &config, &point, &spec);
    point.dram_line_cycles *= 8;
    point.dram_activate_cycles *= 8;
    const model_mechanism *wt = model_mechanism_find("wt");
    model_prediction open_rows, missed_rows;
    wt->evaluate(profile, &point, &spec.initial, &open_rows);
    for (int k = 0; k < profile->kernel_count; k++)
        profile->kernels[k].terms.dram_row_hit_share = 0;
    wt->evaluate(profile, &point, &spec.initial, &missed_rows);
    assert_true(open_rows.dram_read_bytes > 0);
    assert_true(missed_rows.cycles > 1.1 * open_rows.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* A mixed read/write stream's turnarounds (dram_rows.h): on qr-apu a write-to-read turnaround idles
 * the bus tCDLR + tCL = 4 + 6 DRAM cycles and a read-to-write one tRTW + tWL - tCL - burst = 7 + 5
 * - 6 - 4 = 2, at 2.5 GPU cycles a DRAM cycle; a pair every banks / (w (1 - w)) lines. wt's
 * DRAM-bound vecadd (its L2 writes through: reads and writes on the same channels) takes longer
 * with them. */
static void dram_turnarounds_cost_a_mixed_stream(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = wt_profile_sized("qr-apu", "vecadd", "small", &config, &point, &spec);
    assert_float_equal(point.dram_turnaround_cycles, 12 * 2.5, 1e-9);
    assert_float_equal(point.dram_banks, 8, 0);
    double refreshed = 1 / (1 - 64.0 / 3120);
    assert_float_equal(dram_channel_line_cycles(&point, 1.0, 0.0, 1.0), point.dram_line_cycles * refreshed, 1e-9);
    assert_float_equal(dram_channel_line_cycles(&point, 1.0, 1.0, 1.0), point.dram_line_cycles * refreshed, 1e-9);
    assert_float_equal(dram_channel_line_cycles(&point, 1.0, 0.5, 1.0), (point.dram_line_cycles + 0.25 / 8 * 30) * refreshed,
                       1e-9);

    point.dram_line_cycles *= 8;
    point.dram_turnaround_cycles *= 8;
    const model_mechanism *wt = model_mechanism_find("wt");
    model_prediction with_turnarounds, without;
    wt->evaluate(profile, &point, &spec.initial, &with_turnarounds);
    point.dram_turnaround_cycles = 0;
    wt->evaluate(profile, &point, &spec.initial, &without);
    assert_true(with_turnarounds.dram_read_bytes > 0 && with_turnarounds.dram_write_bytes > 0);
    assert_true(with_turnarounds.cycles > 1.02 * without.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* The replayed schedulers (dram_turnarounds.h) on one channel of 2 banks with rows of 8 lines and a
 * queue of 4. Reads and writes alternating in one row of bank 0: the bank's target is its oldest
 * line, so the kinds alternate as they came, 7 changes over 8 lines (3.5 pairs; a random
 * interleaving of 4 reads and 4 writes on 2 banks: 8 x 0.25 / 2 = 1). Reads of bank 0's row
 * alternating with writes of bank 1's, R0 W8 R1 W9 ... R7 W15: the queue full, R0 to R3 go first
 * (the first line's kind, while bank 0's read hits), then W8 to W14 while bank 1's write hits, then
 * R4 to R7 and W15 at the launch's end: 3 changes over 16 lines (1.5 pairs; random: 2). R0, W1
 * (bank 0's row 0), R8 (bank 1's row 0), R24 (bank 1's row 1): R0 first (both banks closed, reads
 * first), then bank 0's W1 hits where bank 1's R8 misses, so W1 goes (a change), then R8 and R24:
 * 2 changes (1 pair; random: 4 x 0.25 x 0.75 / 2 = 0.375). */
static void dram_turnaround_replay_keeps_a_kind_while_a_bank_hits_it(void **state)
{
    (void)state;
    dram_config mapping = {.channels = 1, .banks_per_channel = 2, .row_bytes = 1024, .line_bytes = 128,
                           .interleave_bytes = 128, .queue_entries = 4};
    dram_turnaround_replay replay;
    assert_int_equal(dram_turnaround_replay_init(&replay, &mapping), 0);
    for (uint64_t line = 0; line < 8; line++)
        dram_turnaround_replay_add(&replay, line, line % 2 == 1);
    double replayed = 0, interleaved = 0;
    dram_turnaround_replay_end_launch(&replay, &replayed, &interleaved);
    assert_float_equal(replayed, 3.5, 1e-12);
    assert_float_equal(interleaved, 1.0, 1e-12);
    dram_turnaround_replay_free(&replay);
    assert_int_equal(dram_turnaround_replay_init(&replay, &mapping), 0);
    replayed = interleaved = 0;
    for (uint64_t i = 0; i < 8; i++) {
        dram_turnaround_replay_add(&replay, i, false);
        dram_turnaround_replay_add(&replay, 8 + i, true);
    }
    dram_turnaround_replay_end_launch(&replay, &replayed, &interleaved);
    assert_float_equal(replayed, 1.5, 1e-12);
    assert_float_equal(interleaved, 2.0, 1e-12);
    dram_turnaround_replay_free(&replay);
    assert_int_equal(dram_turnaround_replay_init(&replay, &mapping), 0);
    replayed = interleaved = 0;
    const uint64_t lines[] = {0, 1, 8, 24};
    for (size_t i = 0; i < 4; i++)
        dram_turnaround_replay_add(&replay, lines[i], lines[i] == 1);
    dram_turnaround_replay_end_launch(&replay, &replayed, &interleaved);
    assert_float_equal(replayed, 1.0, 1e-12);
    assert_float_equal(interleaved, 0.375, 1e-12);
    dram_turnaround_replay_free(&replay);
}

/* The turnarounds' run length from the replayed stream (dram_rows.h): vecadd's DRAM rows each hold
 * one array, a and b read, c written (qr-apu, small: 8,192 cold reads and 4,096 written lines over
 * 4 channels of 8 banks: the random interleaving's 341 pairs, the replay's 240, the detailed
 * channels' 243), so its replayed schedulers make fewer turnarounds, and wt's DRAM-bound vecadd,
 * its channels 8 times slower and their turnarounds 8 times longer, takes less time with the
 * replayed count than with the random one. */
static void dram_turnarounds_run_as_the_replayed_stream(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = wt_profile_sized("qr-apu", "vecadd", "small", &config, &point, &spec);
    double replayed = 0, interleaved = 0;
    for (int k = 0; k < profile->kernel_count; k++) {
        replayed += profile->kernels[k].dram_replayed_turnarounds;
        interleaved += profile->kernels[k].dram_interleaved_turnarounds;
        assert_true(profile->kernels[k].terms.dram_turnaround_share <= 1.0);
    }
    assert_true(interleaved > 0 && replayed < 0.8 * interleaved);
    point.dram_line_cycles *= 8;
    point.dram_turnaround_cycles *= 8;
    const model_mechanism *wt = model_mechanism_find("wt");
    model_prediction replayed_runs, random_runs, without;
    wt->evaluate(profile, &point, &spec.initial, &replayed_runs);
    for (int k = 0; k < profile->kernel_count; k++)
        profile->kernels[k].terms.dram_turnaround_share = 1.0;
    wt->evaluate(profile, &point, &spec.initial, &random_runs);
    point.dram_turnaround_cycles = 0;
    wt->evaluate(profile, &point, &spec.initial, &without);
    /* The turnarounds' time shrinks by about the share the replay leaves out. */
    double turnaround_time = random_runs.cycles - without.cycles;
    assert_true(turnaround_time > 0);
    assert_true(random_runs.cycles - replayed_runs.cycles > 0.5 * (1 - replayed / interleaved) * turnaround_time);
    profile_free(profile);
    sc_config_free(config);
}

/* A write-through L2's launches that the DRAM channels bound: what the queues hold at a release
 * delays the next launch's requests, so the run's launches together take the channels' time for
 * their lines less what the queues hold after the run's last launch (write_through_backlog;
 * qr-apu, wt's sort, its channels 8 times slower; each launch less the queues: 0.937 of the bus
 * time). */
static void write_through_backlog_carries_to_the_next_launch(void **state)
{
    sc_config *config;
    model_point point;
    model_param_spec spec;
    model_profile *profile = wt_profile_sized("qr-apu", "sort", "small", &config, &point, &spec);
    point.dram_line_cycles *= 8;
    model_prediction prediction;
    model_mechanism_find("wt")->evaluate(profile, &point, &spec.initial, &prediction);
    double lines = (prediction.dram_read_bytes + prediction.dram_write_bytes) / point.line_bytes;
    double bus_cycles = lines * dram_channel_line_cycles(&point, 1.0, 1.0, 1.0) / point.dram_channels;
    assert_true(lines > 1000);
    double queued_cycles = point.dram_queue_lines * dram_channel_line_cycles(&point, 1.0, 1.0, 1.0) / point.dram_channels;
    assert_true(prediction.cycles > bus_cycles - queued_cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* Two CUs in step with windows of 2 line requests, over 4 L2 banks and 8 L3 banks: CU 0 asks for
 * lines 0, 4, 1, 5 and CU 1 for 8, 12, 9, 13. At window position 0 the four lines in flight (0, 4,
 * 8, 12) are all on L2 bank 0 (1 bank held) and on L3 banks 0 and 4 (2); at position 1 (4, 1, 12,
 * 9) on L2 banks 0 and 1 and L3 banks 4 and 1 (2 and 2); at position 2 (1, 5, 9, 13) on L2 bank 1
 * and L3 banks 1 and 5 (1 and 2). A launch's end starts afresh; a CU with fewer requests leaves
 * the window early (CU 0: 0, 2, 4, CU 1: 1; lines 0, 2, 1 at position 0 on 3 banks of each
 * level, 2 and 4 at position 1 on 2). */
static void inflight_banks_slide_in_step(void **state)
{
    (void)state;
    inflight_banks spread;
    const unsigned banks[INFLIGHT_BANK_LEVELS] = {4, 8};
    assert_int_equal(inflight_banks_init(&spread, 2, 2, banks), 0);
    const uint64_t cu0[] = {0, 4, 1, 5}, cu1[] = {8, 12, 9, 13};
    for (int i = 0; i < 4; i++) {
        inflight_banks_add(&spread, 0, cu0[i]);
        inflight_banks_add(&spread, 1, cu1[i]);
    }
    double positions = 0, held[INFLIGHT_BANK_LEVELS] = {0};
    inflight_banks_end_launch(&spread, &positions, held);
    assert_float_equal(positions, 3, 0);
    assert_float_equal(held[0], 4, 0);
    assert_float_equal(held[1], 6, 0);
    inflight_banks_add(&spread, 0, 0);
    inflight_banks_add(&spread, 0, 2);
    inflight_banks_add(&spread, 0, 4);
    inflight_banks_add(&spread, 1, 1);
    inflight_banks_end_launch(&spread, &positions, held);
    assert_float_equal(positions, 5, 0);
    assert_float_equal(held[0], 9, 0);
    assert_float_equal(held[1], 11, 0);
    inflight_banks_free(&spread);
}

/* Evaluates `mechanism` on `profile` at the preset's model point and the mechanism's initial
 * parameters, with the profile's banks held by the lines in flight (*held) and with every bank of
 * both levels held at every window position (*every_bank). */
static void predict_held_and_every_bank(const char *mechanism, model_profile *profile, const sc_config *config,
                                        model_prediction *held, model_prediction *every_bank)
{
    sc_error error = {{0}};
    model_point point;
    model_param_spec spec;
    const model_mechanism *m = model_mechanism_find(mechanism);
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(m, config, &point, &error), 0);
    assert_int_equal(model_param_spec_load(sc_mechanism_find(mechanism)->params_file, &spec, &error), 0);
    m->evaluate(profile, &point, &spec.initial, held);
    for (int g = 0; g < profile->kernel_count; g++) {
        model_kernel_profile *k = &profile->kernels[g];
        k->inflight_l2_banks_held = k->inflight_positions * point.l2_banks;
        k->inflight_l3_banks_held = k->inflight_positions * point.l3_banks;
    }
    m->evaluate(profile, &point, &spec.initial, every_bank);
}

/* vecadd on sahc-apu: a CTA's 16 lines start 16 lines after the previous CTA's and each warp asks
 * for 4 of them, so the 32 CUs' windows of 32 requests, in step, fall on about a third of the 64
 * L2 banks and of the 16 L3 banks (the detailed run at 32 CUs: 20.5 L2 bank ports busy on average
 * while any is; raising l2.banks to 128 and l3.banks to 64 takes nol1 from 3,165 to 2,219 cycles,
 * docs/calibration.md session 28). Those banks carry the GPU's requests: nol1's model takes far
 * longer than with the same lines on every bank. */
static void l2_and_l3_banks_carry_the_lines_in_flight(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("sahc-apu", "vecadd", "small", &config);
    for (int g = 0; g < profile->kernel_count; g++) {
        const model_kernel_profile *k = &profile->kernels[g];
        assert_true(k->inflight_positions > 0);
        double l2_in_use = k->inflight_l2_banks_held / k->inflight_positions;
        double l3_in_use = k->inflight_l3_banks_held / k->inflight_positions;
        assert_true(l2_in_use > 18 && l2_in_use < 28);
        assert_true(l3_in_use > 4.5 && l3_in_use < 7);
    }
    model_prediction in_step, every_bank;
    predict_held_and_every_bank("nol1", profile, config, &in_step, &every_bank);
    assert_true(in_step.cycles > 1.3 * every_bank.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* vecadd on gtx480: the 15 CUs' 480 lines in flight lie unevenly on the 6 L2 banks (two lines in
 * flight share a bank as often as if 4.5 banks held them) yet every bank holds some, and a bank
 * works while it holds any: the detailed run's 6 bank ports are all busy 87% of the run, 5.92 on
 * average while any is (docs/calibration.md session 30). wt's model takes no longer with the
 * profile's banks than with every bank (the pairs' 4.5 banks took it 17% longer at the README's
 * points). */
static void a_bank_holding_a_line_in_flight_works(void **state)
{
    (void)state;
    sc_config *config;
    model_profile *profile = profile_sized("gtx480", "vecadd", "small", &config);
    for (int g = 0; g < profile->kernel_count; g++) {
        const model_kernel_profile *k = &profile->kernels[g];
        assert_true(k->inflight_l2_banks_held / k->inflight_positions > 5.8);
    }
    model_prediction held, every_bank;
    predict_held_and_every_bank("wt", profile, config, &held, &every_bank);
    assert_true(held.cycles < 1.02 * every_bank.cycles);
    profile_free(profile);
    sc_config_free(config);
}

/* vecadd under mesi on qr-apu at 7 CUs, 8 KiB L1, 128 KiB L2 and 277 MHz DRAM (the README row's
 * worst stall point): the 2,048-line L2 evicts c's dirty lines, and each L2 bank whose victim
 * finds its DRAM channel's write queue full stalls until the queue has room (detailed:
 * l2_memory_write_waits 163,005 bank-cycles), while the reads it holds keep their MSHRs and the
 * warps queue for MSHRs: 79.8% of the CUs' cycles in mem_struct, 0.3% in sync. The misses that
 * evict a dirty line wait for the DRAM queue; without that wait the DRAM channels, carrying
 * mostly write-backs, saturate unseen by the warps, and the model (the row's calibration) put 45%
 * in mem_struct, 23% in mem_data and 17% in sync. */
static void dirty_victims_wait_for_the_dram_write_queue(void **state)
{
    (void)state;
    const char *keys[] = {"l1.size=8KiB", "l2.size=128KiB", "gpu.cu_count=7", "dram.clock=277MHz", "noc.latency=19"};
    sc_config *config;
    model_profile *profile = profile_set("qr-apu", "vecadd", "small", keys, 5, &config);
    model_prediction mesi = predict("mesi", profile, config);
    assert_true(mesi.stalls[GSI_MEM_STRUCT] > 0.7 * mesi.cycles);   /* without the wait 0.55 (initial parameters) */
    assert_true(mesi.stalls[GSI_MEM_DATA] < 0.15 * mesi.cycles);    /* without it 0.37; detailed 0.044 */
    profile_free(profile);
    sc_config_free(config);
}

/* The L2 writes a dirty line back in the launch whose fills evict it, not in the launch that
 * accesses it next (profiler.c's record_dirty_at_launch_end): vecadd on qr-apu under rcc (the L2
 * write-back) at an L2 of 384 KiB (6,144 lines): the vecadd kernel writes c's 4,096 lines among
 * the 12,288 it takes, so the lines after each dirty line evict most of c during that kernel
 * (detailed: 1,709 write-backs in vecadd, 3,307 in saxpy, which reads c again; the profile of the
 * next access charged all 5,004 to saxpy, whose DRAM channels, also reading a, then bound the
 * model's run: 25,063 cycles against the detailed 21,961). */
static void dirty_lines_are_written_back_in_the_launch_that_evicts_them(void **state)
{
    (void)state;
    const char *keys[] = {"l2.size=384KiB"};
    sc_config *config;
    model_profile *profile = profile_set("qr-apu", "vecadd", "small", keys, 1, &config);
    sc_error error = {{0}};
    model_point point;
    assert_int_equal(model_point_from_config(config, &point, &error), 0);
    assert_int_equal(model_point_of_mechanism(model_mechanism_find("rcc"), config, &point, &error), 0);
    assert_float_equal(point.l2_lines, 6144, 0);
    double written_back[2] = {0, 0};
    assert_int_equal(profile->kernel_count, 2);
    for (int k = 0; k < profile->kernel_count; k++) {
        model_demand demand = {0};
        model_memory_split(&profile->kernels[k], &point, 0.0, false, false, &demand);
        written_back[strcmp(profile->kernels[k].name, "vecadd") == 0 ? 0 : 1] = demand.write_lines_dram;
    }
    assert_true(written_back[0] > 1500 && written_back[0] < 2300);
    assert_true(written_back[1] > 2800 && written_back[1] < 3600);
    profile_free(profile);
    sc_config_free(config);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(histogram_matches_lru_simulation),
        cmocka_unit_test(buckets_tile_the_distances),
        cmocka_unit_test(summary_hits_interpolate_every_capacity),
        cmocka_unit_test(crossings_are_reported),
        cmocka_unit_test(set_associative_tags_keep_sets_that_fit),
        cmocka_unit_test(profile_hits_are_the_set_associative_l1s),
        cmocka_unit_test(fill_tags_install_when_the_fill_returns),
        cmocka_unit_test(profile_l1_fills_when_the_data_returns),
        cmocka_unit_test(stalls_sum_to_cycles),
        cmocka_unit_test(group_memo_finds_a_key_in_its_setting),
        cmocka_unit_test(a_sweeps_memo_changes_no_prediction),
        cmocka_unit_test(kept_l1_models),
        cmocka_unit_test(qr_loses_kernel_crossing_reuses_in_later_rounds),
        cmocka_unit_test(host_data_comes_from_the_cpu),
        cmocka_unit_test(qr_rereads_written_lines_from_the_l3),
        cmocka_unit_test(qr_releases_barriers_and_atomics_cost),
        cmocka_unit_test(qr_barrier_releases_once_per_work_group),
        cmocka_unit_test(host_writes_are_recorded),
        cmocka_unit_test(barrier_bursts_are_recorded),
        cmocka_unit_test(read_hot_spot_slows_nol1),
        cmocka_unit_test(missing_reads_group_the_lines),
        cmocka_unit_test(kmeans_point_loads_miss_together),
        cmocka_unit_test(kmeans_answers_wait_at_the_cus_port),
        cmocka_unit_test(nol1_has_no_busiest_cu_misses),
        cmocka_unit_test(fewer_ctas_cus_keep_their_own_stalls),
        cmocka_unit_test(dirty_lines_are_written_back_when_evicted),
        cmocka_unit_test(burst_rounds_peak_per_bank_count),
        cmocka_unit_test(inflight_banks_slide_in_step),
        cmocka_unit_test(l2_and_l3_banks_carry_the_lines_in_flight),
        cmocka_unit_test(a_bank_holding_a_line_in_flight_works),
        cmocka_unit_test(matmul_bursts_have_peak_banks),
        cmocka_unit_test(gpu_bursts_coincide_in_the_first_round),
        cmocka_unit_test(oldest_ctas_finish_first),
        cmocka_unit_test(gto_ctas_finish_one_after_another),
        cmocka_unit_test(in_step_ctas_wait_out_their_bursts_together),
        cmocka_unit_test(in_step_ctas_wait_out_their_loads_off_the_stations),
        cmocka_unit_test(first_ctas_run_their_leads_before_their_memory_work),
        cmocka_unit_test(write_through_l2_misses_the_lines_written_around_it),
        cmocka_unit_test(store_buffers_flush_at_kernel_end),
        cmocka_unit_test(mesi_write_through_invalidates_sharers),
        cmocka_unit_test(shortfall_sums_each_gap),
        cmocka_unit_test(shortfall_sums_match_the_walk),
        cmocka_unit_test(sc_cores_serialise_global_accesses),
        cmocka_unit_test(sc_core_slots_inherit_final_stores),
        cmocka_unit_test(rcc_wo_loads_wait_for_own_writes),
        cmocka_unit_test(host_write_drop_loses_the_dropped_reuses),
        cmocka_unit_test(lines_an_l1_loses_together_miss_together),
        cmocka_unit_test(leases_lapse_and_hold_writes),
        cmocka_unit_test(tc_weak_kernel_end_waits_for_gwct),
        cmocka_unit_test(lease_kernel_end_waits_for_earlier_leases),
        cmocka_unit_test(profile_json_round_trip),
        cmocka_unit_test(profile_key_names_what_invalidates_it),
        cmocka_unit_test(dma_transfers_block_the_sm),
        cmocka_unit_test(stash_first_touches_are_global_loads),
        cmocka_unit_test(bank_conflicts_cost_on_a_banked_scratchpad),
        cmocka_unit_test(write_through_l2_waits_for_dram),
        cmocka_unit_test(write_through_hot_atomics_wait_for_one_channel),
        cmocka_unit_test(qr_hot_atomics_wait_for_one_channel),
        cmocka_unit_test(denovo_registrations_do_not_wait_for_dram),
        cmocka_unit_test(denovo_reads_queue_behind_posted_writes),
        cmocka_unit_test(ownership_hot_line_moves_one_transfer_at_a_time),
        cmocka_unit_test(sc_cores_take_the_hot_line_once_per_atomic_round),
        cmocka_unit_test(hot_line_visits_each_cu_once_a_round),
        cmocka_unit_test(dirty_victims_wait_for_the_dram_write_queue),
        cmocka_unit_test(dirty_lines_are_written_back_in_the_launch_that_evicts_them),
        cmocka_unit_test(stations_carry_at_most_their_capacity),
        cmocka_unit_test(lease_l1_keeps_lines_across_acquires),
        cmocka_unit_test(rcc_l1_keeps_its_sets_across_kernels),
        cmocka_unit_test(timed_groups_settle_in_few_evaluations),
        cmocka_unit_test(each_cus_written_lines_are_profiled),
        cmocka_unit_test(instructions_wait_for_mshrs_in_rounds),
        cmocka_unit_test(qr_writes_out_each_cus_lines),
        cmocka_unit_test(broadcast_invalidations_load_each_port_once),
        cmocka_unit_test(ownership_is_taken_by_each_writing_cu),
        cmocka_unit_test(ownership_l1_takes_own_stores_and_drops_remote_writes),
        cmocka_unit_test(ownership_l3_holds_the_written_lines),
        cmocka_unit_test(rcc_l2_turnover_expires_l1_copies),
        cmocka_unit_test(dram_rows_set_a_channels_time_per_line),
        cmocka_unit_test(dram_turnarounds_cost_a_mixed_stream),
        cmocka_unit_test(dram_turnaround_replay_keeps_a_kind_while_a_bank_hits_it),
        cmocka_unit_test(dram_turnarounds_run_as_the_replayed_stream),
        cmocka_unit_test(write_through_backlog_carries_to_the_next_launch),
        cmocka_unit_test(a_launch_lasts_its_longest_warp),
        cmocka_unit_test(a_longest_warp_pays_its_own_accesses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
