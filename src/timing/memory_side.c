/* memory_side.c — everything below the GPU L2 banks: the memory-side L3 (l3.*), the CPU cluster
 * of an APU as a probe target (cpu_cluster.h, cpu.*), and the DRAM channels with their backlog
 * and write queue.
 * The L2 banks reach it through two calls only: memory_backing_read (an L2 miss, including a
 * directory's home read that missed the L2), answered later by l2_fill, and memory_backing_write
 * (a dirty L2 victim, a write-through L2's write, a home write that found no L2 way, a wL3
 * eviction), which puts the bytes into the device image and is posted.
 *
 * Values: the L3 and the CPU cluster keep tags only. The device's image holds every byte written
 * below the L2 (memory_backing_write copies the written bytes in as the write leaves the L2; a
 * host write copies into the image before it tells the memory system), and the memory side is the
 * single path to it, so no copy below the L2 can be stale: tags decide only who answers, when,
 * and what traffic that causes.
 *
 * A GPU read reaching memory, step by step:
 *   1. It takes its L3 bank's lookup slot (one lookup per bank per GPU cycle).
 *   2. The CPU cluster is probed: under a null directory (directory.entries 0) every request is,
 *      and the answer waits for the CPU's reply; under a CPU-GPU directory only requests for
 *      lines the CPU holds dirty are. A dirty CPU line answers after cpu.probe_latency (GSI
 *      source REMOTE); the CPU keeps owning it (cpu_cluster.h), so memory is not written and
 *      the L3 does not allocate it. This is the "pulling data from the CPU caches" that QR §5.1
 *      finds dominating backprop, kmeans and histogram. (The alternative, cleaning the CPU
 *      line, must write its data to memory: under a non-writable L3 that is one DRAM write per
 *      pulled line, which swamped the GPU's own DRAM writes, 12,957 -> 150,443 for wt over the
 *      qr-apu small suite, and so the write-combining comparison of QR Figure 7.)
 *   3. Otherwise an L3 hit answers after max(l3.latency, the probe's latency) (source L3); a miss
 *      sends the read to DRAM at that time, and the DRAM's answer fills the L3 clean (evicting
 *      an LRU victim, written back if dirty) on its way to the L2 (source DRAM).
 *
 * A GPU write reaching memory:
 *   W1. The CPU cluster drops its copy (a probe under a null directory; under a directory only
 *       when the CPU holds the line).
 *   W2. Where the data goes depends on memory_system.l3_writable (set by the protocol's build hook):
 *       - writable (the L3 is write-back): the L3 line becomes dirty, allocated on a miss;
 *         only dirty L3 victims reach DRAM (l3_writebacks): how QuickRelease's RFO system filters
 *         DRAM writes (QR §4.2: the L3 is "writeable only in the RFO system").
 *       - not writable (the default: the L2 is the point of coherence): write-through without
 *         allocation. The write goes to DRAM and a present L3 copy is updated in place and stays
 *         clean, so the L3 only ever holds clean lines, is filled by reads only and evicts
 *         silently. This is the QR digest's U15 option "update-in-place as clean" rather than its
 *         default (drop the copy): QR's wL2 evictions invalidate the rL2, so dropping the L3 copy
 *         too sent every re-read of GPU-written data to DRAM (sort on qr-apu: QR 2.2x WT), which
 *         contradicts the paper's "sort, srad, spmv, nw: all non-RFO systems perform similarly".
 *   Writes take their bank's lookup slot too; the DRAM write leaves when the lookup starts.
 *
 * The DRAM latency preset (dram.latency) stays the end-to-end load-to-use latency of an
 * unloaded read: timing_config.c takes the memory side's lookup time out of the DRAM pipeline.
 *
 * Host phases (memory_side_host_access) are untimed: a host write leaves the lines dirty in the
 * CPU cluster and drops the L3's copies (the CPU now holds the newest data); a host read leaves
 * them at least clean in the cluster. The host's own traffic does not allocate in the L3, and
 * dirty CPU lines the host phase evicts are counted (cpu_writebacks) but not sent to DRAM: DRAM
 * statistics count the GPU's timed traffic only. */
#include "timing/memory_internal.h"

#include <stdlib.h>
#include <string.h>

static sc_time gpu_cycles(const memory_system *memory, unsigned count)
{
    return sc_clock_span(memory->config.gpu_clock, count);
}

/* ---- DRAM ---- */

static void schedule_dram(memory_system *memory)
{
    sc_time next = dram_next_event(memory->memory);
    if (next < memory->dram_wake) {
        memory->dram_wake = next;
        event_queue_push(memory->events, next, MEMORY_EVENT_DRAM, 0, 0);
    }
}

/* The memory controller's write queue (dram.write_queue per channel): writes that found their
 * channel's request queue full wait in the backlog, and a writer that can wait (the L2 writing
 * through or evicting a dirty line, a protocol's write cache) is held back while its channel has
 * that many. A writable L3 takes every write itself, so it never holds a writer back. Reads wait in
 * the backlog unbounded (the MSHRs above bound them), as do the writes no one can hold back (a
 * writable L3's victims, a directory's home write without an L2 way). Requests of
 * one channel enter it in arrival order; channels are independent, so a busy channel never holds
 * back another channel's writers. */
bool memory_accepts_write(const memory_system *memory, uint64_t line_address)
{
    if (memory->l3 && memory->l3_writable)
        return true;   /* the write-back L3 takes the write; its own victims are posted */
    unsigned channel = dram_channel_of(memory->memory, line_address);
    return memory->backlog_writes[channel] < memory->config.dram_write_queue_entries;
}

/* Queues a DRAM request, in the backlog when its channel's request queue is full. */
static void send_to_dram(memory_system *memory, uint64_t line_address, bool is_write, sc_time now)
{
    memory->stats.dram_write_requests += is_write;
    unsigned channel = dram_channel_of(memory->memory, line_address);
    if (memory->backlog_requests[channel] == 0 && dram_can_accept(memory->memory, line_address)) {
        dram_enqueue(memory->memory, &(dram_request){line_address, is_write, 0}, now);
        schedule_dram(memory);
        return;
    }
    if (memory->backlog_count == memory->backlog_capacity) {
        memory->backlog_capacity = memory->backlog_capacity ? 2 * memory->backlog_capacity : 64;
        memory->backlog = realloc(memory->backlog, memory->backlog_capacity * sizeof *memory->backlog);
    }
    memory->backlog[memory->backlog_count++] = (dram_backlog_entry){line_address, is_write};
    memory->backlog_requests[channel]++;
    memory->backlog_writes[channel] += is_write;
    if (memory->backlog_writes[channel] > memory->stats.dram_write_queue_peak)
        memory->stats.dram_write_queue_peak = memory->backlog_writes[channel];
}

/* Moves backlogged requests into DRAM in arrival order, as far as their channels have room. */
static void drain_backlog(memory_system *memory, sc_time now)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < memory->backlog_count; i++) {
        dram_backlog_entry entry = memory->backlog[i];
        if (!dram_can_accept(memory->memory, entry.line_address)) {
            memory->backlog[kept++] = entry;
            continue;
        }
        dram_enqueue(memory->memory, &(dram_request){entry.line_address, entry.is_write, 0}, now);
        unsigned channel = dram_channel_of(memory->memory, entry.line_address);
        memory->backlog_requests[channel]--;
        memory->backlog_writes[channel] -= entry.is_write;
    }
    memory->backlog_count = kept;
}

/* ---- the L3 ---- */

static l3_bank *l3_bank_of(const memory_system *memory, uint64_t line_address)
{
    return &memory->l3[line_address / memory->config.line_bytes % memory->config.l3_banks];
}

/* The bank indexes its tags by bank-local line addresses (the bank digit removed). */
static uint64_t l3_local_address(const memory_system *memory, uint64_t line_address)
{
    uint64_t line = memory->config.line_bytes;
    return line_address / line / memory->config.l3_banks * line;
}

static uint64_t l3_global_address(const memory_system *memory, const l3_bank *bank, uint64_t local_address)
{
    uint64_t line = memory->config.line_bytes;
    return (local_address / line * memory->config.l3_banks + (uint64_t)(bank - memory->l3)) * line;
}

static cache_line *l3_lookup(memory_system *memory, uint64_t line_address)
{
    return cache_array_lookup(l3_bank_of(memory, line_address)->tags, l3_local_address(memory, line_address));
}

/* Makes the L3 hold the line, most recently used, in at least `state`. A dirty victim goes to
 * DRAM at `now` when `timed` (functional warming drops it). */
static void l3_hold(memory_system *memory, uint64_t line_address, uint8_t state, bool timed, sc_time now)
{
    l3_bank *bank = l3_bank_of(memory, line_address);
    uint64_t local = l3_local_address(memory, line_address);
    cache_line *line = cache_array_lookup(bank->tags, local);
    if (line) {
        cache_array_touch(bank->tags, line);
        if (state > line->state)
            line->state = state;
        return;
    }
    cache_line *victim = cache_array_victim(bank->tags, local);
    if (victim->state == L3_DIRTY && timed) {
        memory->stats.l3_writebacks++;
        send_to_dram(memory, l3_global_address(memory, bank, victim->address), true, now);
    }
    cache_array_install(bank->tags, victim, local, state);
}

static void l3_drop(memory_system *memory, uint64_t line_address)
{
    cache_line *line = l3_lookup(memory, line_address);
    if (line)
        cache_array_invalidate(l3_bank_of(memory, line_address)->tags, line);
}

/* Step 1: the start of the request's lookup in its L3 bank (now, without an L3). */
static sc_time take_lookup_slot(memory_system *memory, uint64_t line_address, sc_time now)
{
    if (!memory->l3)
        return now;
    l3_bank *bank = l3_bank_of(memory, line_address);
    sc_time start = now > bank->free_at ? now : bank->free_at;
    bank->free_at = start + gpu_cycles(memory, 1);
    return start;
}

unsigned memory_side_lookup_cycles(const memory_config *config)
{
    unsigned cycles = config->l3_enabled ? config->l3_latency : 0;
    bool probe_every_request = config->cpu_cache_bytes && config->cpu_null_directory;
    if (probe_every_request && config->cpu_probe_latency > cycles)
        cycles = config->cpu_probe_latency;
    return cycles;
}

/* Step W2: the line's data reaches memory at `now`. */
static void store_line(memory_system *memory, uint64_t line_address, bool timed, sc_time now)
{
    if (memory->l3 && memory->l3_writable) {
        l3_hold(memory, line_address, L3_DIRTY, timed, now);
        return;
    }
    cache_line *copy = memory->l3 ? l3_lookup(memory, line_address) : NULL;
    if (copy)   /* updated in place (the image holds the bytes), still clean */
        cache_array_touch(l3_bank_of(memory, line_address)->tags, copy);
    if (timed)
        send_to_dram(memory, line_address, true, now);
}

/* ---- the CPU cluster ---- */

/* Step 2: whether a dirty CPU line serves the read. */
static bool probe_for_read(memory_system *memory, uint64_t line_address)
{
    if (!memory->cpu)
        return false;
    bool dirty = cpu_cluster_probe_read(memory->cpu, line_address);
    if (memory->config.cpu_null_directory || dirty)
        memory->stats.cpu_probes++;
    if (!dirty)
        return false;
    memory->stats.cpu_probe_hits++;
    return true;
}

/* Step W1. */
static void probe_for_write(memory_system *memory, uint64_t line_address)
{
    if (!memory->cpu)
        return;
    bool held = cpu_cluster_probe_write(memory->cpu, line_address);
    if (memory->config.cpu_null_directory || held)
        memory->stats.cpu_probes++;
    if (held)
        memory->stats.cpu_invalidations++;
}

/* ---- the entry points ---- */

static void answer(memory_system *memory, uint64_t line_address, gsi_source source, sc_time when)
{
    event_queue_push(memory->events, when, MEMORY_EVENT_BACKING_DATA, (uint32_t)source, line_address);
}

void memory_backing_read(memory_system *memory, uint64_t line_address, sc_time now)
{
    if (!memory->l3 && !memory->cpu) {
        send_to_dram(memory, line_address, false, now);
        return;
    }
    sc_time start = take_lookup_slot(memory, line_address, now);
    if (probe_for_read(memory, line_address)) {
        answer(memory, line_address, GSI_SOURCE_REMOTE, start + gpu_cycles(memory, memory->config.cpu_probe_latency));
        return;
    }
    sc_time ready = start + gpu_cycles(memory, memory_side_lookup_cycles(&memory->config));
    cache_line *line = memory->l3 ? l3_lookup(memory, line_address) : NULL;
    if (line) {
        cache_array_touch(l3_bank_of(memory, line_address)->tags, line);
        memory->stats.l3_hits++;
        answer(memory, line_address, GSI_SOURCE_L3, ready);
        return;
    }
    if (memory->l3)
        memory->stats.l3_misses++;
    event_queue_push(memory->events, ready, MEMORY_EVENT_BACKING_MISS, 0, line_address);
}

void memory_backing_write(memory_system *memory, uint64_t line_address, const uint8_t *data, const byte_mask *mask,
                          sc_time now)
{
    uint64_t inside = memory->config.line_bytes;
    uint8_t *image = sc_device_global_span(memory->device, line_address, &inside);
    if (image && mask)
        byte_mask_copy(image, data, mask, (unsigned)inside);
    else if (image)
        memcpy(image, data, inside);
    memory->stats.memory_write_bytes += memory->config.line_bytes;
    if (!memory->l3 && !memory->cpu) {
        send_to_dram(memory, line_address, true, now);
        return;
    }
    probe_for_write(memory, line_address);
    store_line(memory, line_address, true, take_lookup_slot(memory, line_address, now));
}

/* A DRAM read came back: the L3 keeps a clean copy on the data's way to the L2. */
static void dram_completed(void *context, const dram_request *request, sc_time when)
{
    memory_system *memory = context;
    if (request->is_write)
        return;
    if (memory->l3)
        l3_hold(memory, request->address, L3_CLEAN, true, when);
    l2_fill(memory, request->address, GSI_SOURCE_DRAM, when);
}

void memory_side_handle_event(memory_system *memory, const timing_event *event)
{
    switch (event->kind) {
    case MEMORY_EVENT_DRAM:
        if (event->time != memory->dram_wake)
            return;   /* superseded by an earlier wake-up */
        memory->dram_wake = SC_TIME_NEVER;
        dram_advance(memory->memory, event->time, dram_completed, memory);
        drain_backlog(memory, event->time);
        schedule_dram(memory);
        return;
    case MEMORY_EVENT_BACKING_DATA:
        l2_fill(memory, event->argument, (gsi_source)event->target, event->time);
        return;
    case MEMORY_EVENT_BACKING_MISS:
        send_to_dram(memory, event->argument, false, event->time);
        return;
    default:
        return;
    }
}

/* ---- host phases and warming ---- */

void memory_side_host_access(memory_system *memory, uint64_t start, uint64_t end, bool is_write)
{
    uint64_t line_bytes = memory->config.line_bytes;
    for (uint64_t line = start & ~(line_bytes - 1); line < end; line += line_bytes) {
        if (memory->cpu) {
            bool evicted_dirty = is_write ? cpu_cluster_host_write(memory->cpu, line)
                                          : cpu_cluster_host_read(memory->cpu, line);
            memory->stats.cpu_writebacks += evicted_dirty;
        }
        if (is_write && memory->l3)
            l3_drop(memory, line);
    }
}

void memory_side_warm(memory_system *memory, uint64_t line_address, bool is_write)
{
    if (is_write) {
        if (memory->cpu)
            cpu_cluster_probe_write(memory->cpu, line_address);
        store_line(memory, line_address, false, 0);
        return;
    }
    if (memory->l3 && !(memory->cpu && cpu_cluster_probe_read(memory->cpu, line_address)))
        l3_hold(memory, line_address, L3_CLEAN, false, 0);
}

/* ---- construction ---- */

void memory_side_create(memory_system *memory)
{
    const memory_config *c = &memory->config;
    memory->dram_wake = SC_TIME_NEVER;
    memory->memory = dram_create(&c->dram);
    memory->backlog_requests = calloc(c->dram.channels, sizeof *memory->backlog_requests);
    memory->backlog_writes = calloc(c->dram.channels, sizeof *memory->backlog_writes);
    if (c->l3_enabled) {
        memory->l3 = calloc(c->l3_banks, sizeof *memory->l3);
        for (unsigned b = 0; b < c->l3_banks; b++)
            memory->l3[b].tags = cache_array_create_tags(c->l3_bytes / c->l3_banks, c->l3_associativity, c->line_bytes);
    }
    if (c->cpu_cache_bytes)
        memory->cpu = cpu_cluster_create(c->cpu_cache_bytes, c->cpu_cache_associativity, c->line_bytes);
}

void memory_side_destroy(memory_system *memory)
{
    if (memory->l3)
        for (unsigned b = 0; b < memory->config.l3_banks; b++)
            cache_array_destroy(memory->l3[b].tags);
    free(memory->l3);
    cpu_cluster_destroy(memory->cpu);
    free(memory->backlog);
    free(memory->backlog_requests);
    free(memory->backlog_writes);
    dram_destroy(memory->memory);
}
