/* write_cache_level.c — the write cache and S-FIFO of write_cache_level.h: an array of
 * store_buffers (one per set, `ways` entries each) and a sync_fifo. */
#include "protocols/common/write_cache_level.h"

#include <stdlib.h>

#include "protocols/common/sync_fifo.h"

struct write_cache_level {
    store_buffer **sets;
    unsigned set_count, line_bytes;
    sync_fifo *fifo;
    uint64_t enqueued, dequeued;   /* S-FIFO entries ever pushed / popped */
};

write_cache_level *write_cache_level_create(unsigned blocks, unsigned ways, unsigned fifo_entries,
                                            unsigned line_bytes)
{
    if (ways == 0 || blocks == 0 || blocks % ways)
        return NULL;
    write_cache_level *level = calloc(1, sizeof *level);
    if (!level)
        return NULL;
    level->set_count = blocks / ways;
    level->line_bytes = line_bytes;
    level->sets = calloc(level->set_count, sizeof *level->sets);
    level->fifo = sync_fifo_create(fifo_entries);
    bool built = level->sets && level->fifo;
    for (unsigned s = 0; built && s < level->set_count; s++)
        built = (level->sets[s] = store_buffer_create(ways, line_bytes)) != NULL;
    if (!built) {
        write_cache_level_destroy(level);
        return NULL;
    }
    return level;
}

void write_cache_level_destroy(write_cache_level *level)
{
    if (!level)
        return;
    for (unsigned s = 0; level->sets && s < level->set_count; s++)
        store_buffer_destroy(level->sets[s]);
    free(level->sets);
    sync_fifo_destroy(level->fifo);
    free(level);
}

static store_buffer *set_of(const write_cache_level *level, uint64_t line_address)
{
    return level->sets[line_address / level->line_bytes % level->set_count];
}

const store_buffer_entry *write_cache_level_find(write_cache_level *level, uint64_t line_address)
{
    return store_buffer_find(set_of(level, line_address), line_address);
}

/* Hands the entry's block to `evict` and frees it. */
static void evict_entry(write_cache_level *level, store_buffer_entry *entry, write_eviction_cause cause,
                        write_eviction_fn evict, void *context)
{
    evict(context, entry->line_address, entry->data, &entry->mask, cause);
    store_buffer_remove(set_of(level, entry->line_address), entry);
}

/* Dequeues the S-FIFO head; the block it names leaves if present. Returns whether one left. */
static bool dequeue_head(write_cache_level *level, write_eviction_cause cause, write_eviction_fn evict,
                         void *context)
{
    uint64_t line_address = sync_fifo_pop(level->fifo);
    level->dequeued++;
    store_buffer_entry *entry = store_buffer_find(set_of(level, line_address), line_address);
    if (!entry)
        return false;
    evict_entry(level, entry, cause, evict, context);
    return true;
}

/* Whether the S-FIFO is full and its head names a present block: taking any block now evicts that
 * block (`head` receives its line address). */
static bool head_must_leave(write_cache_level *level, uint64_t *head)
{
    if (!sync_fifo_full(level->fifo))
        return false;
    uint64_t line_address = sync_fifo_head(level->fifo);
    *head = line_address;
    return write_cache_level_find(level, line_address) != NULL;
}

unsigned write_cache_level_take_victims(write_cache_level *level, uint64_t line_address, uint64_t victims[2])
{
    unsigned count = 0;
    uint64_t head;
    bool head_leaves = head_must_leave(level, &head);
    if (head_leaves)
        victims[count++] = head;
    store_buffer *set = set_of(level, line_address);
    bool head_frees_a_way = head_leaves && set_of(level, head) == set;
    if (!head_frees_a_way && store_buffer_full(set) && !store_buffer_find(set, line_address))
        victims[count++] = store_buffer_oldest(set)->line_address;
    return count;
}

bool write_cache_level_take(write_cache_level *level, uint64_t line_address, const uint8_t *data,
                            const byte_mask *mask, write_eviction_fn evict, void *context)
{
    bool full = sync_fifo_full(level->fifo);
    if (full)
        dequeue_head(level, WRITE_EVICTION_FIFO_FULL, evict, context);
    store_buffer *set = set_of(level, line_address);
    if (store_buffer_full(set) && !store_buffer_find(set, line_address))
        evict_entry(level, store_buffer_oldest(set), WRITE_EVICTION_REPLACEMENT, evict, context);
    store_buffer_merge(set, line_address, data, mask);
    sync_fifo_push(level->fifo, line_address);
    level->enqueued++;
    return full;
}

uint64_t write_cache_level_enqueued(const write_cache_level *level)
{
    return level->enqueued;
}

uint64_t write_cache_level_dequeued(const write_cache_level *level)
{
    return level->dequeued;
}

bool write_cache_level_head_present(write_cache_level *level, uint64_t *head)
{
    if (!sync_fifo_count(level->fifo))
        return false;
    *head = sync_fifo_head(level->fifo);
    return write_cache_level_find(level, *head) != NULL;
}

bool write_cache_level_dequeue(write_cache_level *level, write_eviction_fn evict, void *context)
{
    return dequeue_head(level, WRITE_EVICTION_MARKER, evict, context);
}

bool write_cache_level_evict(write_cache_level *level, uint64_t line_address, write_eviction_fn evict,
                             void *context)
{
    store_buffer_entry *entry = store_buffer_find(set_of(level, line_address), line_address);
    if (!entry)
        return false;
    evict_entry(level, entry, WRITE_EVICTION_DEMAND, evict, context);
    return true;
}

unsigned write_cache_level_blocks(const write_cache_level *level)
{
    unsigned blocks = 0;
    for (unsigned s = 0; s < level->set_count; s++)
        blocks += store_buffer_count(level->sets[s]);
    return blocks;
}
