/* functional_engine.c — runs a launch to completion with no timing.
 *
 * Each CU holds as many CTAs at once as fit in its CTA slots and, when those are limited, its
 * warp slots, registers and shared memory (exec/occupancy.h), as on hardware, so kernels whose
 * CTAs wait for each other (locks, queues, litmus tests) make progress when they fit. Resident
 * warps take turns in a fixed order, so runs are deterministic. Turns (FUNCTIONAL_TURNS): every
 * warp runs `quantum` instructions per round. Timed issue (the other issue orders), per CU and round:
 * `quantum` issue slots, in each of which every scheduler issues from the warp its policy ranks
 * first among those that can issue (greedy-then-oldest: the last issuer, then the oldest by CTA
 * dispatch order and warp index; loose round-robin: the first after the last issuer in that
 * order, wrapping, or the oldest once the last issuer's CTA has left); a warp cannot issue while
 * it waits at a barrier or before the issue slot the observer names (issue_at), slots in which no
 * warp can pass idle, and %clock reads the CU's slot. Either way an observer may restrict a CU's
 * rounds to the warps of one scheduler at a time (functional_engine.h). A CTA barrier
 * releases once every warp of the CTA that has not exited waits at one (barrier ids and thread
 * counts are not distinguished yet). A launch that exceeds the watchdog's instruction budget, in
 * which no warp can issue, or in which no warp makes progress for the deadlock detector's window
 * (deadlock.h), stops with an error naming the kernel. */
#include "exec/functional_engine.h"

#include <stdio.h>
#include <stdlib.h>

#include "exec/deadlock.h"
#include "exec/execute.h"
#include "exec/memory_request.h"
#include "exec/occupancy.h"

typedef struct functional_engine {
    functional_engine_options options;
    exec_memory_request request;
    uint64_t launch_instructions;  /* issued so far in the current launch (watchdog) */
    unsigned first_cu;             /* CU of the launch's first slot (options.continue_placement) */
    /* Per CU, for the rounds restricted to one scheduler: */
    bool *one_scheduler;           /* this round is restricted */
    unsigned *current_scheduler;   /* whose warps take turns */
    bool *scheduler_issued;        /* some warp of the current scheduler issued this round */
} functional_engine;

/* A scheduler's last issuer: its warp index (slot * warps_per_cta + w; -1 none) and its age. */
typedef struct last_issue {
    int64_t index;
    uint64_t age;
} last_issue;

/* The CTA slots of the launch in progress and, under timed issue, its issue clocks. */
typedef struct launch_slots {
    exec_cta *resident;
    bool *occupied;
    uint64_t count;
    unsigned warps_per_cta;
    /* Timed issue: per warp (slot * warps_per_cta + w), the clock before which it cannot issue;
     * per CU, its clock (issue slots so far); per CU scheduler (cu * schedulers + k), its last
     * issuer. */
    uint64_t *ready_at;
    bool *blocked;                 /* per warp: exited or waiting at a barrier (refresh_blocked) */
    uint64_t *clock;
    last_issue *last_issuer;
    unsigned *first_scheduler;     /* per slot: the scheduler of its CTA's warp 0 (scheduler_of) */
} launch_slots;

functional_engine_options functional_engine_defaults(unsigned warp_size)
{
    return (functional_engine_options){
        .warp_size = warp_size,
        .cu_count = 16,
        .ctas_per_cu = 8,
        .warps_per_cu = UINT64_MAX,
        .registers_per_cu = UINT64_MAX,
        .shared_bytes_per_cu = UINT64_MAX,
        .quantum = 64,
        .max_warp_instructions = 2000000000ull,
        .schedulers = 1,
    };
}

void *functional_engine_create(const functional_engine_options *options)
{
    functional_engine *engine = calloc(1, sizeof *engine);
    engine->options = *options;
    engine->one_scheduler = calloc(options->cu_count, sizeof *engine->one_scheduler);
    engine->current_scheduler = calloc(options->cu_count, sizeof *engine->current_scheduler);
    engine->scheduler_issued = calloc(options->cu_count, sizeof *engine->scheduler_issued);
    return engine;
}

/* Issues the warp's next instruction at `clock`, tells the observer and performs its memory
 * access; *step receives what it did. Returns 0, or -1 on error. */
static int step_warp(functional_engine *engine, exec_warp *warp, uint64_t clock, exec_step *step, sc_error *error)
{
    warp->clock = clock;
    if (exec_warp_step(warp, &engine->request, step, error) < 0)
        return -1;
    engine->launch_instructions++;
    if (engine->options.observer && engine->options.observer->step)
        engine->options.observer->step(engine->options.observer->context, warp, step, &engine->request);
    if (step->status == EXEC_MEMORY) {
        if (exec_memory_perform(&warp->kernel->launch->global, &engine->request, error) < 0)
            return -1;
    }
    return 0;
}

/* Runs one warp for up to `quantum` instructions. Returns 1 if it issued anything, -1 on error. */
static int run_warp(functional_engine *engine, exec_warp *warp, sc_error *error)
{
    int progressed = 0;
    exec_step step;
    for (unsigned i = 0; i < engine->options.quantum && !warp->done && !warp->waiting_at_barrier; i++) {
        if (step_warp(engine, warp, warp->instructions, &step, error) < 0)
            return -1;
        progressed = 1;
    }
    return progressed;
}

/* Before a round: which CUs restrict it to their current scheduler's warps. */
static void begin_round(functional_engine *engine)
{
    const functional_observer *observer = engine->options.observer;
    bool asks = engine->options.schedulers > 1 && observer && observer->one_scheduler_at_a_time;
    for (unsigned c = 0; c < engine->options.cu_count; c++) {
        engine->one_scheduler[c] = asks && observer->one_scheduler_at_a_time(observer->context, c);
        engine->scheduler_issued[c] = false;
    }
}

/* The scheduler of warp `w` of the CTA in slot `slot` (its CU's warp slot mod schedulers). */
static unsigned scheduler_of(const functional_engine *engine, uint64_t slot, unsigned warp_count, unsigned w)
{
    uint64_t warp_slot = slot / engine->options.cu_count * warp_count + w;   /* the CU's warp slot */
    return (unsigned)(warp_slot % engine->options.schedulers);
}

/* Whether scheduler `k` of `cu` takes turns this round. */
static bool scheduler_runs(const functional_engine *engine, unsigned cu, unsigned k)
{
    return !engine->one_scheduler[cu] || k == engine->current_scheduler[cu];
}

/* After a round: a restricted CU whose current scheduler's warps could not issue moves on to its
 * next scheduler. Returns whether any CU did. */
static bool end_round(functional_engine *engine)
{
    bool moved = false;
    for (unsigned c = 0; c < engine->options.cu_count; c++)
        if (engine->one_scheduler[c] && !engine->scheduler_issued[c]) {
            engine->current_scheduler[c] = (engine->current_scheduler[c] + 1) % engine->options.schedulers;
            moved = true;
        }
    return moved;
}

/* ---- turns ---- */

/* Every warp whose scheduler takes turns runs its quantum. Returns 1 if any issued, -1 on error. */
/* The deadlock detector (deadlock.h): fails naming the spin loop when no warp of the resident
 * CTAs has changed a register or exited for a whole window of warp instructions. */
static int check_progress(const launch_slots *slots, uint64_t finished, uint64_t instructions,
                          exec_progress_watch *progress, sc_error *error)
{
    uint64_t signature = finished;
    for (uint64_t s = 0; s < slots->count; s++)
        if (slots->occupied[s])
            signature += slots->resident[s].value_changes + slots->resident[s].warps_done;
    exec_progress seen = exec_progress_observe(progress, signature, instructions, EXEC_DEADLOCK_WINDOW_INSTRUCTIONS);
    if (seen == EXEC_PROGRESSING)
        return 0;
    const exec_warp *any = NULL;
    for (uint64_t s = 0; s < slots->count; s++)
        for (unsigned w = 0; slots->occupied[s] && w < slots->resident[s].warp_count; w++) {
            exec_progress_add_warp(progress, &slots->resident[s].warps[w]);
            any = any ? any : &slots->resident[s].warps[w];
        }
    char window[64];
    snprintf(window, sizeof window, "%llu warp instructions", (unsigned long long)(instructions - progress->since));
    return any && seen == EXEC_DEADLOCKED ? exec_deadlock_fail(progress, any, window, error) : 0;
}

static int round_robin_round(functional_engine *engine, launch_slots *launch, sc_error *error)
{
    int progressed = 0;
    for (uint64_t s = 0; s < launch->count; s++) {
        if (!launch->occupied[s])
            continue;
        exec_cta *cta = &launch->resident[s];
        for (unsigned w = 0; w < cta->warp_count; w++) {
            if (!scheduler_runs(engine, cta->cu, scheduler_of(engine, s, cta->warp_count, w)))
                continue;
            int ran = run_warp(engine, &cta->warps[w], error);
            if (ran < 0)
                return -1;
            progressed |= ran;
            engine->scheduler_issued[cta->cu] |= ran > 0;
        }
    }
    return progressed;
}

/* ---- timed issue ---- */

static bool timed(const functional_engine *engine)
{
    return engine->options.issue_order != FUNCTIONAL_TURNS;
}

/* Warp `w` of the CTA in slot `s`'s place in its CU's dispatch order (CTAs are dispatched in
 * linear order; a CTA's warps in index order). */
static uint64_t age_of(const launch_slots *launch, uint64_t s, unsigned w)
{
    return launch->resident[s].linear_id * launch->warps_per_cta + w;
}

/* Whether the warps of the CTA in slot `s` have exited or wait at a barrier, as the slot's flags
 * say: refreshed when the CTA is placed and after each step of one of its warps (the warp's own;
 * every warp's when the step opened a barrier, which releases them all), the only times they
 * change. The warp choice reads the flags and not the warps. */
static void refresh_blocked(launch_slots *launch, uint64_t s, unsigned first, unsigned end)
{
    const exec_cta *cta = &launch->resident[s];
    for (unsigned w = first; w < end; w++)
        launch->blocked[s * launch->warps_per_cta + w] = cta->warps[w].done || cta->warps[w].waiting_at_barrier;
}

/* Whether warp `index` (slot * warps_per_cta + w) can issue at `clock`: live, not at a barrier,
 * and at or past the slot the observer names for its next instruction (asked once it may be). */
static bool can_issue(const functional_engine *engine, launch_slots *launch, uint64_t index, uint64_t clock)
{
    if (launch->ready_at[index] > clock || launch->blocked[index])
        return false;
    exec_warp *warp = &launch->resident[index / launch->warps_per_cta].warps[index % launch->warps_per_cta];
    const functional_observer *observer = engine->options.observer;
    uint64_t ready = observer && observer->issue_at ? observer->issue_at(observer->context, warp, clock) : clock;
    if (ready > clock) {
        launch->ready_at[index] = ready;
        return false;
    }
    return true;
}

/* Where the scheduler's policy ranks warp `index` of age `age` (lower first), given its last
 * issuer and whether that warp is still resident: greedy-then-oldest puts the last issuer first,
 * then the others oldest first; loose round-robin starts after the last issuer and wraps (the
 * unsigned difference), or starts from the oldest when the last issuer has left, as the timing
 * engine's priority_order does. */
static uint64_t issue_rank(functional_issue_order order, const last_issue *last, bool last_resident, uint64_t index,
                           uint64_t age)
{
    if (order == FUNCTIONAL_TIMED_GREEDY_THEN_OLDEST)
        return last_resident && (int64_t)index == last->index ? 0 : age + 1;
    return last_resident ? age - (last->age + 1) : age;
}

/* The warp scheduler `k` of `cu` issues from at `clock`: the one its policy ranks first among
 * those that can issue (-1 none); *wake receives the earliest clock a stalled warp of it may
 * issue (UINT64_MAX none). Greedy-then-oldest asks its last issuer first: when it can issue no
 * other warp is asked. A warp ranked no better than the best so far is not asked. A CTA's warps
 * rank in index order unless the CTA holds the last issuer (greedy-then-oldest ranks it first;
 * loose round-robin wraps after it; a CTA wholly after or wholly before it in dispatch order
 * ranks in age order either way), so in any other CTA the first such warp ends the CTA's turn:
 * the same warps are asked, in the same order (issue_at's answers depend on the calls before
 * them). */
static int64_t pick_warp(const functional_engine *engine, launch_slots *launch, unsigned cu, unsigned k,
                         uint64_t clock, uint64_t *wake)
{
    unsigned cus = engine->options.cu_count;
    functional_issue_order order = engine->options.issue_order;
    const last_issue *last = &launch->last_issuer[cu * engine->options.schedulers + k];
    uint64_t last_slot = last->index >= 0 ? (uint64_t)last->index / launch->warps_per_cta : 0;
    bool last_resident = last->index >= 0 && launch->occupied[last_slot];
    if (order == FUNCTIONAL_TIMED_LOOSE_ROUND_ROBIN)   /* the slot may hold a later CTA now */
        last_resident = last_resident && age_of(launch, last_slot, (unsigned)(last->index % launch->warps_per_cta)) == last->age;
    *wake = UINT64_MAX;
    int64_t best = -1;
    uint64_t best_rank = UINT64_MAX;
    if (order == FUNCTIONAL_TIMED_GREEDY_THEN_OLDEST && last_resident && can_issue(engine, launch, (uint64_t)last->index, clock))
        return last->index;
    unsigned schedulers = engine->options.schedulers;
    for (uint64_t s = (cu + cus - engine->first_cu % cus) % cus; s < launch->count; s += cus) {
        const exec_cta *cta = &launch->resident[s];
        if (!launch->occupied[s])
            continue;
        /* The CTA's warps of scheduler k: from the first, every `schedulers`-th. */
        unsigned first_scheduler = launch->first_scheduler[s];
        bool ranks_rise = !(last_resident && last_slot == s);
        for (unsigned w = k >= first_scheduler ? k - first_scheduler : k + schedulers - first_scheduler;
             w < cta->warp_count; w += schedulers) {
            uint64_t index = s * launch->warps_per_cta + w;
            uint64_t rank = issue_rank(order, last, last_resident, index, age_of(launch, s, w));
            if (best >= 0 && rank >= best_rank) {
                if (ranks_rise)
                    break;
                continue;
            }
            if (can_issue(engine, launch, index, clock)) {
                best = (int64_t)index;
                best_rank = rank;
                continue;
            }
            if (launch->ready_at[index] < *wake && !launch->blocked[index])
                *wake = launch->ready_at[index];
        }
    }
    return best;
}

/* The CU spends `quantum` issue slots: in each, every scheduler that takes turns this round issues
 * once if a warp of it can; slots in which none can pass idle until a stalled warp may issue.
 * Returns 1 if a scheduler issued or a warp waits for a stall to end (it will issue later), 0 if
 * not, -1 on error. */
static int timed_turns(functional_engine *engine, launch_slots *launch, unsigned cu, sc_error *error)
{
    uint64_t *clock = &launch->clock[cu], end = *clock + engine->options.quantum, wake = UINT64_MAX;
    bool issued = false;
    while (*clock < end) {
        bool issued_now = false;
        wake = UINT64_MAX;
        for (unsigned k = 0; k < engine->options.schedulers; k++) {
            if (!scheduler_runs(engine, cu, k))
                continue;
            uint64_t scheduler_wake;
            int64_t index = pick_warp(engine, launch, cu, k, *clock, &scheduler_wake);
            wake = scheduler_wake < wake ? scheduler_wake : wake;
            if (index < 0)
                continue;
            uint64_t slot = (uint64_t)index / launch->warps_per_cta;
            unsigned w = (unsigned)((uint64_t)index % launch->warps_per_cta);
            exec_step step;
            if (step_warp(engine, &launch->resident[slot].warps[w], *clock, &step, error) < 0)
                return -1;
            if (step.barrier_opened)
                refresh_blocked(launch, slot, 0, launch->resident[slot].warp_count);
            else
                refresh_blocked(launch, slot, w, w + 1);
            launch->last_issuer[cu * engine->options.schedulers + k] = (last_issue){index, age_of(launch, slot, w)};
            issued_now = true;
        }
        issued |= issued_now;
        *clock = issued_now ? *clock + 1 : wake < end ? wake : end;
    }
    return issued || wake != UINT64_MAX;
}

/* Every CU spends its issue slots. Returns 1 if any issued or waits for a stall to end, -1 on
 * error. */
static int timed_round(functional_engine *engine, launch_slots *launch, sc_error *error)
{
    int progressed = 0;
    for (unsigned c = 0; c < engine->options.cu_count; c++) {
        int ran = timed_turns(engine, launch, c, error);
        if (ran < 0)
            return -1;
        progressed |= ran;
        engine->scheduler_issued[c] |= ran > 0;
    }
    return progressed;
}

/* ---- launches ---- */

static uint64_t count_instructions(const exec_cta *cta, uint64_t *thread_instructions)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < cta->warp_count; i++) {
        total += cta->warps[i].instructions;
        *thread_instructions += cta->warps[i].thread_instructions;
    }
    return total;
}

/* The CTAs of `kernel` a CU holds at once (*ctas_per_cu); -1 with an error naming the limit if
 * one does not fit. */
static int resident_per_cu(const functional_engine *engine, const exec_kernel *kernel, uint64_t *ctas_per_cu,
                           sc_error *error)
{
    const functional_engine_options *o = &engine->options;
    cu_capacity capacity = {o->ctas_per_cu, o->warps_per_cu, o->registers_per_cu, o->shared_bytes_per_cu};
    cta_needs needs = occupancy_needs_of_launch(kernel->launch, o->warp_size);
    if (occupancy_check_fits(&capacity, &needs, kernel->entry->name, error) < 0)
        return -1;
    *ctas_per_cu = occupancy_ctas_per_cu(&capacity, &needs);
    return 0;
}

static void launch_slots_init(launch_slots *launch, const functional_engine *engine, const exec_kernel *kernel,
                              uint64_t ctas_per_cu)
{
    uint64_t slots = (uint64_t)engine->options.cu_count * ctas_per_cu;
    uint64_t ctas = kernel->cta_end - kernel->cta_first;
    *launch = (launch_slots){.count = slots > ctas ? ctas : slots, .warps_per_cta = kernel->warps_per_cta};
    launch->resident = calloc(launch->count, sizeof *launch->resident);
    launch->occupied = calloc(launch->count, sizeof *launch->occupied);
    if (!timed(engine))
        return;
    uint64_t warps = launch->count * launch->warps_per_cta, schedulers = (uint64_t)engine->options.cu_count * engine->options.schedulers;
    launch->ready_at = calloc(warps, sizeof *launch->ready_at);
    launch->blocked = calloc(warps, sizeof *launch->blocked);
    launch->clock = calloc(engine->options.cu_count, sizeof *launch->clock);
    launch->last_issuer = malloc(schedulers * sizeof *launch->last_issuer);
    launch->first_scheduler = calloc(launch->count, sizeof *launch->first_scheduler);
    for (uint64_t k = 0; k < schedulers; k++)
        launch->last_issuer[k] = (last_issue){-1, 0};
}

static void launch_slots_release(launch_slots *launch)
{
    free(launch->resident);
    free(launch->occupied);
    free(launch->ready_at);
    free(launch->blocked);
    free(launch->clock);
    free(launch->last_issuer);
    free(launch->first_scheduler);
}

/* A new CTA's warps may issue at once; its warp 0's scheduler. */
static void reset_slot_clocks(const functional_engine *engine, launch_slots *launch, uint64_t s)
{
    if (!timed(engine))
        return;
    launch->first_scheduler[s] = scheduler_of(engine, s, launch->resident[s].warp_count, 0);
    for (unsigned w = 0; w < launch->resident[s].warp_count; w++)
        launch->ready_at[s * launch->warps_per_cta + w] = 0;
    refresh_blocked(launch, s, 0, launch->resident[s].warp_count);
}

static int functional_launch(void *state, sc_device *device, const sc_launch *launch, sc_launch_stats *stats,
                             sc_error *error)
{
    functional_engine *engine = state;
    exec_kernel kernel;
    if (exec_kernel_init(&kernel, device, launch, engine->options.warp_size, error) < 0)
        return -1;
    kernel.cu_count = engine->options.cu_count;
    uint64_t ctas_per_cu;
    if (resident_per_cu(engine, &kernel, &ctas_per_cu, error) < 0) {
        exec_kernel_release(&kernel);
        return -1;
    }
    const functional_observer *observer = engine->options.observer;
    if (observer && observer->launch_begin)
        observer->launch_begin(observer->context, &kernel);
    launch_slots slots;
    launch_slots_init(&slots, engine, &kernel, ctas_per_cu);
    uint64_t ctas = kernel.cta_end - kernel.cta_first;
    uint64_t next_cta = kernel.cta_first, finished = 0, issued = 0;
    int status = 0;
    *stats = (sc_launch_stats){0};
    engine->launch_instructions = 0;
    unsigned rounds_without_issue = 0;   /* only schedulers moved on */
    exec_progress_watch progress = {0};  /* the deadlock detector (deadlock.h) */
    uint64_t next_progress_check = 0;
    while (finished < ctas && status == 0) {
        begin_round(engine);
        for (uint64_t s = 0; s < slots.count && status == 0; s++)
            if (!slots.occupied[s] && next_cta < kernel.cta_end) {
                /* A slot keeps the storage of the CTA that finished in it for the next one. */
                unsigned cu = (unsigned)((s + engine->first_cu) % engine->options.cu_count);
                status = slots.resident[s].warps ? exec_cta_reuse(&slots.resident[s], next_cta++, cu, error)
                                                 : exec_cta_init(&slots.resident[s], &kernel, next_cta++, cu, error);
                slots.occupied[s] = true;
                if (status == 0) {
                    exec_cta_dma_in(&slots.resident[s]);
                    reset_slot_clocks(engine, &slots, s);
                }
            }
        int progressed = 0;
        if (status == 0) {
            progressed = timed(engine) ? timed_round(engine, &slots, error)
                                       : round_robin_round(engine, &slots, error);
            status = progressed < 0 ? -1 : 0;
        }
        for (uint64_t s = 0; s < slots.count && status == 0; s++) {
            exec_cta *cta = &slots.resident[s];
            if (slots.occupied[s] && cta->warps_done == cta->warp_count) {
                issued += count_instructions(cta, &stats->thread_instructions);
                exec_cta_dma_out(cta);
                slots.occupied[s] = false;
                finished++;
                progressed = 1;
            }
        }
        /* A round in which only restricted CUs' schedulers moved on is not a stall until every
         * scheduler has had its round. */
        rounds_without_issue = progressed ? 0 : rounds_without_issue + 1;
        if (end_round(engine) && rounds_without_issue < engine->options.schedulers)
            progressed = 1;
        if (status == 0 && !progressed)
            /* Unreachable for any kernel (barriers release once all live warps wait); it stops an
             * executor bug from spinning here forever, where the watchdog would never fire. */
            status = sc_fail(error, "kernel %s: internal error: no resident warp can issue", kernel.entry->name);
        if (status == 0 && engine->launch_instructions >= next_progress_check) {
            next_progress_check = engine->launch_instructions + EXEC_DEADLOCK_WINDOW_INSTRUCTIONS / 64;
            status = check_progress(&slots, finished, engine->launch_instructions, &progress, error);
        }
        if (status == 0 && engine->launch_instructions > engine->options.max_warp_instructions)
            status = sc_fail(error, "kernel %s: watchdog: more than %llu warp instructions (a spin-wait on a CTA "
                             "that never becomes resident?)", kernel.entry->name,
                             (unsigned long long)engine->options.max_warp_instructions);
    }
    for (uint64_t s = 0; s < slots.count; s++) {
        if (slots.occupied[s])
            issued += count_instructions(&slots.resident[s], &stats->thread_instructions);
        if (slots.resident[s].warps)
            exec_cta_release(&slots.resident[s]);
    }
    stats->warp_instructions = issued;
    if (engine->options.continue_placement)
        engine->first_cu = (unsigned)((engine->first_cu + ctas) % engine->options.cu_count);
    if (observer && observer->launch_end && status == 0)
        observer->launch_end(observer->context, &kernel);
    exec_kernel_release(&kernel);
    launch_slots_release(&slots);
    return status;
}

static void functional_host_access(void *state, sc_device *device, uint64_t address, size_t bytes, bool is_write)
{
    /* Device memory is the only copy: nothing to flush or invalidate, only an observer to tell. */
    const functional_engine *engine = state;
    const functional_observer *observer = engine->options.observer;
    if (observer && observer->host_access)
        observer->host_access(observer->context, address, bytes, is_write);
}

static void functional_destroy(void *state)
{
    functional_engine *engine = state;
    free(engine->one_scheduler);
    free(engine->current_scheduler);
    free(engine->scheduler_issued);
    free(engine);
}

const sc_engine_ops functional_engine_ops = {
    .launch = functional_launch,
    .host_access = functional_host_access,
    .destroy = functional_destroy,
    .sequentially_consistent = true,
};
