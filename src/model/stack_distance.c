/* stack_distance.c — exact LRU stack distances with a Fenwick tree (see stack_distance.h). */
#include "model/stack_distance.h"

#include <stdlib.h>
#include <string.h>

void stack_distance_init(stack_distance *stack)
{
    memset(stack, 0, sizeof *stack);
    stack->line_capacity = 1024;
    stack->lines = calloc(stack->line_capacity, sizeof *stack->lines);
    stack->time_capacity = 4096;
    stack->tree = calloc(stack->time_capacity + 1, sizeof *stack->tree);
}

void stack_distance_release(stack_distance *stack)
{
    free(stack->lines);
    free(stack->tree);
    memset(stack, 0, sizeof *stack);
}

static uint64_t hash_line(uint64_t line)
{
    line ^= line >> 33;
    line *= 0xff51afd7ed558ccdull;
    line ^= line >> 33;
    return line;
}

static stack_line *find_slot(stack_line *lines, uint64_t capacity, uint64_t line)
{
    uint64_t mask = capacity - 1, i = hash_line(line) & mask;
    while (lines[i].line_plus_one && lines[i].line_plus_one != line + 1)
        i = (i + 1) & mask;
    return &lines[i];
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

static void grow_lines(stack_distance *stack)
{
    uint64_t capacity = stack->line_capacity * 2;
    stack_line *lines = calloc(capacity, sizeof *lines);
    for (uint64_t i = 0; i < stack->line_capacity; i++)
        if (stack->lines[i].line_plus_one)
            *find_slot(lines, capacity, stack->lines[i].line_plus_one - 1) = stack->lines[i];
    free(stack->lines);
    stack->lines = lines;
    stack->line_capacity = capacity;
}

/* Doubles the time range and re-marks every line's latest access. */
static void grow_times(stack_distance *stack)
{
    stack->time_capacity *= 2;
    free(stack->tree);
    stack->tree = calloc(stack->time_capacity + 1, sizeof *stack->tree);
    for (uint64_t i = 0; i < stack->line_capacity; i++)
        if (stack->lines[i].line_plus_one)
            tree_add(stack, stack->lines[i].last_time, 1);
}

stack_reuse stack_distance_access(stack_distance *stack, uint64_t line, uint32_t epoch, stack_line **slot_out)
{
    if (stack->now + 1 > stack->time_capacity)
        grow_times(stack);
    if (2 * (stack->line_count + 1) > stack->line_capacity)
        grow_lines(stack);
    uint64_t time = ++stack->now;
    stack_line *slot = find_slot(stack->lines, stack->line_capacity, line);
    stack_reuse reuse = {STACK_DISTANCE_COLD, false};
    if (slot->line_plus_one) {
        reuse.distance = (uint64_t)(tree_prefix(stack, time - 1) - tree_prefix(stack, slot->last_time));
        reuse.crossed = slot->epoch != epoch || slot->invalidated;
        tree_add(stack, slot->last_time, -1);
    } else {
        slot->line_plus_one = line + 1;
        slot->data.last_writer = -1;
        stack->line_count++;
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
    stack_line *slot = find_slot(stack->lines, stack->line_capacity, line);
    if (slot_out)
        *slot_out = slot->line_plus_one ? slot : NULL;
    if (!slot->line_plus_one)
        return STACK_DISTANCE_COLD;
    return (uint64_t)(tree_prefix(stack, stack->now) - tree_prefix(stack, slot->last_time));
}

void stack_distance_invalidate(stack_distance *stack, uint64_t line)
{
    stack_line *slot = find_slot(stack->lines, stack->line_capacity, line);
    if (slot->line_plus_one)
        slot->invalidated = true;
}

uint64_t stack_distance_footprint(const stack_distance *stack)
{
    return stack->line_count;
}
