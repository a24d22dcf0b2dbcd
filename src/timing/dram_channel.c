/* dram_channel.c — one DRAM channel: its banks' row buffers, its command scheduler and its data
 * bus (see dram.h for the model and dram_channel.h for the state).
 *
 * Scheduling. Each bank serves one queued request at a time, its *target*: the oldest request
 * for the bank, or under FR-FCFS the oldest one hitting the bank's open row if there is one.
 * A target needs one command next: ACT if its bank is closed, PRE if another row is open, else
 * its RD or WR. Each command has an earliest legal cycle given the timing constraints below, and
 * those only change when a command issues or a request arrives, so the scheduler never steps
 * through cycles: it plans the command that becomes legal first (at equal cycles FR-FCFS prefers
 * column commands, i.e. row hits, then the older request; FCFS the older request) and the
 * channel sleeps until that cycle. Banks work in parallel, interleaving their commands on the
 * one-command-per-cycle command bus. Each bank with requests keeps a *candidate*: its target's
 * next command and the earliest cycle the bank allows for it; planning combines each candidate
 * with the channel's constraints, so it costs a short scan of the banks that have requests.
 *
 * Constraints, in DRAM cycles:
 *   ACT  >= last ACT of the bank + tRC, last PRE of the bank + tRP, last ACT of the channel + tRRD,
 *           the fourth-last ACT of the channel + tFAW, the end of the last refresh
 *   PRE  >= ACT + tRAS, RD + burst (read-to-precharge), write data end + tWR
 *   RD   >= ACT + tRCD, last write data end + tCDLR, and its data (RD + tCL) starts on a free bus
 *   WR   >= ACT + tRCD, last RD + tRTW, and its data (WR + tWL) starts on a free bus
 *   REF  (all banks) when due, every tREFI: once every open bank may precharge, tRP later; it
 *        closes every row and no bank activates for tRFC
 * A due refresh goes before every other command; a channel with no requests does its refreshes
 * when the next request arrives (they close its rows and may still be in progress). The bus
 * carries one line per `burst` cycles, so transfers end in issue order and a channel's
 * requests complete in the order of their column commands. A request leaves the queue when its
 * column command issues. Not modelled: tCCD beyond the burst, and power-down.
 *
 * A target only changes when a request arrives (it may become its bank's target) or when the
 * target's column command issues: an ACT or PRE is only issued for the bank's oldest request,
 * which stays the target after it.
 */
#include "timing/dram_channel.h"

#include <stdlib.h>

static uint64_t later(uint64_t a, uint64_t b) { return a > b ? a : b; }

static uint64_t saturating_minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

void dram_channel_init(dram_channel *channel, const dram_timing *timing, unsigned queue_entries, unsigned banks)
{
    *channel = (dram_channel){
        .slots = calloc(queue_entries, sizeof *channel->slots),
        .capacity = queue_entries,
        .banks = calloc(banks, sizeof *channel->banks),
        .candidates = calloc(banks, sizeof *channel->candidates),
        .transfers = calloc(queue_entries, sizeof *channel->transfers),
        .transfer_capacity = queue_entries,
        .planned_cycle = DRAM_NEVER_CYCLE,
        .next_refresh = timing->refi ? timing->refi : DRAM_NEVER_CYCLE,
    };
    for (unsigned s = 0; s < queue_entries; s++)
        channel->slots[s].next = s + 1 < queue_entries ? s + 1 : DRAM_NO_SLOT;
    for (unsigned b = 0; b < banks; b++)
        channel->banks[b].target = channel->banks[b].oldest = channel->banks[b].youngest = DRAM_NO_SLOT;
}

void dram_channel_release(dram_channel *channel)
{
    free(channel->slots);
    free(channel->banks);
    free(channel->candidates);
    free(channel->transfers);
}

static bool hits_open_row(const dram_bank *bank, const dram_entry *entry)
{
    return bank->is_open && bank->open_row == entry->row;
}

static dram_command next_command_for(const dram_bank *bank, const dram_entry *entry)
{
    if (!bank->is_open)
        return DRAM_ACTIVATE;
    if (bank->open_row != entry->row)
        return DRAM_PRECHARGE;
    return entry->request.is_write ? DRAM_WRITE : DRAM_READ;
}

static bool is_column_command(dram_command command) { return command == DRAM_READ || command == DRAM_WRITE; }

/* Refreshes the candidate of a bank whose target or state changed. */
static void update_candidate(dram_channel *channel, unsigned bank_index)
{
    const dram_bank *bank = &channel->banks[bank_index];
    const dram_entry *target = &channel->slots[bank->target];
    dram_command command = next_command_for(bank, target);
    uint64_t bank_ready = command == DRAM_ACTIVATE    ? bank->activate_ready
                          : command == DRAM_PRECHARGE ? bank->precharge_ready
                                                      : bank->column_ready;
    channel->candidates[bank->candidate] = (dram_candidate){
        .bank_ready = later(target->arrival, bank_ready),
        .age = target->age,
        .bank = bank_index,
        .slot = bank->target,
        .command = command,
    };
}

/* The earliest cycle the channel allows for each command: the command bus, tRRD, tFAW, tCDLR,
 * tRTW, and the data bus being free when the command's data starts. */
static void channel_ready_cycles(const dram_channel *channel, const dram_timing *timing, uint64_t ready[4])
{
    uint64_t command_bus = channel->command_ready;
    uint64_t four_activates = timing->faw && channel->activate_count >= 4
                                  ? channel->recent_activates[channel->activate_count % 4] + timing->faw
                                  : 0;
    ready[DRAM_ACTIVATE] = later(later(command_bus, channel->activate_ready), four_activates);
    ready[DRAM_PRECHARGE] = command_bus;
    ready[DRAM_READ] = later(later(command_bus, channel->read_ready), saturating_minus(channel->bus_free, timing->cl));
    ready[DRAM_WRITE] = later(later(command_bus, channel->write_ready), saturating_minus(channel->bus_free, timing->wl));
}

/* The cycle a due refresh can start: every bank idle, an open one precharged tRP before. */
static uint64_t refresh_start(const dram_channel *channel, const dram_timing *timing)
{
    uint64_t start = later(channel->next_refresh, channel->command_ready);
    for (unsigned b = 0; b < timing->bank_count; b++) {
        const dram_bank *bank = &channel->banks[b];
        start = later(start, bank->is_open ? later(bank->precharge_ready + timing->rp, bank->activate_ready)
                                           : bank->activate_ready);
    }
    return start;
}

/* Whether a candidate ready at `cycle` goes before the best so far. */
static bool goes_first(bool frfcfs, uint64_t cycle, const dram_candidate *candidate, uint64_t best_cycle,
                       const dram_candidate *best)
{
    if (cycle != best_cycle)
        return cycle < best_cycle;
    if (frfcfs && is_column_command(candidate->command) != is_column_command(best->command))
        return is_column_command(candidate->command);
    return candidate->age < best->age;
}

static void plan_next_command(dram_channel *channel, const dram_timing *timing)
{
    uint64_t channel_ready[4];
    channel_ready_cycles(channel, timing, channel_ready);
    const dram_candidate *best = NULL;
    uint64_t best_cycle = DRAM_NEVER_CYCLE;
    for (unsigned i = 0; i < channel->candidate_count; i++) {
        const dram_candidate *candidate = &channel->candidates[i];
        uint64_t cycle = later(candidate->bank_ready, channel_ready[candidate->command]);
        if (!best || goes_first(timing->frfcfs, cycle, candidate, best_cycle, best)) {
            best = candidate;
            best_cycle = cycle;
        }
    }
    channel->planned_cycle = best_cycle;
    if (best) {
        channel->planned_slot = best->slot;
        channel->planned_command = best->command;
        if (channel->next_refresh <= best_cycle) {
            channel->planned_cycle = refresh_start(channel, timing);
            channel->planned_command = DRAM_REFRESH;
        }
    }
}

/* An all-bank refresh at `cycle`: every row closes and no bank activates before it ends. */
static void refresh(dram_channel *channel, const dram_timing *timing, uint64_t cycle, dram_stats *stats)
{
    for (unsigned b = 0; b < timing->bank_count; b++) {
        channel->banks[b].is_open = false;
        channel->banks[b].activate_ready = cycle + timing->rfc;
    }
    channel->command_ready = cycle + 1;
    channel->next_refresh += timing->refi;
    stats->refreshes++;
    for (unsigned i = 0; i < channel->candidate_count; i++)
        update_candidate(channel, channel->candidates[i].bank);
}

/* The refreshes a channel with no requests owes before `cycle`: the ones that fell entirely in
 * idle time are counted, the last one is done (it closed the rows and may still be running). */
static void catch_up_refreshes(dram_channel *channel, const dram_timing *timing, uint64_t cycle, dram_stats *stats)
{
    if (channel->next_refresh > cycle)
        return;
    uint64_t skipped = (cycle - channel->next_refresh) / timing->refi;
    channel->next_refresh += skipped * timing->refi;
    stats->refreshes += skipped;
    refresh(channel, timing, refresh_start(channel, timing), stats);
}

/* The request a bank serves next: its oldest, or under FR-FCFS its oldest row hit if any. */
static unsigned choose_target(const dram_channel *channel, const dram_bank *bank, bool frfcfs)
{
    for (unsigned s = bank->oldest; frfcfs && s != DRAM_NO_SLOT; s = channel->slots[s].next)
        if (hits_open_row(bank, &channel->slots[s]))
            return s;
    return bank->oldest;
}

static void link_to_bank(dram_channel *channel, dram_bank *bank, unsigned slot)
{
    channel->slots[slot].previous = bank->youngest;
    channel->slots[slot].next = DRAM_NO_SLOT;
    if (bank->youngest == DRAM_NO_SLOT)
        bank->oldest = slot;
    else
        channel->slots[bank->youngest].next = slot;
    bank->youngest = slot;
}

static void unlink_from_bank(dram_channel *channel, dram_bank *bank, unsigned slot)
{
    const dram_entry *entry = &channel->slots[slot];
    if (entry->previous == DRAM_NO_SLOT)
        bank->oldest = entry->next;
    else
        channel->slots[entry->previous].next = entry->next;
    if (entry->next == DRAM_NO_SLOT)
        bank->youngest = entry->previous;
    else
        channel->slots[entry->next].previous = entry->previous;
}

void dram_channel_add(dram_channel *channel, const dram_timing *timing, const dram_entry *entry, dram_stats *stats)
{
    if (channel->candidate_count == 0)
        catch_up_refreshes(channel, timing, entry->arrival, stats);
    unsigned slot = channel->free_slot;
    channel->free_slot = channel->slots[slot].next;
    channel->queued++;
    dram_entry *queued = &channel->slots[slot];
    *queued = *entry;
    queued->age = channel->next_age++;
    queued->outcome = DRAM_ROW_HIT;
    dram_bank *bank = &channel->banks[entry->bank];
    link_to_bank(channel, bank, slot);
    if (bank->target == DRAM_NO_SLOT) {
        bank->target = slot;
        bank->candidate = channel->candidate_count++;
        update_candidate(channel, entry->bank);
    } else if (timing->frfcfs && hits_open_row(bank, queued) && !hits_open_row(bank, &channel->slots[bank->target])) {
        bank->target = slot;
        update_candidate(channel, entry->bank);
    }
    plan_next_command(channel, timing);
}

/* Takes the bank's target out of the queue and chooses its next one; an idle bank drops its
 * candidate. */
static void retire_target(dram_channel *channel, unsigned bank_index, bool frfcfs)
{
    dram_bank *bank = &channel->banks[bank_index];
    unsigned slot = bank->target;
    unlink_from_bank(channel, bank, slot);
    channel->slots[slot].next = channel->free_slot;
    channel->free_slot = slot;
    channel->queued--;
    bank->target = choose_target(channel, bank, frfcfs);
    if (bank->target != DRAM_NO_SLOT) {
        update_candidate(channel, bank_index);
        return;
    }
    dram_candidate last = channel->candidates[--channel->candidate_count];
    channel->candidates[bank->candidate] = last;
    channel->banks[last.bank].candidate = bank->candidate;
}

static void activate(dram_channel *channel, dram_bank *bank, const dram_timing *timing, dram_entry *entry,
                     uint64_t cycle)
{
    bank->is_open = true;
    bank->open_row = entry->row;
    bank->column_ready = cycle + timing->rcd;
    bank->precharge_ready = cycle + timing->ras;
    bank->activate_ready = cycle + timing->rc;
    channel->activate_ready = cycle + timing->rrd;
    channel->recent_activates[channel->activate_count++ % 4] = cycle;
    if (entry->outcome == DRAM_ROW_HIT)
        entry->outcome = DRAM_ROW_MISS;
}

static void precharge(dram_bank *bank, const dram_timing *timing, dram_entry *entry, uint64_t cycle)
{
    bank->is_open = false;
    bank->activate_ready = later(bank->activate_ready, cycle + timing->rp);
    entry->outcome = DRAM_ROW_CONFLICT;
}

static void grow_transfers(dram_channel *channel)
{
    unsigned capacity = channel->transfer_capacity * 2;
    dram_transfer *grown = calloc(capacity, sizeof *grown);
    for (unsigned i = 0; i < channel->transfer_count; i++)
        grown[i] = channel->transfers[(channel->transfer_head + i) % channel->transfer_capacity];
    free(channel->transfers);
    channel->transfers = grown;
    channel->transfer_capacity = capacity;
    channel->transfer_head = 0;
}

static void push_transfer(dram_channel *channel, const dram_request *request, uint64_t data_end)
{
    if (channel->transfer_count == channel->transfer_capacity)
        grow_transfers(channel);
    unsigned slot = (channel->transfer_head + channel->transfer_count++) % channel->transfer_capacity;
    channel->transfers[slot] = (dram_transfer){*request, data_end};
}

static void count_access(dram_stats *stats, const dram_timing *timing, const dram_entry *entry)
{
    if (entry->request.is_write)
        stats->writes++;
    else
        stats->reads++;
    stats->bytes += timing->line_bytes;
    stats->bus_busy += timing->burst * timing->period;
    if (entry->outcome == DRAM_ROW_HIT)
        stats->row_hits++;
    else if (entry->outcome == DRAM_ROW_MISS)
        stats->row_misses++;
    else
        stats->row_conflicts++;
}

/* Issues the column command of `entry`, reserving the data bus for its line. */
static void transfer_line(dram_channel *channel, dram_bank *bank, const dram_timing *timing,
                          const dram_entry *entry, uint64_t cycle)
{
    bool is_write = entry->request.is_write;
    uint64_t data_end = cycle + (is_write ? timing->wl : timing->cl) + timing->burst;
    channel->bus_free = data_end;
    if (is_write) {
        bank->precharge_ready = later(bank->precharge_ready, data_end + timing->wr);
        channel->read_ready = data_end + timing->cdlr;
    } else {
        bank->precharge_ready = later(bank->precharge_ready, cycle + timing->burst);
        channel->write_ready = cycle + timing->rtw;
    }
    push_transfer(channel, &entry->request, data_end);
}

void dram_channel_issue(dram_channel *channel, const dram_timing *timing, dram_stats *stats)
{
    uint64_t cycle = channel->planned_cycle;
    dram_entry *entry = &channel->slots[channel->planned_slot];
    dram_bank *bank = &channel->banks[entry->bank];
    if (channel->planned_command == DRAM_REFRESH) {
        refresh(channel, timing, cycle, stats);
        plan_next_command(channel, timing);
        return;
    }
    channel->command_ready = cycle + 1;
    if (channel->planned_command == DRAM_ACTIVATE) {
        activate(channel, bank, timing, entry, cycle);
        update_candidate(channel, entry->bank);
    } else if (channel->planned_command == DRAM_PRECHARGE) {
        precharge(bank, timing, entry, cycle);
        update_candidate(channel, entry->bank);
    } else {
        transfer_line(channel, bank, timing, entry, cycle);
        count_access(stats, timing, entry);
        retire_target(channel, entry->bank, timing->frfcfs);
    }
    plan_next_command(channel, timing);
}

const dram_transfer *dram_channel_first_transfer(const dram_channel *channel)
{
    return channel->transfer_count ? &channel->transfers[channel->transfer_head] : NULL;
}

dram_transfer dram_channel_take_first_transfer(dram_channel *channel)
{
    dram_transfer first = channel->transfers[channel->transfer_head];
    channel->transfer_head = (channel->transfer_head + 1) % channel->transfer_capacity;
    channel->transfer_count--;
    return first;
}
