/* byte_mask.h — which bytes of a cache line a write, a dirty copy or a request covers.
 * Lines are at most TIMING_MAX_LINE_BYTES bytes, so a mask is two 64-bit words. */
#ifndef SYNCSCOPE_TIMING_BYTE_MASK_H
#define SYNCSCOPE_TIMING_BYTE_MASK_H

#include <stdbool.h>
#include <stdint.h>

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

/* Copies the masked bytes of `source` over `destination` (both line_bytes long). */
static inline void byte_mask_copy(uint8_t *destination, const uint8_t *source, const byte_mask *mask,
                                  unsigned line_bytes)
{
    for (unsigned i = 0; i < line_bytes; i++)
        if (byte_mask_test(mask, i))
            destination[i] = source[i];
}

#endif
