/* warp.h — the state of a kernel launch as the SIMT executor sees it: launch, CTAs, warps,
 * call frames and the SIMT reconvergence stack.
 *
 * Registers are stored register-major (registers[r * width + lane], 64 bits per lane, values
 * zero-extended from their type's width), so one warp instruction touches one contiguous row per
 * operand. Every register of a call frame lives in that frame's array.
 */
#ifndef SYNCSCOPE_EXEC_WARP_H
#define SYNCSCOPE_EXEC_WARP_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/engine_interface.h"
#include "ptx/ptx_ir.h"

#define EXEC_MAX_WARP_WIDTH 64

/* An instruction pre-decoded for the interpreter (exec/program.h). */
typedef struct exec_op exec_op;

typedef struct exec_simt_entry {
    int32_t pc;          /* next instruction of this path */
    int32_t reconverge;  /* pop when pc reaches it (function instruction_count = frame exit) */
    uint64_t mask;       /* lanes on this path */
} exec_simt_entry;

typedef struct exec_frame {
    int32_t function;        /* index in the module */
    int32_t return_pc;       /* caller instruction to resume after the call */
    int32_t stack_base;      /* index of this frame's base SIMT entry */
    uint64_t local_base;     /* byte offset of the frame in each lane's local stack */
    uint64_t *registers;     /* register_count * width values */
    const uint64_t *register_masks;  /* width mask of each register of the function */
    const exec_op *ops;           /* the function's pre-decoded instructions, indexed by pc */
    const ptx_instruction *call;  /* the call instruction in the caller, NULL for the kernel */
    uint64_t call_mask;           /* lanes that entered the frame */
} exec_frame;

/* Per-launch facts shared by all CTAs. */
typedef struct exec_kernel {
    sc_device *device;
    const sc_launch *launch;
    const ptx_module *module;
    const ptx_function *entry;
    const uint64_t *symbol_addresses;  /* per module symbol: global address or shared offset */
    uint32_t static_shared_bytes;      /* where dynamic shared memory starts */
    uint32_t shared_bytes;             /* static + dynamic, per CTA */
    uint64_t local_stride;             /* bytes of local stack per thread */
    unsigned width;                    /* lanes per warp */
    uint64_t full_mask;                /* all `width` lanes: the mask the whole-warp fast paths take */
    unsigned warps_per_cta;
    unsigned cu_count;                 /* %nsmid: compute units of the engine */
    uint32_t threads_per_cta;
    uint64_t cta_count;                /* CTAs in the grid */
    uint64_t cta_first, cta_end;       /* the CTAs this launch runs (sc_launch) */
    uint64_t **register_masks;         /* per module function: width mask of each register */
    exec_op **programs;                /* per module function: its pre-decoded instructions */
} exec_kernel;

typedef struct exec_cta exec_cta;

typedef struct exec_warp {
    exec_cta *cta;
    const exec_kernel *kernel;
    unsigned index_in_cta;
    uint64_t valid_mask;       /* lanes backed by a thread (the last warp may be partial) */
    uint64_t exited_mask;
    exec_simt_entry *stack;
    int32_t stack_depth, stack_capacity;
    exec_frame *frames;
    int32_t frame_depth, frame_capacity;
    uint8_t *local_memory;     /* width * kernel->local_stride bytes */
    bool done;
    bool waiting_at_barrier;
    /* bar.red this warp waits at: its lanes (0: none), destination register and ptx_bar_mode;
     * the CTA's barrier release writes the reduction there. */
    uint64_t reduction_lanes;
    int32_t reduction_destination;
    uint8_t reduction_mode;
    uint64_t instructions;     /* warp instructions issued */
    uint64_t thread_instructions;
    uint64_t clock;            /* value of %clock: set by the engine before each step */
} exec_warp;

struct exec_cta {
    const exec_kernel *kernel;
    uint64_t linear_id;
    uint32_t ctaid[3];
    uint8_t *shared_memory;
    exec_warp *warps;
    unsigned warp_count;
    unsigned warps_done;
    unsigned barrier_waiting;  /* warps waiting at the current barrier */
    /* bar.red predicates of the threads at the current barrier: how many held, whether one held
     * and whether one did not (.popc, .or, .and). */
    uint32_t reduction_true_count;
    bool reduction_some_true, reduction_some_false;
    unsigned cu;               /* compute unit it runs on (%smid) */
    /* Register writes by its warps that changed a value (operand_write*, loads completing): the
     * forward progress the engines' deadlock detectors watch for (engine_interface.h). */
    uint64_t value_changes;
};

/* Prepares per-launch facts: symbol addresses, shared layout, local stack size. */
int exec_kernel_init(exec_kernel *kernel, sc_device *device, const sc_launch *launch, unsigned width,
                     sc_error *error);

void exec_kernel_release(exec_kernel *kernel);

/* Creates CTA `linear_id` of the launch with all its warps at the kernel's first instruction. */
int exec_cta_init(exec_cta *cta, const exec_kernel *kernel, uint64_t linear_id, unsigned cu,
                  sc_error *error);
/* Makes `cta`, a finished CTA of the same launch, CTA `linear_id` on `cu`: the state exec_cta_init
 * gives, in the storage it already has (cleared, not allocated anew). */
int exec_cta_reuse(exec_cta *cta, uint64_t linear_id, unsigned cu, sc_error *error);
void exec_cta_release(exec_cta *cta);

/* The launch's local-memory mapping (engine_interface.h: DMA or stash) for one CTA: its chunk's global address, and the
 * chunk's bytes in the CTA's shared memory. */
uint64_t exec_dma_global(const exec_cta *cta);
uint8_t *exec_dma_shared(const exec_cta *cta);
/* The mapping performed at once on the launch's global image (the functional engine, for either
 * kind): the chunk copied in when the CTA starts, and back out when it finishes. No-ops without a
 * mapping. */
void exec_cta_dma_in(exec_cta *cta);
void exec_cta_dma_out(const exec_cta *cta);

/* The innermost frame and its function. */
static inline exec_frame *exec_warp_frame(exec_warp *warp)
{
    return &warp->frames[warp->frame_depth - 1];
}

static inline const ptx_function *exec_frame_function(const exec_warp *warp, const exec_frame *frame)
{
    return &warp->kernel->module->functions[frame->function];
}

#endif
