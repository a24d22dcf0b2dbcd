/* test_compute_unit_hooks.c — the points where the compute units and kernel boundaries hand
 * control to a protocol module (issue filter, warp exit, barrier, a barrier made a release,
 * kernel begin and end, the kernel-end drain, charged to GSI sync/release), exercised by a toy protocol on a small PTX
 * kernel run by the timing engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "device_test_support.h"
#include "protocols/mechanism.h"
#include "timing/memory_internal.h"
#include "timing/timing_config.h"
#include "timing/timing_engine.h"

/* ---- the compute units' points, on a kernel ----
 *
 * One CTA of two warps on one CU: each thread loads a word (a miss, in flight for a while),
 * stores another independent of it, meets the CTA barrier, runs fence.sc.gpu (a release, as the
 * store is still being written, and an acquire), and stores its loaded value plus one. The toy
 * runs nol1's L1 table with hooks that log what the engine asks and tells it. */
static const char hooks_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry hooks(.param .u64 hooks_p0)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd0, [hooks_p0];\n"
    "mov.u32 %r0, %tid.x;\n"
    "mul.wide.u32 %rd1, %r0, 4;\n"
    "add.s64 %rd2, %rd0, %rd1;\n"
    "ld.global.u32 %r1, [%rd2];\n"
    "st.global.u32 [%rd2+1024], %r0;\n"
    "bar.sync 0;\n"
    "fence.sc.gpu;\n"
    "add.u32 %r2, %r1, 1;\n"
    "st.global.u32 [%rd2+2048], %r2;\n"
    "ret;\n}\n";

#define TOY_WARPS 2
#define TOY_DRAIN_DELAY 50000   /* ps the toy's kernel end keeps each L1 undrained */

/* How the toy hooks behave (set by each test). */
static struct {
    bool waive_fences;          /* the filter waives the fence's acquire and release */
    bool never_drained;         /* an L1 never drains: kernel end must report a deadlock */
} toy_mode;

/* What the toy hooks saw in one run. */
typedef struct toy_record {
    unsigned stores_refused, stores_allowed_after_refusal, fences_seen;
    unsigned warp_exits, barriers, kernel_begins, kernel_ends, acquires, releases, drain_checks;
    bool refused[TOY_WARPS];
    sc_time began_at, ended_at;
    bool drained;
} toy_record;

static toy_record toy_log;

/* Holds a global store back while its warp has a global access in flight, as a structural stall
 * of a sub-category the engine never charges itself; sees the fence's traits. */
static issue_verdict toy_issue_filter(memory_system *memory, unsigned cu, unsigned warp, const issue_traits *traits,
                                      unsigned global_in_flight)
{
    issue_verdict verdict = ISSUE_ALLOWED;
    assert_true(warp < TOY_WARPS);
    if (traits->flags & ISSUE_FENCE) {
        assert_int_equal(traits->flags, ISSUE_FENCE | ISSUE_ACQUIRE | ISSUE_RELEASE);
        assert_int_equal(traits->semantics, PTX_SEM_SC);
        assert_int_equal(traits->scope, PTX_SCOPE_GPU);
        toy_log.fences_seen++;
        verdict.ordering_waived = toy_mode.waive_fences;
    }
    if (traits->flags & ISSUE_GLOBAL_STORE) {
        if (global_in_flight > 0) {
            verdict.mem_struct = GSI_STRUCT_PENDING_DMA;
            toy_log.stores_refused += !toy_log.refused[warp];
            toy_log.refused[warp] = true;
        } else if (toy_log.refused[warp]) {
            toy_log.stores_allowed_after_refusal++;
            toy_log.refused[warp] = false;
        }
    }
    return verdict;
}

static void toy_warp_exit(memory_system *memory, unsigned cu, unsigned warp, sc_time now) { toy_log.warp_exits++; }

static void toy_barrier(memory_system *memory, unsigned cu, unsigned warp, sc_time now) { toy_log.barriers++; }

static void toy_acquire(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now) { toy_log.acquires++; }

static void toy_release(memory_system *memory, unsigned cu, ptx_scope scope, sc_time now)
{
    toy_log.releases++;
    l1_send_buffered_stores(memory, cu, now);
}

static void toy_kernel_begin(memory_system *memory, sc_time now)
{
    toy_log.kernel_begins++;
    toy_log.began_at = now;
}

/* Kernel end: the L1s are drained only once the toy's event, TOY_DRAIN_DELAY later, has run. */
static void toy_kernel_end(memory_system *memory, sc_time now)
{
    toy_log.kernel_ends++;
    toy_log.ended_at = now;
    toy_log.drained = false;
    event_queue_push(memory->events, now + TOY_DRAIN_DELAY, MEMORY_EVENT_PROTOCOL, 0, 0);
}

static int toy_handle_event(memory_system *memory, const timing_event *event, sc_error *error)
{
    toy_log.drained = !toy_mode.never_drained;
    return 0;
}

static bool toy_drained(const memory_system *memory, unsigned cu)
{
    toy_log.drain_checks++;
    return toy_log.drained && l1_writes_outstanding(memory, cu) == 0;
}

static const protocol_hooks toy_core_hooks = {
    .acquire = toy_acquire, .release = toy_release, .issue_filter = toy_issue_filter, .warp_exit = toy_warp_exit,
    .barrier = toy_barrier, .kernel_begin = toy_kernel_begin, .kernel_end = toy_kernel_end,
    .l1_drained = toy_drained, .handle_event = toy_handle_event,
};

/* Barriers are releases (memory_barriers_release), as qr's gpu.barrier_release_scope=global makes
 * them. */
static void toy_barriers_release(memory_system *memory) { memory->barriers_release = true; }

static const protocol_hooks toy_core_hooks_barrier_release = {
    .build = toy_barriers_release, .acquire = toy_acquire, .release = toy_release, .issue_filter = toy_issue_filter,
    .warp_exit = toy_warp_exit, .barrier = toy_barrier, .kernel_begin = toy_kernel_begin,
    .kernel_end = toy_kernel_end, .l1_drained = toy_drained, .handle_event = toy_handle_event,
};

/* The same without an issue filter. */
static const protocol_hooks toy_core_hooks_unfiltered = {
    .acquire = toy_acquire, .release = toy_release, .warp_exit = toy_warp_exit, .barrier = toy_barrier,
    .kernel_begin = toy_kernel_begin, .kernel_end = toy_kernel_end, .l1_drained = toy_drained,
    .handle_event = toy_handle_event,
};

/* Runs the kernel once under nol1's table with `hooks` on a one-CU gtx480; returns the launch's
 * status (its error in `error`) and its record in `record`. */
static int run_hooks_kernel(const protocol_hooks *hooks, timing_kernel_record *record, sc_time *period,
                            sc_error *error)
{
    toy_log = (toy_record){0};
    sc_protocol core_toy = *sc_protocol_find("nol1");
    core_toy.name = "core_toy";
    core_toy.hooks = hooks;
    const char *sets[] = {"gpu.cu_count=1", "cpu.count=0"};
    sc_config *config = sc_config_load("gtx480", NULL, sets, 2, error);
    assert_non_null(config);
    timing_config timing;
    assert_int_equal(timing_config_load(config, 0, &timing, error), 0);
    *period = timing.memory.gpu_clock.period;
    void *engine = timing_engine_create(&timing, &core_toy, error);
    sc_device *device = sc_device_create(timing.core.warp_size, error);
    sc_device_set_engine(device, &timing_engine_ops, engine);
    int module = load_ptx_text(device, hooks_kernel, error);
    if (module < 0)
        fail_msg("%s", (error)->message);
    uint64_t words = sc_device_malloc(device, 4096);
    sc_kernel_arg argument = sc_arg_u64(words);
    sc_dim3 grid = {1, 1, 1}, block = {32 * TOY_WARPS, 1, 1};
    int status = sc_launch_kernel(device, module, "hooks", grid, block, 0, &argument, 1, error);
    if (status == 0) {
        timing_report report;
        timing_engine_report(engine, &report);
        *record = report.kernel_records[0];
        uint32_t last = 0;
        assert_int_equal(sc_memcpy_from_device(device, &last, words + 2048 + 4 * 63, 4, error), 0);
        assert_int_equal(last, 1);   /* the loaded zero plus one */
    }
    sc_device_destroy(device);
    sc_config_free(config);
    return status;
}

static void test_issue_filter_warp_points_and_kernel_boundaries(void **state)
{
    (void)state;
    sc_error error = {{0}};
    timing_kernel_record plain, filtered;
    sc_time period;
    if (run_hooks_kernel(&toy_core_hooks_unfiltered, &plain, &period, &error) < 0)
        fail_msg("unfiltered: %s", error.message);
    assert_int_equal(toy_log.stores_refused, 0);
    assert_int_equal(plain.stalls.struct_cause[GSI_STRUCT_PENDING_DMA], 0);

    if (run_hooks_kernel(&toy_core_hooks, &filtered, &period, &error) < 0)
        fail_msg("filtered: %s", error.message);
    /* Each warp's first store waited for its load, was asked again when the load completed, and
     * issued; the cycles it waited are charged to the filter's stall. */
    assert_int_equal(toy_log.stores_refused, TOY_WARPS);
    assert_int_equal(toy_log.stores_allowed_after_refusal, TOY_WARPS);
    assert_true(filtered.stalls.struct_cause[GSI_STRUCT_PENDING_DMA] > 0);
    assert_true(filtered.cycles > plain.cycles);
    /* Warp points, once per warp; kernel boundaries, once; the end waits for the toy's drain. */
    assert_int_equal(toy_log.warp_exits, TOY_WARPS);
    assert_int_equal(toy_log.barriers, TOY_WARPS);
    assert_int_equal(toy_log.kernel_begins, 1);
    assert_int_equal(toy_log.kernel_ends, 1);
    assert_true(toy_log.drain_checks > 1);
    assert_true(filtered.cycles * period >= toy_log.ended_at + TOY_DRAIN_DELAY - toy_log.began_at);
    /* The fence acquired on each warp, and its release waited for the stores: SYNC release. */
    assert_true(toy_log.fences_seen >= TOY_WARPS);
    assert_int_equal(toy_log.acquires, TOY_WARPS);
    assert_true(toy_log.releases > 0);
    assert_true(filtered.stalls.sync_kind[GSI_SYNC_RELEASE] > 0);
}

static void test_issue_filter_waives_fences(void **state)
{
    (void)state;
    sc_error error = {{0}};
    timing_kernel_record record;
    sc_time period;
    toy_mode.waive_fences = true;
    int status = run_hooks_kernel(&toy_core_hooks, &record, &period, &error);
    toy_mode.waive_fences = false;
    if (status < 0)
        fail_msg("%s", error.message);
    assert_true(toy_log.fences_seen >= TOY_WARPS);
    assert_int_equal(toy_log.acquires, 0);
    assert_int_equal(toy_log.releases, 0);
    /* The only release cycles are the kernel end's: from the kernel_end hook until the toy's
     * drain, the CU waits for its release (GSI sync, release), not idle. */
    uint64_t kernel_end_drain = record.cycles - (toy_log.ended_at - toy_log.began_at) / period;
    assert_true(record.stalls.sync_kind[GSI_SYNC_RELEASE] >= TOY_DRAIN_DELAY / period);
    assert_true(record.stalls.sync_kind[GSI_SYNC_RELEASE] <= kernel_end_drain);
    assert_int_equal(record.stalls.sync_kind[GSI_SYNC_ACQUIRE], 0);
}

/* With the fences waived, the only releases before kernel end are the barrier's, where the
 * protocol makes barriers releases: each warp's store before bar.sync is performed before the warp
 * arrives (the release hook runs while it waits); without, the release hook never runs. */
static void test_barrier_is_a_release_where_the_protocol_says(void **state)
{
    (void)state;
    sc_error error = {{0}};
    timing_kernel_record plain, releasing;
    sc_time period;
    toy_mode.waive_fences = true;
    int status = run_hooks_kernel(&toy_core_hooks, &plain, &period, &error);
    assert_int_equal(toy_log.releases, 0);
    if (status == 0)
        status = run_hooks_kernel(&toy_core_hooks_barrier_release, &releasing, &period, &error);
    toy_mode.waive_fences = false;
    if (status < 0)
        fail_msg("%s", error.message);
    assert_true(toy_log.releases > 0);
    assert_int_equal(toy_log.barriers, TOY_WARPS);
    assert_true(releasing.stalls.sync_kind[GSI_SYNC_RELEASE] > 0);
}

static void test_kernel_end_waits_for_the_protocols_drain(void **state)
{
    (void)state;
    sc_error error = {{0}};
    timing_kernel_record record;
    sc_time period;
    toy_mode.never_drained = true;
    int status = run_hooks_kernel(&toy_core_hooks, &record, &period, &error);
    toy_mode.never_drained = false;
    assert_int_equal(status, -1);
    assert_non_null(strstr(error.message, "deadlock: CU 0 not drained at kernel end"));
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_filter_warp_points_and_kernel_boundaries),
        cmocka_unit_test(test_issue_filter_waives_fences),
        cmocka_unit_test(test_barrier_is_a_release_where_the_protocol_says),
        cmocka_unit_test(test_kernel_end_waits_for_the_protocols_drain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
