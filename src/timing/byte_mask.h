/* byte_mask.h — which bytes of a cache line a write, a dirty copy or a request covers.
 * Lines are at most TIMING_MAX_LINE_BYTES bytes, so a mask is two 64-bit words. */
#ifndef SYNCSCOPE_TIMING_BYTE_MASK_H
#define SYNCSCOPE_TIMING_BYTE_MASK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define TIMING_MAX_LINE_BYTES 128

typedef struct byte_mask {
    uint64_t bits[2];
} byte_mask;

/* Marks bytes [offset, offset + count) (within one line). */
static inline void byte_mask_set_range(byte_mask *mask, unsigned offset, unsigned count)
{
    for (unsigned word = 0; word < 2; word++) {
        unsigned low = word * 64, high = low + 64;
        unsigned first = offset > low ? offset : low, end = offset + count < high ? offset + count : high;
        if (first < end) {
            unsigned bits = end - first;
            mask->bits[word] |= (bits == 64 ? ~0ull : (1ull << bits) - 1) << (first - low);
        }
    }
}

static inline bool byte_mask_test(const byte_mask *mask, unsigned offset)
{
    return (mask->bits[offset >> 6] >> (offset & 63)) & 1;
}

static inline bool byte_mask_empty(const byte_mask *mask)
{
    return (mask->bits[0] | mask->bits[1]) == 0;
}

static inline void byte_mask_merge(byte_mask *into, const byte_mask *from)
{
    into->bits[0] |= from->bits[0];
    into->bits[1] |= from->bits[1];
}

/* The bits of word `word` (bytes 64 * word ...) that fall within a line of line_bytes. */
static inline uint64_t byte_mask_word_in_line(const byte_mask *mask, unsigned word, unsigned line_bytes)
{
    unsigned low = word * 64;
    if (line_bytes <= low)
        return 0;
    return line_bytes - low >= 64 ? mask->bits[word] : mask->bits[word] & ((1ull << (line_bytes - low)) - 1);
}

/* Whether every byte of a line of line_bytes is marked. */
static inline bool byte_mask_full(const byte_mask *mask, unsigned line_bytes)
{
    for (unsigned word = 0; word * 64 < line_bytes; word++) {
        unsigned bytes = line_bytes - word * 64 >= 64 ? 64 : line_bytes - word * 64;
        if (byte_mask_word_in_line(mask, word, line_bytes) != (bytes == 64 ? ~0ull : (1ull << bytes) - 1))
            return false;
    }
    return true;
}

/* Copies the masked bytes of `source` over `destination` (both line_bytes long), a whole word of
 * 64 marked bytes at once. */
static inline void byte_mask_copy(uint8_t *destination, const uint8_t *source, const byte_mask *mask,
                                  unsigned line_bytes)
{
    for (unsigned word = 0; word < 2; word++) {
        uint64_t bits = byte_mask_word_in_line(mask, word, line_bytes);
        if (bits == ~0ull) {
            memcpy(destination + word * 64, source + word * 64, 64);
            continue;
        }
        for (; bits; bits &= bits - 1) {
            unsigned i = word * 64 + (unsigned)__builtin_ctzll(bits);
            destination[i] = source[i];
        }
    }
}

#endif
