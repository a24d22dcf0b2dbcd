/* symtab.c — bump arena and scoped hash name table for the PTX parser (see symtab.h). */
#include "ptx/symtab.h"

#include <stdlib.h>
#include <string.h>

enum { ARENA_CHUNK = 64 * 1024 };

typedef struct arena_chunk {
    struct arena_chunk *previous;
    size_t used, size;
    max_align_t data[];
} arena_chunk;

struct ptx_arena {
    arena_chunk *current;
};

ptx_arena *ptx_arena_new(void)
{
    return calloc(1, sizeof(ptx_arena));
}

void ptx_arena_free(ptx_arena *arena)
{
    if (!arena)
        return;
    arena_chunk *chunk = arena->current;
    while (chunk) {
        arena_chunk *previous = chunk->previous;
        free(chunk);
        chunk = previous;
    }
    free(arena);
}

void *ptx_arena_alloc(ptx_arena *arena, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    arena_chunk *chunk = arena->current;
    if (!chunk || chunk->size - chunk->used < size) {
        size_t chunk_size = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        chunk = malloc(sizeof *chunk + chunk_size);
        if (!chunk)
            return NULL;
        chunk->previous = arena->current;
        chunk->used = 0;
        chunk->size = chunk_size;
        arena->current = chunk;
    }
    void *memory = (char *)chunk->data + chunk->used;
    chunk->used += size;
    memset(memory, 0, size);
    return memory;
}

char *ptx_arena_strndup(ptx_arena *arena, const char *text, size_t length)
{
    char *copy = ptx_arena_alloc(arena, length + 1);
    if (copy)
        memcpy(copy, text, length);
    return copy;
}

static uint32_t hash_name(const char *name, int length)
{
    uint32_t hash = 2166136261u;
    for (int i = 0; i < length; i++)
        hash = (hash ^ (unsigned char)name[i]) * 16777619u;
    return hash;
}

void ptx_names_init(ptx_name_table *table)
{
    *table = (ptx_name_table){0};
}

void ptx_names_free(ptx_name_table *table)
{
    free(table->entries);
    free(table->buckets);
    ptx_names_init(table);
}

/* Rebuilds the chains for a bigger bucket array; entries are relinked oldest first so the
 * newest entry of each name stays at the head of its chain. */
static int grow_buckets(ptx_name_table *table)
{
    int32_t bucket_count = table->bucket_count ? table->bucket_count * 2 : 256;
    int32_t *buckets = malloc((size_t)bucket_count * sizeof *buckets);
    if (!buckets)
        return -1;
    for (int32_t i = 0; i < bucket_count; i++)
        buckets[i] = -1;
    for (int32_t i = 0; i < table->count; i++) {
        ptx_name_entry *entry = &table->entries[i];
        uint32_t slot = hash_name(entry->name, entry->length) & (uint32_t)(bucket_count - 1);
        entry->next = buckets[slot];
        buckets[slot] = i;
    }
    free(table->buckets);
    table->buckets = buckets;
    table->bucket_count = bucket_count;
    return 0;
}

int ptx_names_add(ptx_name_table *table, const char *name, int length, int32_t value)
{
    if (table->count == table->capacity) {
        int32_t capacity = table->capacity ? table->capacity * 2 : 256;
        ptx_name_entry *entries = realloc(table->entries, (size_t)capacity * sizeof *entries);
        if (!entries)
            return -1;
        table->entries = entries;
        table->capacity = capacity;
    }
    if (table->count >= table->bucket_count && grow_buckets(table) < 0)
        return -1;
    uint32_t slot = hash_name(name, length) & (uint32_t)(table->bucket_count - 1);
    table->entries[table->count] = (ptx_name_entry){name, length, value, table->buckets[slot]};
    table->buckets[slot] = table->count++;
    return 0;
}

int32_t ptx_names_find_since(const ptx_name_table *table, const char *name, int length,
                             int32_t mark)
{
    if (!table->bucket_count)
        return -1;
    uint32_t slot = hash_name(name, length) & (uint32_t)(table->bucket_count - 1);
    for (int32_t i = table->buckets[slot]; i >= mark; i = table->entries[i].next) {
        const ptx_name_entry *entry = &table->entries[i];
        if (entry->length == length && memcmp(entry->name, name, (size_t)length) == 0)
            return entry->value;
    }
    return -1;
}

int32_t ptx_names_find(const ptx_name_table *table, const char *name, int length)
{
    return ptx_names_find_since(table, name, length, 0);
}

void ptx_names_pop_to(ptx_name_table *table, int32_t mark)
{
    while (table->count > mark) {
        const ptx_name_entry *entry = &table->entries[--table->count];
        uint32_t slot = hash_name(entry->name, entry->length) & (uint32_t)(table->bucket_count - 1);
        table->buckets[slot] = entry->next;
    }
}
