/* test_protocol_interface.c — the points of the engine a protocol module plugs into, exercised
 * by a toy protocol defined here rather than by a mechanism: guarded rows (the first row whose
 * guard holds is taken), the module's own actions and per-L1 state, and the protocol words of
 * cache lines, MSHR entries and messages (zero when installed or allocated). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "memory_harness.h"
#include "timing/cache_array.h"
#include "timing/mshr.h"

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
    uint32_t handle = message_allocate(h->memory, MSG_READ, 0, h->base);
    message_get(h->memory, handle)->protocol_word = 11;
    message_get(h->memory, handle)->protocol_bits = 3;
    message_free(h->memory, handle);
    handle = message_allocate(h->memory, MSG_READ, 0, h->base);   /* the same slot, reused */
    assert_int_equal(message_get(h->memory, handle)->protocol_word, 0);
    assert_int_equal(message_get(h->memory, handle)->protocol_bits, 0);
    message_free(h->memory, handle);
    memory_harness_close(h);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_rows_and_own_actions),
        cmocka_unit_test(test_protocol_words_start_at_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
