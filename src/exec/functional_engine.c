/* functional_engine.c — runs a launch to completion with no timing.
 *
 * Up to cu_count * ctas_per_cu CTAs are resident at once, as on hardware, so kernels whose CTAs
 * wait for each other (locks, queues, litmus tests) make progress when they fit. Resident warps
 * take turns of `quantum` instructions in a fixed order, so runs are deterministic; an observer
 * may restrict a CU's rounds to the warps of one scheduler at a time (functional_engine.h). A CTA barrier
 * releases once every warp of the CTA that has not exited waits at one (barrier ids and thread
 * counts are not distinguished yet). A launch that exceeds the watchdog's instruction budget, or
 * in which no warp can issue, stops with an error naming the kernel. */
#include "exec/functional_engine.h"

#include <stdlib.h>

#include "exec/execute.h"
#include "exec/memory_request.h"

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

functional_engine_options functional_engine_defaults(unsigned warp_size)
{
    return (functional_engine_options){
        .warp_size = warp_size,
        .cu_count = 16,
        .ctas_per_cu = 8,
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

/* Runs one warp for up to `quantum` instructions. Returns 1 if it issued anything, -1 on error. */
static int run_warp(functional_engine *engine, sc_device *device, exec_warp *warp, sc_error *error)
{
    int progressed = 0;
    for (unsigned i = 0; i < engine->options.quantum && !warp->done && !warp->waiting_at_barrier; i++) {
        exec_step step;
        warp->clock = warp->instructions;
        if (exec_warp_step(warp, &engine->request, &step, error) < 0)
            return -1;
        progressed = 1;
        engine->launch_instructions++;
        if (engine->options.observer && engine->options.observer->step)
            engine->options.observer->step(engine->options.observer->context, warp, &step, &engine->request);
        if (step.status == EXEC_MEMORY) {
            if (exec_memory_perform(device, &engine->request, error) < 0)
                return -1;
            exec_memory_complete(&engine->request);
        }
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

/* Whether warp `w` of the CTA in slot `slot` (on `cu`) takes a turn this round. */
static bool takes_turn(const functional_engine *engine, uint64_t slot, unsigned cu, unsigned warp_count, unsigned w)
{
    if (!engine->one_scheduler[cu])
        return true;
    uint64_t warp_slot = slot / engine->options.cu_count * warp_count + w;   /* the CU's warp slot */
    return warp_slot % engine->options.schedulers == engine->current_scheduler[cu];
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

static uint64_t count_instructions(const exec_cta *cta, uint64_t *thread_instructions)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < cta->warp_count; i++) {
        total += cta->warps[i].instructions;
        *thread_instructions += cta->warps[i].thread_instructions;
    }
    return total;
}

static int functional_launch(void *state, sc_device *device, const sc_launch *launch, sc_launch_stats *stats,
                             sc_error *error)
{
    functional_engine *engine = state;
    exec_kernel kernel;
    if (exec_kernel_init(&kernel, device, launch, engine->options.warp_size, error) < 0)
        return -1;
    kernel.cu_count = engine->options.cu_count;
    const functional_observer *observer = engine->options.observer;
    if (observer && observer->launch_begin)
        observer->launch_begin(observer->context, &kernel);
    uint64_t slots = (uint64_t)engine->options.cu_count * engine->options.ctas_per_cu;
    uint64_t ctas = kernel.cta_end - kernel.cta_first;
    if (slots > ctas)
        slots = ctas;
    exec_cta *resident = calloc(slots, sizeof *resident);
    bool *occupied = calloc(slots, sizeof *occupied);
    uint64_t next_cta = kernel.cta_first, finished = 0, issued = 0;
    int status = 0;
    *stats = (sc_launch_stats){0};
    engine->launch_instructions = 0;
    unsigned rounds_without_issue = 0;   /* only schedulers moved on */
    while (finished < ctas && status == 0) {
        int progressed = 0;
        begin_round(engine);
        for (uint64_t s = 0; s < slots && status == 0; s++) {
            if (!occupied[s] && next_cta < kernel.cta_end) {
                status = exec_cta_init(&resident[s], &kernel, next_cta++,
                                       (unsigned)((s + engine->first_cu) % engine->options.cu_count), error);
                occupied[s] = true;
            }
            if (!occupied[s] || status)
                continue;
            exec_cta *cta = &resident[s];
            for (unsigned w = 0; w < cta->warp_count && status == 0; w++) {
                if (!takes_turn(engine, s, cta->cu, cta->warp_count, w))
                    continue;
                int ran = run_warp(engine, device, &cta->warps[w], error);
                status = ran < 0 ? -1 : 0;
                progressed |= ran > 0;
                engine->scheduler_issued[cta->cu] |= ran > 0;
            }
            if (cta->warps_done == cta->warp_count) {
                issued += count_instructions(cta, &stats->thread_instructions);
                exec_cta_release(cta);
                occupied[s] = false;
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
        if (status == 0 && engine->launch_instructions > engine->options.max_warp_instructions)
            status = sc_fail(error, "kernel %s: watchdog: more than %llu warp instructions (a spin-wait on a CTA "
                             "that never becomes resident?)", kernel.entry->name,
                             (unsigned long long)engine->options.max_warp_instructions);
    }
    for (uint64_t s = 0; s < slots; s++)
        if (occupied[s]) {
            issued += count_instructions(&resident[s], &stats->thread_instructions);
            exec_cta_release(&resident[s]);
        }
    stats->warp_instructions = issued;
    if (engine->options.continue_placement)
        engine->first_cu = (unsigned)((engine->first_cu + ctas) % engine->options.cu_count);
    if (observer && observer->launch_end && status == 0)
        observer->launch_end(observer->context, &kernel);
    exec_kernel_release(&kernel);
    free(resident);
    free(occupied);
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
};
