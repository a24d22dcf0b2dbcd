/* sampled_engine.c — plans each launch of a sampled run, runs its parts on the timing model or
 * the functional executor while keeping memory coherent between them, and keeps the samples
 * the estimate is made from (see sampled_engine.h).
 *
 * Plan of a launch of C CTAs when the GPU holds R of them at once and a window is
 * W = window_waves * R CTAs:
 *  - C >= period * W: CTA-wave sampling. k = C / (period * W) windows of W' = C / (period * k)
 *    CTAs (W or more: the windows take the whole 1/period, which lengthens their measured part),
 *    the i-th starting at CTA i * C / k + phase * (C / k - W'), run in detail; the CTAs between
 *    and after them run functionally. A window whose steady part must wait for its caches'
 *    second turnover to end, or for write-back L1s' first (timing_engine_measure_steady), runs
 *    longer where needed, at most up to the next window's start, so that the steady part still
 *    measures W - warm-up CTAs. The phase is the fractional part of (n + 1) times the golden
 *    ratio in a kernel's n-th launch, so a kernel launched many times with one window each is
 *    sampled all along its grid, and no window is pinned to a launch's first CTAs, whose cold L2
 *    (no dirty lines to write back) would stand for a whole 1/k of the launch.
 *  - otherwise kernel-level sampling: with U = warmup_launches and spacing S = period * (1 + U),
 *    launches 0, S, 2S... of the same kernel and size class are measured in detail, the U
 *    launches before each of them (but the first) run in detail to warm the timing model up,
 *    and the others run functionally: 1/period of the launches in detail in all. */
#include "timing/sampled_engine.h"

#include <math.h>
#include <stdlib.h>

#include "base/sample_estimate.h"
#include "exec/address_map.h"

/* The samples of one kernel signature: the kernel, the kind of sampling and, for kernel-level
 * sampling, the launch's size class (floor(log2(CTAs))), so launches of very different sizes
 * (a BFS frontier growing from 1 to 800 CTAs) are extrapolated only from launches like them. */
typedef struct stratum {
    const ptx_function *kernel;
    sample_kind kind;
    unsigned size_class;
    sample_unit *units;
    size_t unit_count, unit_capacity;
    uint64_t launches, warp_instructions, fast_forwarded_warp_instructions;
    uint64_t population, detailed;       /* launches (kernel-level) or CTAs (windows) */
} stratum;

typedef struct launch_entry {
    size_t stratum;
    uint64_t warp_instructions;
    uint64_t detailed_cycles;            /* kernel-level: the launch's cycles when detailed */
    bool detailed;
} launch_entry;

typedef struct sampled_engine {
    sampling_options options;
    void *timing, *functional;
    stratum *strata;
    size_t stratum_count;
    launch_entry *launches;
    size_t launch_count;
    double *launch_cycles;               /* sampled_engine_report's per-launch estimates */
    uint64_t warp_instructions, detailed_warp_instructions, detailed_cycles, units;
    bool caches_dirty;    /* a detailed part ran since the caches were last written back */
    bool image_changed;   /* a functional part ran since the caches were last refreshed */
    sc_device *device;    /* of the functional part running (for warming) */
    uint64_t last_warmed; /* line address warmed last (lanes of one access share lines) */
    unsigned line_bytes;  /* of the L2 */
    functional_observer warming;  /* watches the functional parts' global accesses */
} sampled_engine;

sampling_options sampling_defaults(void)
{
    return (sampling_options){.period = 20, .window_waves = 8.0, .warmup_waves = 4.0, .warmup_launches = 1};
}

/* Functional warming: every line a fast-forwarded access touches becomes the L2's most recent.
 * Only which lines are touched matters: the caches are refreshed from the image before any
 * detailed part, so it does not matter that the access is performed after this. */
static void warm_access(void *context, const exec_warp *warp, const exec_step *step, const exec_memory_request *request)
{
    (void)warp;
    if (step->status != EXEC_MEMORY)
        return;
    sampled_engine *engine = context;
    bool wrote = request->kind != EXEC_ACCESS_LOAD;
    for (unsigned lane = 0; lane < request->width; lane++) {
        if (!(request->lane_mask >> lane & 1))
            continue;
        uint64_t line = request->address[lane] & ~(uint64_t)(engine->line_bytes - 1);
        if (line != engine->last_warmed)
            timing_engine_warm_line(engine->timing, engine->device, line, wrote);
        engine->last_warmed = line;
    }
}

void *sampled_engine_create(const sampling_options *options, void *timing_engine,
                            const functional_engine_options *functional)
{
    sampled_engine *engine = calloc(1, sizeof *engine);
    engine->options = *options;
    engine->timing = timing_engine;
    functional_engine_options observed = *functional;
    engine->warming = (functional_observer){.context = engine, .step = warm_access};
    observed.observer = &engine->warming;
    engine->functional = functional_engine_create(&observed);
    engine->last_warmed = UINT64_MAX;
    engine->line_bytes = timing_engine_line_bytes(timing_engine);
    return engine;
}

void *sampled_engine_timing(void *state)
{
    return ((sampled_engine *)state)->timing;
}

static void sampled_destroy(void *state)
{
    sampled_engine *engine = state;
    timing_engine_ops.destroy(engine->timing);
    functional_engine_ops.destroy(engine->functional);
    for (size_t s = 0; s < engine->stratum_count; s++)
        free(engine->strata[s].units);
    free(engine->strata);
    free(engine->launches);
    free(engine->launch_cycles);
    free(engine);
}

static size_t find_stratum(sampled_engine *engine, const ptx_function *kernel, sample_kind kind, unsigned size_class)
{
    for (size_t s = 0; s < engine->stratum_count; s++) {
        const stratum *candidate = &engine->strata[s];
        if (candidate->kernel == kernel && candidate->kind == kind && candidate->size_class == size_class)
            return s;
    }
    engine->strata = realloc(engine->strata, (engine->stratum_count + 1) * sizeof *engine->strata);
    engine->strata[engine->stratum_count] = (stratum){.kernel = kernel, .kind = kind, .size_class = size_class};
    return engine->stratum_count++;
}

/* Keeps a measured unit (window or launch). */
static void add_unit(sampled_engine *engine, stratum *s, const sample_unit *unit)
{
    engine->units++;
    if (s->unit_count == s->unit_capacity) {
        s->unit_capacity = s->unit_capacity ? 2 * s->unit_capacity : 8;
        s->units = realloc(s->units, s->unit_capacity * sizeof *s->units);
    }
    s->units[s->unit_count++] = *unit;
}

/* Writes every dirty cached line back to the image (the host-read action over all of it). */
static void write_back_caches(sampled_engine *engine, sc_device *device)
{
    uint64_t bytes = UINT64_MAX;
    if (sc_device_global_span(device, SC_GLOBAL_BASE, &bytes))
        timing_engine_ops.host_access(engine->timing, device, SC_GLOBAL_BASE, bytes, false);
}

/* Gives warmed lines their data, before a detailed part or a host copy (which could write
 * dirty ones back) reads them. */
static void finish_warming(sampled_engine *engine, sc_device *device)
{
    if (engine->image_changed)
        timing_engine_warm_finish(engine->timing, device);
    engine->image_changed = false;
}

/* The steady window of a detailed part (timing_engine_measure_steady). */
typedef struct steady_request {
    uint64_t offset;      /* CTA offset opening it, UINT64_MAX for none */
    uint64_t ctas;        /* CTAs it measures at least */
    uint64_t latest_end;  /* CTA the part may be extended to */
} steady_request;

static const steady_request no_steady_window = {UINT64_MAX, 0, 0};

/* Runs CTAs [first, end) of `launch` in detail with the steady window `steady`; *unit receives
 * what the timing model measured and *ran the CTAs it ran (more than asked where the steady
 * window opened late). */
static int run_detailed(sampled_engine *engine, sc_device *device, const sc_launch *launch, uint64_t first,
                        uint64_t end, const steady_request *steady, sc_launch_stats *stats, sample_unit *unit,
                        uint64_t *ran, sc_error *error)
{
    finish_warming(engine, device);
    engine->caches_dirty = true;
    sc_launch part = *launch;
    part.cta_first = first;
    part.cta_end = end;
    timing_engine_measure_steady(engine->timing, steady->offset, steady->ctas, steady->latest_end);
    if (timing_engine_ops.launch(engine->timing, device, &part, stats, error) < 0)
        return -1;
    timing_report report;
    timing_engine_report(engine->timing, &report);
    const timing_kernel_record *record = &report.kernel_records[report.kernel_record_count - 1];
    *unit = (sample_unit){
        .cycles = record->cycles,
        .warp_instructions = record->warp_instructions,
        .steady_cycles = record->steady_cycles,
        .steady_warp_instructions = record->steady_warp_instructions,
        .dram_busy_cycles = record->dram_busy_cycles,
        .steady_before_turnover = record->steady_before_turnover,
    };
    *ran = record->ctas;
    engine->detailed_warp_instructions += stats->warp_instructions;
    engine->detailed_cycles += stats->cycles;
    return 0;
}

static int run_functional(sampled_engine *engine, sc_device *device, const sc_launch *launch, uint64_t first,
                          uint64_t end, sc_launch_stats *stats, sc_error *error)
{
    if (engine->caches_dirty)
        write_back_caches(engine, device);
    engine->caches_dirty = false;
    engine->image_changed = true;
    engine->device = device;
    sc_launch part = *launch;
    part.cta_first = first;
    part.cta_end = end;
    return functional_engine_ops.launch(engine->functional, device, &part, stats, error);
}

static void add_stats(sc_launch_stats *into, const sc_launch_stats *part)
{
    into->warp_instructions += part->warp_instructions;
    into->thread_instructions += part->thread_instructions;
}

/* CTA-wave sampling of one launch. */
static int run_windows(sampled_engine *engine, sc_device *device, const sc_launch *launch, stratum *s,
                       uint64_t ctas, uint64_t window, uint64_t warmup, sc_launch_stats *stats, sc_error *error)
{
    uint64_t windows = ctas / ((uint64_t)engine->options.period * window), done = 0, measured = window - warmup;
    window = ctas / ((uint64_t)engine->options.period * windows);
    double phase = fmod((double)(s->launches + 1) * 0.6180339887498949, 1.0);
    uint64_t offset = (uint64_t)(phase * (double)(ctas / windows - window));
    for (uint64_t i = 0; i <= windows; i++) {
        uint64_t start = i < windows ? i * ctas / windows + offset : ctas;
        sc_launch_stats part;
        if (start > done) {
            if (run_functional(engine, device, launch, done, start, &part, error) < 0)
                return -1;
            add_stats(stats, &part);
        }
        if (i == windows)
            break;
        steady_request steady = {warmup, measured, i + 1 < windows ? (i + 1) * ctas / windows + offset : ctas};
        sample_unit unit;
        uint64_t ran;
        if (run_detailed(engine, device, launch, start, start + window, &steady, &part, &unit, &ran, error) < 0)
            return -1;
        add_stats(stats, &part);
        add_unit(engine, s, &unit);
        s->detailed += ran;
        done = start + ran;
    }
    s->population += ctas;
    return 0;
}

/* Kernel-level sampling: the whole launch measured in detail, warming up in detail (timing
 * model state as the full run has it: queues, row buffers, dirty lines in flight; its cycles
 * are not used), or functionally. */
static int run_whole(sampled_engine *engine, sc_device *device, const sc_launch *launch, stratum *s,
                     launch_entry *entry, uint64_t ctas, sc_launch_stats *stats, sc_error *error)
{
    uint64_t spacing = (uint64_t)engine->options.period * (1 + engine->options.warmup_launches);
    uint64_t phase = s->population % spacing;
    entry->detailed = phase == 0;
    s->population++;
    uint64_t ran;
    if (phase >= spacing - engine->options.warmup_launches) {
        sample_unit unmeasured;
        if (run_detailed(engine, device, launch, 0, ctas, &no_steady_window, stats, &unmeasured, &ran, error) < 0)
            return -1;
        s->fast_forwarded_warp_instructions += stats->warp_instructions;
        return 0;
    }
    if (!entry->detailed) {
        if (run_functional(engine, device, launch, 0, ctas, stats, error) < 0)
            return -1;
        s->fast_forwarded_warp_instructions += stats->warp_instructions;
        return 0;
    }
    sample_unit unit;
    if (run_detailed(engine, device, launch, 0, ctas, &no_steady_window, stats, &unit, &ran, error) < 0)
        return -1;
    entry->detailed_cycles = unit.cycles;
    add_unit(engine, s, &unit);
    s->detailed++;
    return 0;
}

static int sampled_launch(void *state, sc_device *device, const sc_launch *launch, sc_launch_stats *stats,
                          sc_error *error)
{
    sampled_engine *engine = state;
    const sampling_options *o = &engine->options;
    uint64_t ctas = (uint64_t)launch->grid.x * launch->grid.y * launch->grid.z;
    uint64_t resident = timing_engine_resident_ctas(engine->timing, launch);
    uint64_t window = (uint64_t)ceil(o->window_waves * (double)resident);
    uint64_t warmup = (uint64_t)ceil(o->warmup_waves * (double)resident);
    bool windowed = resident > 0 && window > warmup && ctas >= (uint64_t)o->period * window;
    unsigned size_class = windowed ? 0 : 63 - (unsigned)__builtin_clzll(ctas);
    size_t index = find_stratum(engine, &launch->module->functions[launch->function],
                                windowed ? SAMPLE_WINDOWS : SAMPLE_LAUNCHES, size_class);
    stratum *s = &engine->strata[index];
    engine->launches = realloc(engine->launches, (engine->launch_count + 1) * sizeof *engine->launches);
    launch_entry *entry = &engine->launches[engine->launch_count];
    *entry = (launch_entry){.stratum = index};
    *stats = (sc_launch_stats){0};
    int status = windowed ? run_windows(engine, device, launch, s, ctas, window, warmup, stats, error)
                          : run_whole(engine, device, launch, s, entry, ctas, stats, error);
    if (status < 0)
        return -1;
    s->launches++;
    s->warp_instructions += stats->warp_instructions;
    entry->warp_instructions = stats->warp_instructions;
    engine->warp_instructions += stats->warp_instructions;
    engine->launch_count++;
    return 0;
}

static void sampled_host_access(void *state, sc_device *device, uint64_t address, size_t bytes, bool is_write)
{
    sampled_engine *engine = state;
    finish_warming(engine, device);
    timing_engine_ops.host_access(engine->timing, device, address, bytes, is_write);
}

void sampled_engine_report(void *state, sampled_report *report)
{
    sampled_engine *engine = state;
    *report = (sampled_report){0};
    sample_stratum_estimate *estimates = calloc(engine->stratum_count + 1, sizeof *estimates);
    for (size_t i = 0; i < engine->stratum_count; i++) {
        const stratum *s = &engine->strata[i];
        sample_stratum input = {
            .kind = s->kind,
            .units = s->units,
            .unit_count = s->unit_count,
            .launches = s->launches,
            .warp_instructions = s->warp_instructions,
            .fast_forwarded_warp_instructions = s->fast_forwarded_warp_instructions,
            .sampled_fraction = s->population ? (double)s->detailed / (double)s->population : 1.0,
        };
        sample_estimate_stratum(&input, &estimates[i]);
        if (estimates[i].dram_bound && !report->dram_bound_kernel)
            report->dram_bound_kernel = s->kernel->name;
        if (estimates[i].steady_before_turnover && !report->first_turnover_kernel)
            report->first_turnover_kernel = s->kernel->name;
        if (!estimates[i].variance_known && !report->unsampled_kernel) {
            report->unsampled_kernel = s->kernel->name;
            report->unsampled_kernel_launches = s->launches;
        }
    }
    sample_total total;
    sample_estimate_total(estimates, engine->stratum_count, 0.95, &total);
    engine->launch_cycles = realloc(engine->launch_cycles, (engine->launch_count + 1) * sizeof *engine->launch_cycles);
    for (size_t l = 0; l < engine->launch_count; l++) {
        const launch_entry *entry = &engine->launches[l];
        const sample_stratum_estimate *e = &estimates[entry->stratum];
        engine->launch_cycles[l] = entry->detailed ? (double)entry->detailed_cycles
                                                   : e->launch_overhead + e->rate * (double)entry->warp_instructions;
    }
    report->cycles = total.cycles;
    report->ci_low = total.ci_low;
    report->ci_high = total.ci_high;
    report->has_ci = total.has_ci;
    report->warp_instructions = engine->warp_instructions;
    report->detailed_warp_instructions = engine->detailed_warp_instructions;
    report->detailed_cycles = engine->detailed_cycles;
    report->units = engine->units;
    report->launch_cycles = engine->launch_cycles;
    report->launch_count = engine->launch_count;
    free(estimates);
}

const sc_engine_ops sampled_engine_ops = {
    .launch = sampled_launch,
    .host_access = sampled_host_access,
    .destroy = sampled_destroy,
};
