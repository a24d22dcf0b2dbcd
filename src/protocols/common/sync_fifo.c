/* sync_fifo.c — the S-FIFO of sync_fifo.h: a ring of line addresses. */
#include "protocols/common/sync_fifo.h"

#include <stdlib.h>

struct sync_fifo {
    uint64_t *addresses;
    unsigned capacity, head, count;
};

sync_fifo *sync_fifo_create(unsigned entries)
{
    sync_fifo *fifo = entries ? calloc(1, sizeof *fifo) : NULL;
    if (!fifo)
        return NULL;
    fifo->capacity = entries;
    fifo->addresses = calloc(entries, sizeof *fifo->addresses);
    if (!fifo->addresses) {
        free(fifo);
        return NULL;
    }
    return fifo;
}

void sync_fifo_destroy(sync_fifo *fifo)
{
    if (!fifo)
        return;
    free(fifo->addresses);
    free(fifo);
}

void sync_fifo_push(sync_fifo *fifo, uint64_t line_address)
{
    fifo->addresses[(fifo->head + fifo->count) % fifo->capacity] = line_address;
    fifo->count++;
}

uint64_t sync_fifo_pop(sync_fifo *fifo)
{
    uint64_t line_address = fifo->addresses[fifo->head];
    fifo->head = (fifo->head + 1) % fifo->capacity;
    fifo->count--;
    return line_address;
}

uint64_t sync_fifo_head(const sync_fifo *fifo)
{
    return fifo->addresses[fifo->head];
}

unsigned sync_fifo_count(const sync_fifo *fifo)
{
    return fifo->count;
}

bool sync_fifo_full(const sync_fifo *fifo)
{
    return fifo->count == fifo->capacity;
}
