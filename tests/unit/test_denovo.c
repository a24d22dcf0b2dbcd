/* test_denovo.c — DeNovo's L1 and L2 tables (protocols/denovo/) driven access by access on a
 * two-CU qr-apu memory system with a 32-entry store buffer:
 *  - registration: a buffered store is registered at the release; the L2 names the CU the owner
 *    and the CU's word becomes Registered;
 *  - forward to the owner: another CU's read of the word is forwarded by the L2 to the owner,
 *    which answers the requester directly (REMOTE_L1) with its value;
 *  - acquire keeps owned words: after an acquire the owner still hits on its word, while the
 *    reader's Valid copy is gone;
 *  - a store to an owned word is performed in the L1: no store-buffer entry, nothing to register;
 *  - re-registration by another SM: the L2 forwards the registration to the old owner, whose word
 *    becomes Invalid, and the old owner then reads the new value from the new owner;
 *  - eviction writeback: a replaced line's owned word is written back and the L2 holds it again;
 *  - atomic on an owned word: the L2 recalls it from the owner before performing the atomic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_harness.h"
#include "protocols/denovo/denovo.h"

/* `small_l1`: a direct-mapped L1 of two lines, so the line two lines after x replaces x's. */
static void open_denovo(memory_harness *h, bool small_l1)
{
    const char *sets[] = {"gpu.cu_count=2", "l1.store_buffer_entries=32", "l1.associativity=1", "l1.size=128B"};
    memory_harness_open(h, "denovo", sets, small_l1 ? 4 : 2);
}

static const denovo_stats *stats(const memory_harness *h) { return h->memory->protocol_stats; }

static uint64_t line_of(const memory_harness *h, uint64_t address)
{
    return address & ~(uint64_t)(h->timing.memory.line_bytes - 1);
}

static unsigned word_of(const memory_harness *h, uint64_t address)
{
    return (unsigned)((address - line_of(h, address)) / DENOVO_WORD_BYTES);
}

/* Whether CU `cu`'s L1 holds the word of `address` Registered (owned). */
static bool owns(memory_harness *h, unsigned cu, uint64_t address)
{
    const cache_line *line = cache_array_lookup(h->memory->l1[cu].cache, line_of(h, address));
    return line && (denovo_owned(line) >> word_of(h, address) & 1);
}

static bool readable(memory_harness *h, unsigned cu, uint64_t address)
{
    const cache_line *line = cache_array_lookup(h->memory->l1[cu].cache, line_of(h, address));
    return line && ((denovo_owned(line) | denovo_valid(line)) >> word_of(h, address) & 1);
}

/* CU `cu` stores `value` to `address` and releases (its store buffer is flushed). */
static void store_and_release(memory_harness *h, unsigned cu, uint64_t address, uint32_t value)
{
    memory_harness_access(h, cu, L1_STORE, address, value, NULL);
    l1_release(h->memory, cu, PTX_SCOPE_GPU, memory_harness_now(h));
    memory_harness_settle(h);
    assert_true(l1_store_buffer_empty(h->memory, 0) && l1_store_buffer_empty(h->memory, 1));
    assert_int_equal(l1_writes_outstanding(h->memory, cu), 0);
}

static void test_registration_and_forward_to_owner(void **state)
{
    (void)state;
    memory_harness h;
    open_denovo(&h, false);
    uint64_t x = h.base;
    memory_harness_access(&h, 0, L1_STORE, x, 7, NULL);
    assert_false(l1_store_buffer_empty(h.memory, 0));   /* buffered until the release */
    assert_int_equal(stats(&h)->registrations, 0);
    l1_release(h.memory, 0, PTX_SCOPE_GPU, memory_harness_now(&h));
    memory_harness_settle(&h);
    assert_int_equal(stats(&h)->registrations, 1);
    assert_int_equal(denovo_owner_of(h.memory, line_of(&h, x), word_of(&h, x)), 1);   /* CU 0 + 1 */
    assert_true(owns(&h, 0, x));
    /* CU 1's read is forwarded to CU 0, which answers it directly. */
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, &source), 7);
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);
    assert_int_equal(stats(&h)->forwarded_loads, 1);
    assert_int_equal(stats(&h)->remote_l1_hits, 1);
    /* Acquires: CU 0 keeps its owned word (an L1 hit), CU 1's Valid copy is dropped. */
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU);
    l1_acquire(h.memory, 1, PTX_SCOPE_GPU);
    assert_true(owns(&h, 0, x));
    assert_false(readable(&h, 1, x));
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, x, 0, &source), 7);
    assert_int_equal(source, GSI_SOURCE_L1);
    assert_int_equal(stats(&h)->acquire_kept_lines, 1);
    memory_harness_close(&h);
}

static void test_store_to_owned_word_stays_in_the_l1(void **state)
{
    (void)state;
    memory_harness h;
    open_denovo(&h, false);
    uint64_t x = h.base;
    store_and_release(&h, 0, x, 1);
    memory_harness_access(&h, 0, L1_STORE, x, 2, NULL);
    assert_true(l1_store_buffer_empty(h.memory, 0));
    assert_int_equal(stats(&h)->owned_store_hits, 1);
    l1_release(h.memory, 0, PTX_SCOPE_GPU, memory_harness_now(&h));
    memory_harness_settle(&h);
    assert_int_equal(stats(&h)->registrations, 1);   /* the release sent nothing */
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, &source), 2);
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);
    memory_harness_close(&h);
}

static void test_reregistration_by_another_sm(void **state)
{
    (void)state;
    memory_harness h;
    open_denovo(&h, false);
    uint64_t x = h.base;
    store_and_release(&h, 0, x, 1);
    store_and_release(&h, 1, x, 2);
    assert_int_equal(stats(&h)->registration_forwards, 1);   /* the extra hop through CU 0 */
    assert_int_equal(denovo_owner_of(h.memory, line_of(&h, x), word_of(&h, x)), 2);
    assert_false(readable(&h, 0, x));
    assert_true(owns(&h, 1, x));
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU);
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, x, 0, &source), 2);
    assert_int_equal(source, GSI_SOURCE_REMOTE_L1);
    memory_harness_close(&h);
}

static void test_eviction_writes_owned_words_back(void **state)
{
    (void)state;
    memory_harness h;
    open_denovo(&h, true);
    uint64_t x = h.base;
    uint64_t same_set = x + h.timing.memory.l1_bytes;
    store_and_release(&h, 0, x, 9);
    assert_true(owns(&h, 0, x));
    memory_harness_access(&h, 0, L1_LOAD, same_set, 0, NULL);
    memory_harness_settle(&h);
    assert_false(readable(&h, 0, x));
    assert_int_equal(stats(&h)->ownership_evictions, 1);
    assert_int_equal(denovo_owner_of(h.memory, line_of(&h, x), word_of(&h, x)), 0);   /* the L2 holds it */
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, &source), 9);
    assert_int_equal(source, GSI_SOURCE_L2);
    memory_harness_close(&h);
}

static void test_atomic_recalls_an_owned_word(void **state)
{
    (void)state;
    memory_harness h;
    open_denovo(&h, false);
    uint64_t x = h.base;
    store_and_release(&h, 0, x, 40);
    assert_int_equal(memory_harness_access(&h, 1, L1_ATOMIC, x, 2, NULL), 40);   /* old value from the owner */
    assert_int_equal(stats(&h)->atomic_recalls, 1);
    assert_false(owns(&h, 0, x));
    assert_int_equal(denovo_owner_of(h.memory, line_of(&h, x), word_of(&h, x)), 0);
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU);
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, x, 0, &source), 42);
    assert_int_equal(source, GSI_SOURCE_L2);
    memory_harness_close(&h);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registration_and_forward_to_owner),
        cmocka_unit_test(test_store_to_owned_word_stays_in_the_l1),
        cmocka_unit_test(test_reregistration_by_another_sm),
        cmocka_unit_test(test_eviction_writes_owned_words_back),
        cmocka_unit_test(test_atomic_recalls_an_owned_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
