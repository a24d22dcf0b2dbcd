/* test_local_memory.c — the local-memory organisations of docs/local-memory.md: the banked
 * scratchpad's conflict degree (scratchpad.h) and its timing in the engine (a conflict-free warp
 * access takes one cycle, an n-way conflict n, the extra cycles charged to GSI bank_conflict),
 * the fixed-latency shared memory the other presets keep, and the DMA engine of a launch's DMA
 * mapping (dma_engine.c: values in and out, the first scratchpad access blocking the whole CU
 * until the transfer completes, charged to pending_dma). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "protocols/mechanism.h"
#include "timing/scratchpad.h"
#include "timing/timing_config.h"
#include "timing/timing_engine.h"

/* ---- the conflict degree ---- */

/* A 32-lane request whose lane l touches `bytes` bytes at offset l * stride. */
static exec_memory_request strided(exec_access_kind kind, unsigned stride, unsigned element_bytes)
{
    exec_memory_request request = {.kind = (uint8_t)kind, .element_bytes = (uint8_t)element_bytes, .vector = 1};
    request.shared_lanes = 0xffffffffull;
    for (unsigned lane = 0; lane < 32; lane++)
        request.address[lane] = (uint64_t)lane * stride;
    return request;
}

static void test_conflict_degree(void **state)
{
    (void)state;
    exec_memory_request r = strided(EXEC_ACCESS_LOAD, 4, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 1);    /* one word per bank */
    r = strided(EXEC_ACCESS_LOAD, 8, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 2);    /* two words in each even bank */
    r = strided(EXEC_ACCESS_LOAD, 16, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 4);
    r = strided(EXEC_ACCESS_LOAD, 128, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 32);   /* every lane in bank 0 */
    r = strided(EXEC_ACCESS_LOAD, 0, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 1);    /* one word, broadcast */
    r = strided(EXEC_ACCESS_STORE, 128, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 32);
    r = strided(EXEC_ACCESS_ATOMIC, 0, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 32);   /* atomics on one word serialise */
    r = strided(EXEC_ACCESS_LOAD, 8, 8);
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 2);    /* 64 words over 32 banks */
    r = strided(EXEC_ACCESS_LOAD, 4, 4);
    r.shared_lanes = 0x3;                                         /* two lanes only */
    r.address[1] = 128;
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 2);
    r.shared_lanes = 0;
    assert_int_equal(scratchpad_access_cycles(&r, 32, 4), 1);
    r = strided(EXEC_ACCESS_LOAD, 4, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 16, 8), 1);    /* 8-byte banks: two lanes per word */
    r = strided(EXEC_ACCESS_LOAD, 8, 4);
    assert_int_equal(scratchpad_access_cycles(&r, 16, 8), 2);    /* lanes l and l + 16 share a bank */
}

/* ---- timing in the engine ----
 *
 * One warp on one CU: each lane stores its thread index to word tid*stride of a shared array,
 * then loads 8 words tid*stride + k (k = 0..7, independent registers) and writes their sum to
 * out[tid], the last load's value first. Every one of the nine shared accesses has the same
 * conflict degree n. */
static const char strided_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 words[4096];\n"
    ".visible .entry strided(.param .u64 strided_out, .param .u32 strided_stride)\n{\n"
    ".reg .b32 %r<20>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd0, [strided_out];\n"
    "ld.param.u32 %r1, [strided_stride];\n"
    "mov.u32 %r0, %tid.x;\n"
    "mul.lo.u32 %r2, %r0, %r1;\n"
    "shl.b32 %r2, %r2, 2;\n"
    "mov.u32 %r3, words;\n"
    "add.u32 %r3, %r3, %r2;\n"
    "st.shared.u32 [%r3], %r0;\n"
    "ld.shared.u32 %r4, [%r3];\n"
    "ld.shared.u32 %r5, [%r3+4];\n"
    "ld.shared.u32 %r6, [%r3+8];\n"
    "ld.shared.u32 %r7, [%r3+12];\n"
    "ld.shared.u32 %r8, [%r3+16];\n"
    "ld.shared.u32 %r9, [%r3+20];\n"
    "ld.shared.u32 %r10, [%r3+24];\n"
    "ld.shared.u32 %r11, [%r3+28];\n"
    "add.u32 %r12, %r11, %r10;\n"
    "add.u32 %r12, %r12, %r9;\n"
    "add.u32 %r12, %r12, %r8;\n"
    "add.u32 %r12, %r12, %r7;\n"
    "add.u32 %r12, %r12, %r6;\n"
    "add.u32 %r12, %r12, %r5;\n"
    "add.u32 %r12, %r12, %r4;\n"
    "mul.wide.u32 %rd1, %r0, 4;\n"
    "add.s64 %rd2, %rd0, %rd1;\n"
    "st.global.u32 [%rd2], %r12;\n"
    "ret;\n}\n";

typedef struct strided_run {
    uint64_t cycles, bank_conflict;
} strided_run;

/* A device on a one-CU gsi running wt, with `timing` shared memory, local_memory.dma_blocking
 * `blocking` and `ptx` loaded. */
typedef struct one_cu {
    sc_config *config;
    void *engine;
    sc_device *device;
    int module;
} one_cu;

static one_cu one_cu_open(const char *timing, const char *blocking, const char *ptx)
{
    sc_error error = {{0}};
    char timing_set[64], blocking_set[64];
    snprintf(timing_set, sizeof timing_set, "local_memory.timing=%s", timing);
    snprintf(blocking_set, sizeof blocking_set, "local_memory.dma_blocking=%s", blocking);
    const char *sets[] = {"gpu.cu_count=1", timing_set, blocking_set};
    one_cu run = {.config = sc_config_load("gsi", NULL, sets, 3, &error)};
    assert_non_null(run.config);
    timing_config timing_parameters;
    assert_int_equal(timing_config_load(run.config, 0, &timing_parameters, &error), 0);
    const sc_protocol *wt = sc_protocol_find("wt");
    assert_int_equal(timing_config_load_protocol(run.config, wt, &timing_parameters, &error), 0);
    run.engine = timing_engine_create(&timing_parameters, wt, &error);
    assert_non_null(run.engine);
    run.device = sc_device_create(timing_parameters.core.warp_size, &error);
    sc_device_set_engine(run.device, &timing_engine_ops, run.engine);
    char path[] = "/tmp/syncscope_local_memory_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, ptx, strlen(ptx)), (ssize_t)strlen(ptx));
    close(fd);
    run.module = sc_device_load_ptx(run.device, path, &error);
    unlink(path);
    assert_true(run.module >= 0);
    return run;
}

static timing_kernel_record one_cu_last_kernel(const one_cu *run)
{
    timing_report report;
    timing_engine_report(run->engine, &report);
    return report.kernel_records[report.kernel_record_count - 1];
}

static void one_cu_close(one_cu *run)
{
    sc_device_destroy(run->device);
    sc_config_free(run->config);
}

/* Runs the kernel with `stride` (in words) under wt on a one-CU gsi with `timing` shared memory. */
static strided_run run_strided(const char *timing, unsigned stride)
{
    sc_error error = {{0}};
    one_cu run = one_cu_open(timing, "core", strided_kernel);
    uint64_t out = sc_device_malloc(run.device, 32 * 4);
    sc_kernel_arg arguments[] = {sc_arg_u64(out), sc_arg_u32(stride)};
    sc_dim3 grid = {1, 1, 1}, block = {32, 1, 1};
    assert_int_equal(sc_launch_kernel(run.device, run.module, "strided", grid, block, 0, arguments, 2, &error), 0);
    uint32_t sums[32];
    assert_int_equal(sc_memcpy_from_device(run.device, sums, out, sizeof sums, &error), 0);
    for (unsigned lane = 0; lane < 32; lane++) {   /* words lane*stride + k hold the thread indices stored there */
        uint32_t expected = 0;
        for (unsigned word = lane * stride; word < lane * stride + 8; word++)
            if (word % stride == 0 && word / stride < 32)
                expected += word / stride;
        assert_int_equal(sums[lane], expected);
    }
    timing_kernel_record record = one_cu_last_kernel(&run);
    one_cu_close(&run);
    return (strided_run){record.cycles, record.stalls.struct_cause[GSI_STRUCT_BANK_CONFLICT]};
}

/* Nine accesses of degree n: the warp's next access waits n - 1 cycles after each of the first
 * eight (bank_conflict), and the last load's value comes n - 1 cycles later too. */
static void test_banked_accesses_take_their_conflict_degree(void **state)
{
    (void)state;
    strided_run free_run = run_strided("banked", 1);
    static const unsigned strides[] = {2, 4, 32}, degrees[] = {2, 4, 32};
    for (unsigned i = 0; i < 3; i++) {
        strided_run conflicted = run_strided("banked", strides[i]);
        uint64_t extra = degrees[i] - 1;
        assert_int_equal(conflicted.cycles - free_run.cycles, 9 * extra);
        assert_int_equal(conflicted.bank_conflict - free_run.bank_conflict, 8 * extra);
    }
}

static void test_fixed_shared_memory_never_conflicts(void **state)
{
    (void)state;
    strided_run free_run = run_strided("fixed", 1), conflicted = run_strided("fixed", 32);
    assert_int_equal(conflicted.cycles, free_run.cycles);
    assert_int_equal(conflicted.bank_conflict, free_run.bank_conflict);
    strided_run banked = run_strided("banked", 1);   /* 1-cycle hits: conflict-free banked = fixed */
    assert_int_equal(banked.cycles, free_run.cycles);
}

/* ---- the DMA engine ----
 *
 * Each CTA's chunk of `words` (one word per thread) is DMA-mapped into its dynamic shared memory.
 * Warp 0 adds one to its words at once; the other warps first count to `work` in a loop of ALU
 * instructions, then store the count into their words. */
static const char mapped_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .shared .align 16 .b8 chunk[];\n"
    ".visible .entry mapped(.param .u32 mapped_work)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<10>;\n"
    "ld.param.u32 %r9, [mapped_work];\n"
    "mov.u32 %r0, %tid.x;\n"
    "shl.b32 %r2, %r0, 2;\n"
    "mov.u32 %r3, chunk;\n"
    "add.u32 %r3, %r3, %r2;\n"
    "setp.lt.u32 %p0, %r0, 32;\n"
    "@%p0 bra FIRST;\n"
    "mov.u32 %r1, 0;\n"
    "COUNT:\n"
    "add.u32 %r1, %r1, 1;\n"
    "setp.lt.u32 %p1, %r1, %r9;\n"
    "@%p1 bra COUNT;\n"
    "st.shared.u32 [%r3], %r1;\n"
    "ret;\n"
    "FIRST:\n"
    "ld.shared.u32 %r4, [%r3];\n"
    "add.u32 %r4, %r4, 1;\n"
    "st.shared.u32 [%r3], %r4;\n"
    "ret;\n}\n";

/* Runs one CTA of `threads` over words 1000, 1001, ... mapped by DMA (or not) with `blocking`;
 * checks the words. */
static timing_kernel_record run_mapped(unsigned threads, unsigned work, bool mapped, const char *blocking)
{
    sc_error error = {{0}};
    one_cu run = one_cu_open("banked", blocking, mapped_kernel);
    uint32_t words[64];
    for (unsigned i = 0; i < threads; i++)
        words[i] = 1000 + i;
    uint64_t data = sc_device_malloc(run.device, sizeof words);
    assert_int_equal(sc_memcpy_to_device(run.device, data, words, threads * 4, &error), 0);
    sc_dma_mapping dma = {.global = data, .bytes_per_cta = threads * 4};
    sc_kernel_arg argument = sc_arg_u32(work);
    sc_dim3 grid = {1, 1, 1}, block = {threads, 1, 1};
    assert_int_equal(sc_launch_kernel_mapped(run.device, run.module, "mapped", grid, block, threads * 4,
                                             mapped ? &dma : NULL, &argument, 1, &error), 0);
    assert_int_equal(sc_memcpy_from_device(run.device, words, data, threads * 4, &error), 0);
    for (unsigned i = 0; i < threads; i++)   /* unmapped: the words stay in global memory untouched */
        assert_int_equal(words[i], !mapped ? 1000 + i : i < 32 ? 1000 + i + 1 : work);
    timing_kernel_record record = one_cu_last_kernel(&run);
    one_cu_close(&run);
    return record;
}

/* The first scratchpad access waits for the whole transfer (two lines, at least an L2 hit of
 * gsi's 29 cycles away), charged to pending_dma; without a mapping nothing waits. */
static void test_dma_blocks_the_first_scratchpad_access(void **state)
{
    (void)state;
    timing_kernel_record plain = run_mapped(32, 0, false, "core"), mapped = run_mapped(32, 0, true, "core");
    assert_int_equal(plain.stalls.struct_cause[GSI_STRUCT_PENDING_DMA], 0);
    assert_true(mapped.stalls.struct_cause[GSI_STRUCT_PENDING_DMA] >= 29);
    assert_true(mapped.cycles >= plain.cycles + 29);
}

/* The block is the whole CU's (§4.5): a second warp's short ALU loop, which needs no scratchpad
 * until its end and would fit inside the transfer, cannot run while the first warp waits for it,
 * so it adds its whole length to the kernel (4 iterations of at least an ALU latency each). */
static void test_dma_blocks_the_whole_cu(void **state)
{
    (void)state;
    timing_kernel_record alone = run_mapped(32, 0, true, "core"), with_loop = run_mapped(64, 4, true, "core");
    assert_true(with_loop.cycles >= alone.cycles + 4 * 4);
    assert_true(with_loop.stalls.struct_cause[GSI_STRUCT_PENDING_DMA] > 0);
}

/* local_memory.dma_blocking warp (D2MA's choice): the same loop runs inside the transfer, so the
 * kernel lasts less than the loop's 4 x 4 cycles longer than the first warp alone. */
static void test_dma_warp_blocking_lets_other_warps_run(void **state)
{
    (void)state;
    timing_kernel_record alone = run_mapped(32, 0, true, "warp"), with_loop = run_mapped(64, 4, true, "warp");
    assert_true(with_loop.cycles < alone.cycles + 4 * 4);
    assert_true(with_loop.stalls.struct_cause[GSI_STRUCT_PENDING_DMA] > 0);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conflict_degree),
        cmocka_unit_test(test_banked_accesses_take_their_conflict_degree),
        cmocka_unit_test(test_fixed_shared_memory_never_conflicts),
        cmocka_unit_test(test_dma_blocks_the_first_scratchpad_access),
        cmocka_unit_test(test_dma_blocks_the_whole_cu),
        cmocka_unit_test(test_dma_warp_blocking_lets_other_warps_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
