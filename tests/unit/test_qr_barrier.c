/* test_qr_barrier.c — QuickRelease's global barrier (digest U10, U21) on a PTX kernel run by the
 * timing engine on a two-CU qr-apu: the warps of CTA 0 each store a word, one after another, and
 * meet a CTA barrier; then its thread 0 sets a flag with an atomic, and CTA 1, on the other CU,
 * waits for the flag, loads the words and answers with a second flag that CTA 0 waits for before
 * its warps exit (so no exit's marker writes the words out early). With the work-group
 * granularity (the presets' default) the barrier sends one release marker batch when its last
 * warp arrives and opens on its acknowledgement; with the wavefront option each warp's release
 * before it arrives sends its own batch; either way CTA 1 loads every stored word. The wait for
 * the work-group's acknowledgement is charged to GSI sync/release. With the
 * barrier ordering the CTA only (gpu.barrier_release_scope cta) the words are still in CU 0's
 * write cache when CTA 1 loads them, and it reads the old values. */
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
#include "protocols/qr/qr_units.h"
#include "timing/timing_config.h"
#include "timing/timing_engine.h"

/* Warp w of CTA 0 spins 40 w times before its store, so each warp's store reaches the write
 * cache after the earlier warps have arrived at the barrier. */
static const char barrier_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry publish(.param .u64 p_words, .param .u64 p_flags, .param .u64 p_out)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd0, [p_words];\n"
    "ld.param.u64 %rd1, [p_flags];\n"
    "ld.param.u64 %rd2, [p_out];\n"
    "mov.u32 %r0, %tid.x;\n"
    "mul.wide.u32 %rd3, %r0, 4;\n"
    "add.s64 %rd4, %rd0, %rd3;\n"
    "mov.u32 %r1, %ctaid.x;\n"
    "setp.ne.u32 %p0, %r1, 0;\n"
    "@%p0 bra READER;\n"
    "mov.u32 %r6, %warpid;\n"
    "mul.lo.u32 %r6, %r6, 40;\n"
    "DELAY:\n"
    "setp.eq.u32 %p3, %r6, 0;\n"
    "@%p3 bra STORE;\n"
    "sub.u32 %r6, %r6, 1;\n"
    "bra DELAY;\n"
    "STORE:\n"
    "add.u32 %r2, %r0, 1;\n"
    "st.global.u32 [%rd4], %r2;\n"
    "bar.sync 0;\n"
    "setp.ne.u32 %p1, %r0, 0;\n"
    "@%p1 bra WAIT_ANSWER;\n"
    "atom.global.exch.b32 %r3, [%rd1], 1;\n"
    "WAIT_ANSWER:\n"
    "ld.acquire.gpu.global.u32 %r4, [%rd1+64];\n"
    "setp.eq.u32 %p2, %r4, 0;\n"
    "@%p2 bra WAIT_ANSWER;\n"
    "ret;\n"
    "READER:\n"
    "ld.acquire.gpu.global.u32 %r4, [%rd1];\n"
    "setp.eq.u32 %p2, %r4, 0;\n"
    "@%p2 bra READER;\n"
    "ld.global.u32 %r5, [%rd4];\n"
    "add.s64 %rd5, %rd2, %rd3;\n"
    "st.global.u32 [%rd5], %r5;\n"
    "bar.sync 0;\n"
    "setp.ne.u32 %p1, %r0, 0;\n"
    "@%p1 bra DONE;\n"
    "atom.global.exch.b32 %r3, [%rd1+64], 1;\n"
    "DONE:\n"
    "ret;\n}\n";

#define BARRIER_WARPS 4

/* What the qr hook wrapped below saw of CU 0's barrier, and the kernel's threads per CTA. */
typedef struct barrier_record {
    release_wait (*qr_hook)(memory_system *memory, unsigned cu, unsigned cta, bool begun, bool write_queued,
                            sc_time now);
    uint64_t batches_at_open;   /* CU 0's marker batches sent when its barrier let the warps go on */
    unsigned waits;             /* checks that held CU 0's warps after the barrier completed */
    unsigned threads;
    uint64_t release_stalls, barrier_stalls;   /* the kernel's GSI sync/release and sync/barrier cycles */
} barrier_record;

static barrier_record seen;

static release_wait recording_barrier_release(memory_system *memory, unsigned cu, unsigned cta, bool begun,
                                              bool write_queued, sc_time now)
{
    release_wait wait = seen.qr_hook(memory, cu, cta, begun, write_queued, now);
    if (cu == 0 && wait == RELEASE_DONE && seen.batches_at_open == 0)
        seen.batches_at_open = qr_cu_of(memory, cu)->batches_sent;
    if (cu == 0 && wait != RELEASE_DONE)
        seen.waits++;
    return wait;
}

/* Runs the kernel under qr on a two-CU qr-apu with `set` (NULL: none); returns how many of the
 * words CTA 1 loaded hold what CTA 0 stored. */
static unsigned run_barrier_kernel(const char *set)
{
    sc_error error = {{0}};
    const char *sets[] = {"gpu.cu_count=2", set};
    sc_config *config = sc_config_load("qr-apu", NULL, sets, set ? 2 : 1, &error);
    assert_non_null(config);
    const sc_protocol *qr = sc_protocol_find("qr");
    protocol_hooks hooks = *qr->hooks;
    seen = (barrier_record){.qr_hook = hooks.cta_barrier_release};
    hooks.cta_barrier_release = recording_barrier_release;
    sc_protocol recording = *qr;
    recording.hooks = &hooks;
    timing_config timing;
    assert_int_equal(timing_config_load(config, 0, &timing, &error), 0);
    assert_int_equal(timing_config_load_protocol(config, &recording, &timing, &error), 0);
    void *engine = timing_engine_create(&timing, &recording, &error);
    assert_non_null(engine);
    sc_device *device = sc_device_create(timing.core.warp_size, &error);
    sc_device_set_engine(device, &timing_engine_ops, engine);
    int module = load_ptx_text(device, barrier_kernel, &error);
    if (module < 0)
        fail_msg("%s", (&error)->message);
    unsigned threads = seen.threads = BARRIER_WARPS * timing.core.warp_size;
    uint64_t words = sc_device_malloc(device, threads * 4), flags = sc_device_malloc(device, 128),
             out = sc_device_malloc(device, threads * 4);
    sc_kernel_arg arguments[] = {sc_arg_u64(words), sc_arg_u64(flags), sc_arg_u64(out)};
    sc_dim3 grid = {2, 1, 1}, block = {threads, 1, 1};
    if (sc_launch_kernel(device, module, "publish", grid, block, 0, arguments, 3, &error) < 0)
        fail_msg("%s", error.message);
    timing_report report;
    timing_engine_report(engine, &report);
    seen.release_stalls = report.kernel_records[0].stalls.sync_kind[GSI_SYNC_RELEASE];
    seen.barrier_stalls = report.kernel_records[0].stalls.sync_kind[GSI_SYNC_BARRIER];
    uint32_t *loaded = calloc(threads, sizeof *loaded);
    assert_int_equal(sc_memcpy_from_device(device, loaded, out, threads * 4, &error), 0);
    unsigned fresh = 0;
    for (unsigned t = 0; t < threads; t++)
        fresh += loaded[t] == t + 1;
    free(loaded);
    sc_device_destroy(device);
    sc_config_free(config);
    return fresh;
}

static void test_one_marker_batch_per_work_group(void **state)
{
    (void)state;
    run_barrier_kernel("gpu.barrier_release_scope=cta");
    uint64_t cta_release_stalls = seen.release_stalls;
    unsigned fresh = run_barrier_kernel(NULL);
    assert_int_equal(seen.batches_at_open, 1);
    assert_true(seen.waits > 0);   /* the warps went on only once the batch was acknowledged */
    assert_true(seen.release_stalls > cta_release_stalls);   /* that wait is GSI sync/release */
    assert_int_equal(fresh, seen.threads);
}

static void test_one_marker_batch_per_wavefront_as_option(void **state)
{
    (void)state;
    unsigned fresh = run_barrier_kernel("gpu.barrier_release_granularity=wavefront");
    assert_int_equal(seen.batches_at_open, BARRIER_WARPS);
    assert_int_equal(seen.waits, 0);   /* each warp waited for its own batch before it arrived */
    assert_int_equal(fresh, seen.threads);
}

static void test_cta_barrier_leaves_the_words_in_the_write_cache(void **state)
{
    (void)state;
    unsigned fresh = run_barrier_kernel("gpu.barrier_release_scope=cta");
    assert_int_equal(seen.batches_at_open, 0);
    assert_int_equal(fresh, 0);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_marker_batch_per_work_group),
        cmocka_unit_test(test_one_marker_batch_per_wavefront_as_option),
        cmocka_unit_test(test_cta_barrier_leaves_the_words_in_the_write_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
