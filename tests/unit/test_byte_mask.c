/* test_byte_mask.c — the line byte masks of src/timing/byte_mask.h: byte_mask_copy and
 * byte_mask_full against a byte-by-byte reference on random, empty, full and edge masks for the
 * line sizes the presets use (32, 64 and 128 bytes), bytes beyond the line ignored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "timing/byte_mask.h"

static const unsigned line_sizes[] = {32, 64, 128};

/* A deterministic pseudo-random sequence (64-bit LCG, high bits). */
static uint64_t next_random(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return *seed >> 11;
}

/* Masks worth trying: empty, full, single bytes at the word edges, and random ones. */
static byte_mask sample_mask(unsigned index, uint64_t *seed)
{
    switch (index) {
    case 0: return (byte_mask){{0, 0}};
    case 1: return (byte_mask){{~0ull, ~0ull}};
    case 2: return (byte_mask){{1ull << 63, 1}};
    case 3: return (byte_mask){{~0ull, 0}};
    case 4: return (byte_mask){{0, ~0ull}};
    default: {
        uint64_t low = next_random(seed) ^ next_random(seed) << 20, high = next_random(seed) ^ next_random(seed) << 20;
        return (byte_mask){{low, high}};
    }
    }
}

static void test_copy_matches_bytewise_reference(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (unsigned s = 0; s < sizeof line_sizes / sizeof line_sizes[0]; s++) {
        unsigned line = line_sizes[s];
        for (unsigned index = 0; index < 200; index++) {
            byte_mask mask = sample_mask(index, &seed);
            uint8_t source[TIMING_MAX_LINE_BYTES], copied[TIMING_MAX_LINE_BYTES], expected[TIMING_MAX_LINE_BYTES];
            for (unsigned i = 0; i < TIMING_MAX_LINE_BYTES; i++) {
                source[i] = (uint8_t)next_random(&seed);
                copied[i] = expected[i] = (uint8_t)~source[i];
            }
            for (unsigned i = 0; i < line; i++)
                if (byte_mask_test(&mask, i))
                    expected[i] = source[i];
            byte_mask_copy(copied, source, &mask, line);
            assert_memory_equal(copied, expected, sizeof copied);
        }
    }
}

static void test_full_matches_bytewise_reference(void **state)
{
    (void)state;
    uint64_t seed = 11;
    for (unsigned s = 0; s < sizeof line_sizes / sizeof line_sizes[0]; s++) {
        unsigned line = line_sizes[s];
        for (unsigned index = 0; index < 200; index++) {
            byte_mask mask = sample_mask(index, &seed);
            bool full = true;
            for (unsigned i = 0; i < line; i++)
                full = full && byte_mask_test(&mask, i);
            assert_int_equal(byte_mask_full(&mask, line), full);
        }
        byte_mask exact = {{0, 0}};
        byte_mask_set_range(&exact, 0, line);
        assert_true(byte_mask_full(&exact, line));
        byte_mask gap = exact;
        gap.bits[(line - 1) / 64] &= ~(1ull << ((line - 1) % 64));
        assert_false(byte_mask_full(&gap, line));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_matches_bytewise_reference),
        cmocka_unit_test(test_full_matches_bytewise_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
