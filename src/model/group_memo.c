/* group_memo.c — a sweep's memo of solved kernel groups (group_memo.h). Settings are few (one per
 * distinct evaluation setting of a sweep, up to GROUP_MEMO_MAX_SETTINGS): a list searched by hash,
 * the last one found first. Values are entries of one block (the setting's index, the key's hash,
 * the key and the value), found through an open-addressed table of entry indices twice their
 * capacity; a hash of the whole key and setting finds the candidates, memcmp decides. Both grow
 * by doubling up to their maximum. */
#include "model/group_memo.h"

#include <stdlib.h>
#include <string.h>

enum { FIRST_SETTINGS = 4, FIRST_VALUES = 64 };

struct group_memo {
    size_t setting_bytes, entry_bytes;
    unsigned char *settings;
    uint64_t *setting_hashes;
    int setting_count, setting_capacity, last_setting;
    unsigned char *entries;   /* value_capacity entries of entry_bytes: entry_head, key, value */
    int value_count, value_capacity;
    int32_t *slots;           /* entry index or -1; 2 value_capacity of them */
    uint64_t slot_mask;
    int64_t found, stored;
};

typedef struct entry_head {
    uint64_t hash;
    int64_t setting;
} entry_head;

static _Thread_local group_memo *attached;

static size_t round_to_8(size_t bytes)
{
    return (bytes + 7) & ~(size_t)7;
}

/* A hash of `bytes` bytes, eight at a time, and of `seed`. */
static uint64_t hash_bytes(const void *data, size_t bytes, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ 0x9e3779b97f4a7c15u;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        h = (h ^ word) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    if (i < bytes) {
        uint64_t word = 0;
        memcpy(&word, p + i, bytes - i);
        h = (h ^ word) * 0xff51afd7ed558ccdu;
    }
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 32);
}

group_memo *group_memo_create(void)
{
    group_memo *memo = calloc(1, sizeof *memo);
    if (memo)
        memo->last_setting = -1;
    return memo;
}

void group_memo_free(group_memo *memo)
{
    if (!memo)
        return;
    if (attached == memo)
        attached = NULL;
    free(memo->settings);
    free(memo->setting_hashes);
    free(memo->entries);
    free(memo->slots);
    free(memo);
}

static void forget_values(group_memo *memo)
{
    memo->value_count = 0;
    if (memo->slots)
        memset(memo->slots, 0xff, (memo->slot_mask + 1) * sizeof *memo->slots);
}

void group_memo_clear(group_memo *memo)
{
    memo->setting_count = 0;
    memo->last_setting = -1;
    forget_values(memo);
}

group_memo *group_memo_attach(group_memo *memo)
{
    group_memo *before = attached;
    attached = memo;
    return before;
}

group_memo *group_memo_attached(void)
{
    return attached;
}

static int setting_matches(const group_memo *memo, int index, const void *setting, uint64_t hash)
{
    return memo->setting_hashes[index] == hash &&
           memcmp(memo->settings + (size_t)index * memo->setting_bytes, setting, memo->setting_bytes) == 0;
}

int group_memo_setting(group_memo *memo, const void *setting, size_t bytes)
{
    memo->setting_bytes = bytes;
    uint64_t hash = hash_bytes(setting, bytes, 0);
    if (memo->last_setting >= 0 && setting_matches(memo, memo->last_setting, setting, hash))
        return memo->last_setting;
    for (int i = 0; i < memo->setting_count; i++)
        if (setting_matches(memo, i, setting, hash))
            return memo->last_setting = i;
    if (memo->setting_count == memo->setting_capacity) {
        if (memo->setting_capacity < GROUP_MEMO_MAX_SETTINGS) {
            int capacity = memo->setting_capacity ? 2 * memo->setting_capacity : FIRST_SETTINGS;
            unsigned char *settings = realloc(memo->settings, (size_t)capacity * bytes);
            uint64_t *hashes = settings ? realloc(memo->setting_hashes, (size_t)capacity * sizeof *hashes) : NULL;
            if (settings)
                memo->settings = settings;
            if (hashes)
                memo->setting_hashes = hashes, memo->setting_capacity = capacity;
        }
        if (memo->setting_count == memo->setting_capacity)
            group_memo_clear(memo);
        if (memo->setting_capacity == 0)
            return -1;
    }
    int index = memo->setting_count++;
    memcpy(memo->settings + (size_t)index * bytes, setting, bytes);
    memo->setting_hashes[index] = hash;
    return memo->last_setting = index;
}

static entry_head *entry_at(const group_memo *memo, int index)
{
    return (entry_head *)(memo->entries + (size_t)index * memo->entry_bytes);
}

static unsigned char *key_of(entry_head *entry)
{
    return (unsigned char *)(entry + 1);
}

void *group_memo_find(group_memo *memo, int setting, const void *key, size_t bytes)
{
    if (setting < 0 || !memo->slots)
        return NULL;
    uint64_t hash = hash_bytes(key, bytes, (uint64_t)setting);
    for (uint64_t slot = hash & memo->slot_mask;; slot = (slot + 1) & memo->slot_mask) {
        int32_t index = memo->slots[slot];
        if (index < 0)
            return NULL;
        entry_head *entry = entry_at(memo, index);
        if (entry->hash == hash && entry->setting == setting && memcmp(key_of(entry), key, bytes) == 0) {
            memo->found++;
            return key_of(entry) + round_to_8(bytes);
        }
    }
}

static void place(group_memo *memo, int index)
{
    uint64_t slot = entry_at(memo, index)->hash & memo->slot_mask;
    while (memo->slots[slot] >= 0)
        slot = (slot + 1) & memo->slot_mask;
    memo->slots[slot] = index;
}

/* Doubles the values' capacity (or sets the first); false when at the maximum or out of memory. */
static int grow_values(group_memo *memo)
{
    if (memo->value_capacity >= GROUP_MEMO_MAX_VALUES)
        return 0;
    int capacity = memo->value_capacity ? 2 * memo->value_capacity : FIRST_VALUES;
    unsigned char *entries = realloc(memo->entries, (size_t)capacity * memo->entry_bytes);
    if (!entries)
        return 0;
    memo->entries = entries;
    int32_t *slots = realloc(memo->slots, 2 * (size_t)capacity * sizeof *slots);
    if (!slots)
        return 0;
    memo->slots = slots;
    memo->value_capacity = capacity;
    memo->slot_mask = 2 * (uint64_t)capacity - 1;
    memset(memo->slots, 0xff, 2 * (size_t)capacity * sizeof *slots);
    for (int i = 0; i < memo->value_count; i++)
        place(memo, i);
    return 1;
}

void *group_memo_store(group_memo *memo, int setting, const void *key, size_t key_bytes, size_t value_bytes)
{
    if (setting < 0)
        return NULL;
    memo->entry_bytes = sizeof(entry_head) + round_to_8(key_bytes) + round_to_8(value_bytes);
    if (memo->value_count == memo->value_capacity && !grow_values(memo)) {
        if (memo->value_capacity == 0)
            return NULL;
        forget_values(memo);
    }
    int index = memo->value_count++;
    entry_head *entry = entry_at(memo, index);
    entry->hash = hash_bytes(key, key_bytes, (uint64_t)setting);
    entry->setting = setting;
    memcpy(key_of(entry), key, key_bytes);
    place(memo, index);
    memo->stored++;
    return key_of(entry) + round_to_8(key_bytes);
}

int64_t group_memo_found(const group_memo *memo)
{
    return memo->found;
}

int64_t group_memo_stored(const group_memo *memo)
{
    return memo->stored;
}
