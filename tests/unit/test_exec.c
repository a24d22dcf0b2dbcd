/* test_exec.c — the SIMT functional executor, through real PTX on a device: divergence and
 * reconvergence, nested divergent loops, early exit, calls (divergent and recursive), local
 * arrays, every shfl.sync mode, votes, barriers between warps, generic addressing of shared
 * memory, atomics on shared and global memory, dynamic shared memory, module variables, 2-D and
 * 3-D indices, partial warps and 64-wide warps, the per-kernel shared-memory layout; and the
 * run-time errors (out-of-bounds store, watchdog); CTAs started in a finished CTA's storage start
 * from zeroed state. Kernels come from tests/data/exec/exec_kernels.cu
 * (compiled PTX committed) and hand-written PTX files; every expected value is computed here in
 * plain C.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/files.h"
#include "exec/functional_engine.h"
#include "host/host_api.h"

#define MAX_WORDS 1024

static sc_device *create_device(unsigned warp_size)
{
    sc_error error = {{0}};
    sc_device *device = sc_device_create(warp_size, &error);
    if (!device)
        fail_msg("device: %s", error.message);
    return device;
}

static int load_exec_ptx(sc_device *device, const char *name)
{
    char path[1024];
    sc_error error = {{0}};
    snprintf(path, sizeof path, "%s/tests/data/exec/%s", sc_data_dir(), name);
    int module = sc_device_load_ptx(device, path, &error);
    if (module < 0)
        fail_msg("%s", error.message);
    return module;
}

/* Allocates `count` 32-bit words on the device holding `contents`. */
static uint64_t device_words(sc_device *device, const void *contents, size_t count)
{
    sc_error error = {{0}};
    uint64_t address = sc_device_malloc(device, count * 4);
    assert_true(address != 0);
    if (sc_memcpy_to_device(device, address, contents, count * 4, &error) < 0)
        fail_msg("%s", error.message);
    return address;
}

static void read_words(sc_device *device, uint64_t address, void *contents, size_t count)
{
    sc_error error = {{0}};
    if (sc_memcpy_from_device(device, contents, address, count * 4, &error) < 0)
        fail_msg("%s", error.message);
}

/* Launches kernel(in, out) or, without `in`, kernel(out). `out` goes in with its host contents
 * (sentinels) and comes back with the kernel's results. */
static void run_kernel(sc_device *device, const char *kernel, sc_dim3 grid, sc_dim3 block, uint32_t dynamic_bytes,
                       const int32_t *in, size_t in_count, int32_t *out, size_t out_count)
{
    int module = load_exec_ptx(device, "exec_kernels.ptx");
    sc_error error = {{0}};
    sc_kernel_arg args[2];
    int count = 0;
    if (in)
        args[count++] = sc_arg_ptr(device_words(device, in, in_count));
    uint64_t out_address = device_words(device, out, out_count);
    args[count++] = sc_arg_ptr(out_address);
    if (sc_launch_kernel(device, module, kernel, grid, block, dynamic_bytes, args, count, &error) < 0)
        fail_msg("%s: %s", kernel, error.message);
    read_words(device, out_address, out, out_count);
}

static void assert_words_equal(const int32_t *got, const int32_t *want, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (got[i] != want[i])
            fail_msg("word %zu = %d (0x%x), expected %d (0x%x)", i, got[i], (unsigned)got[i], want[i],
                     (unsigned)want[i]);
}

static void test_divergent_if(void **state)
{
    (void)state;
    enum { N = 64 };
    int32_t in[N], out[2 * N] = {0}, want[2 * N];
    for (int t = 0; t < N; t++)
        in[t] = t % 7 + 1;
    for (int t = 0; t < N; t++) {
        int r = 0;
        if (t % 3 == 0)
            for (int i = 0; i < in[t]; i++)
                r += i * t;
        else
            r = in[(t + 1) % N] * 2;
        want[t] = r + 1000 + t;
        want[N + t] = 32;  /* every lane of the warp is back after the join */
    }
    sc_device *device = create_device(32);
    run_kernel(device, "divergent_if", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, in, N, out, 2 * N);
    assert_words_equal(out, want, 2 * N);
    sc_device_destroy(device);
}

/* Runs nested_loops over grid x block threads on `device` and checks every lane's sum. */
static void check_nested_loops(sc_device *device, unsigned grid, unsigned block)
{
    int32_t trips[MAX_WORDS], out[MAX_WORDS] = {0}, want[MAX_WORDS];
    unsigned n = grid * block;
    assert_true(n <= MAX_WORDS);
    for (unsigned t = 0; t < n; t++) {
        trips[t] = (int32_t)(t * 7 % 13);
        int s = 0;
        for (int i = 0; i < trips[t]; i++) {
            for (int j = 0; j <= i % 3 + (int)(t & 1); j++)
                if ((i + j + (int)t) % 4 != 0)
                    s += i * 10 + j;
            if (s > 500)
                break;
        }
        want[t] = s;
    }
    run_kernel(device, "nested_loops", (sc_dim3){grid, 1, 1}, (sc_dim3){block, 1, 1}, 0, trips, n, out, n);
    assert_words_equal(out, want, n);
}

static void test_nested_loops(void **state)
{
    (void)state;
    sc_device *device = create_device(32);
    check_nested_loops(device, 2, 48);
    sc_device_destroy(device);
}

static void test_early_exit(void **state)
{
    (void)state;
    enum { N = 32 };
    int32_t out[N], want[N];
    for (int t = 0; t < N; t++) {
        out[t] = -1;
        bool leaves = t % 5 == 0 || ((t & 1) && t > 20);
        want[t] = leaves ? -1 : ((t & 1) ? 3 * t : t) + 1000;
    }
    sc_device *device = create_device(32);
    run_kernel(device, "early_exit", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, NULL, 0, out, N);
    assert_words_equal(out, want, N);
    sc_device_destroy(device);
}

static int mix(int a, int b)
{
    int s = 0;
    for (int i = 0; i < (a & 7); i++)
        s += b ^ i;
    return s * 3 + a;
}

static int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void test_calls(void **state)
{
    (void)state;
    enum { N = 32 };
    int32_t in[N], out[2 * N] = {0}, want[2 * N];
    for (int t = 0; t < N; t++) {
        in[t] = t * 5 + 2;
        want[t] = mix(t, in[t]) + ((t & 1) ? mix(in[t], t) : 0);
        want[N + t] = fib(t % 12);
    }
    sc_device *device = create_device(32);
    run_kernel(device, "calls", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, in, N, out, 2 * N);
    assert_words_equal(out, want, 2 * N);
    sc_device_destroy(device);
}

static void test_local_array(void **state)
{
    (void)state;
    enum { N = 32 };
    int32_t in[N], out[N] = {0}, want[N];
    for (int t = 0; t < N; t++) {
        in[t] = t * 13 + 7;
        int a[16];
        for (int i = 0; i < 16; i++)
            a[i] = in[t] * i + t;
        int k = in[t] & 15, s = 0;
        a[k] += 100;
        for (int i = 0; i <= k; i++)
            s += a[(i * 5 + t) & 15];
        want[t] = s;
    }
    sc_device *device = create_device(32);
    run_kernel(device, "local_array", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, in, N, out, N);
    assert_words_equal(out, want, N);
    sc_device_destroy(device);
}

static void test_shuffles(void **state)
{
    (void)state;
    enum { N = 64 };
    int32_t in[N], out[8 * N] = {0}, want[8 * N];
    for (int t = 0; t < N; t++)
        in[t] = t * t + 3;
    for (int t = 0; t < N; t++) {
        int lane = t & 31, warp = t - lane;
        const int32_t *v = in + warp;
        want[0 * N + t] = lane >= 3 ? v[lane - 3] : v[lane];
        want[1 * N + t] = lane + 5 < 32 ? v[lane + 5] : v[lane];
        want[2 * N + t] = v[lane ^ 6];
        want[3 * N + t] = v[(lane * 7 + 3) & 31];
        want[4 * N + t] = v[(lane + 40) % 32];
        want[5 * N + t] = lane % 8 + 3 < 8 ? v[lane + 3] : v[lane];
        want[6 * N + t] = lane % 8 >= 2 ? v[lane - 2] : v[lane];
        want[7 * N + t] = v[(lane & ~15) + 5];
    }
    sc_device *device = create_device(32);
    run_kernel(device, "shuffles", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, in, N, out, 8 * N);
    assert_words_equal(out, want, 8 * N);
    sc_device_destroy(device);
}

static void test_votes(void **state)
{
    (void)state;
    enum { N = 64 };
    int32_t in[N], out[4 * N] = {0}, want[4 * N];
    for (int t = 0; t < N; t++)
        in[t] = t * 5 % 23;
    in[40] = 77;  /* only the second warp has a 77 and a negative value */
    in[50] = -4;
    for (int warp = 0; warp < N; warp += 32) {
        uint32_t multiple_of_3 = 0, odd = 0;
        bool any_77 = false, all_positive = true;
        for (int lane = 0; lane < 32; lane++) {
            int v = in[warp + lane];
            multiple_of_3 |= (uint32_t)(v % 3 == 0) << lane;
            odd |= (uint32_t)(v & 1) << lane;
            any_77 |= v == 77;
            all_positive &= v >= 0;
        }
        for (int lane = 0; lane < 32; lane++) {
            want[0 * N + warp + lane] = (int32_t)multiple_of_3;
            want[1 * N + warp + lane] = any_77;
            want[2 * N + warp + lane] = all_positive;
            want[3 * N + warp + lane] = (in[warp + lane] & 1) ? (int32_t)odd : 0;
        }
    }
    sc_device *device = create_device(32);
    run_kernel(device, "votes", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, in, N, out, 4 * N);
    assert_words_equal(out, want, 4 * N);
    assert_int_equal(want[1 * N], 0);
    assert_int_equal(want[1 * N + 32], 1);
    sc_device_destroy(device);
}

static void test_barrier_exchange(void **state)
{
    (void)state;
    enum { N = 64 };
    int32_t out[N] = {0}, want[N];
    for (int t = 0; t < N; t++) {
        int u = t ^ 33, a = (63 - u) * (63 - u) + 1, b = ((u + 32) & 63) * ((u + 32) & 63) + 1;
        want[t] = a * 1000 + b;
    }
    sc_device *device = create_device(32);
    run_kernel(device, "barrier_exchange", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, NULL, 0, out, N);
    assert_words_equal(out, want, N);
    sc_device_destroy(device);
}

/* `returned` (count values) plus `final` must be exactly {0, 1, ..., count}: each exchange saw
 * the previous value once. */
static void assert_exchange_chain(const int32_t *returned, int count, int32_t final)
{
    bool seen[MAX_WORDS + 1] = {false};
    assert_true(count <= MAX_WORDS);
    for (int i = 0; i <= count; i++) {
        int32_t value = i < count ? returned[i] : final;
        assert_true(value >= 0 && value <= count);
        assert_false(seen[value]);
        seen[value] = true;
    }
}

static void test_atomics(void **state)
{
    (void)state;
    enum { BLOCKS = 2, THREADS = 64, N = BLOCKS * THREADS };
    int32_t g[8 + 8 * BLOCKS] = {0}, exchanged[2 * N] = {0};
    g[1] = 0x7fffffff;
    sc_device *device = create_device(32);
    int module = load_exec_ptx(device, "exec_kernels.ptx");
    uint64_t g_address = device_words(device, g, 8 + 8 * BLOCKS);
    uint64_t exchanged_address = device_words(device, exchanged, 2 * N);
    sc_kernel_arg args[2] = {sc_arg_ptr(g_address), sc_arg_ptr(exchanged_address)};
    sc_error error = {{0}};
    if (sc_launch_kernel(device, module, "atomics", (sc_dim3){BLOCKS, 1, 1}, (sc_dim3){THREADS, 1, 1}, 0, args, 2,
                         &error) < 0)
        fail_msg("%s", error.message);
    read_words(device, g_address, g, 8 + 8 * BLOCKS);
    read_words(device, exchanged_address, exchanged, 2 * N);

    int total = 0, lowest = 0x7fffffff, highest = 0;
    for (int b = 0; b < BLOCKS; b++) {
        int sum = 0, low = 0x7fffffff, high = 0;
        for (int t = 0; t < THREADS; t++) {
            int v = (t * 37 + b * 11) % 101;
            sum += v;
            low = v - 50 < low ? v - 50 : low;
            high = v > high ? v : high;
        }
        const int32_t *shared = &g[8 + 8 * b];
        assert_int_equal(shared[0], sum);
        assert_int_equal(shared[1], low);
        assert_int_equal(shared[2], high);
        assert_int_equal(shared[3], THREADS % 10);   /* atom.inc wraps after 9 */
        assert_exchange_chain(&exchanged[N + b * THREADS], THREADS, shared[4]);
        assert_int_equal(shared[5], THREADS * (THREADS - 1) / 2);  /* the CAS loop adds t */
        total += sum;
        lowest = low < lowest ? low : lowest;
        highest = high > highest ? high : highest;
    }
    assert_int_equal(g[0], total);
    assert_int_equal(g[1], lowest);
    assert_int_equal(g[2], highest);
    assert_int_equal(g[3], N % 10);
    assert_exchange_chain(exchanged, N, g[4]);
    assert_int_equal(g[5], BLOCKS * THREADS * (THREADS - 1) / 2);
    sc_device_destroy(device);
}

static void check_dynamic_shared(sc_device *device, unsigned grid, unsigned block)
{
    int32_t in[MAX_WORDS], out[MAX_WORDS] = {0}, want[MAX_WORDS];
    unsigned n = grid * block;
    assert_true(n <= MAX_WORDS);
    for (unsigned i = 0; i < n; i++)
        in[i] = (int32_t)(i * 3 + 1);
    for (unsigned i = 0; i < n; i++) {
        unsigned base = i - i % block, t = i % block;
        want[i] = in[base + block - 1 - t] + 2 * in[base + (t + 1) % block];
    }
    run_kernel(device, "dynamic_shared", (sc_dim3){grid, 1, 1}, (sc_dim3){block, 1, 1}, 2 * block * 4, in, n, out, n);
    assert_words_equal(out, want, n);
}

static void test_dynamic_shared(void **state)
{
    (void)state;
    sc_device *device = create_device(32);
    check_dynamic_shared(device, 2, 96);
    sc_device_destroy(device);
}

/* Runs kernel(out) of per_kernel_shared.ptx with `dynamic_bytes` and checks the three words it
 * writes: its buffer's shared offset, the called function's buffer offset, the dynamic start. */
static void check_shared_layout(sc_device *device, int module, const char *kernel, uint32_t dynamic_bytes,
                                int32_t own, int32_t helper, int32_t dynamic_start)
{
    sc_error error = {{0}};
    int32_t out[3] = {0}, want[3] = {own, helper, dynamic_start};
    uint64_t address = device_words(device, out, 3);
    sc_kernel_arg arg = sc_arg_ptr(address);
    if (sc_launch_kernel(device, module, kernel, (sc_dim3){2, 1, 1}, (sc_dim3){32, 1, 1}, dynamic_bytes, &arg, 1,
                         &error) < 0)
        fail_msg("%s: %s", kernel, error.message);
    read_words(device, address, out, 3);
    assert_words_equal(out, want, 3);
}

/* Shared memory is laid out per kernel: a CTA holds the variables its kernel and the functions
 * it calls use, in declaration order, and dynamic shared memory starts after them (16-byte
 * aligned), whatever other kernels of the module declare. */
static void test_per_kernel_shared_memory(void **state)
{
    (void)state;
    sc_device *device = create_device(32);
    int module = load_exec_ptx(device, "per_kernel_shared.ptx");
    check_shared_layout(device, module, "big", 0, 0, -1, 12288);
    check_shared_layout(device, module, "small", 64, 0, 8192, 8256);
    check_shared_layout(device, module, "big", 16, 0, -1, 12288);
    sc_device_destroy(device);
}

static void test_module_variables(void **state)
{
    (void)state;
    enum { N = 32 };
    static const int32_t table[5] = {3, 1, 4, 1, 5}, weights[4] = {2, 7, 1, 8};
    int32_t out[N] = {0}, want[N], counter = 0, weights_read[4];
    for (int t = 0; t < N; t++)
        want[t] = table[t % 5] * weights[t & 3];
    sc_device *device = create_device(32);
    run_kernel(device, "module_variables", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, NULL, 0, out, N);
    assert_words_equal(out, want, N);
    int module = load_exec_ptx(device, "exec_kernels.ptx");  /* a second copy: fresh variables */
    uint64_t counter_address = sc_device_symbol_address(device, module, "counter");
    uint64_t weights_address = sc_device_symbol_address(device, module, "weights");
    assert_true(counter_address != 0 && weights_address != 0);
    read_words(device, counter_address, &counter, 1);
    assert_int_equal(counter, 100);
    read_words(device, weights_address, weights_read, 4);
    assert_words_equal(weights_read, weights, 4);
    read_words(device, sc_device_symbol_address(device, 0, "counter"), &counter, 1);
    assert_int_equal(counter, 100 + N * (N - 1) / 2);
    sc_device_destroy(device);
}

static void test_indices(void **state)
{
    (void)state;
    const sc_dim3 grid = {2, 3, 2}, block = {4, 3, 2};
    enum { N = 2 * 3 * 2 * 4 * 3 * 2 };
    int32_t out[2 * N] = {0}, want[2 * N];
    uint32_t shape = block.x | block.y << 4 | block.z << 8 | grid.x << 12 | grid.y << 16 | grid.z << 20;
    int g = 0;
    for (uint32_t bz = 0; bz < grid.z; bz++)
        for (uint32_t by = 0; by < grid.y; by++)
            for (uint32_t bx = 0; bx < grid.x; bx++)
                for (uint32_t tz = 0; tz < block.z; tz++)
                    for (uint32_t ty = 0; ty < block.y; ty++)
                        for (uint32_t tx = 0; tx < block.x; tx++, g++) {
                            want[2 * g] = (int32_t)(tx | ty << 4 | tz << 8 | bx << 12 | by << 16 | bz << 20);
                            want[2 * g + 1] = (int32_t)shape;
                        }
    sc_device *device = create_device(32);
    run_kernel(device, "indices", grid, block, 0, NULL, 0, out, 2 * N);
    assert_words_equal(out, want, 2 * N);
    sc_device_destroy(device);
}

static void test_partial_warp(void **state)
{
    (void)state;
    enum { N = 40 };
    int32_t in[N], out[N + 1] = {0}, want[N + 1];
    int sum = 0;
    for (int t = 0; t < N; t++) {
        in[t] = 3 * t + 1;  /* odd exactly for even t */
        sum += in[t];
    }
    for (int t = 0; t < N; t++)
        want[t] = t < 32 ? 32 * 1000 + 16 : 8 * 1000 + 4;
    want[N] = sum;
    sc_device *device = create_device(32);
    run_kernel(device, "partial_warp", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, in, N, out, N + 1);
    assert_words_equal(out, want, N + 1);
    sc_device_destroy(device);
}

/* Warp instructions issued by the device's last launch. */
static uint64_t last_launch_warp_instructions(const sc_device *device)
{
    size_t count = 0;
    const sc_launch_record *launches = sc_device_launches(device, &count);
    assert_true(count > 0);
    return launches[count - 1].stats.warp_instructions;
}

/* 64-wide warps give the same results with half the warp instructions of 32-wide ones. */
static void test_warp_size_64(void **state)
{
    (void)state;
    const sc_dim3 grid = {2, 1, 1}, block = {8, 8, 2};
    enum { N = 2 * 8 * 8 * 2 };
    int32_t narrow[2 * N] = {0}, wide[2 * N] = {0};
    sc_device *device = create_device(32), *wide_device = create_device(64);
    assert_int_equal(sc_device_warp_size(wide_device), 64);
    run_kernel(device, "indices", grid, block, 0, NULL, 0, narrow, 2 * N);
    run_kernel(wide_device, "indices", grid, block, 0, NULL, 0, wide, 2 * N);
    assert_words_equal(wide, narrow, 2 * N);
    assert_int_equal(last_launch_warp_instructions(device), 2 * last_launch_warp_instructions(wide_device));
    check_nested_loops(wide_device, 2, 96);
    check_dynamic_shared(wide_device, 3, 160);
    sc_device_destroy(device);
    sc_device_destroy(wide_device);
}

static void test_out_of_bounds_store(void **state)
{
    (void)state;
    sc_device *device = create_device(32);
    int module = load_exec_ptx(device, "oob_store.ptx");
    sc_kernel_arg arg = sc_arg_ptr(sc_device_malloc(device, 32 * 4));
    sc_error error = {{0}};
    assert_int_equal(sc_launch_kernel(device, module, "oob_store", (sc_dim3){1, 1, 1}, (sc_dim3){32, 1, 1}, 0, &arg, 1,
                                      &error),
                     -1);
    if (!strstr(error.message, "tests/data/exec/oob_store.ptx:19: ") || !strstr(error.message, "outside device memory"))
        fail_msg("unexpected error: %s", error.message);
    assert_null(strchr(error.message, '\n'));
    sc_device_destroy(device);
}

static void test_watchdog(void **state)
{
    (void)state;
    sc_device *device = create_device(32);
    functional_engine_options options = functional_engine_defaults(32);
    options.max_warp_instructions = 5000;
    sc_device_set_engine(device, &functional_engine_ops, functional_engine_create(&options));
    int module = load_exec_ptx(device, "spin_forever.ptx");
    sc_kernel_arg arg = sc_arg_ptr(sc_device_malloc(device, 4));
    sc_error error = {{0}};
    assert_int_equal(sc_launch_kernel(device, module, "spin_forever", (sc_dim3){1, 1, 1}, (sc_dim3){64, 1, 1}, 0, &arg,
                                      1, &error),
                     -1);
    if (!strstr(error.message, "kernel spin_forever: watchdog: more than 5000 warp instructions"))
        fail_msg("unexpected error: %s", error.message);
    sc_device_destroy(device);
}

/* Records which warp issued each step, and restricts every round to one scheduler when asked. */
typedef struct turn_log {
    bool restrict_rounds;
    unsigned switches, last_warp, steps;
} turn_log;

static void log_step(void *context, const exec_warp *warp, const exec_step *step, const exec_memory_request *request)
{
    (void)step;
    (void)request;
    turn_log *log = context;
    log->switches += log->steps > 0 && warp->index_in_cta != log->last_warp;
    log->last_warp = warp->index_in_cta;
    log->steps++;
}

static bool log_restricts(void *context, unsigned cu)
{
    (void)cu;
    return ((const turn_log *)context)->restrict_rounds;
}

/* barrier_exchange's two warps on one CU with two schedulers and one-instruction turns: they
 * alternate at every instruction unless rounds are restricted to one scheduler, when a warp runs
 * alone until it waits at a barrier (or ends): warp 0 to the first barrier; warp 1, which releases
 * it, on to the second; warp 0 to the third; warp 1 to its end; warp 0 to its end: 4 switches,
 * and the same result. */
/* Runs barrier_exchange (one CTA of two warps) on a functional engine with `options` on one CU
 * and checks its result. */
static void run_barrier_exchange(functional_engine_options options)
{
    enum { N = 64 };
    options.cu_count = 1;
    sc_device *device = create_device(32);
    sc_device_set_engine(device, &functional_engine_ops, functional_engine_create(&options));
    int32_t out[N] = {0}, want[N];
    for (int t = 0; t < N; t++) {
        int u = t ^ 33, a = (63 - u) * (63 - u) + 1, b = ((u + 32) & 63) * ((u + 32) & 63) + 1;
        want[t] = a * 1000 + b;
    }
    run_kernel(device, "barrier_exchange", (sc_dim3){1, 1, 1}, (sc_dim3){N, 1, 1}, 0, NULL, 0, out, N);
    assert_words_equal(out, want, N);
    sc_device_destroy(device);
}

static unsigned warp_switches(bool restrict_rounds)
{
    turn_log log = {.restrict_rounds = restrict_rounds};
    functional_observer observer = {.context = &log, .step = log_step, .one_scheduler_at_a_time = log_restricts};
    functional_engine_options options = functional_engine_defaults(32);
    options.quantum = 1;
    options.schedulers = 2;
    options.observer = &observer;
    run_barrier_exchange(options);
    return log.switches;
}

static void test_one_scheduler_at_a_time(void **state)
{
    (void)state;
    assert_true(warp_switches(false) > 20);
    assert_int_equal(warp_switches(true), 4);
}

/* Timed issue with one scheduler: each warp issues at most every `gap` slots (the slot of its
 * latest step is kept per warp). */
typedef struct gap_log {
    turn_log turns;
    uint64_t gap, issued_at[2];
    bool issued[2];
} gap_log;

static void gap_step(void *context, const exec_warp *warp, const exec_step *step, const exec_memory_request *request)
{
    gap_log *log = context;
    log_step(&log->turns, warp, step, request);
    log->issued_at[warp->index_in_cta] = warp->clock;
    log->issued[warp->index_in_cta] = true;
}

static uint64_t gap_issue_at(void *context, const exec_warp *warp, uint64_t clock)
{
    const gap_log *log = context;
    uint64_t ready = log->issued_at[warp->index_in_cta] + log->gap;
    return log->issued[warp->index_in_cta] && ready > clock ? ready : clock;
}

/* barrier_exchange's two warps under timed issue, with one scheduler. */
static unsigned timed_switches(functional_issue_order order, uint64_t gap)
{
    gap_log log = {.gap = gap};
    functional_observer observer = {.context = &log, .step = gap_step, .issue_at = gap_issue_at};
    functional_engine_options options = functional_engine_defaults(32);
    options.quantum = 16;
    options.issue_order = order;
    options.observer = &observer;
    run_barrier_exchange(options);
    return log.turns.switches;
}

/* Greedy-then-oldest: with no stalls the last issuer keeps issuing until it waits at a barrier (or
 * ends), so the warps switch 4 times as in test_one_scheduler_at_a_time; when every instruction
 * stalls its warp for 2 slots, the other warp fills the slot between: they alternate. */
static void test_greedy_then_oldest(void **state)
{
    (void)state;
    assert_int_equal(timed_switches(FUNCTIONAL_TIMED_GREEDY_THEN_OLDEST, 0), 4);
    assert_true(timed_switches(FUNCTIONAL_TIMED_GREEDY_THEN_OLDEST, 2) > 20);
}

/* Loose round-robin: with no stalls the two warps alternate at every slot (the first after the
 * last issuer), so they switch at nearly every instruction; when every instruction stalls its
 * warp for 3 slots they still alternate, the same number of switches. */
static void test_loose_round_robin(void **state)
{
    (void)state;
    unsigned unstalled = timed_switches(FUNCTIONAL_TIMED_LOOSE_ROUND_ROBIN, 0);
    assert_true(unstalled > 20);
    assert_int_equal(timed_switches(FUNCTIONAL_TIMED_LOOSE_ROUND_ROBIN, 3), unstalled);
}

/* Under turns with a quantum of 1, the first round gives every resident warp one step: counts
 * the distinct CTAs stepping before some warp steps a second time. */
typedef struct residency_log {
    uint64_t first_round_ctas, last_cta;
    bool round_over;
    const exec_warp *first_warp;
} residency_log;

static void residency_step(void *context, const exec_warp *warp, const exec_step *step,
                           const exec_memory_request *request)
{
    (void)step;
    (void)request;
    residency_log *log = context;
    log->round_over |= warp == log->first_warp;
    if (!log->first_warp)
        log->first_warp = warp;
    if (log->round_over)
        return;
    if (log->first_round_ctas == 0 || warp->cta->linear_id != log->last_cta)
        log->first_round_ctas++;
    log->last_cta = warp->cta->linear_id;
}

/* dynamic_shared on one CU, 8 CTAs of 2 warps and 512 shared bytes, with the CU's limits of
 * `options`: the CTAs resident at once (the result is checked too). */
static uint64_t resident_ctas(functional_engine_options options)
{
    residency_log log = {0};
    functional_observer observer = {.context = &log, .step = residency_step};
    options.cu_count = 1;
    options.quantum = 1;
    options.observer = &observer;
    sc_device *device = create_device(32);
    sc_device_set_engine(device, &functional_engine_ops, functional_engine_create(&options));
    check_dynamic_shared(device, 8, 64);
    sc_device_destroy(device);
    return log.first_round_ctas;
}

/* Launches dynamic_shared as resident_ctas does on an engine with `options` that refuses it;
 * returns the error message. */
static const char *refusal(functional_engine_options options, sc_error *error)
{
    sc_device *device = create_device(32);
    sc_device_set_engine(device, &functional_engine_ops, functional_engine_create(&options));
    int module = load_exec_ptx(device, "exec_kernels.ptx");
    sc_kernel_arg args[2] = {sc_arg_ptr(sc_device_malloc(device, 512 * 4)), sc_arg_ptr(sc_device_malloc(device, 512 * 4))};
    assert_int_equal(sc_launch_kernel(device, module, "dynamic_shared", (sc_dim3){8, 1, 1}, (sc_dim3){64, 1, 1}, 512,
                                      args, 2, error),
                     -1);
    sc_device_destroy(device);
    return error->message;
}

/* A CU holds as many CTAs as fit in its CTA slots, warp slots, shared memory and registers; a CTA
 * that needs more shared memory or registers than the CU has is refused with an error naming the
 * key and the CTA's need (shared: the module's static bytes and the launch's 512 dynamic ones). */
/* More CTAs than the engine's slots (16 CUs x 8): the later CTAs start in the storage of
 * finished ones, and must find their shared memory, local memory and registers zero as the
 * first ones do (tests/data/exec/fresh_cta.ptx). */
static void test_fresh_state_per_cta(void **state)
{
    (void)state;
    enum { CTAS = 300, THREADS = 64, WORDS = CTAS * THREADS * 3 };
    static int32_t out[WORDS];
    sc_device *device = create_device(32);
    int module = load_exec_ptx(device, "fresh_cta.ptx");
    sc_error error = {{0}};
    memset(out, 0x55, sizeof out);
    uint64_t address = device_words(device, out, WORDS);
    sc_kernel_arg arg = sc_arg_ptr(address);
    if (sc_launch_kernel(device, module, "fresh_state", (sc_dim3){CTAS, 1, 1}, (sc_dim3){THREADS, 1, 1}, 0, &arg, 1,
                         &error) < 0)
        fail_msg("%s", error.message);
    read_words(device, address, out, WORDS);
    for (size_t i = 0; i < WORDS; i++)
        if (out[i] != 0)
            fail_msg("thread %zu: %s held %d before the thread wrote it", i / 3,
                     i % 3 == 0 ? "shared memory" : i % 3 == 1 ? "local memory" : "a register", out[i]);
    sc_device_destroy(device);
}

static void test_cta_residency_limits(void **state)
{
    (void)state;
    functional_engine_options options = functional_engine_defaults(32);
    assert_int_equal(resident_ctas(options), 8);
    options.ctas_per_cu = 6;
    assert_int_equal(resident_ctas(options), 6);
    options.warps_per_cu = 5;
    assert_int_equal(resident_ctas(options), 2);
    options.warps_per_cu = UINT64_MAX;
    sc_error error = {{0}};
    options.shared_bytes_per_cu = 0;
    unsigned long long shared = 0;
    const char *needs = strstr(refusal(options, &error), "kernel dynamic_shared: a CTA needs ");
    if (!needs || sscanf(needs, "kernel dynamic_shared: a CTA needs %llu bytes of shared memory, more than "
                         "gpu.shared_memory_per_cu (0)", &shared) != 1 || shared < 512)
        fail_msg("unexpected error: %s", error.message);
    options.shared_bytes_per_cu = 3 * shared + shared - 1;
    assert_int_equal(resident_ctas(options), 3);
    options.registers_per_cu = 1;
    unsigned long long registers = 0;
    needs = strstr(refusal(options, &error), "kernel dynamic_shared: a CTA needs ");
    if (!needs || sscanf(needs, "kernel dynamic_shared: a CTA needs %llu registers, more than "
                         "gpu.registers_per_cu (1)", &registers) != 1 || registers < 64)
        fail_msg("unexpected error: %s", error.message);
    options.registers_per_cu = 2 * registers + registers - 1;
    assert_int_equal(resident_ctas(options), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divergent_if),     cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_early_exit),       cmocka_unit_test(test_calls),
        cmocka_unit_test(test_local_array),      cmocka_unit_test(test_shuffles),
        cmocka_unit_test(test_votes),            cmocka_unit_test(test_barrier_exchange),
        cmocka_unit_test(test_atomics),          cmocka_unit_test(test_dynamic_shared),
        cmocka_unit_test(test_module_variables), cmocka_unit_test(test_indices),
        cmocka_unit_test(test_per_kernel_shared_memory),
        cmocka_unit_test(test_partial_warp),     cmocka_unit_test(test_warp_size_64),
        cmocka_unit_test(test_greedy_then_oldest), cmocka_unit_test(test_loose_round_robin),
        cmocka_unit_test(test_out_of_bounds_store), cmocka_unit_test(test_watchdog),
        cmocka_unit_test(test_one_scheduler_at_a_time), cmocka_unit_test(test_cta_residency_limits),
        cmocka_unit_test(test_fresh_state_per_cta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
