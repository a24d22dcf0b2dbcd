/* test_protocol_interface.c — the points of the engine a protocol module plugs into, exercised
 * by toy protocols defined here rather than by a mechanism: guarded rows (the first row whose
 * guard holds is taken), the module's own actions and per-L1 state, the protocol words of cache
 * lines, MSHR entries and messages (zero when installed or allocated) and the extension bytes a
 * protocol asks for beyond them (sized by it, zero when installed or allocated), on a memory
 * system driven access by access; a home mapping of the module's own (home_of) with the
 * endpoints and NoC ports its messages travel between; and the compute units' points (issue
 * filter, warp exit, barrier, kernel begin and end, the kernel-end drain), on a small PTX kernel
 * run by the timing engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "memory_harness.h"
#include "timing/cache_array.h"
#include "timing/endpoint.h"
#include "timing/mshr.h"
#include "timing/timing_engine.h"

/* The toy: an uncached L1 whose loads from odd CUs take a guarded row that also counts them. */
enum { GUARD_ODD_CU = 1 };
#define TOY_COUNT ((l1_action)L1_ACTION_PROTOCOL_FIRST)

static const protocol_transition toy_l1[] = {
    PROTOCOL_GUARDED_ROW(L1_I, L1_LOAD, GUARD_ODD_CU, L1_I, L1_READ_AROUND, TOY_COUNT),
    PROTOCOL_ROW(L1_I, L1_LOAD, L1_I, L1_READ_AROUND),
    PROTOCOL_ROW(L1_I, L1_STORE, L1_I, L1_WRITE_THROUGH),
};

static void toy_build(memory_system *memory)
{
    uint64_t *counts = calloc(memory->config.cu_count, sizeof *counts);
    for (unsigned cu = 0; cu < memory->config.cu_count; cu++)
        memory->l1[cu].protocol_state = &counts[cu];
}

static void toy_destroy(memory_system *memory) { free(memory->l1[0].protocol_state); }

static bool toy_guard(memory_system *memory, const l1_context *context, unsigned guard)
{
    return guard == GUARD_ODD_CU && context->cu % 2 == 1;
}

static int toy_action(memory_system *memory, l1_context *context, l1_action action, sc_time now, sc_error *error)
{
    if (action != TOY_COUNT)
        return sc_fail(error, "toy: unknown action %d", (int)action);
    ++*(uint64_t *)memory->l1[context->cu].protocol_state;
    return 0;
}

static const protocol_hooks toy_hooks = {
    .build = toy_build, .destroy = toy_destroy, .l1_guard = toy_guard, .l1_action = toy_action,
};
static const protocol_own_action toy_actions[] = {{"count", false}};
static const sc_protocol toy = {
    .name = "toy",
    .l1_table = toy_l1,
    .l1_table_size = sizeof toy_l1 / sizeof toy_l1[0],
    .own_actions = toy_actions,
    .own_action_count = 1,
    .hooks = &toy_hooks,
};

static void test_guarded_rows_and_own_actions(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "gpu.cu_count=2"};
    memory_harness_open_protocol(h, &toy, sets, 2);
    uint64_t x = h->base;
    memory_harness_access(h, 0, L1_STORE, x, 7, NULL);
    for (unsigned cu = 0; cu < 2; cu++)
        for (int k = 0; k < 3; k++)   /* both rows read around the L1 */
            assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), 7);
    assert_int_equal(*(uint64_t *)h->memory->l1[0].protocol_state, 0);   /* the guard fails: second row */
    assert_int_equal(*(uint64_t *)h->memory->l1[1].protocol_state, 3);   /* the guard holds: first row */
    assert_string_equal(l1_action_name(&toy, TOY_COUNT), "count");
    memory_harness_close(h);
}

static void test_protocol_words_start_at_zero(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(2 * 64, 2, 64);
    cache_line *line = cache_array_victim(cache, 0);
    cache_array_install(cache, line, 0, 1);
    line->protocol_word = 99;
    cache_array_invalidate(cache, line);
    line = cache_array_victim(cache, 0);
    cache_array_install(cache, line, 0, 1);
    assert_int_equal(line->protocol_word, 0);
    cache_array_destroy(cache);

    mshr_table *mshrs = mshr_create(1);
    mshr_entry *entry = mshr_allocate(mshrs, 64);
    entry->protocol_word = 5;
    mshr_release(mshrs, entry);
    assert_int_equal(mshr_allocate(mshrs, 128)->protocol_word, 0);
    mshr_destroy(mshrs);

    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0"};
    memory_harness_open(h, "nol1", sets, 1);
    uint32_t handle = message_allocate_request(h->memory, MSG_READ, 0, h->base);
    message_get(h->memory, handle)->protocol_word = 11;
    message_get(h->memory, handle)->protocol_bits = 3;
    message_free(h->memory, handle);
    handle = message_allocate_request(h->memory, MSG_READ, 0, h->base);   /* the same slot, reused */
    assert_int_equal(message_get(h->memory, handle)->protocol_word, 0);
    assert_int_equal(message_get(h->memory, handle)->protocol_bits, 0);
    message_free(h->memory, handle);
    memory_harness_close(h);
}

static bool all_zero(const uint8_t *bytes, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        if (bytes[i])
            return false;
    return true;
}

static void test_extension_bytes_sized_by_the_protocol(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(2 * 64, 2, 64);
    assert_true(cache_array_extend(cache, 24));
    cache_line *first = cache_array_victim(cache, 0);
    cache_array_install(cache, first, 0, 1);
    memset(first->extension, 0xff, 24);
    cache_line *second = cache_array_victim(cache, 64);
    assert_ptr_not_equal(second, first);
    assert_ptr_not_equal(second->extension, first->extension);
    cache_array_install(cache, second, 64, 1);
    assert_true(all_zero(second->extension, 24));    /* its own bytes, untouched by the first line's */
    cache_array_invalidate(cache, first);
    first = cache_array_victim(cache, 0);
    cache_array_install(cache, first, 0, 1);
    assert_true(all_zero(first->extension, 24));
    cache_array_destroy(cache);

    sc_protocol extended = toy;
    extended.extension = (protocol_extension_bytes){.l1_line = 3, .l2_line = 40, .l1_mshr = 5, .l2_mshr = 20,
                                                    .message = 33};
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0"};
    memory_harness_open_protocol(h, &extended, sets, 1);
    assert_non_null(cache_array_victim(h->memory->l1[0].cache, h->base)->extension);
    mshr_entry *entry = mshr_allocate(h->memory->l1[0].mshrs, h->base);
    memset(entry->extension, 7, 5);
    mshr_release(h->memory->l1[0].mshrs, entry);
    assert_true(all_zero(mshr_allocate(h->memory->l1[0].mshrs, h->base)->extension, 5));
    memory_harness_access(h, 0, L1_LOAD, h->base, 0, NULL);   /* the L2 installs the line */
    cache_line *l2_line = NULL;
    for (unsigned b = 0; b < h->memory->config.l2_banks && !l2_line; b++)
        l2_line = cache_array_lookup(h->memory->banks[b].cache, memory_bank_local_address(h->memory, h->base));
    assert_non_null(l2_line);
    assert_true(all_zero(l2_line->extension, 40));
    uint32_t handles[300];   /* more than one chunk of the message pool */
    for (unsigned i = 0; i < 300; i++) {
        handles[i] = message_allocate_request(h->memory, MSG_READ, 0, h->base);
        assert_true(all_zero(message_get(h->memory, handles[i])->extension, 33));
        memset(message_get(h->memory, handles[i])->extension, 0xab, 33);
    }
    for (unsigned i = 1; i < 300; i++)
        assert_ptr_not_equal(message_get(h->memory, handles[i])->extension,
                             message_get(h->memory, handles[i - 1])->extension);
    for (unsigned i = 0; i < 300; i++)
        message_free(h->memory, handles[i]);
    uint32_t reused = message_allocate_request(h->memory, MSG_READ, 0, h->base);
    assert_true(all_zero(message_get(h->memory, reused)->extension, 33));
    message_free(h->memory, reused);
    memory_harness_close(h);

    memory_harness_open_protocol(h, &toy, sets, 1);   /* a protocol that asks for none gets none */
    assert_null(cache_array_victim(h->memory->l1[0].cache, h->base)->extension);
    uint32_t handle = message_allocate_request(h->memory, MSG_READ, 0, h->base);
    assert_null(message_get(h->memory, handle)->extension);
    message_free(h->memory, handle);
    memory_harness_close(h);
}

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

static void toy_acquire(memory_system *memory, unsigned cu, ptx_scope scope) { toy_log.acquires++; }

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
    char path[] = "/tmp/syncscope_hooks_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, hooks_kernel, sizeof hooks_kernel - 1), (ssize_t)(sizeof hooks_kernel - 1));
    close(fd);
    int module = sc_device_load_ptx(device, path, error);
    unlink(path);
    assert_true(module >= 0);
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
    assert_int_equal(record.stalls.sync_kind[GSI_SYNC_RELEASE], 0);
    assert_int_equal(record.stalls.sync_kind[GSI_SYNC_ACQUIRE], 0);
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

/* The second toy: requests go to a home chosen by their requester, not by the line (CU c's to L2
 * bank c), which answers reads from the device image itself and counts what reached it. */
static const protocol_transition homed_l1[] = {
    PROTOCOL_ROW(L1_I, L1_LOAD, L1_I, L1_READ_AROUND),
};

typedef struct homed_state {
    unsigned requests_at[16];       /* per L2 bank: requests that reached it */
    bool sources_were_requesters;   /* every request came from the CU whose home the bank is */
} homed_state;

static void homed_build(memory_system *memory)
{
    homed_state *state = calloc(1, sizeof *state);
    state->sources_were_requesters = true;
    memory->protocol_state = state;
}

static void homed_destroy(memory_system *memory) { free(memory->protocol_state); }

static endpoint homed_home_of(memory_system *memory, endpoint requester, uint64_t line_address)
{
    return endpoint_l2_bank(requester.index % memory->config.l2_banks);
}

static int homed_bank_receive(memory_system *memory, unsigned bank, uint32_t handle, sc_time now, sc_error *error)
{
    homed_state *state = memory->protocol_state;
    message *m = message_get(memory, handle);
    state->requests_at[bank]++;
    state->sources_were_requesters &= m->source.kind == ENDPOINT_CU && m->source.index == bank &&
                                      message_cu(m) == bank && m->destination.kind == ENDPOINT_L2_BANK;
    uint64_t inside = memory->config.line_bytes;
    const uint8_t *image = sc_device_global_span(memory->device, m->line_address, &inside);
    memcpy(m->data, image, inside);
    m->type = MSG_DATA;
    memory_reply(memory, handle, now);
    return 1;
}

static const protocol_hooks homed_hooks = {
    .build = homed_build, .destroy = homed_destroy, .home_of = homed_home_of, .bank_receive = homed_bank_receive,
};
static const sc_protocol homed = {
    .name = "homed",
    .l1_table = homed_l1,
    .l1_table_size = sizeof homed_l1 / sizeof homed_l1[0],
    .hooks = &homed_hooks,
};

static void test_home_mapping_and_endpoints(void **state)
{
    (void)state;
    memory_harness harness, *h = &harness;
    const char *sets[] = {"cpu.count=0", "gpu.cu_count=2", "l2.banks=16"};
    memory_harness_open_protocol(h, &homed, sets, 3);
    memory_system *memory = h->memory;
    unsigned line = memory->config.line_bytes, cus = memory->config.cu_count;
    uint64_t x = h->base;
    while (memory_bank_of(memory, x) < 2)   /* a line whose own bank is neither CU's home */
        x += line;
    uint32_t value = 0x5eed;
    sc_error error = {{0}};
    assert_int_equal(sc_memcpy_to_device(h->device, x, &value, sizeof value, &error), 0);

    uint32_t request = message_allocate_request(memory, MSG_READ, 1, x);   /* addressed by home_of */
    assert_int_equal(message_get(memory, request)->destination.kind, ENDPOINT_L2_BANK);
    assert_int_equal(message_get(memory, request)->destination.index, 1);
    message_free(memory, request);
    for (unsigned cu = 0; cu < cus; cu++)
        assert_int_equal(memory_harness_access(h, cu, L1_LOAD, x, 0, NULL), value);
    const homed_state *homes = memory->protocol_state;
    assert_int_equal(homes->requests_at[0], 1);
    assert_int_equal(homes->requests_at[1], 1);
    assert_int_equal(homes->requests_at[memory_bank_of(memory, x)], 0);
    assert_true(homes->sources_were_requesters);

    /* NoC ports: the CUs first, then the L2 banks; each read crossed its CU's and its home's. */
    assert_int_equal(endpoint_port(endpoint_cu(1), cus), 1);
    assert_int_equal(endpoint_port(endpoint_l2_bank(1), cus), cus + 1);
    const noc_stats *traffic = memory_noc_statistics(memory);
    for (unsigned cu = 0; cu < cus; cu++) {
        unsigned home = endpoint_port(endpoint_l2_bank(cu), cus);
        assert_int_equal(traffic->bytes_out[cu], MEMORY_MESSAGE_HEADER_BYTES);
        assert_int_equal(traffic->bytes_in[home], MEMORY_MESSAGE_HEADER_BYTES);
        assert_int_equal(traffic->bytes_out[home], MEMORY_MESSAGE_HEADER_BYTES + line);
        assert_int_equal(traffic->bytes_in[cu], MEMORY_MESSAGE_HEADER_BYTES + line);
    }
    assert_int_equal(traffic->bytes_in[endpoint_port(endpoint_l2_bank(memory_bank_of(memory, x)), cus)], 0);
    memory_harness_close(h);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_rows_and_own_actions),
        cmocka_unit_test(test_protocol_words_start_at_zero),
        cmocka_unit_test(test_extension_bytes_sized_by_the_protocol),
        cmocka_unit_test(test_issue_filter_warp_points_and_kernel_boundaries),
        cmocka_unit_test(test_issue_filter_waives_fences),
        cmocka_unit_test(test_kernel_end_waits_for_the_protocols_drain),
        cmocka_unit_test(test_home_mapping_and_endpoints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
