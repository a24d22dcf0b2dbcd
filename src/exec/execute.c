/* execute.c — issues one warp instruction: guard evaluation, control flow on the SIMT stack,
 * and dispatch of the pre-decoded instruction (exec/program.h) to its handler or to the memory
 * part of the interpreter; CTA barriers, with the reductions of bar.red. */
#include "exec/execute_internal.h"

#include "exec/operands.h"
#include "exec/simt_stack.h"

/* The pre-decoded instruction at the current path's pc, or NULL when the warp has none. */
static const exec_op *next_op(const exec_warp *warp)
{
    if (warp->done || warp->stack_depth == 0)
        return NULL;
    const exec_op *op = &warp->frames[warp->frame_depth - 1].ops[warp->stack[warp->stack_depth - 1].pc];
    return op->instruction ? op : NULL;
}

const ptx_instruction *exec_warp_next_instruction(const exec_warp *warp)
{
    const exec_op *op = next_op(warp);
    return op ? op->instruction : NULL;
}

static uint64_t guard_lanes(const exec_warp *warp, const exec_frame *frame, const exec_op *op, uint64_t active)
{
    if (op->guard_reg < 0)
        return active;
    const uint64_t *row = operand_register_row(warp, frame, op->guard_reg);
    uint64_t lanes = 0;
    if (active == warp->kernel->full_mask) {
        for (unsigned lane = 0; lane < warp->kernel->width; lane++)
            lanes |= (uint64_t)((row[lane] != 0) != op->guard_negated) << lane;
        return lanes;
    }
    for (uint64_t m = active; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        lanes |= (uint64_t)((row[lane] != 0) != op->guard_negated) << lane;
    }
    return lanes;
}

static int runtime_error(const exec_warp *warp, const ptx_instruction *in, sc_error *error)
{
    return sc_fail_prefix(error, "%s:%d", warp->kernel->module->path, in->line);
}

/* Moves the current path past a non-branching instruction. */
static void advance(exec_warp *warp)
{
    warp->stack[warp->stack_depth - 1].pc++;
}

static exec_status finish_control(exec_warp *warp)
{
    simt_settle(warp);
    if (warp->stack_depth == 0) {
        warp->done = true;
        return EXEC_WARP_DONE;
    }
    return EXEC_CONTINUE;
}

static int execute_control(exec_warp *warp, const ptx_instruction *in, uint64_t active, uint64_t lanes,
                           exec_step *step, sc_error *error)
{
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_BRA:
        if (simt_branch(warp, lanes, (int32_t)in->operands[0].value, in->reconverge, error) < 0)
            return runtime_error(warp, in, error);
        break;
    case PTX_OP_EXIT:
        simt_exit_lanes(warp, lanes);
        if (lanes != active)
            advance(warp);
        break;
    case PTX_OP_RET:
        simt_return_lanes(warp, lanes);
        if (lanes != active)
            advance(warp);
        break;
    default: /* call */
        advance(warp);
        if (lanes && simt_call(warp, in, lanes, error) < 0)
            return runtime_error(warp, in, error);
        break;
    }
    step->status = finish_control(warp);
    return 0;
}

/* bar.red: the lanes' predicates (the last operand) join the CTA's reduction; the release
 * writes the result to the destination. */
static void arrive_with_reduction(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    exec_cta *cta = warp->cta;
    const ptx_operand *predicate = &in->operands[in->operand_count - 1];
    for (uint64_t m = lanes; m; m &= m - 1) {
        bool holds = operand_read(warp, frame, predicate, (unsigned)__builtin_ctzll(m)) != 0;
        cta->reduction_true_count += holds;
        cta->reduction_some_true |= holds;
        cta->reduction_some_false |= !holds;
    }
    warp->reduction_lanes = lanes;
    warp->reduction_destination = in->operands[0].reg;
    warp->reduction_mode = in->mode;
}

static int issue(exec_warp *warp, exec_memory_request *request, exec_step *step, sc_error *error)
{
    const exec_op *op = next_op(warp);
    const ptx_instruction *in = op ? op->instruction : NULL;
    *step = (exec_step){.status = EXEC_CONTINUE, .instruction = in};
    if (!op) {
        warp->done = true;
        step->status = EXEC_WARP_DONE;
        return 0;
    }
    exec_frame *frame = exec_warp_frame(warp);
    uint64_t active = warp->stack[warp->stack_depth - 1].mask;
    uint64_t lanes = guard_lanes(warp, frame, op, active);
    step->active_mask = active;
    step->executed_mask = lanes;
    warp->instructions++;
    /* A whole warp's lane count is its width (this build's popcount is a library call). */
    warp->thread_instructions += lanes == warp->kernel->full_mask ? warp->kernel->width
                                                                   : (uint64_t)__builtin_popcountll(lanes);

    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_BRA: case PTX_OP_EXIT: case PTX_OP_RET: case PTX_OP_CALL:
        return execute_control(warp, in, active, lanes, step, error);
    case PTX_OP_LD: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED: {
        request->shared_lanes = 0;
        int global = lanes ? execute_memory(warp, op, lanes, request, error) : 0;
        if (global < 0)
            return -1;
        step->status = global ? EXEC_MEMORY : EXEC_CONTINUE;
        break;
    }
    case PTX_OP_BAR:
        if (lanes && in->mode != PTX_BAR_ARRIVE)
            step->status = EXEC_BARRIER;
        if (lanes && (in->mode == PTX_BAR_RED_POPC || in->mode == PTX_BAR_RED_AND || in->mode == PTX_BAR_RED_OR))
            arrive_with_reduction(warp, frame, in, lanes);
        break;
    case PTX_OP_FENCE:
        step->status = lanes ? EXEC_FENCE : EXEC_CONTINUE;
        step->semantics = in->semantics;
        step->scope = in->scope;
        break;
    case PTX_OP_BAR_WARP:
    case PTX_OP_NANOSLEEP:
        break;
    default:
        if (!op->execute)
            return sc_fail(error, "%s:%d: the executor does not implement '%s'", warp->kernel->module->path, in->line,
                           ptx_opcode_name((ptx_opcode)in->opcode));
        if (lanes)
            op->execute(warp, frame, op, lanes);
        break;
    }
    advance(warp);
    simt_settle(warp);
    if (warp->stack_depth == 0) {
        warp->done = true;
        if (step->status == EXEC_CONTINUE)
            step->status = EXEC_WARP_DONE;
    }
    return 0;
}

static void release_barrier(exec_cta *cta)
{
    for (unsigned i = 0; i < cta->warp_count; i++) {
        exec_warp *warp = &cta->warps[i];
        warp->waiting_at_barrier = false;
        if (!warp->reduction_lanes)
            continue;
        uint64_t value = warp->reduction_mode == PTX_BAR_RED_POPC  ? cta->reduction_true_count
                         : warp->reduction_mode == PTX_BAR_RED_AND ? !cta->reduction_some_false
                                                                   : cta->reduction_some_true;
        for (uint64_t m = warp->reduction_lanes; m; m &= m - 1)
            operand_write(warp, exec_warp_frame(warp), warp->reduction_destination, (unsigned)__builtin_ctzll(m),
                          value);
        warp->reduction_lanes = 0;
    }
    cta->barrier_waiting = 0;
    cta->reduction_true_count = 0;
    cta->reduction_some_true = cta->reduction_some_false = false;
}

/* CTA bookkeeping after a step: a warp that finished or arrived at a barrier may complete the
 * barrier, which releases once every warp that has not exited waits at it (the step says so:
 * barrier_opened). */
static void account_cta(exec_warp *warp, bool was_done, exec_step *step)
{
    exec_cta *cta = warp->cta;
    if (warp->done && !was_done)
        cta->warps_done++;
    if (step->status == EXEC_BARRIER) {
        warp->waiting_at_barrier = true;
        cta->barrier_waiting++;
    }
    if (cta->barrier_waiting > 0 && cta->barrier_waiting >= cta->warp_count - cta->warps_done) {
        release_barrier(cta);
        step->barrier_opened = true;
    }
}

int exec_warp_step(exec_warp *warp, exec_memory_request *request, exec_step *step, sc_error *error)
{
    bool was_done = warp->done;
    if (issue(warp, request, step, error) < 0)
        return -1;
    account_cta(warp, was_done, step);
    return 0;
}
