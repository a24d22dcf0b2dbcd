/* timing_internal.h — the state of the timing engine shared by its files: compute units, warp
 * slots with their scoreboards, the load/store unit, and the engine that drives them. */
#ifndef SYNCSCOPE_TIMING_TIMING_INTERNAL_H
#define SYNCSCOPE_TIMING_TIMING_INTERNAL_H

#include "exec/execute.h"
#include "exec/warp.h"
#include "timing/decode.h"
#include "timing/timing_engine.h"

#include <stddef.h>

#define CYCLE_NEVER UINT64_MAX

#define CTA_MAX_WARPS 32        /* 1024 threads in 32-lane warps */

typedef struct cta_slot {
    exec_cta cta;
    bool used;
    unsigned warp_slots[CTA_MAX_WARPS];  /* the CU's warp slot of each of its warps */
    unsigned warps_running;     /* warps not yet done */
    /* its DMA transfer in (dma_engine.c), when the launch maps a chunk to each CTA */
    uint32_t dma_lines_left;    /* lines of its chunk not yet requested */
    uint32_t dma_lines_pending; /* requested, not yet arrived */
    bool dma_pending;           /* its chunk is not all in the scratchpad yet */
    /* its last completed barrier, until the protocol says its warps may go on (cta_barrier_release);
       next to dma_pending: every warp check reads both */
    bool barrier_releasing;     /* the warps wait for the barrier's release */
    bool barrier_release_begun; /* the protocol was asked about it already */
    /* its stash (stash.c), when the launch maps a chunk to each CTA's stash: per word of the
       chunk, a bit per byte the stash holds, and the request in flight fetching it (or
       MEMORY_OP_NONE) */
    uint8_t *stash_held;
    uint32_t *stash_fetch;
} cta_slot;

/* A stash load waiting for another's request in flight (stash.c). */
typedef struct stash_waiter {
    uint32_t op, waits_for;
} stash_waiter;

/* The predicates of a warp's next instruction that depend on the warp alone (instruction buffer,
 * synchronisation, registers, and the protocol's issue filter if it has one) as last computed,
 * reused while the warp is unchanged (version) and time has not reached `wake` (compute_unit.c). */
typedef struct own_check {
    gsi_instruction_view view;  /* the unit's structural predicates left clear */
    uint8_t bits;               /* which of them hold (compute_unit.c's PREDICATE_*) */
    bool ordering_waived;       /* the protocol's issue filter waived its acquire and release */
    uint64_t wake;              /* earliest cycle one of them clears by time alone */
    uint64_t version;           /* the slot's version when computed */
} own_check;

/* The fields a reused check reads come first, in one cache line (slots are 64-byte aligned):
 * own, version, next_decoded, finished and cta. */
typedef struct warp_slot {
    _Alignas(64) own_check own;
    uint64_t version;           /* advances whenever the warp's own state changes (cu_slot_changed) */
    const decoded_instruction *next_decoded;  /* the warp's next instruction, decoded (cu_fetch_next) */
    bool release_waiting;       /* blocked before a release that holds back the other warps' writes */
    bool release_begun;         /* its next instruction's release was asked about (warp_release) */
    bool finished;              /* exited, waiting for its loads before the slot frees */
    cta_slot *cta;
    exec_warp *warp;            /* NULL when the slot is free */
    const ptx_instruction *next;              /* the warp's next instruction */
    uint64_t age;               /* dispatch order (GTO's "oldest") */
    uint64_t fetch_ready;       /* cycle the next instruction is in the instruction buffer */
    uint32_t acquire_op;        /* operation whose completion ends this warp's acquire, or NONE */
    uint32_t stores_in_flight;  /* of those, global stores (gpu.store_wait performed waits for them) */
    uint32_t last_store;        /* the latest of them while it is in flight, else MEMORY_OP_NONE */
    uint32_t global_in_flight;  /* global loads, stores and atomics issued from the slot, not yet done
                                   (a warp inherits those its slot's previous warp left: an exited
                                   warp waits for its loads only) */
    uint32_t *loads;            /* operations in flight that will write its registers */
    uint32_t loads_in_flight, loads_capacity;
    /* scoreboard, per register of the innermost frame */
    uint64_t *ready;            /* cycle the value is ready */
    uint32_t *pending_op;       /* operation that will write it, or MEMORY_OP_NONE */
    uint8_t *from_memory;       /* the pending value comes from a memory access */
    uint64_t scoreboard_ready;  /* no register is ready later than this cycle */
    bool filter_holding;        /* the protocol's issue filter holds back its next instruction */
    uint64_t held_since;        /* the cycle it first did (while filter_holding) */
    uint64_t release_since;     /* the cycle its next instruction's release first waited (release_begun) */
} warp_slot;
_Static_assert(offsetof(warp_slot, cta) + sizeof(cta_slot *) <= 64, "a reused check reads one cache line of its slot");

typedef struct ldst_unit {
    uint32_t op;                /* operation whose lines are being presented, or NONE */
    coalesced_line lines[EXEC_MAX_WARP_WIDTH];
    unsigned line_count, next_line;
    uint8_t event;              /* l1_event of the lines */
    uint64_t busy_until;        /* cycle it accepts a new instruction (private accesses) */
    int8_t blocked;             /* gsi_struct_cause of the latest refusal, GSI_NONE when flowing */
    bool waits_for_mshr;        /* presented nothing in its last cycle for want of an MSHR */
} ldst_unit;

typedef struct scheduler_state {
    unsigned *order;            /* its warp slots in dispatch order */
    unsigned count;
    int last_issued;            /* slot, -1 if none */
    unsigned last_position;     /* where last_issued was in order when it issued (a hint, compute_unit.c) */
} scheduler_state;

typedef struct compute_unit {
    unsigned index;
    warp_slot *slots;
    cta_slot *ctas;
    unsigned warps_used, ctas_used;
    uint64_t *simd_free;        /* per SIMD unit: cycle it accepts the next warp */
    uint64_t sfu_free;
    ldst_unit ldst;
    scheduler_state *schedulers;
    unsigned release_waiters;   /* warps blocked before a release */
    unsigned releases_next;     /* slots whose next instruction is a release */
    gsi_counters gsi;           /* this kernel */
    gsi_cycle last_class;       /* classification of the last evaluated cycle */
    uint64_t charged_through;   /* cycles before this one are charged (kernel-relative count) */
    uint64_t next_eval;         /* next cycle to evaluate, CYCLE_NEVER when only an event can change it */
    exec_memory_request scratch;  /* request of instructions that turn out private */
    int dma_blocking;           /* CTA slot whose pending DMA transfer blocks the whole CU, or -1 */
    uint32_t *dma_writes;       /* DMA write-back operations waiting to be presented, in order */
    unsigned dma_write_head, dma_write_count, dma_write_capacity;
    bool dma_refused_mshr;      /* this cycle the DMA engine's line request was refused an MSHR */
    uint64_t stash_acquired;    /* the cycle of the CU's last acquire (stash.c: older fills hold nothing) */
    stash_waiter *stash_waiters;   /* stash loads waiting for a request in flight */
    unsigned stash_waiter_count, stash_waiter_capacity;
} compute_unit;

/* Where a launch's steady window stands (mark_steady_window). */
typedef enum steady_phase { STEADY_WAITING, STEADY_OPEN, STEADY_CLOSED } steady_phase;

typedef struct timing_engine {
    timing_config config;
    const sc_protocol *protocol;
    sc_device *device;
    event_queue events;
    memory_system *memory;
    compute_unit *cus;
    gsi_counters *run_gsi;      /* per CU, summed over kernels */
    uint64_t run_cycles, run_instructions, run_kernels;
    timing_kernel_record *kernel_records;
    size_t kernel_record_capacity;
    /* the current launch */
    exec_kernel kernel;
    decoded_instruction **decoded;
    uint64_t kernel_start;      /* absolute GPU cycle the launch began */
    uint64_t next_cta, ctas_done;
    /* The steady window (timing_engine_measure_steady; mark_steady_window). */
    uint64_t steady_offset;     /* CTA offset before which it cannot open, UINT64_MAX for none */
    uint64_t steady_ctas;       /* CTAs it measures at least, from its opening CTA */
    uint64_t steady_planned_end;  /* CTA index the launch part was asked to end at */
    uint64_t steady_latest_end; /* CTA index the launch part may be extended to */
    steady_phase steady_phase;
    bool steady_before_turnover;  /* it opened before the launch had installed as many lines as its
                                     caches hold (turnover_lines) */
    uint64_t steady_misses_start;  /* L2 misses when the launch began */
    uint64_t steady_open_cta;   /* the CTA it opened at */
    uint64_t steady_start_cycle, steady_start_instructions;  /* where it opened */
    uint64_t steady_cycles, steady_instructions;             /* its length once closed */
    uint64_t ctas_per_cu;        /* CTAs of the launch a CU holds at once (exec/occupancy.h) */
    int32_t max_registers;      /* largest register count of the module's functions */
    uint64_t now_cycle;         /* absolute GPU cycle being processed */
    uint64_t earliest_eval;     /* the least next_eval of the CUs (cu_wake lowers it) */
    uint64_t thread_instructions;
    unsigned next_cu;           /* round-robin CTA placement */
    uint64_t instructions;
    uint64_t age_counter;
    uint64_t jitter_state;
    bool filters_issue;         /* the protocol has an issue filter (memory_filters_issue) */
    uint64_t filter_holds;      /* the run's holds of a warp by the issue filter, each counted when
                                   the filter lets the warp go (an SC core's ordering stalls) */
    uint64_t filter_hold_cycles;   /* their cycles, from the first check that held the warp to the
                                      first that let it go (the stall's resolve latency) */
    access_latencies *latencies;   /* sim.access_latencies: every global access's latency; else NULL */
    uint64_t releases;          /* the run's warp releases performed (st.release, atom/red release,
                                   release fences; not waived by the issue filter) */
    uint64_t releases_waited;   /* of those, the ones that waited before issuing */
    uint64_t release_wait_cycles;  /* their waits, from the first cycle the release was refused to
                                      its issue (the store-buffer flush and its writes performed) */
    uint64_t dma_line_requests;    /* line loads the DMA engines presented and the L1s accepted */
    uint64_t dma_mshr_refused_cycles;   /* CU cycles a DMA engine's line load was refused an MSHR */
    uint8_t view_category[64];  /* Algorithm 1's category by predicate bits (compute_unit.c) */
    sc_error *error;            /* the launch's error, for callbacks */
    int failed;
} timing_engine;

/* compute_unit.c */
int cu_create(timing_engine *engine, compute_unit *cu, unsigned index);
void cu_destroy(timing_engine *engine, compute_unit *cu);
/* Charges cycles [charged_through, cycle) with the last classification. */
void cu_catch_up(timing_engine *engine, compute_unit *cu, uint64_t cycle);
/* Evaluates one cycle: the load/store unit, issue, GSI. Returns -1 on an execution error. */
int cu_cycle(timing_engine *engine, compute_unit *cu, uint64_t cycle);
/* Engine callbacks of the memory system. */
void cu_op_done(timing_engine *engine, uint32_t op, uint64_t cycle);
/* Reads the warp's next instruction into the slot (after placement, after each issue: only the
 * warp's own steps move it, and when the slot is freed), keeping releases_next. */
void cu_fetch_next(const timing_engine *engine, compute_unit *cu, warp_slot *slot);
/* Makes the slot's own_check stale. */
void cu_slot_changed(warp_slot *slot);
/* Fills the engine's Algorithm 1 category of every combination of predicates. */
void cu_categories_init(timing_engine *engine);
/* Makes the CU evaluate `cycle` (or its first uncharged cycle, if later). */
void cu_wake(timing_engine *engine, compute_unit *cu, uint64_t cycle);
/* Finishes the CU's CTAs whose warps have all exited with no load in flight and no DMA transfer
 * pending. */
void cu_finish_idle_ctas(timing_engine *engine, compute_unit *cu);

/* dma_engine.c: the CU's DMA engine for a launch's DMA mapping (a no-op without one) */
/* A CTA placed: its transfer in begins. */
void dma_cta_placed(timing_engine *engine, cta_slot *cta);
/* A CTA finishing: its chunk's write-backs are queued (taken from its scratchpad now). */
void dma_cta_finished(timing_engine *engine, compute_unit *cu, const cta_slot *cta);
/* Whether the engine has requests left to present. */
bool dma_busy(const timing_engine *engine, const compute_unit *cu);
/* Presents up to local_memory.dma_requests_per_cycle requests to the L1. */
int dma_step(timing_engine *engine, compute_unit *cu, uint64_t cycle);
/* One of its operations completed (cu_op_done passes those of the DMA engine's slot). */
void dma_op_done(timing_engine *engine, compute_unit *cu, uint32_t op, uint64_t cycle);
/* GSI_STRUCT_PENDING_DMA while the CU is blocked on a pending transfer, which the warp's next
 * instruction starts when it is a shared access of a CTA whose transfer is pending (with
 * local_memory.dma_blocking warp: when the warp's own next instruction is such an access); else
 * GSI_NONE. */
int8_t dma_blocks(const timing_engine *engine, compute_unit *cu, const warp_slot *slot, const ptx_instruction *next);

/* stash.c: the CTAs' stashes for a launch's stash mapping (no-ops without one) */
/* A CTA placed: its stash holds nothing. */
void stash_cta_placed(timing_engine *engine, cta_slot *cta);
/* A CTA finished: its stash's state goes. */
void stash_cta_finished(cta_slot *cta);
/* An acquire of the CU at `cycle`: its CTAs' stashes hold nothing, and fills of loads issued
 * until then are dropped. */
void stash_acquire(timing_engine *engine, compute_unit *cu, uint64_t cycle);
/* What a shared access of a CTA with a stash needs (stash_access). */
typedef enum stash_verdict {
    STASH_FAILED = -1,   /* an atomic or reduction on mapped words: the engine's error is set */
    STASH_LOCAL,         /* nothing beyond the scratchpad */
    STASH_GLOBAL,        /* the request is now the global load of its missing lanes, or the global
                            store of its lanes on mapped words, at their mapped addresses */
    STASH_WAITS,         /* a load whose missing lanes a request in flight fetches: it completes
                            with that request's fill (stash_fill) */
} stash_verdict;
/* After the executor performed a shared access of the warp in `slot` (operation `op`). */
stash_verdict stash_access(timing_engine *engine, compute_unit *cu, warp_slot *slot, uint32_t op);
/* A stash load's request completed: its data fills the bytes its CTA's stash does not hold yet,
 * and the loads waiting for it complete (cu_op_done). */
void stash_fill(timing_engine *engine, compute_unit *cu, uint32_t op, uint64_t cycle);

/* timing_engine.c */
/* Places waiting CTAs on CUs with room; returns -1 on error. */
int engine_dispatch(timing_engine *engine, uint64_t cycle);
void engine_cta_finished(timing_engine *engine, compute_unit *cu, cta_slot *cta);

static inline uint64_t engine_cycle_of(const timing_engine *engine, sc_time time)
{
    sc_time period = engine->config.memory.gpu_clock.period;
    return (time + period - 1) / period;
}

#endif
