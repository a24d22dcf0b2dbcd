/* event_queue.h — the timing engine's pending events: a binary min-heap ordered by time, then
 * by insertion order, so events at the same picosecond run in the order they were scheduled
 * and every run is deterministic. An event is a kind and two integers the handler interprets. */
#ifndef SYNCSCOPE_TIMING_EVENT_QUEUE_H
#define SYNCSCOPE_TIMING_EVENT_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/clock.h"

typedef struct timing_event {
    sc_time time;
    uint64_t sequence;
    uint32_t kind;
    uint32_t target;
    uint64_t argument;
} timing_event;

typedef struct event_queue {
    timing_event *heap;
    uint32_t count, capacity;
    uint64_t next_sequence;
    uint64_t peak;
} event_queue;

void event_queue_init(event_queue *queue);
void event_queue_release(event_queue *queue);

void event_queue_push(event_queue *queue, sc_time time, uint32_t kind, uint32_t target, uint64_t argument);

/* Time of the earliest event, SC_TIME_NEVER when empty. */
static inline sc_time event_queue_next_time(const event_queue *queue)
{
    return queue->count ? queue->heap[0].time : SC_TIME_NEVER;
}

/* Removes the earliest event into *event; false when empty. */
bool event_queue_pop(event_queue *queue, timing_event *event);

#endif
