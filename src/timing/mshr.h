/* mshr.h — miss status holding registers: one entry per outstanding line miss, with the list
 * of requests waiting for it (secondary misses merge into the entry instead of going out).
 * Waiters are opaque 32-bit tokens chosen by the cache controller. Lookup by line address is
 * constant time (the table is hashed), so large L2 MSHR files cost nothing per access. */
#ifndef SYNCSCOPE_TIMING_MSHR_H
#define SYNCSCOPE_TIMING_MSHR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mshr_entry {
    uint64_t line_address;
    uint32_t *waiters;
    uint32_t waiter_count, waiter_capacity;
    uint32_t flags;          /* controller-defined (e.g. "do not allocate the fill") */
    uint8_t state;           /* controller-defined (e.g. the line's transient protocol state) */
    uint64_t opened;         /* controller-defined (e.g. issue time) */
    uint64_t protocol_word;  /* the protocol's extension (e.g. a lease it waits for); 0 when allocated */
    uint8_t *extension;      /* the protocol's own bytes (mshr_extend), zeroed when allocated; NULL
                                in a table without them */
} mshr_entry;

typedef struct mshr_table mshr_table;

mshr_table *mshr_create(unsigned entries);
void mshr_destroy(mshr_table *table);
/* Gives every entry `bytes` bytes of protocol state beyond its protocol word, reached through
 * entry->extension and zeroed at every allocation. 0 bytes: none. False when out of memory. */
bool mshr_extend(mshr_table *table, unsigned bytes);

/* The entry for `line_address`, or NULL. */
mshr_entry *mshr_find(mshr_table *table, uint64_t line_address);

/* A new entry for `line_address` (which must not have one) with no waiters, flags, state and
 * protocol state 0, or NULL when every entry is in use. */
mshr_entry *mshr_allocate(mshr_table *table, uint64_t line_address);

void mshr_add_waiter(mshr_entry *entry, uint32_t token);

/* Frees the entry (its waiters are forgotten). */
void mshr_release(mshr_table *table, mshr_entry *entry);

bool mshr_full(const mshr_table *table);
unsigned mshr_in_use(const mshr_table *table);
unsigned mshr_capacity(const mshr_table *table);

#endif
