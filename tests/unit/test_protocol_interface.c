/* test_protocol_interface.c — the points of the engine a protocol module plugs into, exercised
 * by toy protocols defined here rather than by a mechanism: guarded rows (the first row whose
 * guard holds is taken), the module's own actions and per-L1 state, the protocol words of cache
 * lines, MSHR entries and messages (zero when installed or allocated) and the extension bytes a
 * protocol asks for beyond them (sized by it, zero when installed or allocated), on a memory
 * system driven access by access. The compute units' points are test_compute_unit_hooks.c's,
 * a module's own home mapping test_home_mapping.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_rows_and_own_actions),
        cmocka_unit_test(test_protocol_words_start_at_zero),
        cmocka_unit_test(test_extension_bytes_sized_by_the_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
