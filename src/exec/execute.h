/* execute.h — executes one warp instruction: the SIMT functional core shared by the functional
 * engine and the timing engine (which calls it as its execute stage). */
#ifndef SYNCSCOPE_EXEC_EXECUTE_H
#define SYNCSCOPE_EXEC_EXECUTE_H

#include "exec/memory_request.h"
#include "exec/warp.h"

typedef enum exec_status {
    EXEC_CONTINUE = 0,   /* executed; nothing for the engine to do */
    EXEC_MEMORY,         /* a global access is in `request`: perform it, then exec_memory_complete */
    EXEC_BARRIER,        /* warp arrived at a CTA barrier: hold it until the CTA is released */
    EXEC_FENCE,          /* a fence (semantics/scope in the step): order memory per the protocol */
    EXEC_WARP_DONE,      /* every lane has exited */
} exec_status;

typedef struct exec_step {
    exec_status status;
    const ptx_instruction *instruction;  /* what was issued */
    uint64_t active_mask;                /* lanes on the current path (before the guard) */
    uint64_t executed_mask;              /* lanes whose guard allowed execution */
    uint8_t semantics, scope;            /* EXEC_FENCE: the fence's ordering */
    bool barrier_opened;                 /* the step completed its CTA's barrier: the warps waiting
                                            at it go on (the last arrival, or an exit) */
} exec_step;

/* Issues the next instruction of `warp` and does the CTA's barrier bookkeeping (a barrier
 * releases once every warp of the CTA that has not exited waits at it). Returns 0 (see step->status) or -1 on a run-time error
 * (out-of-bounds shared/local access, call stack overflow...), with "kernel:line: ..." text. */
int exec_warp_step(exec_warp *warp, exec_memory_request *request, exec_step *step, sc_error *error);

/* The next instruction the warp will issue (NULL when done). */
const ptx_instruction *exec_warp_next_instruction(const exec_warp *warp);

#endif
