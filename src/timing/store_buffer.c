/* store_buffer.c — the write-combining store buffer of store_buffer.h.
 *
 * Entries sit in a fixed array (their addresses never change while buffered), with their data
 * in one block allocated at create. A doubly linked list through the entry numbers keeps
 * allocation order, so the oldest entry and removal from anywhere are O(1); the same links
 * chain the free entries. A line_index finds a line's entry. */
#include "timing/store_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "timing/line_index.h"

#define NO_ENTRY UINT32_MAX

typedef struct order_links {
    uint32_t older, newer;      /* neighbours in allocation order; `newer` also chains free entries */
} order_links;

struct store_buffer {
    store_buffer_entry *entries;
    order_links *links;
    uint8_t *data;
    uint32_t oldest, newest;    /* ends of the allocation order, NO_ENTRY when empty */
    uint32_t first_free;        /* head of the free chain, NO_ENTRY when full */
    unsigned count;
    unsigned capacity;
    unsigned line_bytes;
    uint64_t next_sequence;
    line_index index;
};

/* Allocates every array (+ 1: a buffer of no entries still gets non-NULL arrays) and chains
 * all entries free in order, entry 0 first. */
static bool allocate_entries(store_buffer *buffer)
{
    size_t slots = (size_t)buffer->capacity + 1;
    buffer->entries = calloc(slots, sizeof *buffer->entries);
    buffer->links = calloc(slots, sizeof *buffer->links);
    buffer->data = calloc(slots, buffer->line_bytes);
    if (!buffer->entries || !buffer->links || !buffer->data || !line_index_init(&buffer->index, buffer->capacity))
        return false;
    for (uint32_t i = 0; i < buffer->capacity; i++) {
        buffer->entries[i].data = buffer->data + (size_t)i * buffer->line_bytes;
        buffer->links[i].newer = i + 1 < buffer->capacity ? i + 1 : NO_ENTRY;
    }
    buffer->first_free = buffer->capacity ? 0 : NO_ENTRY;
    return true;
}

store_buffer *store_buffer_create(unsigned entries, unsigned line_bytes)
{
    if (line_bytes == 0 || line_bytes > TIMING_MAX_LINE_BYTES)
        return NULL;
    store_buffer *buffer = calloc(1, sizeof *buffer);
    if (!buffer)
        return NULL;
    buffer->capacity = entries;
    buffer->line_bytes = line_bytes;
    buffer->oldest = buffer->newest = NO_ENTRY;
    if (!allocate_entries(buffer)) {
        store_buffer_destroy(buffer);
        return NULL;
    }
    return buffer;
}

void store_buffer_destroy(store_buffer *buffer)
{
    if (!buffer)
        return;
    free(buffer->entries);
    free(buffer->links);
    free(buffer->data);
    line_index_free(&buffer->index);
    free(buffer);
}

/* Takes a free entry for `line_address` and makes it the newest, or returns NULL. */
static store_buffer_entry *take_free_entry(store_buffer *buffer, uint64_t line_address)
{
    uint32_t number = buffer->first_free;
    if (number == NO_ENTRY)
        return NULL;
    buffer->first_free = buffer->links[number].newer;
    buffer->links[number] = (order_links){.older = buffer->newest, .newer = NO_ENTRY};
    if (buffer->newest == NO_ENTRY)
        buffer->oldest = number;
    else
        buffer->links[buffer->newest].newer = number;
    buffer->newest = number;
    buffer->count++;

    store_buffer_entry *entry = &buffer->entries[number];
    entry->line_address = line_address;
    entry->mask = (byte_mask){{0, 0}};
    entry->sequence = buffer->next_sequence++;
    line_index_insert(&buffer->index, line_address, number);
    return entry;
}

store_buffer_entry *store_buffer_write(store_buffer *buffer, uint64_t line_address, unsigned offset,
                                       const uint8_t *bytes, unsigned count)
{
    store_buffer_entry *entry = store_buffer_find(buffer, line_address);
    if (!entry)
        entry = take_free_entry(buffer, line_address);
    if (!entry)
        return NULL;
    memcpy(entry->data + offset, bytes, count);
    byte_mask_set_range(&entry->mask, offset, count);
    return entry;
}

store_buffer_entry *store_buffer_merge(store_buffer *buffer, uint64_t line_address, const uint8_t *data,
                                       const byte_mask *mask)
{
    store_buffer_entry *entry = store_buffer_find(buffer, line_address);
    if (!entry)
        entry = take_free_entry(buffer, line_address);
    if (!entry)
        return NULL;
    byte_mask_copy(entry->data, data, mask, buffer->line_bytes);
    byte_mask_merge(&entry->mask, mask);
    return entry;
}

store_buffer_entry *store_buffer_find(store_buffer *buffer, uint64_t line_address)
{
    uint32_t number = line_index_find(&buffer->index, line_address);
    return number == LINE_INDEX_NONE ? NULL : &buffer->entries[number];
}

store_buffer_entry *store_buffer_oldest(store_buffer *buffer)
{
    return buffer->oldest == NO_ENTRY ? NULL : &buffer->entries[buffer->oldest];
}

/* Unlinks entry `number` from the allocation order and chains it free. */
static void free_entry(store_buffer *buffer, uint32_t number)
{
    order_links links = buffer->links[number];
    if (links.older == NO_ENTRY)
        buffer->oldest = links.newer;
    else
        buffer->links[links.older].newer = links.newer;
    if (links.newer == NO_ENTRY)
        buffer->newest = links.older;
    else
        buffer->links[links.newer].older = links.older;
    buffer->links[number].newer = buffer->first_free;
    buffer->first_free = number;
}

void store_buffer_remove(store_buffer *buffer, store_buffer_entry *entry)
{
    line_index_remove(&buffer->index, entry->line_address);
    free_entry(buffer, (uint32_t)(entry - buffer->entries));
    buffer->count--;
}

unsigned store_buffer_count(const store_buffer *buffer)
{
    return buffer->count;
}

bool store_buffer_full(const store_buffer *buffer)
{
    return buffer->count == buffer->capacity;
}
