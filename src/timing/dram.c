/* dram.c — the DRAM model's public face (see dram.h): address mapping, the conversion between
 * picoseconds and DRAM cycles, and the time order of events across channels. Each channel's
 * banks, scheduler and bus live in dram_channel.c.
 *
 * Address mapping. channel = (address / interleave_bytes) % channels. Removing the channel
 * digit from the address leaves the *channel-local address*:
 *     (address / (interleave_bytes * channels)) * interleave_bytes + address % interleave_bytes
 * so each channel sees its own chunks packed back to back. Its rows of row_bytes go round-robin
 * over the banks: local row = local address / row_bytes, bank = local row % banks_per_channel,
 * row within the bank = local row / banks_per_channel.
 *
 * Time. A request enqueued at `now` may be scheduled from the first DRAM clock edge at or after
 * `now`; commands issue on edges; a request completes pipeline_latency after the last beat of
 * its data leaves the bus. A line takes ceil(line_bytes / bus_bytes) cycles on the bus. Callers
 * pass nondecreasing times to dram_enqueue and dram_advance, as a discrete-event engine does.
 *
 * Events. Every channel's next event (its first transfer to complete, else its planned command)
 * is kept in a binary min-heap over channels, ties broken by channel number, so the next event
 * is known in O(1) and dram_advance handles each one in O(log channels) plus a scan of the
 * channel's banks that have requests. At equal times a channel completes a request before it
 * issues a command. `done` may enqueue new requests.
 *
 * dram_create returns NULL when a count, a size or the clock period is zero.
 */
#include "timing/dram.h"

#include <assert.h>
#include <stdlib.h>

#include "timing/dram_channel.h"

/* A channel's next event: its first completion or its planned command, SC_TIME_NEVER if idle. */
typedef struct channel_event {
    sc_time time;
    unsigned channel;
} channel_event;

struct dram {
    dram_config config;
    dram_timing timing;
    dram_channel *channels;
    dram_stats stats;
    channel_event *heap;        /* every channel's next event, earliest first */
    unsigned *heap_slot;        /* per channel: its index in `heap` */
};

static bool is_valid_config(const dram_config *config)
{
    return config->channels && config->banks_per_channel && config->row_bytes && config->line_bytes &&
           config->interleave_bytes && config->bus_bytes && config->queue_entries && config->clock.period &&
           (config->t_rfc == 0 || config->t_refi > config->t_rfc);
}

static dram_timing timing_in_cycles(const dram_config *config)
{
    uint64_t burst = (config->line_bytes + config->bus_bytes - 1) / config->bus_bytes;
    return (dram_timing){
        .cl = config->t_cl, .rcd = config->t_rcd, .rp = config->t_rp, .ras = config->t_ras,
        .rc = config->t_rc, .rrd = config->t_rrd, .wl = config->t_wl, .wr = config->t_wr,
        .cdlr = config->t_cdlr, .faw = config->t_faw, .rtw = config->t_rtw,
        .rfc = config->t_rfc, .refi = config->t_rfc ? config->t_refi : 0, .burst = burst, .line_bytes = config->line_bytes,
        .period = config->clock.period, .frfcfs = config->frfcfs,
        .bank_count = config->banks_per_channel,
    };
}

dram *dram_create(const dram_config *config)
{
    if (!is_valid_config(config))
        return NULL;
    dram *memory = calloc(1, sizeof *memory);
    memory->config = *config;
    memory->timing = timing_in_cycles(config);
    memory->channels = calloc(config->channels, sizeof *memory->channels);
    memory->heap = calloc(config->channels, sizeof *memory->heap);
    memory->heap_slot = calloc(config->channels, sizeof *memory->heap_slot);
    for (unsigned c = 0; c < config->channels; c++) {
        dram_channel_init(&memory->channels[c], &memory->timing, config->queue_entries, config->banks_per_channel);
        memory->heap[c] = (channel_event){SC_TIME_NEVER, c};
        memory->heap_slot[c] = c;
    }
    return memory;
}

void dram_destroy(dram *memory)
{
    if (!memory)
        return;
    for (unsigned c = 0; c < memory->config.channels; c++)
        dram_channel_release(&memory->channels[c]);
    free(memory->channels);
    free(memory->heap);
    free(memory->heap_slot);
    free(memory);
}

unsigned dram_channel_of(const dram *memory, uint64_t address)
{
    return dram_location_of(&memory->config, address).channel;
}

dram_location dram_location_of(const dram_config *config, uint64_t address)
{
    uint64_t chunk_bytes = config->interleave_bytes;
    uint64_t local_address = address / (chunk_bytes * config->channels) * chunk_bytes + address % chunk_bytes;
    uint64_t local_row = local_address / config->row_bytes;
    return (dram_location){
        .channel = (unsigned)(address / chunk_bytes % config->channels),
        .bank = (unsigned)(local_row % config->banks_per_channel),
        .row = local_row / config->banks_per_channel,
    };
}

bool dram_can_accept(const dram *memory, uint64_t address)
{
    const dram_channel *channel = &memory->channels[dram_channel_of(memory, address)];
    return channel->queued < channel->capacity;
}

/* --- The heap of channels by next event ------------------------------------------------------ */

static bool happens_before(channel_event a, channel_event b)
{
    return a.time < b.time || (a.time == b.time && a.channel < b.channel);
}

static void place_in_heap(dram *memory, unsigned slot, channel_event event)
{
    memory->heap[slot] = event;
    memory->heap_slot[event.channel] = slot;
}

/* Moves `event` from `slot` towards the root while it is earlier than its parent. */
static unsigned sift_up(dram *memory, unsigned slot, channel_event event)
{
    while (slot > 0 && happens_before(event, memory->heap[(slot - 1) / 2])) {
        place_in_heap(memory, slot, memory->heap[(slot - 1) / 2]);
        slot = (slot - 1) / 2;
    }
    return slot;
}

/* Moves `event` from `slot` towards the leaves while a child is earlier. */
static unsigned sift_down(dram *memory, unsigned slot, channel_event event)
{
    unsigned count = memory->config.channels;
    for (;;) {
        unsigned child = 2 * slot + 1;
        if (child >= count)
            return slot;
        if (child + 1 < count && happens_before(memory->heap[child + 1], memory->heap[child]))
            child++;
        if (!happens_before(memory->heap[child], event))
            return slot;
        place_in_heap(memory, slot, memory->heap[child]);
        slot = child;
    }
}

static sc_time completion_time(const dram *memory, const dram_transfer *transfer)
{
    return transfer->data_end * memory->timing.period + memory->config.pipeline_latency;
}

static sc_time channel_event_time(const dram *memory, const dram_channel *channel)
{
    sc_time command = channel->planned_cycle == DRAM_NEVER_CYCLE
                          ? SC_TIME_NEVER
                          : channel->planned_cycle * memory->timing.period;
    const dram_transfer *first = dram_channel_first_transfer(channel);
    sc_time completion = first ? completion_time(memory, first) : SC_TIME_NEVER;
    return completion < command ? completion : command;
}

/* Re-files channel `c` in the heap after its state changed. */
static void refresh_channel(dram *memory, unsigned c)
{
    channel_event event = {channel_event_time(memory, &memory->channels[c]), c};
    if (event.time == memory->heap[memory->heap_slot[c]].time)
        return;
    unsigned slot = sift_up(memory, memory->heap_slot[c], event);
    place_in_heap(memory, sift_down(memory, slot, event), event);
}

/* --- Requests and events ------------------------------------------------------------------------ */

static void sample_queue(dram_stats *stats, unsigned occupancy)
{
    stats->queue_samples++;
    stats->queue_occupancy_sum += occupancy;
    if (occupancy > stats->queue_peak)
        stats->queue_peak = occupancy;
}

void dram_enqueue(dram *memory, const dram_request *request, sc_time now)
{
    dram_location at = dram_location_of(&memory->config, request->address);
    unsigned c = at.channel;
    dram_channel *channel = &memory->channels[c];
    assert(channel->queued < channel->capacity);
    dram_entry entry = {
        .request = *request,
        .arrival = sc_clock_cycles(memory->config.clock, sc_clock_edge_at_or_after(memory->config.clock, now)),
        .row = at.row,
        .bank = at.bank,
    };
    dram_channel_add(channel, &memory->timing, &entry, &memory->stats);
    sample_queue(&memory->stats, channel->queued);
    refresh_channel(memory, c);
}

sc_time dram_next_event(const dram *memory)
{
    return memory->heap[0].time;
}

void dram_advance(dram *memory, sc_time now, dram_done_fn done, void *context)
{
    for (;;) {
        unsigned c = memory->heap[0].channel;
        sc_time when = memory->heap[0].time;
        if (when == SC_TIME_NEVER || when > now)
            return;
        dram_channel *channel = &memory->channels[c];
        const dram_transfer *first = dram_channel_first_transfer(channel);
        if (first && completion_time(memory, first) == when) {
            dram_request request = dram_channel_take_first_transfer(channel).request;
            refresh_channel(memory, c);
            done(context, &request, when);   /* may enqueue: the state is already consistent */
        } else {
            dram_channel_issue(channel, &memory->timing, &memory->stats);
            refresh_channel(memory, c);
        }
    }
}

const dram_stats *dram_statistics(const dram *memory)
{
    return &memory->stats;
}
