/* stack_distance.c — exact LRU stack distances with a Fenwick tree (see stack_distance.h). */
#include "model/stack_distance.h"

#include <stdlib.h>
#include <string.h>

void stack_distance_init(stack_distance *stack)
{
    memset(stack, 0, sizeof *stack);
    stack->entry_capacity = 512;
    stack->lines = malloc(stack->entry_capacity * sizeof *stack->lines);
    stack->index_capacity = 1024;
    stack->index = calloc(stack->index_capacity, sizeof *stack->index);
    stack->time_capacity = 4096;
    stack->tree = calloc(stack->time_capacity + 1, sizeof *stack->tree);
}

void stack_distance_release(stack_distance *stack)
{
    free(stack->lines);
    free(stack->index);
    free(stack->tree);
    memset(stack, 0, sizeof *stack);
}

/* A line's home slot: runs of 16 consecutive lines keep consecutive slots (a kernel streaming
 * through memory finds its next line's slot in the cache line it just read), and the runs are
 * spread by a hash of the rest of the line number. */
static uint64_t hash_line(uint64_t line)
{
    uint64_t run = line >> 4;
    run ^= run >> 33;
    run *= 0xff51afd7ed558ccdull;
    run ^= run >> 33;
    return run << 4 | (line & 15);
}

static stack_index_slot *find_slot(stack_index_slot *index, uint64_t capacity, uint64_t line)
{
    uint64_t mask = capacity - 1, i = hash_line(line) & mask;
    while (index[i].line_plus_one && index[i].line_plus_one != line + 1)
        i = (i + 1) & mask;
    return &index[i];
}

/* The entry of `line`, or NULL if it was never accessed. */
static stack_line *find_line(const stack_distance *stack, uint64_t line)
{
    const stack_index_slot *slot = find_slot(stack->index, stack->index_capacity, line);
    return slot->line_plus_one ? &stack->lines[slot->entry] : NULL;
}

static void tree_add(stack_distance *stack, uint64_t time, int32_t delta)
{
    for (; time <= stack->time_capacity; time += time & (~time + 1))
        stack->tree[time] += delta;
}

static int64_t tree_prefix(const stack_distance *stack, uint64_t time)
{
    int64_t sum = 0;
    for (; time > 0; time -= time & (~time + 1))
        sum += stack->tree[time];
    return sum;
}

/* The lines whose latest access came after `time`: every line has one mark, at or before now. */
static uint64_t marks_after(const stack_distance *stack, uint64_t time)
{
    return stack->line_count - (uint64_t)tree_prefix(stack, time);
}

static void grow_index(stack_distance *stack)
{
    uint64_t capacity = stack->index_capacity * 2;
    stack_index_slot *index = calloc(capacity, sizeof *index);
    for (uint64_t i = 0; i < stack->index_capacity; i++)
        if (stack->index[i].line_plus_one)
            *find_slot(index, capacity, stack->index[i].line_plus_one - 1) = stack->index[i];
    free(stack->index);
    stack->index = index;
    stack->index_capacity = capacity;
}

/* Doubles the time range and re-marks every line's latest access. */
static void grow_times(stack_distance *stack)
{
    stack->time_capacity *= 2;
    free(stack->tree);
    stack->tree = calloc(stack->time_capacity + 1, sizeof *stack->tree);
    for (uint64_t i = 0; i < stack->line_count; i++)
        tree_add(stack, stack->lines[i].last_time, 1);
}

/* Renumbers the lines' latest accesses 1..line_count in their order, so the times in between
 * (accesses that later ones superseded) are free again: distances count marks, which keep their
 * order. The tree then marks 1..line_count, built in one pass. */
static void compact_times(stack_distance *stack)
{
    uint32_t *owner = calloc(stack->now + 1, sizeof *owner);   /* 1 + the entry whose mark is at a time */
    for (uint64_t i = 0; i < stack->line_count; i++)
        owner[stack->lines[i].last_time] = (uint32_t)(i + 1);
    uint64_t time = 0;
    for (uint64_t t = 1; t <= stack->now; t++)
        if (owner[t])
            stack->lines[owner[t] - 1].last_time = ++time;
    free(owner);
    stack->now = time;
    memset(stack->tree, 0, (stack->time_capacity + 1) * sizeof *stack->tree);
    for (uint64_t t = 1; t <= stack->time_capacity; t++) {
        stack->tree[t] += t <= time;
        uint64_t parent = t + (t & (~t + 1));
        if (parent <= stack->time_capacity)
            stack->tree[parent] += stack->tree[t];
    }
}

/* Makes room for one more access time: compacts when at most half the times hold marks (at least
 * half the range is then free), else doubles the range. */
static void make_time(stack_distance *stack)
{
    if (2 * stack->line_count <= stack->time_capacity && stack->line_count < UINT32_MAX)
        compact_times(stack);
    else
        grow_times(stack);
}

stack_reuse stack_distance_access(stack_distance *stack, uint64_t line, uint32_t epoch, stack_line **slot_out)
{
    if (stack->now + 1 > stack->time_capacity)
        make_time(stack);
    if (2 * (stack->line_count + 1) > stack->index_capacity)
        grow_index(stack);
    uint64_t time = ++stack->now;
    stack_index_slot *found = find_slot(stack->index, stack->index_capacity, line);
    stack_reuse reuse = {STACK_DISTANCE_COLD, false};
    stack_line *slot;
    if (found->line_plus_one) {
        slot = &stack->lines[found->entry];
        reuse.distance = marks_after(stack, slot->last_time);
        reuse.crossed = slot->epoch != epoch || slot->invalidated;
        tree_add(stack, slot->last_time, -1);
    } else {
        if (stack->line_count == stack->entry_capacity) {
            stack->entry_capacity *= 2;
            stack->lines = realloc(stack->lines, stack->entry_capacity * sizeof *stack->lines);
        }
        *found = (stack_index_slot){line + 1, stack->line_count};
        slot = &stack->lines[stack->line_count++];
        *slot = (stack_line){.line_plus_one = line + 1, .data.last_writer = -1};
    }
    slot->last_time = time;
    slot->epoch = epoch;
    slot->invalidated = false;
    tree_add(stack, time, 1);
    if (slot_out)
        *slot_out = slot;
    return reuse;
}

uint64_t stack_distance_peek(stack_distance *stack, uint64_t line, stack_line **slot_out)
{
    stack_line *slot = find_line(stack, line);
    if (slot_out)
        *slot_out = slot;
    if (!slot)
        return STACK_DISTANCE_COLD;
    return marks_after(stack, slot->last_time);
}

void stack_distance_invalidate(stack_distance *stack, uint64_t line)
{
    stack_line *slot = find_line(stack, line);
    if (slot)
        slot->invalidated = true;
}

uint64_t stack_distance_footprint(const stack_distance *stack)
{
    return stack->line_count;
}
