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
 *  - with denovo.acquire_owned write_back (an experiment) an acquire writes the owned word back
 *    the same way;
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
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU, memory_harness_now(&h));
    l1_acquire(h.memory, 1, PTX_SCOPE_GPU, memory_harness_now(&h));
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
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU, memory_harness_now(&h));
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

/* denovo.acquire_owned write_back (the experiment of docs/gsi-reproduction.md): an acquire gives
 * the owned word back to the L2 as a replacement would, so the next read of it, by the old owner
 * or another CU, is served by the L2. */
static void test_acquire_writing_owned_words_back(void **state)
{
    (void)state;
    memory_harness h;
    const char *sets[] = {"gpu.cu_count=2", "l1.store_buffer_entries=32", "denovo.acquire_owned=write_back"};
    memory_harness_open(&h, "denovo", sets, 3);
    uint64_t x = h.base;
    store_and_release(&h, 0, x, 5);
    assert_true(owns(&h, 0, x));
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU, memory_harness_now(&h));
    memory_harness_settle(&h);
    assert_false(readable(&h, 0, x));
    assert_int_equal(stats(&h)->acquire_kept_lines, 1);   /* kept by the self-invalidation, then replaced */
    assert_int_equal(stats(&h)->ownership_evictions, 1);
    assert_int_equal(denovo_owner_of(h.memory, line_of(&h, x), word_of(&h, x)), 0);   /* the L2 holds it */
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 1, L1_LOAD, x, 0, &source), 5);
    assert_int_equal(source, GSI_SOURCE_L2);
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, x, 0, &source), 5);
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
    l1_acquire(h.memory, 0, PTX_SCOPE_GPU, memory_harness_now(&h));
    gsi_source source;
    assert_int_equal(memory_harness_access(&h, 0, L1_LOAD, x, 0, &source), 42);
    assert_int_equal(source, GSI_SOURCE_L2);
    memory_harness_close(&h);
}

/* The races below: three CUs with two-line direct-mapped L1s; CU 0 owns word 0 of x's line
 * (`word0`) and CU 2 word 1, which it changed to `word1` after registering 6 (so the L2's copy is
 * older); CU 2 replaces x's line (writing word 1 back) by loading `same_set`. CU 0 starts fills of
 * BUSY_MISSES lines of the other L1 set (in the L2) at the returned time, so a forwarded message
 * waits at its port. */
enum { BUSY_MISSES = 24 };

typedef struct race {
    memory_harness h;
    uint64_t x, same_set;
    sc_time start;
    uint32_t busy[BUSY_MISSES];
} race;

static void race_open(race *r, uint32_t word0, uint32_t word1)
{
    const char *sets[] = {"gpu.cu_count=3", "l1.store_buffer_entries=32", "l1.associativity=1", "l1.size=128B"};
    memory_harness_open(&r->h, "denovo", sets, 4);
    uint64_t line_bytes = r->h.timing.memory.line_bytes;
    r->x = r->h.base;
    r->same_set = r->x + r->h.timing.memory.l1_bytes;
    store_and_release(&r->h, 0, r->x, word0);
    store_and_release(&r->h, 2, r->x + 4, 6);
    store_and_release(&r->h, 2, r->x + 4, word1);   /* performed on the owned word: the L2 keeps 6 */
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        memory_harness_access(&r->h, 1, L1_LOAD, r->x + (2 * i + 3) * line_bytes, 0, NULL);
    r->h.done_op = MEMORY_OP_NONE;
    r->start = memory_harness_now(&r->h);
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        r->busy[i] = memory_harness_start_at(&r->h, 0, L1_LOAD, r->x + (2 * i + 3) * line_bytes, 0, r->start);
}

/* CU 2 replaces the line at `when` after the start and every event runs; returns whether an L1
 * answered a forwarded message from the data it wrote back (it arrived after the write-back was
 * acknowledged). */
static int race_replace(race *r, sc_time when)
{
    uint32_t replace = memory_harness_start_at(&r->h, 2, L1_LOAD, r->same_set, 0, r->start + when);
    memory_harness_settle(&r->h);
    memory_harness_value(&r->h, replace);
    return stats(&r->h)->late_forward_answers > 0;
}

static void race_close(race *r)
{
    memory_harness_settle(&r->h);
    for (unsigned i = 0; i < BUSY_MISSES; i++)
        memory_op_free(r->h.memory, r->busy[i]);
    memory_harness_close(&r->h);
}

/* CU 1 reads word 1 (forwarded to CU 0 and then CU 2) and CU 2 replaces the line `when` ps after
 * the read started. Returns race_replace's answer, or -1 when the read was over by then; the read
 * sees the newest value either way. */
static int read_beside_a_write_back(sc_time when)
{
    race r;
    race_open(&r, 5, 7);
    uint32_t read = memory_harness_start_at(&r.h, 1, L1_LOAD, r.x + 4, 0, r.start);
    while (r.h.done_op != read && memory_harness_now(&r.h) <= r.start + when)
        assert_true(memory_harness_step(&r.h));
    int outcome = -1;
    if (r.h.done_op != read) {
        outcome = race_replace(&r, when);
        assert_int_equal(stats(&r.h)->ownership_evictions, 1);
        assert_int_equal(memory_harness_value(&r.h, read), 7);
        l1_acquire(r.h.memory, 1, PTX_SCOPE_GPU, memory_harness_now(&r.h));
        assert_int_equal(memory_harness_access(&r.h, 1, L1_LOAD, r.x + 4, 0, NULL), 7);
        assert_int_equal(memory_harness_access(&r.h, 1, L1_LOAD, r.x, 0, NULL), 5);
    } else {
        memory_op_free(r.h.memory, read);
    }
    race_close(&r);
    return outcome;
}

/* CU 1 writes one byte of each word and releases, so its registration of the two partly written
 * words is forwarded to CU 0 and then CU 2 and must bring back their other bytes, and CU 2 replaces
 * the line `when` ps after the release. Returns race_replace's answer, or -1 when the
 * registration was over by then. */
static int registration_beside_a_write_back(sc_time when)
{
    race r;
    race_open(&r, 0x05050505, 0x07070707);
    uint32_t byte_stores[2] = {memory_harness_start_sized_at(&r.h, 1, 0, L1_STORE, r.x, 0xaa, 1, r.start),
                               memory_harness_start_sized_at(&r.h, 1, 0, L1_STORE, r.x + 4, 0xbb, 1, r.start)};
    l1_release(r.h.memory, 1, PTX_SCOPE_GPU, r.start);
    while (l1_writes_outstanding(r.h.memory, 1) > 0 && memory_harness_now(&r.h) <= r.start + when)
        assert_true(memory_harness_step(&r.h));
    int outcome = -1;
    if (l1_writes_outstanding(r.h.memory, 1) > 0) {
        outcome = race_replace(&r, when);
        assert_int_equal(memory_harness_access(&r.h, 1, L1_LOAD, r.x + 4, 0, NULL), 0x070707bb);
        assert_int_equal(memory_harness_access(&r.h, 1, L1_LOAD, r.x, 0, NULL), 0x050505aa);
    }
    memory_harness_settle(&r.h);
    for (unsigned i = 0; i < 2; i++)
        memory_op_free(r.h.memory, byte_stores[i]);
    race_close(&r);
    return outcome;
}

/* Runs a race at every moment of the replacement, a GPU cycle apart, until the raced access is
 * over before it: every moment gives the newest values, and some moment makes the race the cl
 * workload hit (a forwarded message answered late). */
static void every_moment(int (*race_at)(sc_time))
{
    unsigned late = 0, moments = 0;
    for (int outcome; (outcome = race_at(moments * 1000)) >= 0; moments++)
        late += (unsigned)outcome;
    assert_true(moments > 1);
    assert_true(late > 0);
}

static void test_forwarded_read_beside_a_write_back(void **state)
{
    (void)state;
    every_moment(read_beside_a_write_back);
}

static void test_forwarded_registration_beside_a_write_back(void **state)
{
    (void)state;
    every_moment(registration_beside_a_write_back);
}

int main(void)
{
    sc_mechanism_add_config_keys();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registration_and_forward_to_owner),
        cmocka_unit_test(test_store_to_owned_word_stays_in_the_l1),
        cmocka_unit_test(test_reregistration_by_another_sm),
        cmocka_unit_test(test_eviction_writes_owned_words_back),
        cmocka_unit_test(test_acquire_writing_owned_words_back),
        cmocka_unit_test(test_atomic_recalls_an_owned_word),
        cmocka_unit_test(test_forwarded_read_beside_a_write_back),
        cmocka_unit_test(test_forwarded_registration_beside_a_write_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
