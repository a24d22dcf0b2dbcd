/* event_queue.c — binary min-heap of timing events keyed by (time, sequence). */
#include "timing/event_queue.h"

#include <stdlib.h>

void event_queue_init(event_queue *queue)
{
    *queue = (event_queue){0};
}

void event_queue_release(event_queue *queue)
{
    free(queue->heap);
    *queue = (event_queue){0};
}

static bool earlier(const timing_event *a, const timing_event *b)
{
    return a->time < b->time || (a->time == b->time && a->sequence < b->sequence);
}

void event_queue_push(event_queue *queue, sc_time time, uint32_t kind, uint32_t target, uint64_t argument)
{
    if (queue->count == queue->capacity) {
        queue->capacity = queue->capacity ? queue->capacity * 2 : 1024;
        queue->heap = realloc(queue->heap, queue->capacity * sizeof *queue->heap);
    }
    timing_event event = {time, queue->next_sequence++, kind, target, argument};
    uint32_t slot = queue->count++;
    while (slot > 0) {
        uint32_t parent = (slot - 1) / 2;
        if (!earlier(&event, &queue->heap[parent]))
            break;
        queue->heap[slot] = queue->heap[parent];
        slot = parent;
    }
    queue->heap[slot] = event;
    if (queue->count > queue->peak)
        queue->peak = queue->count;
}

bool event_queue_pop(event_queue *queue, timing_event *event)
{
    if (queue->count == 0)
        return false;
    *event = queue->heap[0];
    timing_event last = queue->heap[--queue->count];
    uint32_t slot = 0;
    for (;;) {
        uint32_t child = 2 * slot + 1;
        if (child >= queue->count)
            break;
        if (child + 1 < queue->count && earlier(&queue->heap[child + 1], &queue->heap[child]))
            child++;
        if (!earlier(&queue->heap[child], &last))
            break;
        queue->heap[slot] = queue->heap[child];
        slot = child;
    }
    queue->heap[slot] = last;
    return true;
}
