/* mshr.c — the miss status holding registers of mshr.h.
 *
 * A fixed array of entries, a stack of the unused ones and a line_index from line address to
 * entry. Waiter arrays grow by doubling and are kept when an entry is released, so once the
 * largest merge count has been seen a miss allocates nothing. */
#include "timing/mshr.h"

#include <stdlib.h>
#include <string.h>

#include "timing/line_index.h"

#define FIRST_WAITER_CAPACITY 4

struct mshr_table {
    mshr_entry *entries;
    uint8_t *extensions;        /* extension_bytes per entry, one block (NULL without) */
    unsigned extension_bytes;
    uint32_t *unused;           /* numbers of the unused entries, a stack of unused_count */
    unsigned unused_count;
    unsigned capacity;
    line_index index;
};

mshr_table *mshr_create(unsigned entries)
{
    mshr_table *table = calloc(1, sizeof *table);
    if (!table)
        return NULL;
    table->capacity = entries;
    /* + 1: a table of no entries still gets non-NULL arrays. */
    table->entries = calloc((size_t)entries + 1, sizeof *table->entries);
    table->unused = calloc((size_t)entries + 1, sizeof *table->unused);
    if (!table->entries || !table->unused || !line_index_init(&table->index, entries)) {
        mshr_destroy(table);
        return NULL;
    }
    /* Stacked so that entry 0 is handed out first. */
    for (unsigned i = 0; i < entries; i++)
        table->unused[i] = entries - 1 - i;
    table->unused_count = entries;
    return table;
}

void mshr_destroy(mshr_table *table)
{
    if (!table)
        return;
    if (table->entries)
        for (unsigned i = 0; i < table->capacity; i++)
            free(table->entries[i].waiters);
    free(table->entries);
    free(table->extensions);
    free(table->unused);
    line_index_free(&table->index);
    free(table);
}

bool mshr_extend(mshr_table *table, unsigned bytes)
{
    if (bytes == 0 || table->capacity == 0)
        return true;
    table->extensions = calloc(table->capacity, bytes);
    if (!table->extensions)
        return false;
    table->extension_bytes = bytes;
    for (unsigned i = 0; i < table->capacity; i++)
        table->entries[i].extension = table->extensions + (size_t)i * bytes;
    return true;
}

mshr_entry *mshr_find(mshr_table *table, uint64_t line_address)
{
    uint32_t number = line_index_find(&table->index, line_address);
    return number == LINE_INDEX_NONE ? NULL : &table->entries[number];
}

mshr_entry *mshr_allocate(mshr_table *table, uint64_t line_address)
{
    if (table->unused_count == 0)
        return NULL;
    uint32_t number = table->unused[--table->unused_count];
    mshr_entry *entry = &table->entries[number];
    entry->line_address = line_address;
    entry->waiter_count = 0;
    entry->flags = 0;
    entry->state = 0;
    entry->opened = 0;
    entry->protocol_word = 0;
    if (table->extension_bytes)
        memset(entry->extension, 0, table->extension_bytes);
    line_index_insert(&table->index, line_address, number);
    return entry;
}

void mshr_add_waiter(mshr_entry *entry, uint32_t token)
{
    if (entry->waiter_count == entry->waiter_capacity) {
        uint32_t capacity = entry->waiter_capacity ? 2 * entry->waiter_capacity : FIRST_WAITER_CAPACITY;
        entry->waiters = realloc(entry->waiters, capacity * sizeof *entry->waiters);
        if (!entry->waiters)
            abort();
        entry->waiter_capacity = capacity;
    }
    entry->waiters[entry->waiter_count++] = token;
}

void mshr_release(mshr_table *table, mshr_entry *entry)
{
    line_index_remove(&table->index, entry->line_address);
    entry->waiter_count = 0;
    table->unused[table->unused_count++] = (uint32_t)(entry - table->entries);
}

bool mshr_full(const mshr_table *table)
{
    return table->unused_count == 0;
}

unsigned mshr_in_use(const mshr_table *table)
{
    return table->capacity - table->unused_count;
}

unsigned mshr_capacity(const mshr_table *table)
{
    return table->capacity;
}
