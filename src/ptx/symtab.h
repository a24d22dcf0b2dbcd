/* symtab.h — the parser's bookkeeping: a bump arena that owns the module's strings and small
 * arrays, and a scoped name table (hash chains over a stack of entries) used for registers,
 * variables, labels and functions. Leaving a scope pops the entries added inside it, so an
 * inner declaration shadows an outer one and disappears at the closing brace. */
#ifndef SYNCSCOPE_PTX_SYMTAB_H
#define SYNCSCOPE_PTX_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct ptx_arena ptx_arena;

ptx_arena *ptx_arena_new(void);
void ptx_arena_free(ptx_arena *arena);
/* Zeroed, 8-byte aligned memory that lives as long as the arena; NULL when out of memory. */
void *ptx_arena_alloc(ptx_arena *arena, size_t size);
char *ptx_arena_strndup(ptx_arena *arena, const char *text, size_t length);

typedef struct ptx_name_entry {
    const char *name;   /* not owned: points into the source text or the arena */
    int length;
    int32_t value;
    int32_t next;       /* next entry in the same hash chain, or -1 */
} ptx_name_entry;

typedef struct ptx_name_table {
    ptx_name_entry *entries;   /* a stack: newest last */
    int32_t count, capacity;
    int32_t *buckets;          /* newest entry of each chain, or -1 */
    int32_t bucket_count;      /* a power of two */
} ptx_name_table;

void ptx_names_init(ptx_name_table *table);
void ptx_names_free(ptx_name_table *table);
/* Adds a name (shadowing older ones); -1 when out of memory. */
int ptx_names_add(ptx_name_table *table, const char *name, int length, int32_t value);
/* The value of the newest entry with this name, or -1. */
int32_t ptx_names_find(const ptx_name_table *table, const char *name, int length);
/* The value of the newest entry with this name added at or after stack position `mark`. */
int32_t ptx_names_find_since(const ptx_name_table *table, const char *name, int length,
                             int32_t mark);
/* Scopes: remember table->count on entry, pop back to it on exit. */
void ptx_names_pop_to(ptx_name_table *table, int32_t mark);

#endif
