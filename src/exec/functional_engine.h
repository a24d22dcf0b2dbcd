/* functional_engine.h — the engine that runs launches without timing: fast functional runs,
 * fast-forward and profiling. */
#ifndef SYNCSCOPE_EXEC_FUNCTIONAL_ENGINE_H
#define SYNCSCOPE_EXEC_FUNCTIONAL_ENGINE_H

#include "exec/execute.h"
#include "exec/engine_interface.h"

/* Optional callbacks that watch a functional run (the profiler, model/profiler.h; a sampled
 * run's cache warming, timing/sampled_engine.c): the start of every launch, every issued warp
 * instruction (with its memory request when step->status is EXEC_MEMORY, before the request is
 * performed), the end of every launch and every host access between launches (a copy to or
 * from the device, a memset: the byte range and whether it writes). `one_scheduler_at_a_time`
 * is asked for each CU before every round of turns (see functional_engine_options.schedulers).
 * Under a timed issue order, `issue_at` is asked, at its scheduler's issue slot `clock`, before a
 * warp may issue its next instruction: the earliest slot it can issue at (`clock` or earlier: now;
 * later e.g. while a load it reads is in flight), and the step then sees warp->clock = its slot;
 * a warp named a later slot is not asked again before it. A NULL callback is skipped. */
typedef struct functional_observer {
    void *context;
    void (*launch_begin)(void *context, const exec_kernel *kernel);
    void (*step)(void *context, const exec_warp *warp, const exec_step *step, const exec_memory_request *request);
    void (*launch_end)(void *context, const exec_kernel *kernel);
    void (*host_access)(void *context, uint64_t address, size_t bytes, bool is_write);
    bool (*one_scheduler_at_a_time)(void *context, unsigned cu);
    uint64_t (*issue_at)(void *context, const exec_warp *warp, uint64_t clock);
} functional_observer;

/* How a CU's resident warps take turns. */
typedef enum functional_issue_order {
    /* Every warp runs `quantum` instructions per round, in CTA dispatch order, then warp index. */
    FUNCTIONAL_TURNS,
    /* Timed issue: per CU and round, `quantum` issue slots, in each of which every scheduler issues
     * one instruction from one of its warps that can issue: not at a barrier and at or after the
     * slot the observer's issue_at names (slots in which none can pass idle). Which warp is the
     * scheduler's policy, as the timing engine's schedulers pick it from their warps in dispatch
     * order (CTA dispatch order, then warp index): */
    FUNCTIONAL_TIMED_GREEDY_THEN_OLDEST,   /* gto: the last issuer if it can, else the oldest that can */
    FUNCTIONAL_TIMED_LOOSE_ROUND_ROBIN,    /* lrr: the first that can after the last issuer, wrapping */
} functional_issue_order;

typedef struct functional_engine_options {
    unsigned warp_size;
    /* A CU holds as many CTAs of a launch at once as fit in its CTA slots, warp slots, registers
     * and shared memory (exec/occupancy.h; UINT64_MAX, the default for the last three: no limit). */
    unsigned cu_count;
    unsigned ctas_per_cu;
    uint64_t warps_per_cu, registers_per_cu, shared_bytes_per_cu;
    unsigned quantum;           /* warp instructions a warp runs before the next warp's turn
                                 * (timed issue: issue slots per CU and round) */
    uint64_t max_warp_instructions;  /* watchdog for one launch */
    const functional_observer *observer;  /* NULL: none */
    /* Slot s of a launch holds its CTAs on CU s mod cu_count; with continue_placement the slots
     * start where the previous launch's round-robin stopped (first slot on CU (sum of earlier
     * launches' CTAs) mod cu_count), as the timing engine's dispatcher places CTAs. */
    bool continue_placement;
    /* Warp schedulers per CU: a CU's warps belong to them as the timing engine assigns warp slots
     * (slot k of the CU to scheduler k mod schedulers, a CTA's warps on consecutive slots). In a
     * round for which the observer's one_scheduler_at_a_time says so for a CU, only the warps of
     * the CU's current scheduler take turns; after a round in which none of them could (done, or
     * waiting at a barrier) the CU's next scheduler becomes current. 1: every warp every round. */
    unsigned schedulers;
    functional_issue_order issue_order;   /* default FUNCTIONAL_TURNS */
} functional_engine_options;

functional_engine_options functional_engine_defaults(unsigned warp_size);
/* Creates the engine state for sc_device_set_engine. */
void *functional_engine_create(const functional_engine_options *options);
extern const sc_engine_ops functional_engine_ops;

#endif
