/* sync_fifo.h — QuickRelease's synchronisation FIFO (S-FIFO): the line addresses of the blocks a
 * write cache took, in arrival order (a CU's stores for S-FIFO1, the blocks written out of the
 * level above for S-FIFO2 and S-FIFO3), a superset of the lines that may be dirty in that write
 * cache (S-INV1). Its owner dequeues the head when the FIFO is full and dequeues everything ahead
 * of a release marker; a dequeued address whose line is no longer in the write cache is a no-op. */
#ifndef SYNCSCOPE_PROTOCOLS_COMMON_SYNC_FIFO_H
#define SYNCSCOPE_PROTOCOLS_COMMON_SYNC_FIFO_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sync_fifo sync_fifo;

/* `entries` must be at least 1. */
sync_fifo *sync_fifo_create(unsigned entries);
void sync_fifo_destroy(sync_fifo *fifo);

/* Appends a line address; the FIFO must not be full. */
void sync_fifo_push(sync_fifo *fifo, uint64_t line_address);
/* Removes and returns the head; the FIFO must not be empty. */
uint64_t sync_fifo_pop(sync_fifo *fifo);

/* The head without removing it; the FIFO must not be empty. */
uint64_t sync_fifo_head(const sync_fifo *fifo);

unsigned sync_fifo_count(const sync_fifo *fifo);
bool sync_fifo_full(const sync_fifo *fifo);

#endif
