/* compute_unit.c — one GPU compute unit, cycle by cycle: warp schedulers (greedy-then-oldest or
 * loose round-robin) pick ready warps, a scoreboard tracks register results in flight, SIMD and
 * SFU pipelines and the load/store unit impose structural limits, and the GSI inspector
 * (stalls/gsi.h) classifies every cycle from the same checks that decide issue.
 *
 * An instruction issues when its warp's next instruction is in the instruction buffer, the warp
 * is not blocked by a barrier, an acquire or a release, none of its registers awaits a result
 * and its unit is free. The SIMT executor then performs it at once (exec/); global accesses
 * become memory operations whose lines the load/store unit presents to the L1 one bank per
 * cycle, and whose loaded values reach the registers when the memory system completes them.
 *
 * Memory-model actions: a release (st.release, atom/red with release semantics, fence.sc or
 * fence.acq_rel at GPU/system scope) waits before issuing until its protocol says it is complete
 * (warp_release; by default once the store buffer is drained and every write of the CU is
 * performed, other warps' writes held back meanwhile: pending release). An acquire (ld.acquire, atom with acquire semantics, the same fences) applies the
 * protocol's acquire action when the access completes (fences: when they issue). CTA scope needs
 * no action: a CTA's warps share the L1 and the store buffer. A CTA whose barrier completes holds
 * its warps (sync/release) until the protocol says the barrier's release is done
 * (cta_barrier_release; by default at once). A warp goes on once a store is issued; with
 * gpu.store_wait performed (an experiment) it issues no global access while a store of its slot
 * is not yet performed, and that wait is memory data.
 *
 * A CU is evaluated only on cycles where something may change; between evaluations every cycle
 * is charged with the last classification (cu_catch_up), which is exact because the state the
 * classification reads changes only at evaluated cycles and at events, and events catch up first.
 * A load/store unit that presented nothing for want of an MSHR is such a state too: the CU then
 * waits for a message to reach it (the engine wakes it) or a time-based blocker to clear.
 *
 * Per cycle, each warp's own predicates (instruction buffer, synchronisation, registers) are
 * reused while the warp is unchanged and no time-based one can have cleared; the unit's
 * structural predicates are evaluated afresh. Once a scheduler has issued its width the cycle is
 * NO_STALL (when the policy ranks NO_STALL first), so its remaining warps need no view, only a
 * release's side effects; and the cycle is classified from the first view of each Algorithm 1
 * category.
 */
#include "timing/timing_internal.h"

#include "timing/scratchpad.h"

#include <stdlib.h>
#include <string.h>

int cu_create(timing_engine *engine, compute_unit *cu, unsigned index)
{
    const core_config *core = &engine->config.core;
    *cu = (compute_unit){.index = index};
    cu->slots = aligned_alloc(_Alignof(warp_slot), core->max_warps * sizeof *cu->slots);
    memset(cu->slots, 0, core->max_warps * sizeof *cu->slots);
    cu->ctas = calloc(core->max_ctas, sizeof *cu->ctas);
    cu->simd_free = calloc(core->simd_units, sizeof *cu->simd_free);
    cu->schedulers = calloc(core->schedulers, sizeof *cu->schedulers);
    for (unsigned s = 0; s < core->schedulers; s++) {
        cu->schedulers[s].order = calloc(core->max_warps, sizeof(unsigned));
        cu->schedulers[s].last_issued = -1;
    }
    cu->ldst.op = MEMORY_OP_NONE;
    cu->ldst.blocked = GSI_NONE;
    cu->next_eval = CYCLE_NEVER;
    cu->dma_blocking = -1;
    return 0;
}

void cu_destroy(timing_engine *engine, compute_unit *cu)
{
    for (unsigned w = 0; w < engine->config.core.max_warps; w++) {
        free(cu->slots[w].ready);
        free(cu->slots[w].pending_op);
        free(cu->slots[w].from_memory);
        free(cu->slots[w].loads);
    }
    for (unsigned s = 0; s < engine->config.core.schedulers; s++) {
        free(cu->schedulers[s].order);
    }
    for (unsigned c = 0; c < engine->config.core.max_ctas; c++)
        stash_cta_finished(&cu->ctas[c]);
    free(cu->slots);
    free(cu->ctas);
    free(cu->simd_free);
    free(cu->schedulers);
    free(cu->dma_writes);
    free(cu->stash_waiters);
}

void cu_wake(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    if (cycle < cu->charged_through)
        cycle = cu->charged_through;
    if (cycle < cu->next_eval)
        cu->next_eval = cycle;
    if (cycle < engine->earliest_eval)
        engine->earliest_eval = cycle;
}

void cu_slot_changed(warp_slot *slot)
{
    slot->version++;
}

/* ---- GSI accounting ---- */

/* Under sim.gsi false nothing is classified or charged: the CU's counters stay zero. */
static void charge(timing_engine *engine, compute_unit *cu, const gsi_cycle *cycle, uint64_t count)
{
    if (!engine->config.core.gsi)
        return;
    gsi_charge(&cu->gsi, cycle, count);
    if (cycle->category != GSI_MEM_DATA)
        return;
    if (cycle->load == MEMORY_OP_NONE)
        gsi_resolve(&cu->gsi, GSI_SOURCE_L1, count);   /* fixed-latency shared/local load */
    else
        memory_op_get(engine->memory, cycle->load)->data_stall_cycles += count;
}

void cu_catch_up(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    if (cycle > cu->charged_through) {
        charge(engine, cu, &cu->last_class, cycle - cu->charged_through);
        cu->charged_through = cycle;
    }
}

/* ---- memory-model classification of instructions (the static roles are in decode.h) ---- */

/* The slot of the warp whose global write waits in the load/store unit, or -1. */
static int queued_writer(timing_engine *engine, const compute_unit *cu)
{
    if (cu->ldst.op == MEMORY_OP_NONE || cu->ldst.event == L1_LOAD || cu->ldst.event == L1_LOAD_STRONG)
        return -1;
    return (int)memory_op_get(engine->memory, cu->ldst.op)->warp;
}

/* ---- the per-warp issue check (Algorithm 1's predicates) ---- */

/* Algorithm 1's predicates, one bit each (a view is never idle here). */
enum {
    PREDICATE_NEXT_UNAVAILABLE = 1,
    PREDICATE_SYNC = 2,
    PREDICATE_PENDING_LOAD = 4,
    PREDICATE_MEM_STRUCT = 8,
    PREDICATE_PENDING_COMPUTE = 16,
    PREDICATE_COMPUTE_BUSY = 32,
};

/* Algorithm 1's category depends on which predicates hold only, so it is looked up. */
void cu_categories_init(timing_engine *engine)
{
    for (unsigned bits = 0; bits < sizeof engine->view_category; bits++) {
        gsi_instruction_view v = {
            .next_unavailable = bits & PREDICATE_NEXT_UNAVAILABLE,
            .sync = bits & PREDICATE_SYNC ? GSI_SYNC_BARRIER : GSI_NONE,
            .pending_load = bits & PREDICATE_PENDING_LOAD,
            .mem_struct = bits & PREDICATE_MEM_STRUCT ? GSI_STRUCT_MSHR_FULL : GSI_NONE,
            .pending_compute = bits & PREDICATE_PENDING_COMPUTE,
            .compute_busy = bits & PREDICATE_COMPUTE_BUSY,
        };
        engine->view_category[bits] = (uint8_t)gsi_classify_instruction(&engine->config.core.policy, &v);
    }
}

/* One warp's check in one cycle: the predicates that hold, and the parts of its view beyond the
 * warp's own check (own_check). */
typedef struct warp_check {
    unsigned bits;              /* PREDICATE_* */
    int8_t sync;                /* the own synchronisation, or a release's wait */
    int8_t mem_struct;          /* the unit's structural stall (the issue filter's is in the own view) */
    uint64_t wake;              /* earliest cycle a time-based blocker clears */
} warp_check;

static gsi_instruction_view view_of(const warp_slot *slot, const warp_check *check)
{
    gsi_instruction_view view = slot->own.view;
    view.sync = check->sync;
    if (check->mem_struct != GSI_NONE)
        view.mem_struct = check->mem_struct;
    view.compute_busy = (check->bits & PREDICATE_COMPUTE_BUSY) != 0;
    return view;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* A warp with no returning access in flight has no register awaiting a load (each register's
 * pending operation is the latest one writing it, and it clears it when it completes), and none
 * of its registers is ready later than scoreboard_ready: then nothing here can block it. Of
 * several loads, the view names the most recently issued one, the likeliest to complete last
 * (GSI open point 2). */
static void check_registers(timing_engine *engine, const warp_slot *slot, const decoded_instruction *d,
                            uint64_t cycle, own_check *own)
{
    if (slot->loads_in_flight == 0 && slot->scoreboard_ready <= cycle)
        return;
    uint64_t latest_issue = 0;
    for (unsigned i = 0; i < d->source_count + d->destination_count; i++) {
        int32_t r = i < d->source_count ? d->sources[i] : d->destinations[i - d->source_count];
        if (slot->pending_op[r] != MEMORY_OP_NONE) {
            uint64_t issued = memory_op_get(engine->memory, slot->pending_op[r])->issued_cycle;
            if (!own->view.pending_load || own->view.load == MEMORY_OP_NONE || issued >= latest_issue) {
                latest_issue = issued;
                own->view.load = slot->pending_op[r];
            }
            own->view.pending_load = true;
        } else if (slot->ready[r] > cycle) {
            if (slot->from_memory[r]) {
                if (!own->view.pending_load)
                    own->view.load = MEMORY_OP_NONE;
                own->view.pending_load = true;
            } else {
                own->view.pending_compute = true;
            }
            own->wake = min_u64(own->wake, slot->ready[r]);
        }
    }
}

static int8_t memory_structural(timing_engine *engine, compute_unit *cu, const warp_slot *slot,
                                const decoded_instruction *d, uint64_t cycle, uint64_t *wake)
{
    if (cu->ldst.op != MEMORY_OP_NONE)
        return cu->ldst.blocked != GSI_NONE ? cu->ldst.blocked : GSI_STRUCT_BANK_CONFLICT;
    if (cu->ldst.busy_until > cycle) {
        *wake = min_u64(*wake, cu->ldst.busy_until);
        return GSI_STRUCT_BANK_CONFLICT;
    }
    if (d->writes_global && !slot->release_waiting && cu->release_waiters > 0)
        return GSI_STRUCT_PENDING_RELEASE;
    if (d->loads_global && l1_mshr_full(engine->memory, cu->index))
        return GSI_STRUCT_MSHR_FULL;
    return GSI_NONE;
}

static bool free_simd_unit(const compute_unit *cu, unsigned units, uint64_t cycle, uint64_t *wake)
{
    for (unsigned u = 0; u < units; u++) {
        if (cu->simd_free[u] <= cycle)
            return true;
        *wake = min_u64(*wake, cu->simd_free[u]);
    }
    return false;
}

void cu_fetch_next(const timing_engine *engine, compute_unit *cu, warp_slot *slot)
{
    if (slot->next_decoded && slot->next_decoded->releases)
        cu->releases_next--;
    const ptx_instruction *in = slot->warp ? exec_warp_next_instruction(slot->warp) : NULL;
    slot->next = in;
    slot->next_decoded = NULL;
    if (in) {
        const exec_frame *frame = exec_warp_frame(slot->warp);
        slot->next_decoded =
            &engine->decoded[frame->function][in - exec_frame_function(slot->warp, frame)->instructions];
        cu->releases_next += slot->next_decoded->releases;
    }
}

/* The synchronisation a warp waits on before its next instruction is even considered. */
static int8_t blocking_sync(const warp_slot *slot)
{
    if (slot->warp->waiting_at_barrier)
        return GSI_SYNC_BARRIER;
    return slot->acquire_op != MEMORY_OP_NONE ? GSI_SYNC_ACQUIRE : GSI_NONE;
}

/* Whether the warp's release must wait, as the protocol answers (warp_release, asked again on
 * every check: by default the store buffer drains and stores still in the load/store unit reach
 * it later); a release that holds back the other warps' writes counts in release_waiters. */
static bool waits_for_release(timing_engine *engine, compute_unit *cu, warp_slot *slot, uint64_t cycle)
{
    release_wait wait = l1_warp_release(engine->memory, cu->index, (unsigned)(slot - cu->slots),
                                        (ptx_scope)slot->next_decoded->release_scope, slot->release_begun,
                                        queued_writer(engine, cu), cycle * engine->config.memory.gpu_clock.period);
    if (wait == RELEASE_DONE)
        return false;
    if (!slot->release_begun)
        slot->release_since = cycle;
    slot->release_begun = true;
    if (wait == RELEASE_WAITS_HOLDING && !slot->release_waiting) {
        slot->release_waiting = true;
        cu->release_waiters++;
    }
    return true;
}

/* Whether the warps of `cta`, whose barrier completed, still wait for the barrier's release, as
 * the protocol answers (cta_barrier_release, asked on each check of one of them until it is done;
 * a store of the CTA still in the load/store unit reaches the L1 later). */
static bool waits_for_barrier_release(timing_engine *engine, compute_unit *cu, cta_slot *cta, uint64_t cycle)
{
    int writer = queued_writer(engine, cu);
    release_wait wait = l1_cta_barrier_release(engine->memory, cu->index, (unsigned)(cta - cu->ctas),
                                               cta->barrier_release_begun, writer >= 0 && cu->slots[writer].cta == cta,
                                               cycle * engine->config.memory.gpu_clock.period);
    if (wait == RELEASE_DONE) {
        cta->barrier_releasing = false;
        return false;
    }
    cta->barrier_release_begun = true;
    return true;
}

/* The protocol's issue filter on the warp's next instruction: a refusal joins the warp's own
 * predicates (as its synchronisation, unless it already waits on its own, or as a structural
 * stall), and a waiver of the instruction's acquire and release is kept for its issue. */
static issue_verdict ask_issue_filter(timing_engine *engine, const compute_unit *cu, const warp_slot *slot,
                                     own_check *own)
{
    issue_verdict verdict = l1_issue_filter(engine->memory, cu->index, (unsigned)(slot - cu->slots),
                                            &slot->next_decoded->traits, slot->global_in_flight);
    if (own->view.sync == GSI_NONE && verdict.sync != GSI_NONE) {
        own->view.sync = verdict.sync;
        own->bits |= PREDICATE_SYNC;
    }
    if (verdict.mem_struct != GSI_NONE) {
        own->view.mem_struct = verdict.mem_struct;
        own->bits |= PREDICATE_MEM_STRUCT;
    }
    own->ordering_waived = verdict.ordering_waived;
    return verdict;
}

/* Times the issue filter's synchronisation holds of the warp: a hold begins at the first check
 * that holds its next instruction back and ends at the first check that does not (the slot's
 * state changes when the access it waited for completes, so that check comes at once). */
static void time_filter_hold(timing_engine *engine, warp_slot *slot, bool held, uint64_t cycle)
{
    if (held && !slot->filter_holding) {
        slot->filter_holding = true;
        slot->held_since = cycle;
    } else if (!held && slot->filter_holding) {
        slot->filter_holding = false;
        engine->filter_holds++;
        engine->filter_hold_cycles += cycle - slot->held_since;
    }
}

/* The warp's own predicates. Time-based ones that do not hold stay so, and those that hold clear
 * at `wake` at the earliest; the issue filter's answer depends on the warp alone; so the result
 * stands until the slot's version changes or `wake`. A warp waiting for an acquiring atomic is
 * synchronising (SYNC acquire); under gsi.acquire_atomic_wait mem_data the same wait is a pending
 * load of the atomic instead (MEM_DATA, charged to the level that serves it). Either way it holds
 * the warp back the same, so the option changes the classification only. */
static void check_own_state(timing_engine *engine, const compute_unit *cu, warp_slot *slot, uint64_t cycle,
                            own_check *own)
{
    const decoded_instruction *d = slot->next_decoded;
    *own = (own_check){.wake = CYCLE_NEVER, .version = slot->version};
    gsi_instruction_view *v = &own->view;
    v->mem_struct = GSI_NONE;
    if (slot->fetch_ready > cycle) {
        v->next_unavailable = true;
        own->wake = slot->fetch_ready;
    }
    v->sync = blocking_sync(slot);
    if (d->drains && slot->loads_in_flight) {
        v->pending_load = true;
        v->load = slot->loads[slot->loads_in_flight - 1];
    }
    if (slot->stores_in_flight && (d->loads_global || d->writes_global) && engine->config.core.store_wait) {
        v->pending_load = true;   /* gpu.store_wait performed: the store's wait is memory data */
        v->load = slot->last_store;
    }
    check_registers(engine, slot, d, cycle, own);
    own->bits = (v->next_unavailable ? PREDICATE_NEXT_UNAVAILABLE : 0) | (v->sync != GSI_NONE ? PREDICATE_SYNC : 0) |
                (v->pending_load ? PREDICATE_PENDING_LOAD : 0) | (v->pending_compute ? PREDICATE_PENDING_COMPUTE : 0);
    if (engine->filters_issue)
        time_filter_hold(engine, slot, ask_issue_filter(engine, cu, slot, own).sync != GSI_NONE, cycle);
    if (v->sync == GSI_SYNC_ACQUIRE && engine->config.core.acquire_atomic_wait_is_data &&
        memory_op_get(engine->memory, slot->acquire_op)->request.kind == EXEC_ACCESS_ATOMIC) {
        v->sync = GSI_NONE;   /* gsi.acquire_atomic_wait mem_data: the same wait, charged as the atomic's data */
        v->pending_load = true;
        v->load = slot->acquire_op;
        own->bits = (uint8_t)((own->bits & ~PREDICATE_SYNC) | PREDICATE_PENDING_LOAD);
    }
}

/* The warp's check for this cycle: its own predicates, a release's wait (asked only of a warp
 * waiting on no synchronisation of its own, an acquire included), and the structural predicates
 * of the unit it needs. */
static void check_warp(timing_engine *engine, compute_unit *cu, warp_slot *slot, uint64_t cycle, warp_check *check)
{
    const decoded_instruction *d = slot->next_decoded;
    if (slot->own.version != slot->version || cycle >= slot->own.wake)
        check_own_state(engine, cu, slot, cycle, &slot->own);
    *check = (warp_check){.bits = slot->own.bits, .sync = slot->own.view.sync, .mem_struct = GSI_NONE,
                          .wake = slot->own.wake};
    if (check->sync == GSI_NONE && slot->cta->barrier_releasing &&
        waits_for_barrier_release(engine, cu, slot->cta, cycle)) {
        check->sync = GSI_SYNC_RELEASE;
        check->bits |= PREDICATE_SYNC;
    }
    if (check->sync == GSI_NONE && d->releases && slot->acquire_op == MEMORY_OP_NONE && !slot->own.ordering_waived &&
        waits_for_release(engine, cu, slot, cycle)) {
        check->sync = GSI_SYNC_RELEASE;
        check->bits |= PREDICATE_SYNC;
    }
    if (cu->dma_blocking >= 0 || slot->cta->dma_pending) {   /* a DMA transfer is in flight */
        int8_t dma = dma_blocks(engine, cu, slot, slot->next);
        if (dma != GSI_NONE) {
            check->mem_struct = dma;
            check->bits |= PREDICATE_MEM_STRUCT;
            return;
        }
    }
    bool busy = false;
    switch ((timing_unit)d->unit) {
    case UNIT_MEMORY:
        check->mem_struct = memory_structural(engine, cu, slot, d, cycle, &check->wake);
        if (check->mem_struct != GSI_NONE)
            check->bits |= PREDICATE_MEM_STRUCT;
        break;
    case UNIT_ALU:
        busy = !free_simd_unit(cu, engine->config.core.simd_units, cycle, &check->wake);
        break;
    case UNIT_SFU:
        busy = cu->sfu_free > cycle;
        if (busy)
            check->wake = min_u64(check->wake, cu->sfu_free);
        break;
    default:
        break;
    }
    if (busy)
        check->bits |= PREDICATE_COMPUTE_BUSY;
}

/* The part of a check that matters for a warp that cannot issue this cycle anyway, once the cycle
 * is known to be NO_STALL: a release is still asked about (by default it holds back other warps'
 * writes and drains the buffer), unless the warp waits on its own or the issue filter holds it back or waives the release. */
static void check_release_only(timing_engine *engine, compute_unit *cu, warp_slot *slot, uint64_t cycle)
{
    if (!slot->next_decoded->releases || blocking_sync(slot) != GSI_NONE || slot->cta->barrier_releasing)
        return;
    if (engine->filters_issue) {
        own_check filtered = {.view.sync = GSI_NONE};
        ask_issue_filter(engine, cu, slot, &filtered);
        if (filtered.view.sync != GSI_NONE || filtered.ordering_waived)
            return;
    }
    waits_for_release(engine, cu, slot, cycle);
}

/* ---- issue ---- */

/* An acquire of the CU at `scope`: the protocol's action, and the stash's self-invalidation. */
static void cu_acquire(timing_engine *engine, compute_unit *cu, ptx_scope scope, uint64_t cycle)
{
    l1_acquire(engine->memory, cu->index, protocol_sync_scope(scope), cycle * engine->config.memory.gpu_clock.period);
    stash_acquire(engine, cu, cycle);
}

static void set_results_ready(warp_slot *slot, const decoded_instruction *d, uint64_t ready, bool from_memory)
{
    for (unsigned i = 0; i < d->destination_count; i++) {
        slot->ready[d->destinations[i]] = ready;
        slot->from_memory[d->destinations[i]] = from_memory;
    }
    if (d->destination_count && ready > slot->scoreboard_ready)
        slot->scoreboard_ready = ready;
}

static l1_event access_event(const exec_memory_request *request)
{
    bool strong = protocol_is_strong((ptx_semantics)request->semantics, (ptx_scope)request->scope);
    switch ((exec_access_kind)request->kind) {
    case EXEC_ACCESS_LOAD: return strong && !request->non_coherent ? L1_LOAD_STRONG : L1_LOAD;
    case EXEC_ACCESS_STORE: return strong ? L1_STORE_STRONG : L1_STORE;
    default: return L1_ATOMIC;
    }
}

/* Makes the executor's request an operation in flight of the warp in `slot_index`: its registers
 * wait for it (loads, atomics), and it counts among the warp's accesses until cu_op_done. */
static void track_access(timing_engine *engine, compute_unit *cu, unsigned slot_index, uint32_t handle,
                         const decoded_instruction *d, uint64_t cycle)
{
    warp_slot *slot = &cu->slots[slot_index];
    memory_op *op = memory_op_get(engine->memory, handle);
    exec_memory_request *request = &op->request;
    op->cu = cu->index;
    op->warp = slot_index;
    op->issued_cycle = cycle;
    op->data_stall_cycles = 0;
    op->source = GSI_SOURCE_L1;
    op->event = (uint8_t)access_event(request);
    op->destination_count = 0;
    op->acquire = 0;
    op->fills_stash = 0;
    slot->global_in_flight++;
    if (request->kind == EXEC_ACCESS_STORE) {
        slot->stores_in_flight++;
        slot->last_store = handle;
    }
    bool returns_value = request->kind == EXEC_ACCESS_LOAD || request->kind == EXEC_ACCESS_ATOMIC;
    if (returns_value) {
        op->destination_count = d->destination_count;
        for (unsigned i = 0; i < d->destination_count; i++) {
            op->destinations[i] = d->destinations[i];
            slot->pending_op[d->destinations[i]] = handle;
            slot->from_memory[d->destinations[i]] = 1;
        }
        if (slot->loads_in_flight == slot->loads_capacity) {
            slot->loads_capacity = slot->loads_capacity ? 2 * slot->loads_capacity : 8;
            slot->loads = realloc(slot->loads, slot->loads_capacity * sizeof *slot->loads);
        }
        slot->loads[slot->loads_in_flight++] = handle;
        if (protocol_has_acquire((ptx_semantics)request->semantics, (ptx_scope)request->scope) &&
            !slot->own.ordering_waived) {
            op->acquire = 1;
            slot->acquire_op = handle;
        }
    }
}

/* Turns the executor's global request into an operation whose lines the load/store unit sends. */
static void start_global_access(timing_engine *engine, compute_unit *cu, unsigned slot_index, uint32_t handle,
                                const decoded_instruction *d, uint64_t cycle)
{
    track_access(engine, cu, slot_index, handle, d, cycle);
    memory_op *op = memory_op_get(engine->memory, handle);
    const exec_memory_request *request = &op->request;
    ldst_unit *unit = &cu->ldst;
    unit->op = handle;
    unit->event = op->event;
    unit->line_count = coalesce_lines(request->address, request->lane_mask,
                                      (unsigned)request->element_bytes * request->vector,
                                      engine->config.memory.line_bytes, unit->lines);
    unit->next_line = 0;
    unit->blocked = GSI_NONE;
    unit->waits_for_mshr = false;
    op->lines_pending = unit->line_count;
}

/* Cycles a shared or local access occupies the load/store unit: one, or on a banked scratchpad
 * the access's bank-conflict degree (scratchpad.h); the cycles past the first are other memory
 * instructions' GSI bank-conflict stalls (memory_structural). */
static unsigned private_access_cycles(const timing_engine *engine, const exec_memory_request *request)
{
    const core_config *core = &engine->config.core;
    if (!core->scratchpad_banked || request->shared_lanes == 0)
        return 1;
    return scratchpad_access_cycles(request, core->scratchpad_banks, core->scratchpad_bank_bytes);
}

static void time_private_instruction(timing_engine *engine, compute_unit *cu, warp_slot *slot,
                                     const ptx_instruction *in, const decoded_instruction *d,
                                     unsigned access_cycles, uint64_t cycle)
{
    const core_config *core = &engine->config.core;
    switch ((timing_unit)d->unit) {
    case UNIT_ALU:
        for (unsigned u = 0; u < core->simd_units; u++)
            if (cu->simd_free[u] <= cycle) {
                cu->simd_free[u] = cycle + core->simd_interval;
                break;
            }
        set_results_ready(slot, d, cycle + core->alu_latency, false);
        break;
    case UNIT_SFU:
        cu->sfu_free = cycle + core->sfu_interval;
        set_results_ready(slot, d, cycle + core->sfu_latency, false);
        break;
    case UNIT_MEMORY:
        cu->ldst.busy_until = cycle + access_cycles;
        set_results_ready(slot, d,
                          cycle + access_cycles - 1 +
                              (in->space == PTX_SPACE_LOCAL ? core->local_latency : core->shared_latency),
                          true);
        break;
    default:
        break;
    }
}

/* An issue changes the warp's own state; a barrier arrival, or a warp's exit, may release the
 * warps of its CTA waiting at a barrier. */
static void note_issue_changes(compute_unit *cu, warp_slot *slot, const exec_step *step)
{
    cu_slot_changed(slot);
    if (step->status == EXEC_BARRIER || slot->warp->done)
        for (unsigned w = 0; w < slot->cta->cta.warp_count; w++)
            cu_slot_changed(&cu->slots[slot->cta->warp_slots[w]]);
}

/* A release issues: counted, with its wait if it had one (from the first refusal to this cycle). */
static void count_release(timing_engine *engine, const warp_slot *slot, uint64_t cycle)
{
    engine->releases++;
    if (slot->release_begun) {
        engine->releases_waited++;
        engine->release_wait_cycles += cycle - slot->release_since;
    }
}

static int issue(timing_engine *engine, compute_unit *cu, unsigned slot_index, uint64_t cycle)
{
    warp_slot *slot = &cu->slots[slot_index];
    exec_warp *warp = slot->warp;
    const ptx_instruction *in = slot->next;
    const decoded_instruction *d = slot->next_decoded;
    uint32_t handle = MEMORY_OP_NONE;
    exec_memory_request *request = &cu->scratch;
    if (d->unit == UNIT_MEMORY) {
        handle = memory_op_allocate(engine->memory);
        request = &memory_op_get(engine->memory, handle)->request;
    }
    exec_step step;
    warp->clock = cycle;
    if (exec_warp_step(warp, request, &step, engine->error) < 0) {
        if (handle != MEMORY_OP_NONE)
            memory_op_free(engine->memory, handle);
        return -1;
    }
    cu_fetch_next(engine, cu, slot);
    note_issue_changes(cu, slot, &step);
    if (step.barrier_opened) {   /* its warps go on once the protocol says (waits_for_barrier_release) */
        slot->cta->barrier_releasing = true;
        slot->cta->barrier_release_begun = false;
    }
    engine->instructions++;
    if (d->releases && !slot->own.ordering_waived)
        count_release(engine, slot, cycle);
    if (slot->release_waiting) {
        slot->release_waiting = false;
        cu->release_waiters--;
    }
    slot->release_begun = false;
    if (step.status == EXEC_MEMORY) {
        start_global_access(engine, cu, slot_index, handle, d, cycle);
        return 0;
    }
    unsigned access_cycles = 1;
    if (handle != MEMORY_OP_NONE) {
        access_cycles = private_access_cycles(engine, request);
        stash_verdict stash = stash_access(engine, cu, slot, handle);
        if (stash == STASH_FAILED) {
            memory_op_free(engine->memory, handle);
            return -1;
        }
        if (stash != STASH_LOCAL) {   /* a stash miss or store: in flight after the scratchpad's cycles */
            if (stash == STASH_GLOBAL)
                start_global_access(engine, cu, slot_index, handle, d, cycle);
            else
                track_access(engine, cu, slot_index, handle, d, cycle);
            memory_op_get(engine->memory, handle)->fills_stash =
                stash == STASH_GLOBAL && request->kind == EXEC_ACCESS_LOAD;
            cu->ldst.busy_until = cycle + access_cycles;
            return 0;
        }
        memory_op_free(engine->memory, handle);
    }
    time_private_instruction(engine, cu, slot, in, d, access_cycles, cycle);
    if (step.status == EXEC_FENCE && protocol_has_acquire((ptx_semantics)step.semantics, (ptx_scope)step.scope) &&
        !slot->own.ordering_waived)
        cu_acquire(engine, cu, (ptx_scope)step.scope, cycle);
    if (step.status == EXEC_BARRIER)
        l1_barrier(engine->memory, cu->index, slot_index, cycle * engine->config.memory.gpu_clock.period);
    if (step.status == EXEC_WARP_DONE) {
        slot->finished = true;
        slot->cta->warps_running--;
        l1_warp_exit(engine->memory, cu->index, slot_index, cycle * engine->config.memory.gpu_clock.period);
        return 0;
    }
    if (d->unit == UNIT_CONTROL && slot->next && slot->next != in + 1)
        slot->fetch_ready = cycle + 1 + engine->config.core.branch_penalty;
    return 0;
}

/* ---- the load/store unit ---- */

/* Presents the current operation's lines to the L1, at most one per L1 bank per cycle. When
 * it presented nothing for want of an MSHR, only a message reaching the CU can change that
 * (waits_for_mshr): the engine then evaluates the CU at wake times and message arrivals only. */
static int ldst_step(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    ldst_unit *unit = &cu->ldst;
    if (unit->op == MEMORY_OP_NONE)
        return 0;
    uint8_t bank_used[256] = {0};
    sc_time now = cycle * engine->config.memory.gpu_clock.period;
    uint32_t handle = unit->op;
    unsigned first_line = unit->next_line;
    unit->blocked = GSI_NONE;
    while (unit->next_line < unit->line_count) {
        const coalesced_line *line = &unit->lines[unit->next_line];
        unsigned bank = l1_bank_of(engine->memory, line->line_address);
        if (bank_used[bank]) {
            unit->blocked = GSI_STRUCT_BANK_CONFLICT;
            break;
        }
        l1_verdict verdict = l1_access(engine->memory, cu->index, (l1_event)unit->event, line, handle, now, engine->error);
        if (verdict == L1_FAILED)
            return -1;
        if (verdict == L1_REFUSED_MSHR_FULL) {
            unit->blocked = GSI_STRUCT_MSHR_FULL;
            break;
        }
        if (verdict == L1_REFUSED_STORE_BUFFER_FULL) {
            unit->blocked = GSI_STRUCT_STORE_BUFFER_FULL;
            l1_make_store_room(engine->memory, cu->index, now);
            break;
        }
        bank_used[bank] = 1;
        unit->next_line++;
    }
    unit->waits_for_mshr = unit->blocked == GSI_STRUCT_MSHR_FULL && unit->next_line == first_line;
    if (unit->next_line == unit->line_count) {
        unit->op = MEMORY_OP_NONE;
        unit->blocked = GSI_NONE;
    }
    return 0;
}

/* ---- one cycle ---- */

/* Where the scheduler's last issuer sits in its dispatch order, or -1. The position where it
 * issued is tried first: the order only gains slots at its end and loses freed ones (each slot
 * appears once), so the hint is right while the slot is still there. */
static int last_issuer_position(scheduler_state *s)
{
    if (s->last_issued < 0)
        return -1;
    if (s->last_position < s->count && (int)s->order[s->last_position] == s->last_issued)
        return (int)s->last_position;
    for (unsigned position = 0; position < s->count; position++)
        if ((int)s->order[position] == s->last_issued) {
            s->last_position = position;
            return (int)position;
        }
    return -1;
}

/* A cycle's walk of a scheduler's warp slots in priority order: GTO puts the last issuer first,
 * then the others oldest first; LRR starts after the last issuer and wraps. */
typedef struct priority_walk {
    int last;                   /* the last issuer's position in the dispatch order, or -1 */
    bool greedy;
} priority_walk;

static priority_walk priority_order(scheduler_state *s, bool greedy)
{
    return (priority_walk){.last = last_issuer_position(s), .greedy = greedy};
}

/* The dispatch-order position of the walk's k-th warp slot. */
static unsigned priority_position(const scheduler_state *s, const priority_walk *walk, unsigned k)
{
    if (walk->last < 0)
        return k;
    unsigned last = (unsigned)walk->last;
    if (walk->greedy)
        return k == 0 ? last : k - 1 + (k - 1 >= last);
    unsigned position = last + 1 + k;
    return position < s->count ? position : position - s->count;
}

void cu_finish_idle_ctas(timing_engine *engine, compute_unit *cu)
{
    for (unsigned c = 0; c < engine->config.core.max_ctas; c++) {
        cta_slot *cta = &cu->ctas[c];
        if (!cta->used || cta->warps_running || cta->dma_pending)
            continue;
        bool loads_pending = false;
        for (unsigned w = 0; w < cta->cta.warp_count; w++)
            loads_pending |= cu->slots[cta->warp_slots[w]].loads_in_flight > 0;
        if (!loads_pending)
            engine_cta_finished(engine, cu, cta);
    }
}

/* After an issue the cycle is NO_STALL whatever the other warps show (when the policy ranks
 * NO_STALL first) and the CU is evaluated again next cycle, so a warp whose scheduler has used its
 * issue width needs neither a view nor a wake time: the issue count at which that holds, or 0. */
static unsigned settling_issues(const core_config *core)
{
    return core->policy.cycle_order[0] == GSI_NO_STALL ? core->issue_width : 0;
}

/* What a cycle's scan of its warps found. The cycle's classification depends on the first view of
 * each Algorithm 1 category only (in Algorithm 2 a later view of a category never displaces an
 * earlier one), so only those views are kept. */
typedef struct cycle_scan {
    gsi_instruction_view views[GSI_CATEGORY_COUNT];
    unsigned view_count;
    uint32_t categories_seen;
    bool issued, warp_finished;
    uint64_t wake;              /* earliest cycle a time-based blocker clears */
} cycle_scan;

static void note_check(const timing_engine *engine, const warp_slot *slot, const warp_check *check, cycle_scan *scan)
{
    scan->wake = min_u64(scan->wake, check->wake);
    if (!engine->config.core.gsi)
        return;
    unsigned category = engine->view_category[check->bits];
    if (!(scan->categories_seen & 1u << category)) {
        scan->categories_seen |= 1u << category;
        scan->views[scan->view_count++] = view_of(slot, check);
    }
}

/* Checks one scheduler's warps in priority order, issuing up to the issue width. */
static int scan_scheduler(timing_engine *engine, compute_unit *cu, scheduler_state *scheduler, uint64_t cycle,
                          cycle_scan *scan)
{
    const core_config *core = &engine->config.core;
    unsigned settled_at = settling_issues(core), issued_here = 0, k = 0;
    int issuer = -1;
    priority_walk walk = priority_order(scheduler, core->greedy_then_oldest);
    unsigned issuer_position = 0;
    while (k < scheduler->count) {
        unsigned position = priority_position(scheduler, &walk, k++), slot_index = scheduler->order[position];
        warp_slot *slot = &cu->slots[slot_index];
        if (slot->finished)
            continue;
        warp_check check;
        check_warp(engine, cu, slot, cycle, &check);
        note_check(engine, slot, &check, scan);
        if (check.bits != 0 || issued_here == core->issue_width)
            continue;
        if (issue(engine, cu, slot_index, cycle) < 0)
            return -1;
        issued_here++;
        scan->issued = true;
        scan->warp_finished |= slot->finished;
        if (issuer < 0) {
            issuer = (int)slot_index;
            issuer_position = position;
        }
        if (issued_here == settled_at)
            break;
    }
    for (; cu->releases_next && k < scheduler->count; k++) {   /* settled: see settling_issues */
        warp_slot *slot = &cu->slots[scheduler->order[priority_position(scheduler, &walk, k)]];
        if (!slot->finished)
            check_release_only(engine, cu, slot, cycle);
    }
    if (issuer >= 0) {
        scheduler->last_issued = issuer;
        scheduler->last_position = issuer_position;
    }
    return 0;
}

int cu_cycle(timing_engine *engine, compute_unit *cu, uint64_t cycle)
{
    const core_config *core = &engine->config.core;
    cu_catch_up(engine, cu, cycle);
    if (dma_step(engine, cu, cycle) < 0 || ldst_step(engine, cu, cycle) < 0)
        return -1;
    cycle_scan scan = {.wake = CYCLE_NEVER};
    for (unsigned s = 0; s < core->schedulers; s++)
        if (scan_scheduler(engine, cu, &cu->schedulers[s], cycle, &scan) < 0)
            return -1;
    if (core->gsi) {
        gsi_cycle classification = gsi_classify_cycle(&core->policy, scan.views, scan.view_count);
        cu->last_class = classification;
        charge(engine, cu, &classification, 1);
    }
    cu->charged_through = cycle + 1;
    if (scan.warp_finished)
        cu_finish_idle_ctas(engine, cu);
    bool busy = scan.issued || scan.warp_finished || (cu->ldst.op != MEMORY_OP_NONE && !cu->ldst.waits_for_mshr) ||
                dma_busy(engine, cu);
    cu->next_eval = busy ? cycle + 1 : scan.wake;
    return 0;
}

/* ---- completions ---- */

static void forget_load(warp_slot *slot, uint32_t handle)
{
    for (uint32_t i = 0; i < slot->loads_in_flight; i++)
        if (slot->loads[i] == handle) {
            slot->loads[i] = slot->loads[--slot->loads_in_flight];
            return;
        }
}

static access_latency_kind latency_kind(uint8_t kind)
{
    switch ((exec_access_kind)kind) {
    case EXEC_ACCESS_LOAD: return ACCESS_LATENCY_LOAD;
    case EXEC_ACCESS_STORE: return ACCESS_LATENCY_STORE;
    default: return ACCESS_LATENCY_ATOMIC;
    }
}

void cu_op_done(timing_engine *engine, uint32_t handle, uint64_t cycle)
{
    memory_op *op = memory_op_get(engine->memory, handle);
    compute_unit *cu = &engine->cus[op->cu];
    if (op->warp == engine->config.core.max_warps) {   /* the DMA engine's */
        dma_op_done(engine, cu, handle, cycle);
        return;
    }
    warp_slot *slot = &cu->slots[op->warp];
    if (engine->latencies)
        access_latencies_add(engine->latencies, latency_kind(op->request.kind), cycle - op->issued_cycle);
    if (op->fills_stash)
        stash_fill(engine, cu, handle, cycle);
    if (op->destination_count) {
        exec_memory_complete(&op->request);
        for (unsigned i = 0; i < op->destination_count; i++) {
            int32_t r = op->destinations[i];
            if (slot->pending_op[r] == handle) {
                slot->pending_op[r] = MEMORY_OP_NONE;
                slot->ready[r] = cycle;
                if (cycle > slot->scoreboard_ready)
                    slot->scoreboard_ready = cycle;
            }
        }
    }
    slot->global_in_flight--;
    if (op->request.kind == EXEC_ACCESS_STORE) {
        slot->stores_in_flight--;
        if (slot->last_store == handle)
            slot->last_store = MEMORY_OP_NONE;
    }
    if (op->request.kind == EXEC_ACCESS_LOAD || op->request.kind == EXEC_ACCESS_ATOMIC)
        forget_load(slot, handle);
    if (slot->acquire_op == handle) {
        cu_acquire(engine, cu, (ptx_scope)op->request.scope, cycle);
        slot->acquire_op = MEMORY_OP_NONE;
    }
    cu_slot_changed(slot);
    if (engine->config.core.gsi)
        gsi_resolve(&cu->gsi, (gsi_source)op->source, op->data_stall_cycles);
    memory_op_free(engine->memory, handle);
    cu_wake(engine, cu, cycle);
    if (slot->finished && slot->loads_in_flight == 0 && slot->cta->warps_running == 0)
        cu_finish_idle_ctas(engine, cu);
}
