/* test_cache_structures.c — the memory-hierarchy building blocks of src/timing: the
 * set-associative cache array (hits, LRU, invalid ways first, flash invalidation, odd set
 * counts, geometry checks), the MSHR table (merging, capacity, reuse, hash collisions against
 * a reference model), the write-combining store buffer (merging, capacity, allocation order)
 * and the warp coalescer (coalesced, strided, vector, sparse and 64-lane patterns, checked
 * against a brute-force reference on random patterns too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "timing/cache_array.h"
#include "timing/coalescer.h"
#include "timing/mshr.h"
#include "timing/store_buffer.h"

#define LINE 128u

/* A deterministic pseudo-random sequence (64-bit LCG, high bits). */
static uint32_t next_random(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*seed >> 33);
}

/* ---- cache array ---------------------------------------------------------------------- */

/* Puts `line_address` into the cache the way a controller would: victim, then install. */
static cache_line *fill(cache_array *cache, uint64_t line_address, uint8_t state)
{
    cache_line *line = cache_array_victim(cache, line_address);
    assert_non_null(line);
    cache_array_install(cache, line, line_address, state);
    return line;
}

static void test_cache_hit_and_miss(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(4096, 4, LINE); /* 8 sets */
    assert_non_null(cache);
    assert_int_equal(cache_array_line_bytes(cache), LINE);
    assert_int_equal(cache_array_line_address(cache, 0x12345), 0x12300);
    assert_int_equal(cache_array_line_address(cache, 0x12380), 0x12380);

    assert_null(cache_array_lookup(cache, 0x1000));
    cache_line *line = fill(cache, 0x1000, 2);
    memset(line->data, 0xab, LINE);
    byte_mask_set_range(&line->dirty, 0, 4);

    cache_line *hit = cache_array_lookup(cache, 0x1000);
    assert_ptr_equal(hit, line);
    assert_int_equal(hit->state, 2);
    assert_int_equal(hit->address, 0x1000);
    assert_int_equal(hit->data[LINE - 1], 0xab);
    /* Same set (8 sets of 128 B: sets repeat every 1 KiB), different tag; and a neighbour line. */
    assert_null(cache_array_lookup(cache, 0x1000 + 1024));
    assert_null(cache_array_lookup(cache, 0x1080));

    /* Reinstalling clears the dirty mask; invalidation makes the line miss. */
    cache_array_install(cache, line, 0x1000, 1);
    assert_true(byte_mask_empty(&line->dirty));
    cache_array_invalidate(cache, line);
    assert_null(cache_array_lookup(cache, 0x1000));
    cache_array_destroy(cache);
}

static void test_cache_lru_victim_order(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(4 * LINE, 4, LINE); /* one set of 4 ways */
    cache_line *a = fill(cache, 0x0000, 1);
    cache_line *b = fill(cache, 0x1000, 1);
    cache_line *c = fill(cache, 0x2000, 1);
    cache_line *d = fill(cache, 0x3000, 1);
    assert_true(a != b && b != c && c != d && a != d);

    assert_ptr_equal(cache_array_victim(cache, 0x4000), a);
    cache_array_touch(cache, a);
    assert_ptr_equal(cache_array_victim(cache, 0x4000), b);
    /* Lookup does not change LRU order. */
    assert_ptr_equal(cache_array_lookup(cache, 0x1000), b);
    assert_ptr_equal(cache_array_victim(cache, 0x4000), b);
    cache_array_touch(cache, b);
    cache_array_touch(cache, c);
    assert_ptr_equal(cache_array_victim(cache, 0x4000), d);

    /* Replacing d makes it most recent; a is now the oldest. */
    cache_array_install(cache, d, 0x4000, 1);
    assert_null(cache_array_lookup(cache, 0x3000));
    assert_ptr_equal(cache_array_lookup(cache, 0x4000), d);
    assert_ptr_equal(cache_array_victim(cache, 0x5000), a);
    cache_array_destroy(cache);
}

static void test_cache_prefers_invalid_ways(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(4 * LINE, 4, LINE);
    cache_line *a = fill(cache, 0x0000, 1);
    cache_line *b = fill(cache, 0x1000, 1);
    /* Two valid ways, two never used: the victim is an unused way, not LRU a. */
    cache_line *victim = cache_array_victim(cache, 0x2000);
    assert_true(victim != a && victim != b);
    assert_int_equal(victim->state, 0);
    fill(cache, 0x2000, 1);
    cache_line *d = fill(cache, 0x3000, 1);
    assert_ptr_equal(cache_array_victim(cache, 0x4000), a);

    /* An invalidated way, even the most recently used one, wins over LRU a. */
    cache_array_invalidate(cache, d);
    assert_ptr_equal(cache_array_victim(cache, 0x4000), d);
    cache_array_invalidate(cache, b);
    victim = cache_array_victim(cache, 0x4000);
    assert_true(victim == b || victim == d);
    cache_array_destroy(cache);
}

static void count_visit(void *context, cache_line *line)
{
    (void)line;
    (*(unsigned *)context)++;
}

static unsigned count_valid(cache_array *cache)
{
    unsigned count = 0;
    cache_array_for_each(cache, count_visit, &count);
    return count;
}

static void test_cache_flash_invalidation(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(8 * LINE, 2, LINE); /* 4 sets */
    for (uint64_t i = 0; i < 8; i++)
        fill(cache, i * LINE, 3);
    assert_int_equal(count_valid(cache), 8);

    cache_array_flash_invalidate(cache);
    assert_int_equal(count_valid(cache), 0);
    for (uint64_t i = 0; i < 8; i++)
        assert_null(cache_array_lookup(cache, i * LINE));

    /* A victim left over from before the flash is handed out as invalid (needs no eviction). */
    cache_line *line = cache_array_victim(cache, 2 * LINE);
    assert_int_equal(line->state, 0);
    cache_array_install(cache, line, 2 * LINE, 1);
    for (unsigned i = 0; i < LINE; i++)
        line->data[i] = (uint8_t)i;
    cache_line *hit = cache_array_lookup(cache, 2 * LINE);
    assert_ptr_equal(hit, line);
    assert_int_equal(hit->data[77], 77);
    assert_int_equal(count_valid(cache), 1);
    assert_null(cache_array_lookup(cache, 6 * LINE));

    /* Repeated flashes keep working. */
    cache_array_flash_invalidate(cache);
    cache_array_flash_invalidate(cache);
    assert_null(cache_array_lookup(cache, 2 * LINE));
    fill(cache, 5 * LINE, 1);
    assert_non_null(cache_array_lookup(cache, 5 * LINE));
    cache_array_destroy(cache);
}

typedef struct visit_record {
    uint64_t addresses[64];
    unsigned count;
    int invalidate;
    cache_array *cache;
} visit_record;

static void record_visit(void *context, cache_line *line)
{
    visit_record *record = context;
    assert_true(record->count < 64);
    record->addresses[record->count++] = line->address;
    if (record->invalidate)
        cache_array_invalidate(record->cache, line);
}

static int visited(const visit_record *record, uint64_t address)
{
    int times = 0;
    for (unsigned i = 0; i < record->count; i++)
        times += record->addresses[i] == address;
    return times;
}

static void test_cache_for_each_visits_valid_lines(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(16 * LINE, 4, LINE); /* 4 sets, 16 lines */
    for (uint64_t i = 0; i < 10; i++)
        fill(cache, i * LINE, 1);
    cache_array_invalidate(cache, cache_array_lookup(cache, 3 * LINE));
    cache_array_invalidate(cache, cache_array_lookup(cache, 7 * LINE));

    visit_record record = {.cache = cache};
    cache_array_for_each(cache, record_visit, &record);
    assert_int_equal(record.count, 8);
    for (uint64_t i = 0; i < 10; i++)
        assert_int_equal(visited(&record, i * LINE), i == 3 || i == 7 ? 0 : 1);

    /* The visitor may invalidate what it visits. */
    record = (visit_record){.cache = cache, .invalidate = 1};
    cache_array_for_each(cache, record_visit, &record);
    assert_int_equal(record.count, 8);
    assert_int_equal(count_valid(cache), 0);
    cache_array_destroy(cache);
}

static void test_cache_zero_size(void **state)
{
    (void)state;
    cache_array *cache = cache_array_create(0, 4, LINE);
    assert_non_null(cache);
    assert_null(cache_array_lookup(cache, 0));
    assert_null(cache_array_lookup(cache, 0x1000));
    assert_null(cache_array_victim(cache, 0x1000));
    assert_int_equal(count_valid(cache), 0);
    cache_array_flash_invalidate(cache);
    assert_int_equal(cache_array_line_address(cache, 0x1234), 0x1200);
    cache_array_destroy(cache);
}

static void test_cache_bad_geometry(void **state)
{
    (void)state;
    assert_null(cache_array_create(1000, 4, LINE));        /* not a multiple of ways * line */
    assert_null(cache_array_create(3 * LINE, 2, LINE));    /* a multiple of line, not of a set */
    assert_null(cache_array_create(4096, 4, 96));          /* line not a power of two */
    assert_null(cache_array_create(4096, 4, 256));         /* line > TIMING_MAX_LINE_BYTES */
    assert_null(cache_array_create(4096, 4, 0));
    assert_null(cache_array_create(4096, 0, LINE));
    cache_array *smallest = cache_array_create(1, 1, 1);
    assert_non_null(smallest);
    cache_array_destroy(smallest);
}

static void test_cache_non_power_of_two_sets(void **state)
{
    (void)state;
    /* 3 sets of 4 ways: lines 0..11 fit together; line 12 maps to set 0 (12 % 3). */
    cache_array *cache = cache_array_create(3 * 4 * LINE, 4, LINE);
    assert_non_null(cache);
    for (uint64_t i = 0; i < 12; i++) {
        cache_line *victim = cache_array_victim(cache, i * LINE);
        assert_int_equal(victim->state, 0);
        cache_array_install(cache, victim, i * LINE, 1);
    }
    for (uint64_t i = 0; i < 12; i++)
        assert_non_null(cache_array_lookup(cache, i * LINE));
    assert_int_equal(count_valid(cache), 12);
    /* Set 0 holds lines 0, 3, 6, 9; LRU is line 0. */
    assert_ptr_equal(cache_array_victim(cache, 12 * LINE), cache_array_lookup(cache, 0));
    assert_ptr_equal(cache_array_victim(cache, 13 * LINE), cache_array_lookup(cache, 1 * LINE));
    cache_array_destroy(cache);

    /* 48 KiB, 6 ways, 128 B lines: 64 sets; 6 lines 64 lines apart share a set, a 7th evicts. */
    cache = cache_array_create(48 * 1024, 6, LINE);
    assert_non_null(cache);
    for (uint64_t i = 0; i < 6; i++)
        fill(cache, i * 64 * LINE, 1);
    for (uint64_t i = 0; i < 6; i++)
        assert_non_null(cache_array_lookup(cache, i * 64 * LINE));
    assert_ptr_equal(cache_array_victim(cache, 6 * 64 * LINE), cache_array_lookup(cache, 0));
    cache_array_destroy(cache);

    /* 1-way, 5 sets: direct mapped by line number modulo 5. */
    cache = cache_array_create(5 * LINE, 1, LINE);
    cache_line *zero = fill(cache, 0, 1);
    assert_ptr_equal(cache_array_victim(cache, 5 * LINE), zero);
    assert_ptr_equal(cache_array_victim(cache, 10 * LINE), zero);
    assert_true(cache_array_victim(cache, 4 * LINE) != zero);
    assert_true(cache_array_victim(cache, 8 * LINE) != zero);
    cache_array_destroy(cache);
}

/* ---- MSHR ------------------------------------------------------------------------------- */

static void test_mshr_allocate_find_merge_release(void **state)
{
    (void)state;
    mshr_table *table = mshr_create(4);
    assert_non_null(table);
    assert_int_equal(mshr_capacity(table), 4);
    assert_int_equal(mshr_in_use(table), 0);
    assert_false(mshr_full(table));
    assert_null(mshr_find(table, 0x1000));

    mshr_entry *entry = mshr_allocate(table, 0x1000);
    assert_non_null(entry);
    assert_int_equal(entry->line_address, 0x1000);
    assert_int_equal(entry->waiter_count, 0);
    assert_int_equal(entry->flags, 0);
    assert_ptr_equal(mshr_find(table, 0x1000), entry);
    assert_null(mshr_find(table, 0x1080));
    for (uint32_t token = 0; token < 37; token++)
        mshr_add_waiter(entry, 100 + token);
    assert_int_equal(entry->waiter_count, 37);
    assert_true(entry->waiter_capacity >= 37);
    for (uint32_t i = 0; i < 37; i++)
        assert_int_equal(entry->waiters[i], 100 + i);
    entry->flags = 5;
    entry->opened = 99;

    assert_non_null(mshr_allocate(table, 0x2000));
    assert_non_null(mshr_allocate(table, 0x3000));
    assert_non_null(mshr_allocate(table, 0x4000));
    assert_true(mshr_full(table));
    assert_int_equal(mshr_in_use(table), 4);
    assert_null(mshr_allocate(table, 0x5000));
    assert_null(mshr_find(table, 0x5000));

    /* Release forgets the waiters; the freed entry is reused with its waiter storage. */
    uint32_t *storage = entry->waiters;
    uint32_t capacity = entry->waiter_capacity;
    mshr_release(table, entry);
    assert_false(mshr_full(table));
    assert_int_equal(mshr_in_use(table), 3);
    assert_null(mshr_find(table, 0x1000));
    assert_non_null(mshr_find(table, 0x2000));

    mshr_entry *reused = mshr_allocate(table, 0x5000);
    assert_ptr_equal(reused, entry);
    assert_int_equal(reused->line_address, 0x5000);
    assert_int_equal(reused->waiter_count, 0);
    assert_int_equal(reused->flags, 0);
    assert_int_equal(reused->opened, 0);
    for (uint32_t token = 0; token < 37; token++)
        mshr_add_waiter(reused, token);
    assert_ptr_equal(reused->waiters, storage);
    assert_int_equal(reused->waiter_capacity, capacity);
    assert_ptr_equal(mshr_find(table, 0x5000), reused);
    mshr_destroy(table);
}

static void test_mshr_zero_entries(void **state)
{
    (void)state;
    mshr_table *table = mshr_create(0);
    assert_non_null(table);
    assert_true(mshr_full(table));
    assert_null(mshr_allocate(table, 0));
    assert_null(mshr_find(table, 0));
    mshr_destroy(table);
}

/* Every entry in use, with addresses that collide under any modulo hash (a 1 MiB stride). */
static void test_mshr_many_colliding_entries(void **state)
{
    (void)state;
    enum { ENTRIES = 256 };
    mshr_table *table = mshr_create(ENTRIES);
    mshr_entry *entries[ENTRIES];
    for (uint64_t i = 0; i < ENTRIES; i++) {
        entries[i] = mshr_allocate(table, i << 20);
        assert_non_null(entries[i]);
        mshr_add_waiter(entries[i], (uint32_t)i);
    }
    assert_true(mshr_full(table));
    for (uint64_t i = 0; i < ENTRIES; i++)
        assert_ptr_equal(mshr_find(table, i << 20), entries[i]);
    for (uint64_t i = 0; i < ENTRIES; i += 2)
        mshr_release(table, entries[i]);
    for (uint64_t i = 0; i < ENTRIES; i++) {
        mshr_entry *found = mshr_find(table, i << 20);
        if (i % 2) {
            assert_ptr_equal(found, entries[i]);
            assert_int_equal(found->waiters[0], i);
        } else {
            assert_null(found);
        }
    }
    mshr_destroy(table);
}

/* Random allocate/release against a reference model, over addresses 2^32 apart. */
static void test_mshr_matches_reference_model(void **state)
{
    (void)state;
    enum { ENTRIES = 64, POOL = 512, STEPS = 20000 };
    mshr_table *table = mshr_create(ENTRIES);
    mshr_entry *live[POOL] = {0};
    unsigned live_count = 0;
    uint64_t seed = 42;
    for (unsigned step = 0; step < STEPS; step++) {
        unsigned pick = next_random(&seed) % POOL;
        uint64_t address = (uint64_t)pick << 32 | 0x80;
        if (live[pick]) {
            assert_ptr_equal(mshr_find(table, address), live[pick]);
            mshr_release(table, live[pick]);
            live[pick] = NULL;
            live_count--;
        } else {
            live[pick] = mshr_allocate(table, address);
            if (live_count == ENTRIES) {
                assert_null(live[pick]);
                continue;
            }
            assert_non_null(live[pick]);
            live_count++;
        }
        assert_int_equal(mshr_in_use(table), live_count);
        if (step % 97 == 0)
            for (unsigned i = 0; i < POOL; i++)
                assert_ptr_equal(mshr_find(table, (uint64_t)i << 32 | 0x80), live[i]);
    }
    mshr_destroy(table);
}

/* ---- store buffer ----------------------------------------------------------------------- */

static store_buffer_entry *write_word(store_buffer *buffer, uint64_t line_address, unsigned offset, uint32_t value)
{
    uint8_t bytes[4];
    memcpy(bytes, &value, sizeof bytes);
    return store_buffer_write(buffer, line_address, offset, bytes, sizeof bytes);
}

static void test_store_buffer_merges_into_entry(void **state)
{
    (void)state;
    store_buffer *buffer = store_buffer_create(4, LINE);
    assert_non_null(buffer);
    store_buffer_entry *entry = write_word(buffer, 0x1000, 0, 0x44332211);
    assert_non_null(entry);
    assert_int_equal(entry->line_address, 0x1000);
    assert_ptr_equal(write_word(buffer, 0x1000, 8, 0x88776655), entry);
    assert_int_equal(store_buffer_count(buffer), 1);

    assert_int_equal(entry->mask.bits[0], 0xf0full);
    assert_int_equal(entry->mask.bits[1], 0);
    assert_int_equal(entry->data[0], 0x11);
    assert_int_equal(entry->data[11], 0x88);

    /* A later store overwrites the bytes it covers; the upper half of the line works too. */
    uint8_t byte = 0xee;
    assert_ptr_equal(store_buffer_write(buffer, 0x1000, 2, &byte, 1), entry);
    assert_ptr_equal(write_word(buffer, 0x1000, 124, 0xdeadbeef), entry);
    assert_int_equal(entry->data[1], 0x22);
    assert_int_equal(entry->data[2], 0xee);
    assert_int_equal(entry->data[3], 0x44);
    assert_int_equal(entry->data[127], 0xde);
    assert_int_equal(entry->mask.bits[0], 0xf0full);
    assert_int_equal(entry->mask.bits[1], 0xfull << 60);
    store_buffer_destroy(buffer);
}

static void test_store_buffer_full(void **state)
{
    (void)state;
    store_buffer *buffer = store_buffer_create(3, LINE);
    assert_non_null(write_word(buffer, 0x0000, 0, 1));
    assert_non_null(write_word(buffer, 0x1000, 0, 2));
    assert_false(store_buffer_full(buffer));
    store_buffer_entry *third = write_word(buffer, 0x2000, 0, 3);
    assert_true(store_buffer_full(buffer));
    assert_null(write_word(buffer, 0x3000, 0, 4));
    assert_null(store_buffer_find(buffer, 0x3000));
    assert_int_equal(store_buffer_count(buffer), 3);
    /* A full buffer still merges into an existing entry. */
    assert_ptr_equal(write_word(buffer, 0x2000, 4, 5), third);
    store_buffer_destroy(buffer);

    buffer = store_buffer_create(0, LINE);
    assert_non_null(buffer);
    assert_true(store_buffer_full(buffer));
    assert_null(write_word(buffer, 0, 0, 1));
    assert_null(store_buffer_oldest(buffer));
    assert_null(store_buffer_find(buffer, 0));
    store_buffer_destroy(buffer);
    assert_null(store_buffer_create(4, 0));
    assert_null(store_buffer_create(4, 2 * TIMING_MAX_LINE_BYTES));
}

static void test_store_buffer_oldest_order_after_removals(void **state)
{
    (void)state;
    store_buffer *buffer = store_buffer_create(4, LINE);
    assert_null(store_buffer_oldest(buffer));
    store_buffer_entry *a = write_word(buffer, 0xa000, 0, 1);
    store_buffer_entry *b = write_word(buffer, 0xb000, 0, 2);
    store_buffer_entry *c = write_word(buffer, 0xc000, 0, 3);
    store_buffer_entry *d = write_word(buffer, 0xd000, 0, 4);
    assert_true(a->sequence < b->sequence && b->sequence < c->sequence && c->sequence < d->sequence);
    /* Merging into a does not make it younger. */
    write_word(buffer, 0xa000, 4, 9);
    assert_ptr_equal(store_buffer_oldest(buffer), a);

    store_buffer_remove(buffer, b);            /* from the middle */
    assert_ptr_equal(store_buffer_oldest(buffer), a);
    assert_null(store_buffer_find(buffer, 0xb000));
    store_buffer_remove(buffer, a);            /* the oldest */
    assert_ptr_equal(store_buffer_oldest(buffer), c);
    write_word(buffer, 0xe000, 0, 5);
    write_word(buffer, 0xb000, 0, 6);          /* b again: a new, youngest entry */
    assert_true(store_buffer_full(buffer));
    store_buffer_remove(buffer, store_buffer_find(buffer, 0xe000));  /* the second youngest */

    const uint64_t expected[] = {0xc000, 0xd000, 0xb000};
    uint64_t previous_sequence = 0;
    for (unsigned i = 0; i < 3; i++) {
        store_buffer_entry *oldest = store_buffer_oldest(buffer);
        assert_non_null(oldest);
        assert_int_equal(oldest->line_address, expected[i]);
        assert_true(i == 0 || oldest->sequence > previous_sequence);
        previous_sequence = oldest->sequence;
        store_buffer_remove(buffer, oldest);
    }
    assert_null(store_buffer_oldest(buffer));
    assert_int_equal(store_buffer_count(buffer), 0);
    store_buffer_destroy(buffer);
}

static void test_store_buffer_find(void **state)
{
    (void)state;
    enum { ENTRIES = 300 };
    store_buffer *buffer = store_buffer_create(ENTRIES, LINE);
    for (uint32_t i = 0; i < ENTRIES; i++)
        assert_non_null(write_word(buffer, (uint64_t)i << 24, (i % 32) * 4, i));
    assert_true(store_buffer_full(buffer));
    for (uint32_t i = 0; i < ENTRIES; i++) {
        store_buffer_entry *entry = store_buffer_find(buffer, (uint64_t)i << 24);
        assert_non_null(entry);
        assert_int_equal(entry->line_address, (uint64_t)i << 24);
        uint32_t value;
        memcpy(&value, entry->data + (i % 32) * 4, sizeof value);
        assert_int_equal(value, i);
    }
    assert_null(store_buffer_find(buffer, (uint64_t)ENTRIES << 24));
    assert_null(store_buffer_find(buffer, 0x80));
    /* Remove every third entry; the rest stay findable and the buffer drains oldest first. */
    for (uint32_t i = 0; i < ENTRIES; i += 3)
        store_buffer_remove(buffer, store_buffer_find(buffer, (uint64_t)i << 24));
    for (uint32_t i = 0; i < ENTRIES; i++)
        assert_true((store_buffer_find(buffer, (uint64_t)i << 24) != NULL) == (i % 3 != 0));
    for (uint32_t i = 0; i < ENTRIES; i++) {
        if (i % 3 == 0)
            continue;
        assert_int_equal(store_buffer_oldest(buffer)->line_address, (uint64_t)i << 24);
        store_buffer_remove(buffer, store_buffer_oldest(buffer));
    }
    assert_int_equal(store_buffer_count(buffer), 0);
    store_buffer_destroy(buffer);
}

/* ---- coalescer -------------------------------------------------------------------------- */

static uint64_t low_lanes(unsigned count)
{
    return count == 64 ? ~0ull : (1ull << count) - 1;
}

static void assert_full_line(const coalesced_line *line)
{
    assert_int_equal(line->bytes.bits[0], ~0ull);
    assert_int_equal(line->bytes.bits[1], ~0ull);
}

static void test_coalesce_fully_coalesced(void **state)
{
    (void)state;
    uint64_t addresses[32];
    for (unsigned lane = 0; lane < 32; lane++)
        addresses[lane] = 0x10000 + 4 * lane;
    coalesced_line out[32];
    assert_int_equal(coalesce_lines(addresses, low_lanes(32), 4, LINE, out), 1);
    assert_int_equal(out[0].line_address, 0x10000);
    assert_int_equal(out[0].lanes, 0xffffffffull);
    assert_full_line(&out[0]);
}

static void test_coalesce_strided(void **state)
{
    (void)state;
    uint64_t addresses[32];
    coalesced_line out[32];
    /* One line per lane. */
    for (unsigned lane = 0; lane < 32; lane++)
        addresses[lane] = 0x20000 + LINE * lane + 8;
    assert_int_equal(coalesce_lines(addresses, low_lanes(32), 4, LINE, out), 32);
    for (unsigned i = 0; i < 32; i++) {
        assert_int_equal(out[i].line_address, 0x20000 + LINE * i);
        assert_int_equal(out[i].lanes, 1ull << i);
        assert_int_equal(out[i].bytes.bits[0], 0xf00ull);
        assert_int_equal(out[i].bytes.bits[1], 0);
    }
    /* 64-byte stride: two lanes per line, at offsets 0 and 64. */
    for (unsigned lane = 0; lane < 32; lane++)
        addresses[lane] = 0x20000 + 64 * lane;
    assert_int_equal(coalesce_lines(addresses, low_lanes(32), 4, LINE, out), 16);
    for (unsigned i = 0; i < 16; i++) {
        assert_int_equal(out[i].lanes, 3ull << (2 * i));
        assert_int_equal(out[i].bytes.bits[0], 0xf);
        assert_int_equal(out[i].bytes.bits[1], 0xf);
    }
}

static void test_coalesce_vectors(void **state)
{
    (void)state;
    /* ld.v4.u32: 16 bytes a lane, 8 lanes a line, 4 full lines. */
    uint64_t addresses[32];
    for (unsigned lane = 0; lane < 32; lane++)
        addresses[lane] = 0x40000 + 16 * lane;
    coalesced_line out[32];
    assert_int_equal(coalesce_lines(addresses, low_lanes(32), 16, LINE, out), 4);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(out[i].line_address, 0x40000 + LINE * i);
        assert_int_equal(out[i].lanes, 0xffull << (8 * i));
        assert_full_line(&out[i]);
    }
    /* ld.v2.u64 on 32-byte lines (sector-sized): 16 bytes a lane, 2 lanes a line. */
    assert_int_equal(coalesce_lines(addresses, low_lanes(32), 16, 32, out), 16);
    assert_int_equal(out[15].line_address, 0x40000 + 15 * 32);
    assert_int_equal(out[15].lanes, 3ull << 30);
    assert_int_equal(out[15].bytes.bits[0], 0xffffffffull);
}

static void test_coalesce_exact_byte_mask(void **state)
{
    (void)state;
    uint64_t addresses[4] = {0x1006, 0x1028, 0x107e, 0x1040};
    coalesced_line out[4];
    assert_int_equal(coalesce_lines(addresses, 0xf, 2, LINE, out), 1);
    assert_int_equal(out[0].bytes.bits[0], (3ull << 6) | (3ull << 40));
    assert_int_equal(out[0].bytes.bits[1], (3ull << 62) | 3ull);
    for (unsigned offset = 0; offset < LINE; offset++) {
        int expected = offset == 6 || offset == 7 || offset == 40 || offset == 41 || offset == 126 ||
                       offset == 127 || offset == 64 || offset == 65;
        assert_int_equal(byte_mask_test(&out[0].bytes, offset), expected);
    }
}

static void test_coalesce_ignores_inactive_lanes(void **state)
{
    (void)state;
    uint64_t addresses[8];
    for (unsigned lane = 0; lane < 8; lane++)
        addresses[lane] = 0x9000 + LINE * lane * 7; /* a different line per lane */
    addresses[5] = 0x9004;                          /* lanes 0 and 5 share a line */
    coalesced_line out[8];
    assert_int_equal(coalesce_lines(addresses, (1u << 0) | (1u << 5), 4, LINE, out), 1);
    assert_int_equal(out[0].line_address, 0x9000);
    assert_int_equal(out[0].lanes, (1u << 0) | (1u << 5));
    assert_int_equal(out[0].bytes.bits[0], 0xff);
    assert_int_equal(coalesce_lines(addresses, 0, 4, LINE, out), 0);
    assert_int_equal(coalesce_lines(addresses, 1u << 7, 4, LINE, out), 1);
    assert_int_equal(out[0].line_address, addresses[7]);
}

static void test_coalesce_64_lanes(void **state)
{
    (void)state;
    uint64_t addresses[64];
    coalesced_line out[64];
    for (unsigned lane = 0; lane < 64; lane++)
        addresses[lane] = 0x80000 + 2 * lane;
    assert_int_equal(coalesce_lines(addresses, ~0ull, 2, LINE, out), 1);
    assert_int_equal(out[0].lanes, ~0ull);
    assert_full_line(&out[0]);

    /* 64 distinct lines 2^40 apart (clustering in any table keyed on low bits), reversed. */
    for (unsigned lane = 0; lane < 64; lane++)
        addresses[lane] = (uint64_t)(63 - lane) << 40;
    assert_int_equal(coalesce_lines(addresses, ~0ull, 8, LINE, out), 64);
    for (unsigned i = 0; i < 64; i++) {
        assert_int_equal(out[i].line_address, (uint64_t)(63 - i) << 40);
        assert_int_equal(out[i].lanes, 1ull << i);
    }
    /* Lane 63 alone. */
    assert_int_equal(coalesce_lines(addresses, 1ull << 63, 8, LINE, out), 1);
    assert_int_equal(out[0].lanes, 1ull << 63);
    assert_int_equal(out[0].line_address, 0);
}

static void test_coalesce_order_of_first_touch(void **state)
{
    (void)state;
    const uint64_t a = 0x1000, b = 0x5000, c = 0x3000;
    uint64_t addresses[6] = {b + 0, a + 4, b + 8, c + 0, a + 12, c + 4};
    coalesced_line out[6];
    assert_int_equal(coalesce_lines(addresses, 0x3f, 4, LINE, out), 3);
    assert_int_equal(out[0].line_address, b);
    assert_int_equal(out[0].lanes, 0x05);
    assert_int_equal(out[0].bytes.bits[0], 0xf0f);
    assert_int_equal(out[1].line_address, a);
    assert_int_equal(out[1].lanes, 0x12);
    assert_int_equal(out[1].bytes.bits[0], 0xf0f0);
    assert_int_equal(out[2].line_address, c);
    assert_int_equal(out[2].lanes, 0x28);
    assert_int_equal(out[2].bytes.bits[0], 0xff);
}

/* The obvious quadratic coalescer. */
static unsigned reference_coalesce(const uint64_t *addresses, uint64_t lane_mask, unsigned access_bytes,
                                   coalesced_line *out)
{
    unsigned count = 0;
    for (unsigned lane = 0; lane < 64; lane++) {
        if (!(lane_mask >> lane & 1))
            continue;
        uint64_t line_address = addresses[lane] / LINE * LINE;
        unsigned i = 0;
        while (i < count && out[i].line_address != line_address)
            i++;
        if (i == count)
            out[count++] = (coalesced_line){.line_address = line_address};
        for (unsigned byte = 0; byte < access_bytes; byte++) {
            unsigned offset = (unsigned)(addresses[lane] % LINE) + byte;
            out[i].bytes.bits[offset / 64] |= 1ull << (offset % 64);
        }
        out[i].lanes |= 1ull << lane;
    }
    return count;
}

static void test_coalesce_matches_reference_on_random_patterns(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (unsigned round = 0; round < 2000; round++) {
        unsigned access_bytes = 1u << (next_random(&seed) % 5);
        unsigned pool = 1 + next_random(&seed) % 70; /* few lines (heavy merging) to many */
        uint64_t lane_mask = (uint64_t)next_random(&seed) << 32 | next_random(&seed);
        if (round % 4 == 0)
            lane_mask = ~0ull;
        uint64_t addresses[64];
        for (unsigned lane = 0; lane < 64; lane++) {
            uint64_t line_number = (next_random(&seed) % pool) * (round % 2 ? 1 : 4096);
            unsigned offset = next_random(&seed) % (LINE / access_bytes) * access_bytes;
            addresses[lane] = line_number * LINE + offset;
        }
        coalesced_line expected[64], actual[64];
        memset(actual, 0x5a, sizeof actual);
        unsigned count = reference_coalesce(addresses, lane_mask, access_bytes, expected);
        assert_int_equal(coalesce_lines(addresses, lane_mask, access_bytes, LINE, actual), count);
        for (unsigned i = 0; i < count; i++) {
            assert_int_equal(actual[i].line_address, expected[i].line_address);
            assert_int_equal(actual[i].lanes, expected[i].lanes);
            assert_int_equal(actual[i].bytes.bits[0], expected[i].bytes.bits[0]);
            assert_int_equal(actual[i].bytes.bits[1], expected[i].bytes.bits[1]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_hit_and_miss),
        cmocka_unit_test(test_cache_lru_victim_order),
        cmocka_unit_test(test_cache_prefers_invalid_ways),
        cmocka_unit_test(test_cache_flash_invalidation),
        cmocka_unit_test(test_cache_for_each_visits_valid_lines),
        cmocka_unit_test(test_cache_zero_size),
        cmocka_unit_test(test_cache_bad_geometry),
        cmocka_unit_test(test_cache_non_power_of_two_sets),
        cmocka_unit_test(test_mshr_allocate_find_merge_release),
        cmocka_unit_test(test_mshr_zero_entries),
        cmocka_unit_test(test_mshr_many_colliding_entries),
        cmocka_unit_test(test_mshr_matches_reference_model),
        cmocka_unit_test(test_store_buffer_merges_into_entry),
        cmocka_unit_test(test_store_buffer_full),
        cmocka_unit_test(test_store_buffer_oldest_order_after_removals),
        cmocka_unit_test(test_store_buffer_find),
        cmocka_unit_test(test_coalesce_fully_coalesced),
        cmocka_unit_test(test_coalesce_strided),
        cmocka_unit_test(test_coalesce_vectors),
        cmocka_unit_test(test_coalesce_exact_byte_mask),
        cmocka_unit_test(test_coalesce_ignores_inactive_lanes),
        cmocka_unit_test(test_coalesce_64_lanes),
        cmocka_unit_test(test_coalesce_order_of_first_touch),
        cmocka_unit_test(test_coalesce_matches_reference_on_random_patterns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
