/* test_local_memory.c — the local-memory organisations of docs/local-memory.md: the banked
 * scratchpad's conflict degree (scratchpad.h) and its timing in the engine (a conflict-free warp
 * access takes one cycle, an n-way conflict n, the extra cycles charged to GSI bank_conflict),
 * the fixed-latency shared memory the other presets keep, and the DMA engine of a launch's DMA
 * mapping (dma_engine.c: values in and out, the first scratchpad access blocking the whole CU
 * until the transfer completes, charged to pending_dma), and the stash of a stash mapping
 * (stash.c: the first access of a word reads around the L1, a second hits; only the waiting warp
 * blocks; a dirty word answers another SM's read under denovo; stores reach memory by kernel end). */
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
#include "protocols/denovo/denovo.h"
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

/* A device on gsi with `cus` CUs running `mechanism`, with `timing` shared memory,
 * local_memory.dma_blocking `blocking` and `ptx` loaded. */
typedef struct one_cu {
    sc_config *config;
    void *engine;
    sc_device *device;
    int module;
} one_cu;

static one_cu device_open(const char *mechanism, unsigned cus, const char *timing, const char *blocking,
                          const char *ptx)
{
    sc_error error = {{0}};
    char cus_set[64], timing_set[64], blocking_set[64];
    snprintf(cus_set, sizeof cus_set, "gpu.cu_count=%u", cus);
    snprintf(timing_set, sizeof timing_set, "local_memory.timing=%s", timing);
    snprintf(blocking_set, sizeof blocking_set, "local_memory.dma_blocking=%s", blocking);
    const char *sets[] = {cus_set, timing_set, blocking_set};
    one_cu run = {.config = sc_config_load("gsi", NULL, sets, 3, &error)};
    assert_non_null(run.config);
    timing_config timing_parameters;
    assert_int_equal(timing_config_load(run.config, 0, &timing_parameters, &error), 0);
    const sc_protocol *protocol = sc_protocol_find(mechanism);
    assert_int_equal(timing_config_load_protocol(run.config, protocol, &timing_parameters, &error), 0);
    run.engine = timing_engine_create(&timing_parameters, protocol, &error);
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

/* One CU of gsi under wt. */
static one_cu one_cu_open(const char *timing, const char *blocking, const char *ptx)
{
    return device_open("wt", 1, timing, blocking, ptx);
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

/* Runs one CTA of `threads` over words 1000, 1001, ... mapped (or not) by `kind` on one CU under
 * `mechanism` with `blocking`; checks the words. Under denovo, *registrations (if asked) gets the
 * run's registration requests. */
static timing_kernel_record run_mapped_on(const char *mechanism, sc_mapping_kind kind, unsigned threads, unsigned work,
                                          bool mapped, const char *blocking, uint64_t *registrations)
{
    sc_error error = {{0}};
    one_cu run = device_open(mechanism, 1, "banked", blocking, mapped_kernel);
    uint32_t words[64];
    for (unsigned i = 0; i < threads; i++)
        words[i] = 1000 + i;
    uint64_t data = sc_device_malloc(run.device, sizeof words);
    assert_int_equal(sc_memcpy_to_device(run.device, data, words, threads * 4, &error), 0);
    sc_dma_mapping mapping = {.global = data, .bytes_per_cta = threads * 4, .kind = kind};
    sc_kernel_arg argument = sc_arg_u32(work);
    sc_dim3 grid = {1, 1, 1}, block = {threads, 1, 1};
    assert_int_equal(sc_launch_kernel_mapped(run.device, run.module, "mapped", grid, block, threads * 4,
                                             mapped ? &mapping : NULL, &argument, 1, &error), 0);
    assert_int_equal(sc_memcpy_from_device(run.device, words, data, threads * 4, &error), 0);
    for (unsigned i = 0; i < threads; i++)   /* unmapped: the words stay in global memory untouched */
        assert_int_equal(words[i], !mapped ? 1000 + i : i < 32 ? 1000 + i + 1 : work);
    timing_kernel_record record = one_cu_last_kernel(&run);
    if (registrations) {
        timing_report report;
        timing_engine_report(run.engine, &report);
        *registrations = ((const denovo_stats *)report.protocol_stats)->registrations;
    }
    one_cu_close(&run);
    return record;
}

/* The DMA engine under wt. */
static timing_kernel_record run_mapped(unsigned threads, unsigned work, bool mapped, const char *blocking)
{
    return run_mapped_on("wt", SC_MAPPING_DMA, threads, work, mapped, blocking, NULL);
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

/* ---- the stash ----
 *
 * Each thread reads its word of its CTA's stash-mapped chunk twice and stores the sum to `out`. */
static const char twice_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .shared .align 16 .b8 chunk[];\n"
    ".visible .entry twice(.param .u64 twice_out)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd0, [twice_out];\n"
    "mov.u32 %r0, %tid.x;\n"
    "shl.b32 %r2, %r0, 2;\n"
    "mov.u32 %r3, chunk;\n"
    "add.u32 %r3, %r3, %r2;\n"
    "ld.shared.u32 %r4, [%r3];\n"
    "ld.shared.u32 %r5, [%r3];\n"
    "add.u32 %r6, %r4, %r5;\n"
    "mul.wide.u32 %rd1, %r0, 4;\n"
    "add.s64 %rd2, %rd0, %rd1;\n"
    "st.global.u32 [%rd2], %r6;\n"
    "ret;\n}\n";

/* The first load of each word is a global request that reads around the L1 (under denovo, the
 * thesis's configuration): one line access per line of the chunk, none of them an L1 hit, miss or
 * fill, the data wait charged beyond the local hits; the second load, issued while the first's
 * request is out, sends nothing and waits for that request (l1_coalesce). */
static void test_stash_first_access_fills_around_the_l1(void **state)
{
    (void)state;
    sc_error error = {{0}};
    one_cu run = device_open("denovo", 1, "banked", "core", twice_kernel);
    uint32_t words[32];
    for (unsigned i = 0; i < 32; i++)
        words[i] = 7 * i + 1;
    uint64_t data = sc_device_malloc(run.device, sizeof words), out = sc_device_malloc(run.device, sizeof words);
    assert_int_equal(sc_memcpy_to_device(run.device, data, words, sizeof words, &error), 0);
    sc_dma_mapping mapping = {.global = data, .bytes_per_cta = sizeof words, .kind = SC_MAPPING_STASH};
    sc_kernel_arg argument = sc_arg_ptr(out);
    sc_dim3 grid = {1, 1, 1}, block = {32, 1, 1};
    assert_int_equal(sc_launch_kernel_mapped(run.device, run.module, "twice", grid, block, sizeof words, &mapping,
                                             &argument, 1, &error), 0);
    uint32_t sums[32];
    assert_int_equal(sc_memcpy_from_device(run.device, sums, out, sizeof sums, &error), 0);
    for (unsigned i = 0; i < 32; i++)
        assert_int_equal(sums[i], 2 * words[i]);
    timing_report report;
    timing_engine_report(run.engine, &report);
    uint64_t lines = sizeof words / timing_engine_line_bytes(run.engine);
    assert_int_equal(report.memory->l1_load_accesses, lines);
    assert_int_equal(report.memory->l1_read_arounds, lines);
    timing_kernel_record record = one_cu_last_kernel(&run);
    assert_int_equal(record.l1_hits, 0);
    assert_int_equal(record.l1_misses, 0);
    assert_true(record.stalls.category[GSI_MEM_DATA] > record.stalls.source[GSI_SOURCE_L1]);
    assert_true(record.stalls.source[GSI_SOURCE_L1_COALESCE] > 0);   /* the second load waits for the first's */
    one_cu_close(&run);
}

/* Only the waiting warp blocks (§4.6): a second warp's ALU loop runs while the first warp's stash
 * load is out, so the kernel lasts less than the loop's 4 x 4 cycles longer than the first warp
 * alone; nothing is charged to pending_dma. The words written through the stash reach global
 * memory by the kernel's end, under denovo (registered) and wt (written through). */
static void test_stash_blocks_only_the_waiting_warp(void **state)
{
    (void)state;
    static const char *const mechanisms[] = {"denovo", "wt"};
    for (unsigned m = 0; m < 2; m++) {
        timing_kernel_record alone = run_mapped_on(mechanisms[m], SC_MAPPING_STASH, 32, 0, true, "core", NULL);
        timing_kernel_record with_loop = run_mapped_on(mechanisms[m], SC_MAPPING_STASH, 64, 4, true, "core", NULL);
        assert_true(with_loop.cycles < alone.cycles + 4 * 4);
        assert_int_equal(with_loop.stalls.struct_cause[GSI_STRUCT_PENDING_DMA], 0);
        assert_true(alone.stalls.category[GSI_MEM_DATA] > 0);
    }
}

/* CTA 0 (on CU 0) writes its stash words and releases a flag; CTA 1 (on CU 1) acquires the flag
 * and reads CTA 0's words from global memory. Under denovo the release registered the words to
 * CU 0, so the L2 forwards the reads there and CU 0 answers (REMOTE_L1) with the stash's values. */
static const char share_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .shared .align 16 .b8 chunk[];\n"
    ".visible .entry share(.param .u64 share_data, .param .u64 share_flag, .param .u64 share_out)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n"
    "ld.param.u64 %rd0, [share_data];\n"
    "ld.param.u64 %rd1, [share_flag];\n"
    "ld.param.u64 %rd2, [share_out];\n"
    "mov.u32 %r0, %ctaid.x;\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\n"
    "setp.ne.u32 %p0, %r0, 0;\n"
    "@%p0 bra READER;\n"
    "shl.b32 %r2, %r1, 2;\n"
    "mov.u32 %r3, chunk;\n"
    "add.u32 %r3, %r3, %r2;\n"
    "add.u32 %r4, %r1, 100;\n"
    "st.shared.u32 [%r3], %r4;\n"
    "mov.u32 %r5, 1;\n"
    "st.release.gpu.global.u32 [%rd1], %r5;\n"
    "ret;\n"
    "READER:\n"
    "ld.acquire.gpu.global.u32 %r6, [%rd1];\n"
    "setp.eq.u32 %p1, %r6, 0;\n"
    "@%p1 bra READER;\n"
    "add.s64 %rd4, %rd0, %rd3;\n"
    "ld.global.u32 %r7, [%rd4];\n"
    "add.s64 %rd5, %rd2, %rd3;\n"
    "st.global.u32 [%rd5], %r7;\n"
    "ret;\n}\n";

static void test_stash_dirty_word_answers_another_sm(void **state)
{
    (void)state;
    sc_error error = {{0}};
    one_cu run = device_open("denovo", 2, "banked", "core", share_kernel);
    uint32_t words[64] = {0}, flag = 0;
    uint64_t data = sc_device_malloc(run.device, sizeof words), flag_address = sc_device_malloc(run.device, 4),
             out = sc_device_malloc(run.device, 32 * 4);
    assert_int_equal(sc_memcpy_to_device(run.device, data, words, sizeof words, &error), 0);
    assert_int_equal(sc_memcpy_to_device(run.device, flag_address, &flag, 4, &error), 0);
    sc_dma_mapping mapping = {.global = data, .bytes_per_cta = 32 * 4, .kind = SC_MAPPING_STASH};
    sc_kernel_arg arguments[] = {sc_arg_ptr(data), sc_arg_ptr(flag_address), sc_arg_ptr(out)};
    sc_dim3 grid = {2, 1, 1}, block = {32, 1, 1};
    assert_int_equal(sc_launch_kernel_mapped(run.device, run.module, "share", grid, block, 32 * 4, &mapping,
                                             arguments, 3, &error), 0);
    uint32_t read[32];
    assert_int_equal(sc_memcpy_from_device(run.device, read, out, sizeof read, &error), 0);
    for (unsigned i = 0; i < 32; i++)
        assert_int_equal(read[i], 100 + i);
    timing_report report;
    timing_engine_report(run.engine, &report);
    const denovo_stats *stats = report.protocol_stats;
    assert_true(stats->registrations > 0);
    assert_true(stats->remote_l1_hits > 0);
    assert_true(report.total.source[GSI_SOURCE_REMOTE_L1] > 0);
    one_cu_close(&run);
}

/* Written back at kernel end: a CTA's stash stores, never released inside the kernel, reach the
 * L2 as registrations of the kernel-end flush (the words then stay owned by the SM: DeNovo's lazy
 * write-back) and the host reads them (run_mapped_on checks the words); without them the words
 * would keep their old values. */
static void test_stash_writes_back_at_kernel_end(void **state)
{
    (void)state;
    uint64_t registrations = 0;
    timing_kernel_record record = run_mapped_on("denovo", SC_MAPPING_STASH, 32, 0, true, "core", &registrations);
    assert_true(registrations > 0);
    assert_true(record.stalls.category[GSI_MEM_DATA] > record.stalls.source[GSI_SOURCE_L1]);
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
        cmocka_unit_test(test_stash_first_access_fills_around_the_l1),
        cmocka_unit_test(test_stash_blocks_only_the_waiting_warp),
        cmocka_unit_test(test_stash_dirty_word_answers_another_sm),
        cmocka_unit_test(test_stash_writes_back_at_kernel_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
