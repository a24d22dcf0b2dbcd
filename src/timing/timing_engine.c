/* timing_engine.c — runs kernel launches on the timing model: places CTAs on compute units as
 * occupancy allows, advances time by interleaving memory events with the cycles on which some
 * CU can change state, hands the kernel boundaries to the protocol (memory_kernel_begin and
 * memory_kernel_end: by default an acquire at start and a release at end, then a wait until every
 * L1 is drained), checks every CU's stall breakdown against its cycles, and watches for deadlock
 * and runaway runs. */
#include "timing/timing_internal.h"

#include "exec/deadlock.h"
#include "exec/occupancy.h"

#include "base/random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gsi_cycle idle_cycle = {.category = GSI_IDLE, .sub = GSI_NONE, .winner = -1, .load = 0};
/* A CU's cycles from kernel end until its L1 is drained: its release of the kernel's writes. */
static const gsi_cycle kernel_end_release_cycle = {.category = GSI_SYNC, .sub = GSI_SYNC_RELEASE, .winner = -1,
                                                   .load = 0};

static void op_done_callback(void *context, uint32_t op, sc_time when)
{
    timing_engine *engine = context;
    cu_op_done(engine, op, engine_cycle_of(engine, when));
}

static void write_performed_callback(void *context, unsigned cu, sc_time when)
{
    timing_engine *engine = context;
    cu_wake(engine, &engine->cus[cu], engine_cycle_of(engine, when));
}

void *timing_engine_create(const timing_config *config, const sc_protocol *protocol, sc_error *error)
{
    timing_engine *engine = calloc(1, sizeof *engine);
    engine->config = *config;
    engine->protocol = protocol;
    engine->jitter_state = config->memory.jitter;
    cu_categories_init(engine);
    event_queue_init(&engine->events);
    engine->earliest_eval = CYCLE_NEVER;
    engine->steady_offset = UINT64_MAX;
    engine->cus = calloc(config->core.cu_count, sizeof *engine->cus);
    engine->run_gsi = calloc(config->core.cu_count, sizeof *engine->run_gsi);
    for (unsigned cu = 0; cu < config->core.cu_count; cu++)
        cu_create(engine, &engine->cus[cu], cu);
    if (config->core.access_latencies)
        engine->latencies = calloc(1, sizeof *engine->latencies);
    return engine;
}

static void timing_destroy(void *state)
{
    timing_engine *engine = state;
    for (unsigned cu = 0; cu < engine->config.core.cu_count; cu++)
        cu_destroy(engine, &engine->cus[cu]);
    free(engine->cus);
    free(engine->run_gsi);
    free(engine->kernel_records);
    if (engine->latencies)
        access_latencies_free(engine->latencies);
    memory_system_destroy(engine->memory);
    event_queue_release(&engine->events);
    free(engine);
}

static void ensure_memory(timing_engine *engine, sc_device *device)
{
    if (engine->memory)
        return;
    engine->device = device;
    memory_callbacks callbacks = {engine, op_done_callback, write_performed_callback};
    engine->memory = memory_system_create(&engine->config.memory, engine->protocol, device, &engine->events, callbacks);
    engine->filters_issue = memory_filters_issue(engine->memory);
}

/* ---- CTA placement ---- */

static bool cta_fits(const timing_engine *engine, const compute_unit *cu)
{
    return cu->ctas_used < engine->ctas_per_cu;
}

/* What one CU of the configuration offers CTAs (exec/occupancy.h). */
static cu_capacity capacity_of(const core_config *core)
{
    return (cu_capacity){core->max_ctas, core->max_warps, core->registers, core->shared_bytes};
}

static uint64_t jitter_delay(timing_engine *engine)
{
    if (!engine->config.memory.jitter)
        return 0;
    return sc_splitmix64(&engine->jitter_state) & 63;
}

static void reset_slot(timing_engine *engine, compute_unit *cu, warp_slot *slot, exec_warp *warp, cta_slot *cta,
                       uint64_t cycle)
{
    size_t registers = (size_t)engine->max_registers + 1;
    slot->ready = realloc(slot->ready, registers * sizeof *slot->ready);
    slot->pending_op = realloc(slot->pending_op, registers * sizeof *slot->pending_op);
    slot->from_memory = realloc(slot->from_memory, registers);
    memset(slot->ready, 0, registers * sizeof *slot->ready);
    memset(slot->pending_op, 0xff, registers * sizeof *slot->pending_op);
    memset(slot->from_memory, 0, registers);
    slot->scoreboard_ready = 0;
    cu_slot_changed(slot);
    slot->warp = warp;
    cu_fetch_next(engine, cu, slot);
    slot->cta = cta;
    slot->age = engine->age_counter++;
    slot->fetch_ready = cycle;
    slot->acquire_op = MEMORY_OP_NONE;
    slot->release_waiting = false;
    slot->release_begun = false;
    slot->finished = false;
    slot->loads_in_flight = 0;
}

static int place_cta(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    const core_config *core = &engine->config.core;
    cta_slot *cta = cu->ctas;
    while (cta->used)
        cta++;
    if (exec_cta_init(&cta->cta, &engine->kernel, engine->next_cta++, cu->index, engine->error) < 0)
        return -1;
    cta->used = true;
    cta->warps_running = cta->cta.warp_count;
    cta->barrier_releasing = false;
    dma_cta_placed(engine, cta);
    stash_cta_placed(engine, cta);
    uint64_t start = cycle + jitter_delay(engine);
    unsigned slot_index = 0;
    for (unsigned w = 0; w < cta->cta.warp_count; w++) {
        while (cu->slots[slot_index].warp)
            slot_index++;
        cta->warp_slots[w] = slot_index;
        reset_slot(engine, cu, &cu->slots[slot_index], &cta->cta.warps[w], cta, start);
        scheduler_state *scheduler = &cu->schedulers[slot_index % core->schedulers];
        scheduler->order[scheduler->count++] = slot_index;
    }
    cu->warps_used += cta->cta.warp_count;
    cu->ctas_used++;
    cu_catch_up(engine, cu, cycle);
    cu_wake(engine, cu, cycle);
    return 0;
}

/* Opens (or reopens) the steady window at the CTA just dispatched: the launch part now ends
 * where it was asked to end or, if that is nearer, steady_ctas CTAs after it, though not after
 * steady_latest_end. */
static void open_steady_window(timing_engine *engine, uint64_t cycle, bool before_turnover)
{
    engine->steady_phase = STEADY_OPEN;
    engine->steady_before_turnover = before_turnover;
    engine->steady_start_cycle = cycle;
    engine->steady_start_instructions = engine->instructions;
    engine->steady_open_cta = engine->next_cta - 1;
    uint64_t end = engine->steady_open_cta + engine->steady_ctas;
    if (end < engine->steady_planned_end)
        end = engine->steady_planned_end;
    engine->kernel.cta_end = end < engine->steady_latest_end ? end : engine->steady_latest_end;
}

/* The lines a launch part must install before its caches have turned over once: the L2's and,
 * where the L1s are write-back, every CU's L1 lines, which a window's stores fill with dirty data
 * whose write-backs come only once those L1s evict it. */
static uint64_t turnover_lines(const timing_engine *engine)
{
    const memory_config *memory = &engine->config.memory;
    uint64_t lines = memory->l2_bytes / memory->line_bytes;
    if (memory_l1s_write_back(engine->memory))
        lines += (uint64_t)memory->cu_count * (memory->l1_bytes / memory->line_bytes);
    return lines;
}

/* Opens and closes the steady window as CTAs are dispatched (timing_engine_measure_steady).
 * The launch's turnover is the count of lines it has installed in the L2 (its L2 misses)
 * against the lines its caches hold (turnover_lines). The window may not measure the second
 * turnover: then the L2 evicts the lines the launch installed while its pipeline filled, when
 * the reads of the first CTAs ran ahead of their writes, so fewer of those lines are dirty than
 * in a steady state and their evictions cost less DRAM traffic. So it opens at the CTA at
 * steady_offset if the launch has installed fewer lines than its caches hold or at least twice
 * as many, and otherwise (and if one turnover is reached while it is open after opening before
 * it) at the first dispatch after twice as many, the part extended up to steady_latest_end
 * meanwhile. Write-back L1s start a launch part empty (functional warming warms the L2 only), so
 * until they have turned over their evictions write nothing back: the window never opens before
 * the first turnover there. It closes at the dispatch of the part's last CTA. */
static void mark_steady_window(timing_engine *engine, uint64_t cycle)
{
    if (engine->steady_offset == UINT64_MAX || engine->steady_phase == STEADY_CLOSED ||
        engine->next_cta - engine->kernel.cta_first <= engine->steady_offset)
        return;
    uint64_t lines = turnover_lines(engine);
    uint64_t installed = memory_statistics(engine->memory)->l2_misses - engine->steady_misses_start;
    bool second_turnover = installed >= lines && installed < 2 * lines;
    bool l1s_filling = installed < lines && memory_l1s_write_back(engine->memory);
    if (engine->steady_phase == STEADY_OPEN && engine->steady_before_turnover && installed >= lines)
        engine->steady_phase = STEADY_WAITING;
    if (engine->steady_phase == STEADY_WAITING) {
        if (second_turnover || l1s_filling) {
            engine->kernel.cta_end = engine->steady_latest_end;
            return;
        }
        open_steady_window(engine, cycle, installed < lines);
    }
    if (engine->next_cta == engine->kernel.cta_end && engine->next_cta - 1 > engine->steady_open_cta) {
        engine->steady_phase = STEADY_CLOSED;
        engine->steady_cycles = cycle - engine->steady_start_cycle;
        engine->steady_instructions = engine->instructions - engine->steady_start_instructions;
    }
}

int engine_dispatch(timing_engine *engine, uint64_t cycle)
{
    unsigned count = engine->config.core.cu_count;
    while (engine->next_cta < engine->kernel.cta_end) {
        bool placed = false;
        for (unsigned i = 0; i < count && !placed; i++) {
            compute_unit *cu = &engine->cus[(engine->next_cu + i) % count];
            if (!cta_fits(engine, cu))
                continue;
            if (place_cta(engine, cu, cycle) < 0)
                return -1;
            mark_steady_window(engine, cycle);
            engine->next_cu = (cu->index + 1) % count;
            placed = true;
        }
        if (!placed)
            return 0;
    }
    return 0;
}

static void remove_from_scheduler(scheduler_state *scheduler, unsigned slot_index)
{
    unsigned kept = 0;
    for (unsigned k = 0; k < scheduler->count; k++)
        if (scheduler->order[k] != slot_index)
            scheduler->order[kept++] = scheduler->order[k];
    scheduler->count = kept;
    if (scheduler->last_issued == (int)slot_index)
        scheduler->last_issued = -1;
}

void engine_cta_finished(timing_engine *engine, compute_unit *cu, cta_slot *cta)
{
    const core_config *core = &engine->config.core;
    for (unsigned w = 0; w < cta->cta.warp_count; w++) {
        unsigned slot_index = cta->warp_slots[w];
        warp_slot *slot = &cu->slots[slot_index];
        if (slot->release_waiting)
            cu->release_waiters--;
        engine->thread_instructions += slot->warp->thread_instructions;
        slot->warp = NULL;
        cu_fetch_next(engine, cu, slot);
        remove_from_scheduler(&cu->schedulers[slot_index % core->schedulers], slot_index);
    }
    cu->warps_used -= cta->cta.warp_count;
    cu->ctas_used--;
    dma_cta_finished(engine, cu, cta);
    stash_cta_finished(cta);
    exec_cta_release(&cta->cta);
    cta->used = false;
    engine->ctas_done++;
    if (cu->warps_used == 0)
        cu->last_class = idle_cycle;
    if (engine_dispatch(engine, engine->now_cycle) < 0)
        engine->failed = 1;
}

/* ---- the launch ---- */

/* Whether a CTA fits on an empty CU; if so, sets how many a CU holds at once. */
static int check_fits_somewhere(timing_engine *engine, const sc_launch *launch)
{
    const core_config *core = &engine->config.core;
    const exec_kernel *k = &engine->kernel;
    if (k->warps_per_cta > CTA_MAX_WARPS)
        return sc_fail(engine->error, "kernel %s: a CTA of %u warps exceeds gpu.max_warps_per_cu (%u)",
                       k->entry->name, k->warps_per_cta, core->max_warps);
    cu_capacity capacity = capacity_of(core);
    cta_needs needs = occupancy_needs_of_launch(launch, core->warp_size);
    if (occupancy_check_fits(&capacity, &needs, k->entry->name, engine->error) < 0)
        return -1;
    engine->ctas_per_cu = occupancy_ctas_per_cu(&capacity, &needs);
    return 0;
}

static int describe_stuck(timing_engine *engine, const char *what)
{
    const char *kernel = engine->kernel.entry->name;
    memory_op *op = memory_oldest_op(engine->memory);
    if (op && op->request.instruction) {
        unsigned lane = (unsigned)__builtin_ctzll(op->request.lane_mask | (1ull << 63));
        return sc_fail(engine->error, "kernel %s: %s; oldest request in flight: CU %u warp slot %u %s at %s:%d, "
                       "address 0x%llx, issued at cycle %llu", kernel, what, op->cu, op->warp,
                       ptx_opcode_name((ptx_opcode)op->request.instruction->opcode), op->request.kernel_path,
                       op->request.instruction->line, (unsigned long long)op->request.address[lane],
                       (unsigned long long)op->issued_cycle);
    }
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        for (unsigned w = 0; w < engine->config.core.max_warps; w++) {
            warp_slot *slot = &engine->cus[c].slots[w];
            const ptx_instruction *in = slot->warp && !slot->finished ? exec_warp_next_instruction(slot->warp) : NULL;
            if (in)
                return sc_fail(engine->error, "kernel %s: %s; no memory request in flight; CU %u warp slot %u waits "
                               "at %s line %d%s (CU: %llu writes outstanding, store buffer %s, %u warps before a "
                               "release)", kernel, what, c, w, ptx_opcode_name((ptx_opcode)in->opcode), in->line,
                               slot->warp->waiting_at_barrier ? " at a barrier" : "",
                               (unsigned long long)l1_writes_outstanding(engine->memory, c),
                               l1_store_buffer_empty(engine->memory, c) ? "empty" : "not empty",
                               engine->cus[c].release_waiters);
        }
    return sc_fail(engine->error, "kernel %s: %s", kernel, what);
}

static uint64_t earliest_evaluation(const timing_engine *engine)
{
    uint64_t earliest = CYCLE_NEVER;
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        if (engine->cus[c].next_eval < earliest)
            earliest = engine->cus[c].next_eval;
    return earliest;
}

static int process_event(timing_engine *engine)
{
    timing_event event;
    event_queue_pop(&engine->events, &event);
    uint64_t cycle = engine_cycle_of(engine, event.time);
    if (cycle > engine->now_cycle)
        engine->now_cycle = cycle;
    if (event.kind == MEMORY_EVENT_AT_CU) {
        compute_unit *cu = &engine->cus[event.target];
        cu_catch_up(engine, cu, cycle);
        /* The message may free an MSHR that the load/store unit or a warp's load waits for. */
        if (cu->ldst.waits_for_mshr || l1_mshr_full(engine->memory, cu->index))
            cu_wake(engine, cu, cycle);
    }
    if (memory_handle_event(engine->memory, &event, engine->error) < 0)
        return -1;
    return engine->failed ? -1 : 0;
}

/* Whether some CU's load/store unit still holds lines of an exited warp's access. */
static bool accesses_queued(const timing_engine *engine)
{
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        if (engine->cus[c].ldst.op != MEMORY_OP_NONE || dma_busy(engine, &engine->cus[c]))
            return true;
    return false;
}

/* The deadlock detector (exec/deadlock.h), run every 1/64 of its window: fails naming the spin
 * loop when no warp of the GPU has changed a register or exited for a whole window of cycles. */
static int check_progress(timing_engine *engine, uint64_t cycle, exec_progress_watch *progress)
{
    uint64_t signature = engine->ctas_done;
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        for (unsigned k = 0; k < engine->config.core.max_ctas; k++)
            if (engine->cus[c].ctas[k].used)
                signature += engine->cus[c].ctas[k].cta.value_changes + engine->cus[c].ctas[k].cta.warps_done;
    exec_progress seen = exec_progress_observe(progress, signature, cycle, EXEC_DEADLOCK_WINDOW_CYCLES);
    if (seen == EXEC_PROGRESSING)
        return 0;
    const exec_warp *any = NULL;
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        for (unsigned w = 0; w < engine->config.core.max_warps; w++) {
            const warp_slot *slot = &engine->cus[c].slots[w];
            if (slot->warp && !slot->finished) {
                exec_progress_add_warp(progress, slot->warp);
                any = any ? any : slot->warp;
            }
        }
    char window[64];
    snprintf(window, sizeof window, "%llu cycles", (unsigned long long)(cycle - progress->since));
    return any && seen == EXEC_DEADLOCKED ? exec_deadlock_fail(progress, any, window, engine->error) : 0;
}

static int run_until_ctas_done(timing_engine *engine)
{
    sc_time period = engine->config.memory.gpu_clock.period;
    exec_progress_watch progress = {.since = engine->now_cycle};
    uint64_t next_progress_check = engine->now_cycle;
    while (engine->ctas_done < engine->kernel.cta_end - engine->kernel.cta_first || accesses_queued(engine)) {
        sc_time next_event = event_queue_next_time(&engine->events);
        uint64_t cycle = engine->earliest_eval;
        if (cycle == CYCLE_NEVER && next_event == SC_TIME_NEVER)
            return describe_stuck(engine, "deadlock: no warp can issue and nothing is in flight");
        if (next_event != SC_TIME_NEVER && (cycle == CYCLE_NEVER || next_event <= cycle * period)) {
            if (process_event(engine) < 0)
                return -1;
            continue;
        }
        engine->now_cycle = cycle;
        if (cycle - engine->kernel_start > engine->config.core.max_cycles) {
            char what[96];
            snprintf(what, sizeof what, "watchdog: more than %llu cycles (sim.max_cycles)",
                     (unsigned long long)engine->config.core.max_cycles);
            return describe_stuck(engine, what);
        }
        if (cycle >= next_progress_check) {
            next_progress_check = cycle + EXEC_DEADLOCK_WINDOW_CYCLES / 64;
            if (check_progress(engine, cycle, &progress) < 0)
                return -1;
        }
        for (unsigned c = 0; c < engine->config.core.cu_count; c++)
            if (engine->cus[c].next_eval == cycle && cu_cycle(engine, &engine->cus[c], cycle) < 0)
                return -1;
        engine->earliest_eval = earliest_evaluation(engine);
        if (engine->failed)
            return -1;
    }
    return 0;
}

/* The first CU whose L1 is not drained, or cu_count when all are. */
static unsigned first_undrained_cu(const timing_engine *engine)
{
    unsigned c = 0;
    while (c < engine->config.core.cu_count && l1_drained(engine->memory, c))
        c++;
    return c;
}

/* GSI of kernel end: a CU whose L1 is not drained (with `draining`: at kernel end) waits for its
 * release from now on (sync, release); one drained since (without) is idle from now on. */
static void classify_kernel_end(timing_engine *engine, bool draining)
{
    for (unsigned c = 0; c < engine->config.core.cu_count; c++) {
        compute_unit *cu = &engine->cus[c];
        bool drained = l1_drained(engine->memory, c), releasing = cu->last_class.category == GSI_SYNC;
        if (draining == drained || (!draining && !releasing))
            continue;
        cu_catch_up(engine, cu, engine->now_cycle);
        cu->last_class = draining ? kernel_end_release_cycle : idle_cycle;
    }
}

/* Kernel end is the protocol's (by default a release of every CU): the kernel completes when
 * every L1 is drained (by default: every write performed), as the host may read memory next.
 * Each CU's cycles until its L1 is drained are its release's (GSI sync, release). */
static int end_kernel_in_memory(timing_engine *engine)
{
    memory_kernel_end(engine->memory, engine->now_cycle * engine->config.memory.gpu_clock.period);
    classify_kernel_end(engine, true);
    for (;;) {
        unsigned c = first_undrained_cu(engine);
        if (c == engine->config.core.cu_count)
            return 0;
        if (event_queue_next_time(&engine->events) == SC_TIME_NEVER) {
            char what[128];
            snprintf(what, sizeof what, "deadlock: CU %u not drained at kernel end (%llu writes outstanding) with "
                     "nothing in flight", c, (unsigned long long)l1_writes_outstanding(engine->memory, c));
            return describe_stuck(engine, what);
        }
        if (process_event(engine) < 0)
            return -1;
        classify_kernel_end(engine, false);
    }
}

static int close_kernel_accounts(timing_engine *engine, uint64_t end)
{
    for (unsigned c = 0; c < engine->config.core.cu_count; c++) {
        compute_unit *cu = &engine->cus[c];
        cu_catch_up(engine, cu, end);
        if (engine->config.core.gsi && gsi_check(&cu->gsi, end - engine->kernel_start, engine->error) < 0)
            return sc_fail_prefix(engine->error, "internal error: kernel %s, CU %u", engine->kernel.entry->name, c);
        if (cu->gsi.source[GSI_SOURCE_UNRESOLVED])
            return sc_fail(engine->error, "internal error: kernel %s, CU %u: %llu memory-data cycles unresolved",
                           engine->kernel.entry->name, c, (unsigned long long)cu->gsi.source[GSI_SOURCE_UNRESOLVED]);
        gsi_accumulate(&engine->run_gsi[c], &cu->gsi);
    }
    return 0;
}

static void begin_kernel_accounts(timing_engine *engine)
{
    engine->earliest_eval = CYCLE_NEVER;
    for (unsigned c = 0; c < engine->config.core.cu_count; c++) {
        compute_unit *cu = &engine->cus[c];
        memset(&cu->gsi, 0, sizeof cu->gsi);
        cu->last_class = idle_cycle;
        cu->charged_through = engine->kernel_start;
        cu->next_eval = CYCLE_NEVER;
        cu->dma_blocking = -1;
    }
    memory_kernel_begin(engine->memory, engine->kernel_start * engine->config.memory.gpu_clock.period);
}

/* The counters a kernel record takes as differences between the launch's end and start. */
static timing_kernel_record memory_counters(const timing_engine *engine)
{
    const memory_stats *m = memory_statistics(engine->memory);
    const dram_stats *d = memory_dram_statistics(engine->memory);
    sc_time channel_cycle = engine->config.memory.gpu_clock.period * engine->config.memory.dram.channels;
    return (timing_kernel_record){
        .l1_hits = m->l1_hits, .l1_misses = m->l1_misses, .l2_hits = m->l2_hits, .l2_misses = m->l2_misses,
        .dram_reads = d->reads, .dram_writes = d->writes, .noc_bytes = memory_noc_statistics(engine->memory)->bytes,
        .dram_busy_cycles = d->bus_busy / channel_cycle,
    };
}

static void record_kernel(timing_engine *engine, const timing_kernel_record *before, const sc_launch_stats *stats)
{
    timing_kernel_record after = memory_counters(engine);
    if (engine->run_kernels == engine->kernel_record_capacity) {
        engine->kernel_record_capacity = engine->kernel_record_capacity ? 2 * engine->kernel_record_capacity : 8;
        engine->kernel_records = realloc(engine->kernel_records,
                                         engine->kernel_record_capacity * sizeof *engine->kernel_records);
    }
    timing_kernel_record *record = &engine->kernel_records[engine->run_kernels];
    *record = (timing_kernel_record){
        .cycles = stats->cycles,
        .warp_instructions = stats->warp_instructions,
        .ctas = engine->kernel.cta_end - engine->kernel.cta_first,
        .steady_cycles = engine->steady_cycles,
        .steady_warp_instructions = engine->steady_instructions,
        .steady_before_turnover = engine->steady_phase == STEADY_CLOSED && engine->steady_before_turnover,
        .l1_hits = after.l1_hits - before->l1_hits,
        .l1_misses = after.l1_misses - before->l1_misses,
        .l2_hits = after.l2_hits - before->l2_hits,
        .l2_misses = after.l2_misses - before->l2_misses,
        .dram_reads = after.dram_reads - before->dram_reads,
        .dram_writes = after.dram_writes - before->dram_writes,
        .noc_bytes = after.noc_bytes - before->noc_bytes,
        .dram_busy_cycles = after.dram_busy_cycles - before->dram_busy_cycles,
    };
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        gsi_accumulate(&record->stalls, &engine->cus[c].gsi);
}

static int32_t largest_register_count(const ptx_module *module)
{
    int32_t largest = 0;
    for (int32_t f = 0; f < module->function_count; f++)
        if (module->functions[f].register_count > largest)
            largest = module->functions[f].register_count;
    return largest;
}

static int timing_launch(void *state, sc_device *device, const sc_launch *launch, sc_launch_stats *stats,
                         sc_error *error)
{
    timing_engine *engine = state;
    ensure_memory(engine, device);
    engine->error = error;
    engine->failed = 0;
    if (exec_kernel_init(&engine->kernel, device, launch, engine->config.core.warp_size, error) < 0)
        return -1;
    engine->kernel.cu_count = engine->config.core.cu_count;
    engine->decoded = decode_module(launch->module, memory_barriers_release(engine->memory));
    engine->max_registers = largest_register_count(launch->module);
    engine->next_cta = engine->kernel.cta_first;
    engine->ctas_done = 0;
    engine->instructions = engine->thread_instructions = 0;
    engine->steady_cycles = engine->steady_instructions = 0;
    engine->steady_phase = STEADY_WAITING;
    engine->steady_misses_start = memory_statistics(engine->memory)->l2_misses;
    engine->steady_planned_end = engine->kernel.cta_end;
    engine->kernel_start = engine->now_cycle;
    timing_kernel_record before = memory_counters(engine);
    begin_kernel_accounts(engine);
    int status = check_fits_somewhere(engine, launch);
    if (status == 0)
        status = engine_dispatch(engine, engine->kernel_start + engine->config.core.kernel_launch_latency);
    if (status == 0)
        status = run_until_ctas_done(engine);
    if (status == 0)
        status = end_kernel_in_memory(engine);
    uint64_t end = engine->now_cycle + 1;
    if (status == 0)
        status = close_kernel_accounts(engine, end);
    for (unsigned c = 0; c < engine->config.core.cu_count; c++)
        for (unsigned s = 0; s < engine->config.core.max_ctas; s++)
            if (engine->cus[c].ctas[s].used)
                engine_cta_finished(engine, &engine->cus[c], &engine->cus[c].ctas[s]);
    engine->now_cycle = end;
    *stats = (sc_launch_stats){
        .warp_instructions = engine->instructions,
        .thread_instructions = engine->thread_instructions,
        .cycles = end - engine->kernel_start,
    };
    engine->run_cycles += stats->cycles;
    engine->run_instructions += stats->warp_instructions;
    record_kernel(engine, &before, stats);
    engine->run_kernels++;
    decode_free(engine->decoded, launch->module);
    engine->decoded = NULL;
    exec_kernel_release(&engine->kernel);
    return status;
}

static void timing_host_access(void *state, sc_device *device, uint64_t address, size_t bytes, bool is_write)
{
    timing_engine *engine = state;
    ensure_memory(engine, device);
    memory_host_access(engine->memory, address, bytes, is_write);
}

void timing_engine_report(void *state, timing_report *report)
{
    timing_engine *engine = state;
    *report = (timing_report){
        .cycles = engine->run_cycles,
        .cu_count = engine->config.core.cu_count,
        .l2_banks = engine->config.memory.l2_banks,
        .gsi = engine->config.core.gsi,
        .per_cu = engine->run_gsi,
        .warp_instructions = engine->run_instructions,
        .kernels = engine->run_kernels,
        .event_queue_peak = engine->events.peak,
        .filters_issue = engine->filters_issue,
        .filter_holds = engine->filter_holds,
        .filter_hold_cycles = engine->filter_hold_cycles,
        .access_latencies = engine->latencies,
        .releases = engine->releases,
        .releases_waited = engine->releases_waited,
        .release_wait_cycles = engine->release_wait_cycles,
        .dma_line_requests = engine->dma_line_requests,
        .dma_mshr_refused_cycles = engine->dma_mshr_refused_cycles,
        .kernel_records = engine->kernel_records,
        .kernel_record_count = engine->run_kernels,
        .protocol_counters = engine->protocol->counters,
        .protocol_counter_count = engine->protocol->counter_count,
    };
    for (unsigned c = 0; c < report->cu_count; c++)
        gsi_accumulate(&report->total, &engine->run_gsi[c]);
    if (engine->memory) {
        report->memory = memory_statistics(engine->memory);
        report->noc = memory_noc_statistics(engine->memory);
        report->noc_energy =
            memory_noc_energy(engine->memory, engine->run_cycles * engine->config.memory.gpu_clock.period);
        report->dram = memory_dram_statistics(engine->memory);
        report->protocol_stats = memory_protocol_statistics(engine->memory);
    }
}

uint64_t timing_engine_resident_ctas(const void *state, const sc_launch *launch)
{
    const timing_engine *engine = state;
    const core_config *core = &engine->config.core;
    cu_capacity capacity = capacity_of(core);
    cta_needs needs = occupancy_needs_of_launch(launch, core->warp_size);
    return occupancy_ctas_per_cu(&capacity, &needs) * core->cu_count;
}

void timing_engine_measure_steady(void *state, uint64_t cta_offset, uint64_t ctas, uint64_t latest_end)
{
    timing_engine *engine = state;
    engine->steady_offset = cta_offset;
    engine->steady_ctas = ctas;
    engine->steady_latest_end = latest_end;
}

unsigned timing_engine_line_bytes(const void *state)
{
    return ((const timing_engine *)state)->config.memory.line_bytes;
}

void timing_engine_warm_line(void *state, sc_device *device, uint64_t address, bool wrote)
{
    timing_engine *engine = state;
    ensure_memory(engine, device);
    memory_warm_line(engine->memory, address, wrote);
}

void timing_engine_warm_finish(void *state, sc_device *device)
{
    timing_engine *engine = state;
    ensure_memory(engine, device);
    memory_warm_finish(engine->memory);
}

const sc_engine_ops timing_engine_ops = {
    .launch = timing_launch,
    .host_access = timing_host_access,
    .destroy = timing_destroy,
};
