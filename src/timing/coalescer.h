/* coalescer.h — turns one warp memory instruction's lane addresses into line requests: the
 * distinct lines it touches, in order of the first lane touching each, with the bytes and the
 * lanes of each. Every lane's access (element bytes x vector count, naturally aligned as PTX
 * requires) lies inside one line. */
#ifndef SYNCSCOPE_TIMING_COALESCER_H
#define SYNCSCOPE_TIMING_COALESCER_H

#include <stdint.h>

#include "timing/byte_mask.h"

typedef struct coalesced_line {
    uint64_t line_address;
    byte_mask bytes;          /* bytes of the line the lanes access */
    uint64_t lanes;           /* lanes whose access falls in this line */
} coalesced_line;

/* Fills `out` (capacity: the number of lanes in `lane_mask`) and returns the line count.
 * `addresses[lane]` is used for lanes set in `lane_mask` only. */
unsigned coalesce_lines(const uint64_t *addresses, uint64_t lane_mask, unsigned access_bytes,
                        unsigned line_bytes, coalesced_line *out);

#endif
