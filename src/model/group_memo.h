/* group_memo.h — a sweep's memo of solved kernel groups (model_core.c: solve_group_once). Points of
 * a sweep that differ only in what a group's solve does not read give many groups the same solve:
 * the memo keeps them, each found again by exactly the inputs it was solved from, compared byte
 * for byte. It holds settings (what an evaluation's groups share: model_core.c's solve_setting)
 * and, in each setting, values keyed by a group's own inputs (model_core.c's group_key). It grows
 * to GROUP_MEMO_MAX_SETTINGS settings and GROUP_MEMO_MAX_VALUES values; when the values are full it
 * forgets them (not the settings), when the settings are full it forgets everything, and goes on
 * (a forgotten solve is solved again: the memo never changes a prediction, only its cost).
 *
 * A memo is used by the evaluations of the thread it is attached to (group_memo_attach); a
 * mechanism's evaluate function takes no memo, so a caller that evaluates a sweep attaches one
 * around its evaluations. A key holds pointers to a profile's kernels: whoever frees a profile
 * whose groups a memo may hold clears the memo first (a new profile could take the same address). */
#ifndef SYNCSCOPE_MODEL_GROUP_MEMO_H
#define SYNCSCOPE_MODEL_GROUP_MEMO_H

#include <stddef.h>
#include <stdint.h>

enum { GROUP_MEMO_MAX_SETTINGS = 64, GROUP_MEMO_MAX_VALUES = 4096 };

typedef struct group_memo group_memo;

/* An empty memo (its tables are allocated as it fills); NULL when out of memory. */
group_memo *group_memo_create(void);
void group_memo_free(group_memo *memo);
/* Forgets every setting and value (keeps the memory). */
void group_memo_clear(group_memo *memo);

/* Attaches `memo` (NULL: none) to the calling thread's evaluations; returns the one attached before. */
group_memo *group_memo_attach(group_memo *memo);
group_memo *group_memo_attached(void);

/* The index of the setting whose `bytes` bytes are those of `setting`: found, or added (after
 * forgetting everything when the settings are full). Every setting of a memo has the same size. */
int group_memo_setting(group_memo *memo, const void *setting, size_t bytes);

/* The value stored in `setting` for the key's `bytes` bytes, or NULL. Every key of a memo has
 * the same size; a value stays where it is until the next group_memo_store or clear. */
void *group_memo_find(group_memo *memo, int setting, const void *key, size_t bytes);

/* Room for a value of `value_bytes` bytes (not cleared: the caller fills it) stored in `setting`
 * for the key (one group_memo_find did not find), after forgetting the values when they are full;
 * NULL when out of memory. */
void *group_memo_store(group_memo *memo, int setting, const void *key, size_t key_bytes, size_t value_bytes);

/* Look-ups that found a value, and values stored, since the memo was created. */
int64_t group_memo_found(const group_memo *memo);
int64_t group_memo_stored(const group_memo *memo);

#endif
