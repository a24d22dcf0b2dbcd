/* gsi.h — the GSI stall inspector (Alsop 2016): charges every cycle of a compute unit to exactly
 * one of eight categories, as ../shared/seeds/digests/001-gsi.md sections 1-2 specify.
 *
 * The timing model describes, once per evaluated CU cycle, the next instruction of every warp
 * the schedulers considered (gsi_instruction_view, the Algorithm 1 predicates). Algorithm 1
 * gives each instruction its strongest cause; Algorithm 2 gives the cycle the weakest cause
 * found. Both priority orders are data (gsi_policy) so users can tailor them.
 *
 * Open points of the thesis, decided here (digest 1.6):
 *  - schedulers are merged: the candidates of every scheduler of a CU form one set, classified
 *    once per CU cycle;
 *  - when several instructions share the winning category, the sub-category comes from the
 *    first of them in the order the caller lists them (the schedulers' priority order);
 *  - an instruction waiting on several loads names the most recently issued one, the likeliest
 *    to complete last (the caller does this when it fills `load`);
 *  - memory-data cycles are charged to the awaited load and moved to the bucket of the level
 *    that served it when the load completes (deferred attribution); cycles still unresolved at
 *    the end stay in GSI_SOURCE_UNRESOLVED, which a correct run leaves at 0.
 */
#ifndef SYNCSCOPE_STALLS_GSI_H
#define SYNCSCOPE_STALLS_GSI_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

typedef enum gsi_category {
    GSI_NO_STALL = 0,
    GSI_IDLE,
    GSI_CONTROL,
    GSI_SYNC,
    GSI_MEM_DATA,
    GSI_MEM_STRUCT,
    GSI_COMP_DATA,
    GSI_COMP_STRUCT,
    GSI_CATEGORY_COUNT
} gsi_category;

/* Where the load a memory-data stall waited on was served. */
typedef enum gsi_source {
    GSI_SOURCE_L1 = 0,        /* local hit (L1, scratchpad, stash) */
    GSI_SOURCE_L1_COALESCE,   /* L1 miss merged into an outstanding miss to the same line */
    GSI_SOURCE_L2,
    GSI_SOURCE_REMOTE_L1,     /* another core's L1 (ownership protocols) */
    GSI_SOURCE_L3,            /* memory-side L3 or directory */
    GSI_SOURCE_DRAM,
    GSI_SOURCE_REMOTE,        /* a CPU cache or another GPU */
    GSI_SOURCE_UNRESOLVED,    /* not yet completed */
    GSI_SOURCE_COUNT
} gsi_source;

/* Why a ready memory instruction cannot enter the load/store unit. */
typedef enum gsi_struct_cause {
    GSI_STRUCT_MSHR_FULL = 0,
    GSI_STRUCT_STORE_BUFFER_FULL,
    GSI_STRUCT_BANK_CONFLICT,     /* the unit is still serialising an earlier access's banks or lines */
    GSI_STRUCT_PENDING_RELEASE,   /* the store buffer is draining for a release */
    GSI_STRUCT_PENDING_DMA,
    GSI_STRUCT_COUNT
} gsi_struct_cause;

typedef enum gsi_sync_kind {
    GSI_SYNC_ACQUIRE = 0,
    GSI_SYNC_RELEASE,
    GSI_SYNC_BARRIER,
    GSI_SYNC_ORDERING,   /* an SC core (protocols/common/sc_core.h) holds a global, shared or local
                            access until the warp's previous global access is performed */
    GSI_SYNC_KIND_COUNT
} gsi_sync_kind;

#define GSI_NONE (-1)

/* The Algorithm 1 predicates of one warp's next instruction in one cycle. */
typedef struct gsi_instruction_view {
    bool idle;              /* no active warp behind this slot */
    bool next_unavailable;  /* the instruction buffer does not hold the warp's next instruction */
    int8_t sync;            /* gsi_sync_kind the warp is blocked on, or GSI_NONE */
    bool pending_load;      /* a source or destination register awaits a load */
    uint32_t load;          /* caller's handle of that load (the one completing last) */
    int8_t mem_struct;      /* gsi_struct_cause refusing this memory instruction, or GSI_NONE */
    bool pending_compute;   /* a register awaits a compute result */
    bool compute_busy;      /* the functional unit it needs is occupied */
} gsi_instruction_view;

/* Both priority orders: every category exactly once, strongest (Algorithm 1) or winning
 * (Algorithm 2) first. */
typedef struct gsi_policy {
    uint8_t instruction_order[GSI_CATEGORY_COUNT];
    uint8_t cycle_order[GSI_CATEGORY_COUNT];
} gsi_policy;

/* The thesis's orders: Algorithm 1 IDLE > CONTROL > SYNC > MEM_DATA > MEM_STRUCT > COMP_DATA >
 * COMP_STRUCT > NO_STALL; Algorithm 2 NO_STALL > MEM_STRUCT > MEM_DATA > SYNC > COMP_STRUCT >
 * COMP_DATA > CONTROL > IDLE. */
gsi_policy gsi_default_policy(void);

/* Parses an order such as "idle,control,sync,mem_data,mem_struct,comp_data,comp_struct,no_stall"
 * (each category name exactly once). `what` names the setting in the error message. */
int gsi_parse_order(const char *text, uint8_t order[GSI_CATEGORY_COUNT], const char *what, sc_error *error);

/* Algorithm 1: the strongest cause blocking one instruction (GSI_NO_STALL if it can issue). */
gsi_category gsi_classify_instruction(const gsi_policy *policy, const gsi_instruction_view *view);

/* The classification of one CU cycle. */
typedef struct gsi_cycle {
    uint8_t category;     /* gsi_category */
    int8_t sub;           /* SYNC: gsi_sync_kind; MEM_STRUCT: gsi_struct_cause; else GSI_NONE */
    int32_t winner;       /* index in the views of the instruction that decided it, -1 if none */
    uint32_t load;        /* MEM_DATA: the winner's awaited load handle */
} gsi_cycle;

/* Algorithm 2 over `count` views (count 0 means no warp at all: IDLE). */
gsi_cycle gsi_classify_cycle(const gsi_policy *policy, const gsi_instruction_view *views, unsigned count);

/* Per-CU totals. Invariants: sum(category) = cycles charged; sum(source) = MEM_DATA;
 * sum(struct_cause) = MEM_STRUCT; sum(sync_kind) = SYNC. */
typedef struct gsi_counters {
    uint64_t category[GSI_CATEGORY_COUNT];
    uint64_t source[GSI_SOURCE_COUNT];
    uint64_t struct_cause[GSI_STRUCT_COUNT];
    uint64_t sync_kind[GSI_SYNC_KIND_COUNT];
} gsi_counters;

/* Charges `cycles` cycles classified as `cycle`. MEM_DATA cycles go to GSI_SOURCE_UNRESOLVED
 * until gsi_resolve moves them; the caller adds them to the load's own counter too. */
void gsi_charge(gsi_counters *counters, const gsi_cycle *cycle, uint64_t cycles);

/* Moves `cycles` memory-data cycles from UNRESOLVED to `source` (when their load completes). */
void gsi_resolve(gsi_counters *counters, gsi_source source, uint64_t cycles);

/* Adds every counter of `from` into `into`. */
void gsi_accumulate(gsi_counters *into, const gsi_counters *from);

/* Scales counters that sum to some cycles so they sum to `cycles` (a sampled run's estimate):
 * every leaf (a category without sub-categories, or a sub-category) is scaled in proportion and
 * rounded down, the leftover cycles go to the leaves with the largest remainders, and the
 * categories with sub-categories are rebuilt from them, so the invariants hold exactly. */
void gsi_scale(const gsi_counters *from, uint64_t cycles, gsi_counters *to);
/* Checks the invariants against `cycles`; fails naming the first broken one. */
int gsi_check(const gsi_counters *counters, uint64_t cycles, sc_error *error);

/* Names as stored in the database (stalls.category / stalls.subcategory) and drawn by
 * export/stall_palette.c: "no_stall", "mem_data"; "l1", "l1_coalesce", "l2", "remote_l1", "l3",
 * "dram", "remote", "unresolved"; "mshr_full", "store_buffer_full", "bank_conflict",
 * "pending_release", "pending_dma"; "acquire", "release", "barrier", "ordering". */
const char *gsi_category_name(gsi_category category);
const char *gsi_source_name(gsi_source source);
const char *gsi_struct_cause_name(gsi_struct_cause cause);
const char *gsi_sync_kind_name(gsi_sync_kind kind);

#endif
