/* write_cache_level.h — one of QuickRelease's write-combining write caches below the wL1 (a
 * bank's slice of the wL2, or the wL3) together with its S-FIFO (digest §2.1, §2.4).
 *
 * The write cache holds dirty bytes with a byte mask per block, sets x ways blocks; each set is a
 * store_buffer (store_buffer.h), so its replacement victim is the set's oldest block. Every block
 * it takes, new or merged, puts the line at the tail of its S-FIFO (sync_fifo.h), which therefore
 * names every block present (S-INV1). A block leaves ("is evicted") in one of four ways, and the
 * level hands it to its owner's callback, which sends it on:
 *
 *   1. Taking a block when the S-FIFO is full dequeues the head first; the block the head names
 *      leaves if it is still present (FIFO-full dequeue, §2.2a).
 *   2. Taking a block of a new line into a full set evicts the set's oldest block (replacement).
 *   3. A release marker dequeues every entry ahead of it, one at a time (write_cache_level_dequeue,
 *      §2.7).
 *   4. The owner takes one line's block out (write_cache_level_evict: a read not fully covered by
 *      the dirty bytes, §2.5 / U6, or an atomic, U7).
 *
 * A block of a line keeps one entry per time it was taken, so an entry whose block has already
 * left dequeues as a no-op. Addresses are whatever the owner indexes by (the L2 banks use their
 * bank-local line addresses, so every set of every slice is used). */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_WRITE_CACHE_LEVEL_H
#define SYNCSCOPE_PROTOCOLS_COMMON_WRITE_CACHE_LEVEL_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/byte_mask.h"
#include "timing/store_buffer.h"

typedef enum write_eviction_cause {
    WRITE_EVICTION_FIFO_FULL = 0,   /* the S-FIFO was full and its head named the block */
    WRITE_EVICTION_REPLACEMENT,     /* the set was full */
    WRITE_EVICTION_MARKER,          /* a release marker drained the S-FIFO */
    WRITE_EVICTION_DEMAND,          /* the owner took the block out (partial read, atomic) */
    WRITE_EVICTION_CAUSE_COUNT
} write_eviction_cause;

/* Receives a leaving block (still present while the callback runs). */
typedef void (*write_eviction_fn)(void *context, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                                  write_eviction_cause cause);

typedef struct write_cache_level write_cache_level;

/* `blocks` a multiple of `ways`, both at least 1; `fifo_entries` at least 1. */
write_cache_level *write_cache_level_create(unsigned blocks, unsigned ways, unsigned fifo_entries,
                                            unsigned line_bytes);
void write_cache_level_destroy(write_cache_level *level);

/* The line's block, or NULL. */
const store_buffer_entry *write_cache_level_find(write_cache_level *level, uint64_t line_address);

/* The blocks that taking a block of `line_address` would push out first (rules 1 and 2): stores
 * their line addresses in `victims` and returns how many (0 to 2). */
unsigned write_cache_level_take_victims(write_cache_level *level, uint64_t line_address, uint64_t victims[2]);

/* Takes the masked bytes of a block (merging with the line's block if present), evicting what
 * rules 1 and 2 require first, and enqueues the line in the S-FIFO. Returns whether the S-FIFO
 * was full (its head was dequeued, evicting a block or not). */
bool write_cache_level_take(write_cache_level *level, uint64_t line_address, const uint8_t *data,
                            const byte_mask *mask, write_eviction_fn evict, void *context);

/* A marker drains the S-FIFO one entry at a time (its level's eviction port writes one block per
 * cycle, when the level below takes it): how many
 * entries the S-FIFO ever took and ever gave up (a marker is through once the second reaches the
 * first's value at its arrival); whether the S-FIFO's head names a present block (`head` receives
 * its line address when the S-FIFO is not empty); and dequeuing the head (the S-FIFO must not be
 * empty), evicting its block if present, which it returns. */
uint64_t write_cache_level_enqueued(const write_cache_level *level);
uint64_t write_cache_level_dequeued(const write_cache_level *level);
bool write_cache_level_head_present(write_cache_level *level, uint64_t *head);
bool write_cache_level_dequeue(write_cache_level *level, write_eviction_fn evict, void *context);

/* Takes the line's block out if present; returns whether it was. */
bool write_cache_level_evict(write_cache_level *level, uint64_t line_address, write_eviction_fn evict,
                             void *context);

/* Blocks present (all sets). */
unsigned write_cache_level_blocks(const write_cache_level *level);

#endif
