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
 *  - atomic on an owned word: the L2 recalls it from the owner before performing the atomic;
 *  - a forwarded read that reaches an owner after its write-back of the word was acknowledged
 *    (the race the cl workload hit) is answered with the data written back, and so is a forwarded
 *    registration of partly written words. */
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

/* CU 0 owns word 0 of x's line and CU 2 word 1 (which it changed after registering it, so the L2's
 * copy is old); CU 1 reads word 1 (forwarded to CU 0 and then CU 2) while CU 2 replaces the line
 * (writing word 1 back) from `when` ps after the read started, and CU 0 is busy with fills of other
 * lines. Returns whether CU 2 answered the read from the data it wrote back (the read reached it
 * after the write-back was acknowledged), or -1 when the read was over by then; it sees the
 * newest value either way. */
static int read_beside_a_write_back(sc_time when)
{
    memory_harness h;
    const char *sets[] = {"gpu.cu_count=3", "l1.store_buffer_entries=32", "l1.associativity=1", "l1.size=128B"};
    memory_harness_open(&h, "denovo", sets, 4);
    uint64_t x = h.base, line_bytes = h.timing.memory.line_bytes;
    uint64_t same_set = x + h.timing.memory.l1_bytes;
    store_and_release(&h, 0, x, 5);
    store_and_release(&h, 2, x + 4, 6);
    store_and_release(&h, 2, x + 4, 7);   /* performed on the owned word: the L2's copy keeps 6 */
    enum { BUSY_MISSES = 24 };            /* lines of the other L1 set, in the L2 */
    uint32_t busy[BUSY_MISSES];
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        memory_harness_access(&h, 1, L1_LOAD, x + (2 * i + 3) * line_bytes, 0, NULL);
    h.done_op = MEMORY_OP_NONE;
    sc_time start = memory_harness_now(&h);
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        busy[i] = memory_harness_start_at(&h, 0, L1_LOAD, x + (2 * i + 3) * line_bytes, 0, start);
    uint32_t read = memory_harness_start_at(&h, 1, L1_LOAD, x + 4, 0, start);
    while (h.done_op != read && memory_harness_now(&h) <= start + when)
        assert_true(memory_harness_step(&h));
    int outcome = -1;
    if (h.done_op != read) {
        uint32_t replace = memory_harness_start_at(&h, 2, L1_LOAD, same_set, 0, start + when);
        memory_harness_settle(&h);
        outcome = stats(&h)->late_forward_answers > 0;
        assert_int_equal(stats(&h)->ownership_evictions, 1);
        assert_int_equal(memory_harness_value(&h, read), 7);
        memory_harness_value(&h, replace);
        l1_acquire(h.memory, 1, PTX_SCOPE_GPU);
        assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x + 4, 0, NULL), 7);
        assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 5);
    } else {
        memory_op_free(h.memory, read);
    }
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        memory_op_free(h.memory, busy[i]);
    memory_harness_close(&h);
    return outcome;
}

/* Every moment of the replacement, a GPU cycle apart, from the read's start to its end gives the
 * newest value, and some moment makes the race the cl workload hit (a late forwarded read). */
static void test_forwarded_read_beside_a_write_back(void **state)
{
    (void)state;
    unsigned late = 0, moments = 0;
    for (int outcome; (outcome = read_beside_a_write_back(moments * 1000)) >= 0; moments++)
        late += (unsigned)outcome;
    assert_true(moments > 1);
    assert_true(late > 0);
}

/* The same race for a registration: CU 0 owns word 0 of x's line and CU 2 word 1 (changed after
 * registering it); CU 1 writes one byte of each word and releases, so its registration of the two
 * partly written words is forwarded to CU 0 and then CU 2, and must bring back their other bytes,
 * while CU 2 replaces the line from `when` ps after the release. Returns whether CU 2 answered from
 * the data it wrote back, or -1 when the registration was over by then. */
static int registration_beside_a_write_back(sc_time when)
{
    memory_harness h;
    const char *sets[] = {"gpu.cu_count=3", "l1.store_buffer_entries=32", "l1.associativity=1", "l1.size=128B"};
    memory_harness_open(&h, "denovo", sets, 4);
    uint64_t x = h.base, line_bytes = h.timing.memory.line_bytes;
    uint64_t same_set = x + h.timing.memory.l1_bytes;
    store_and_release(&h, 0, x, 0x05050505);
    store_and_release(&h, 2, x + 4, 6);
    store_and_release(&h, 2, x + 4, 0x07070707);   /* performed on the owned word: the L2's copy keeps 6 */
    enum { BUSY_MISSES = 24 };                     /* lines of the other L1 set, in the L2 */
    uint32_t busy[BUSY_MISSES];
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        memory_harness_access(&h, 1, L1_LOAD, x + (2 * i + 3) * line_bytes, 0, NULL);
    sc_time start = memory_harness_now(&h);
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        busy[i] = memory_harness_start_at(&h, 0, L1_LOAD, x + (2 * i + 3) * line_bytes, 0, start);
    uint32_t byte_stores[2] = {memory_harness_start_sized_at(&h, 1, 0, L1_STORE, x, 0xaa, 1, start),
                               memory_harness_start_sized_at(&h, 1, 0, L1_STORE, x + 4, 0xbb, 1, start)};
    l1_release(h.memory, 1, PTX_SCOPE_GPU, start);
    while (l1_writes_outstanding(h.memory, 1) > 0 && memory_harness_now(&h) <= start + when)
        assert_true(memory_harness_step(&h));
    int outcome = -1;
    if (l1_writes_outstanding(h.memory, 1) > 0) {
        uint32_t replace = memory_harness_start_at(&h, 2, L1_LOAD, same_set, 0, start + when);
        memory_harness_settle(&h);
        outcome = stats(&h)->late_forward_answers > 0;
        memory_harness_value(&h, replace);
        assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x + 4, 0, NULL), 0x070707bb);
        assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, NULL), 0x050505aa);
    }
    memory_harness_settle(&h);
    for (unsigned i = 0; i < 2; i++)
        memory_op_free(h.memory, byte_stores[i]);
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        memory_op_free(h.memory, busy[i]);
    memory_harness_close(&h);
    return outcome;
}

static void test_forwarded_registration_beside_a_write_back(void **state)
{
    (void)state;
    unsigned late = 0, moments = 0;
    for (int outcome; (outcome = registration_beside_a_write_back(moments * 1000)) >= 0; moments++)
        late += (unsigned)outcome;
    assert_true(moments > 1);
    assert_true(late > 0);
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
        cmocka_unit_test(test_forwarded_read_beside_a_write_back),
        cmocka_unit_test(test_forwarded_registration_beside_a_write_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
