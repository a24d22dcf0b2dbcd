/* simt_stack.c — the post-dominator reconvergence stack (see simt_stack.h).
 *
 * The top entry is the path being executed. A divergent branch turns the top entry into the
 * reconvergence entry (pc = immediate post-dominator, all lanes) and pushes the fall-through and
 * the taken paths above it; a path pops when its pc reaches its reconvergence point, and the
 * lanes continue together in the entry below. A call frame's base entry reconverges at the
 * callee's instruction_count, which only `ret` reaches. */
#include "exec/simt_stack.h"

#include <stdlib.h>
#include <string.h>

enum { SIMT_STACK_LIMIT = 4096 };

int simt_push(exec_warp *warp, int32_t pc, int32_t reconverge, uint64_t mask, sc_error *error)
{
    if (warp->stack_depth == warp->stack_capacity) {
        if (warp->stack_capacity >= SIMT_STACK_LIMIT)
            return sc_fail(error, "SIMT reconvergence stack overflow (more than %d nested paths)",
                           SIMT_STACK_LIMIT);
        warp->stack_capacity = warp->stack_capacity ? warp->stack_capacity * 2 : 8;
        warp->stack = realloc(warp->stack, (size_t)warp->stack_capacity * sizeof *warp->stack);
    }
    warp->stack[warp->stack_depth++] = (exec_simt_entry){pc, reconverge, mask};
    return 0;
}

void simt_settle(exec_warp *warp)
{
    while (warp->stack_depth > 0) {
        exec_simt_entry *top = &warp->stack[warp->stack_depth - 1];
        bool is_frame_base = warp->stack_depth - 1 == exec_warp_frame(warp)->stack_base;
        bool reconverged = top->pc == top->reconverge && !is_frame_base;
        if (top->mask != 0 && !reconverged)
            return;
        warp->stack_depth--;
        if (is_frame_base && warp->frame_depth > 1)
            simt_return_from_frame(warp);
    }
}

int simt_branch(exec_warp *warp, uint64_t taken, int32_t target, int32_t reconverge, sc_error *error)
{
    exec_simt_entry *top = &warp->stack[warp->stack_depth - 1];
    uint64_t not_taken = top->mask & ~taken;
    int32_t fall_through = top->pc + 1;
    if (not_taken == 0) {
        top->pc = target;
        return 0;
    }
    if (taken == 0) {
        top->pc = fall_through;
        return 0;
    }
    bool top_is_frame_base = warp->stack_depth - 1 == exec_warp_frame(warp)->stack_base;
    if (top->reconverge == reconverge && !top_is_frame_base) {
        /* Already inside a path that reconverges at the same point: reuse it. */
        top->mask = not_taken;
        top->pc = fall_through;
    } else {
        top->pc = reconverge;
        if (simt_push(warp, fall_through, reconverge, not_taken, error) < 0)
            return -1;
    }
    if (simt_push(warp, target, reconverge, taken, error) < 0)
        return -1;
    return 0;
}

void simt_exit_lanes(exec_warp *warp, uint64_t lanes)
{
    warp->exited_mask |= lanes;
    for (int32_t i = 0; i < warp->stack_depth; i++)
        warp->stack[i].mask &= ~lanes;
}

static uint8_t *lane_frame_bytes(exec_warp *warp, unsigned lane, uint64_t offset)
{
    return warp->local_memory + (uint64_t)lane * warp->kernel->local_stride + offset;
}

/* Copies each lane's bytes of `count` frame symbols from one frame to another. */
static void copy_parameters(exec_warp *warp, uint64_t lanes, const exec_frame *from, const int32_t *from_symbols,
                            const exec_frame *to, const int32_t *to_symbols, int count)
{
    const ptx_symbol *symbols = warp->kernel->module->symbols;
    for (int i = 0; i < count; i++) {
        const ptx_symbol *source = &symbols[from_symbols[i]], *target = &symbols[to_symbols[i]];
        uint64_t bytes = source->size < target->size ? source->size : target->size;
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            memcpy(lane_frame_bytes(warp, lane, to->local_base + target->offset),
                   lane_frame_bytes(warp, lane, from->local_base + source->offset), bytes);
        }
    }
}

int simt_call(exec_warp *warp, const ptx_instruction *call, uint64_t lanes, sc_error *error)
{
    const ptx_module *module = warp->kernel->module;
    const ptx_function *callee = &module->functions[call->callee];
    exec_frame *caller = exec_warp_frame(warp);
    uint64_t local_base = caller->local_base + exec_frame_function(warp, caller)->frame_bytes;
    if (local_base + callee->frame_bytes > warp->kernel->local_stride)
        return sc_fail(error, "call stack overflow calling %s (local memory per thread %llu bytes)",
                       callee->name, (unsigned long long)warp->kernel->local_stride);
    if (call->call_arg_count > callee->param_count || call->call_return_count > callee->return_count)
        return sc_fail(error, "call to %s passes more parameters than it declares", callee->name);
    if (warp->frame_depth == warp->frame_capacity) {
        warp->frame_capacity = warp->frame_capacity ? warp->frame_capacity * 2 : 4;
        warp->frames = realloc(warp->frames, (size_t)warp->frame_capacity * sizeof *warp->frames);
        caller = exec_warp_frame(warp);
    }
    exec_frame *frame = &warp->frames[warp->frame_depth];
    *frame = (exec_frame){
        .function = call->callee,
        .stack_base = warp->stack_depth,
        .local_base = local_base,
        .registers = calloc((size_t)callee->register_count * warp->kernel->width + 1, sizeof(uint64_t)),
        .register_masks = warp->kernel->register_masks[call->callee],
        .ops = warp->kernel->programs[call->callee],
        .call = call,
        .call_mask = lanes,
    };
    copy_parameters(warp, lanes, caller, call->call_args, frame, callee->params, call->call_arg_count);
    warp->frame_depth++;
    return simt_push(warp, 0, callee->instruction_count, lanes, error);
}

void simt_return_from_frame(exec_warp *warp)
{
    exec_frame *callee = exec_warp_frame(warp);
    exec_frame *caller = &warp->frames[warp->frame_depth - 2];
    const ptx_function *function = exec_frame_function(warp, callee);
    copy_parameters(warp, callee->call_mask & ~warp->exited_mask, callee, function->returns, caller,
                    callee->call->call_returns, callee->call->call_return_count);
    free(callee->registers);
    warp->frame_depth--;
}

void simt_return_lanes(exec_warp *warp, uint64_t lanes)
{
    if (warp->frame_depth == 1) {
        simt_exit_lanes(warp, lanes);
        return;
    }
    for (int32_t i = exec_warp_frame(warp)->stack_base; i < warp->stack_depth; i++)
        warp->stack[i].mask &= ~lanes;
}
