/* execute.c — issues one warp instruction: guard evaluation, control flow on the SIMT stack,
 * and dispatch to the arithmetic, memory and collective parts of the interpreter. */
#include "exec/execute_internal.h"

#include "exec/address_map.h"
#include "exec/alu.h"
#include "exec/operands.h"
#include "exec/simt_stack.h"

const ptx_instruction *exec_warp_next_instruction(const exec_warp *warp)
{
    if (warp->done || warp->stack_depth == 0)
        return NULL;
    const exec_frame *frame = &warp->frames[warp->frame_depth - 1];
    const ptx_function *function = exec_frame_function(warp, frame);
    int32_t pc = warp->stack[warp->stack_depth - 1].pc;
    return pc < function->instruction_count ? &function->instructions[pc] : NULL;
}

static uint64_t guard_lanes(const exec_warp *warp, const exec_frame *frame, const ptx_instruction *in, uint64_t active)
{
    if (in->guard_reg < 0)
        return active;
    const uint64_t *row = operand_register_row(warp, frame, in->guard_reg);
    uint64_t lanes = 0;
    for (uint64_t m = active; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        if ((row[lane] != 0) != (in->guard_negated != 0))
            lanes |= 1ull << lane;
    }
    return lanes;
}

/* Number of source operands an ALU instruction reads (operands after the destination). */
static unsigned source_count(const ptx_instruction *in)
{
    return in->operand_count > 0 ? in->operand_count - 1u : 0u;
}

/* Integer instructions common enough to deserve a loop of their own: the operation is chosen
 * once per warp instruction rather than once per lane. Returns false for everything else. */
static bool integer_fast_path(const ptx_instruction *in, uint64_t lanes, uint64_t (*s)[EXEC_MAX_WARP_WIDTH],
                              uint64_t *result)
{
    if (ptx_type_is_float((ptx_type)in->type) || (in->flags & (PTX_FLAG_WIDE | PTX_FLAG_HI | PTX_FLAG_SAT)))
        return false;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_ADD: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] + s[1][l]; } return true;
    case PTX_OP_SUB: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] - s[1][l]; } return true;
    case PTX_OP_MUL: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] * s[1][l]; } return true;
    case PTX_OP_MAD: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] * s[1][l] + s[2][l]; } return true;
    case PTX_OP_AND: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] & s[1][l]; } return true;
    case PTX_OP_OR: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] | s[1][l]; } return true;
    case PTX_OP_XOR: for (uint64_t m = lanes; m; m &= m - 1) { unsigned l = (unsigned)__builtin_ctzll(m); result[l] = s[0][l] ^ s[1][l]; } return true;
    default: return false;
    }
}

static void execute_alu(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    unsigned count = source_count(in);
    uint64_t sources[PTX_MAX_OPERANDS][EXEC_MAX_WARP_WIDTH];
    uint64_t result[EXEC_MAX_WARP_WIDTH];
    for (unsigned i = 0; i < count; i++)
        operand_gather(warp, frame, &in->operands[i + 1], lanes, sources[i]);
    if (!integer_fast_path(in, lanes, sources, result))
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            uint64_t lane_sources[PTX_MAX_OPERANDS];
            for (unsigned i = 0; i < count; i++)
                lane_sources[i] = sources[i][lane];
            result[lane] = alu_evaluate(in, lane_sources);
        }
    int32_t destination = in->operands[0].reg;
    if (destination < 0)
        return;
    uint64_t mask = frame->register_masks[destination];
    uint64_t *row = operand_register_row(warp, frame, destination);
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        row[lane] = result[lane] & mask;
    }
}

static bool combine(ptx_combine how, bool value, bool with)
{
    switch (how) {
    case PTX_COMBINE_AND: return value && with;
    case PTX_COMBINE_OR: return value || with;
    case PTX_COMBINE_XOR: return value != with;
    default: return value;
    }
}

static void execute_compare(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    ptx_type type = (ptx_type)(in->opcode == PTX_OP_SET ? in->src_type : in->type);
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t a = operand_read(warp, frame, &in->operands[1], lane);
        uint64_t b = operand_read(warp, frame, &in->operands[2], lane);
        bool with = in->combine ? operand_read(warp, frame, &in->operands[3], lane) != 0 : false;
        bool result = alu_compare((ptx_compare)in->compare, type, a, b);
        bool value = combine((ptx_combine)in->combine, result, with);
        if (in->opcode == PTX_OP_SETP) {
            operand_write(warp, frame, in->operands[0].reg, lane, value);
            operand_write(warp, frame, in->operands[0].reg2, lane, combine((ptx_combine)in->combine, !result, with));
        } else {
            uint64_t true_value = in->type == PTX_TYPE_F32 ? alu_from_f32(1.0f) : ~0ull;
            operand_write(warp, frame, in->operands[0].reg, lane, value ? true_value : 0);
        }
    }
}

static void execute_select(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t a = operand_read(warp, frame, &in->operands[1], lane);
        uint64_t b = operand_read(warp, frame, &in->operands[2], lane);
        uint64_t c = operand_read(warp, frame, &in->operands[3], lane);
        bool pick_a;
        if (in->opcode == PTX_OP_SELP)
            pick_a = c != 0;
        else if (in->src_type == PTX_TYPE_F32)
            pick_a = alu_as_f32(c) >= 0.0f;
        else
            pick_a = alu_sign_extend(c, 4) >= 0;
        operand_write(warp, frame, in->operands[0].reg, lane, pick_a ? a : b);
    }
}

/* mov, including vector pack ({a,b} source) and unpack ({a,b} destination). */
static void execute_move(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    const ptx_operand *destination = &in->operands[0], *source = &in->operands[1];
    unsigned total_bits = ptx_type_size((ptx_type)in->type) * 8;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        if (source->kind == PTX_OPERAND_VECTOR) {
            unsigned part_bits = total_bits / source->count;
            uint64_t packed = 0;
            for (unsigned k = 0; k < source->count; k++) {
                uint64_t part = source->vector[k] < 0 ? 0 : operand_register_row(warp, frame, source->vector[k])[lane];
                packed |= (part & alu_width_mask(part_bits / 8)) << (k * part_bits);
            }
            operand_write(warp, frame, destination->reg, lane, packed);
        } else if (destination->kind == PTX_OPERAND_VECTOR) {
            unsigned part_bits = total_bits / destination->count;
            uint64_t value = operand_read(warp, frame, source, lane);
            for (unsigned k = 0; k < destination->count; k++)
                operand_write(warp, frame, destination->vector[k], lane,
                              (value >> (k * part_bits)) & alu_width_mask(part_bits / 8));
        } else {
            operand_write(warp, frame, destination->reg, lane, operand_read(warp, frame, source, lane));
        }
    }
}

static uint64_t window_base(ptx_space space)
{
    switch (space) {
    case PTX_SPACE_SHARED: return SC_SHARED_WINDOW_BASE;
    case PTX_SPACE_LOCAL: return SC_LOCAL_WINDOW_BASE;
    default: return 0;  /* global, const and param addresses are their generic addresses */
    }
}

static void execute_cvta(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    uint64_t base = window_base((ptx_space)in->space);
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t value = operand_read(warp, frame, &in->operands[1], lane);
        operand_write(warp, frame, in->operands[0].reg, lane, (in->flags & PTX_FLAG_TO) ? value - base : value + base);
    }
}

static void execute_convert(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        operand_write(warp, frame, in->operands[0].reg, lane,
                      alu_convert(in, operand_read(warp, frame, &in->operands[1], lane)));
    }
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

/* Arithmetic, logic and data movement: everything that only reads and writes registers. */
static bool execute_register_instruction(exec_warp *warp, exec_frame *frame, const ptx_instruction *in, uint64_t lanes)
{
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_MOV: execute_move(warp, frame, in, lanes); return true;
    case PTX_OP_CVTA: execute_cvta(warp, frame, in, lanes); return true;
    case PTX_OP_CVT: execute_convert(warp, frame, in, lanes); return true;
    case PTX_OP_SETP:
    case PTX_OP_SET: execute_compare(warp, frame, in, lanes); return true;
    case PTX_OP_SELP:
    case PTX_OP_SLCT: execute_select(warp, frame, in, lanes); return true;
    case PTX_OP_TESTP:
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            uint64_t value = operand_read(warp, frame, &in->operands[1], lane);
            operand_write(warp, frame, in->operands[0].reg, lane,
                          alu_test_float((ptx_testp_mode)in->mode, (ptx_type)in->type, value));
        }
        return true;
    case PTX_OP_SHFL:
    case PTX_OP_VOTE:
    case PTX_OP_ACTIVEMASK: execute_warp_collective(warp, in, lanes); return true;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_DIV:
    case PTX_OP_REM: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_COPYSIGN:
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
    case PTX_OP_CNOT: case PTX_OP_LOP3: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_BFIND: case PTX_OP_PRMT:
        execute_alu(warp, frame, in, lanes);
        return true;
    default:
        return false;
    }
}

static int issue(exec_warp *warp, exec_memory_request *request, exec_step *step, sc_error *error)
{
    const ptx_instruction *in = exec_warp_next_instruction(warp);
    *step = (exec_step){.status = EXEC_CONTINUE, .instruction = in};
    if (!in) {
        warp->done = true;
        step->status = EXEC_WARP_DONE;
        return 0;
    }
    exec_frame *frame = exec_warp_frame(warp);
    uint64_t active = warp->stack[warp->stack_depth - 1].mask;
    uint64_t lanes = guard_lanes(warp, frame, in, active);
    step->active_mask = active;
    step->executed_mask = lanes;
    warp->instructions++;
    warp->thread_instructions += (uint64_t)__builtin_popcountll(lanes);

    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_BRA: case PTX_OP_EXIT: case PTX_OP_RET: case PTX_OP_CALL:
        return execute_control(warp, in, active, lanes, step, error);
    case PTX_OP_LD: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED: {
        int global = lanes ? execute_memory(warp, in, lanes, request, error) : 0;
        if (global < 0)
            return -1;
        step->status = global ? EXEC_MEMORY : EXEC_CONTINUE;
        break;
    }
    case PTX_OP_BAR:
        if (lanes && in->mode != PTX_BAR_ARRIVE)
            step->status = EXEC_BARRIER;
        if (in->mode == PTX_BAR_RED_POPC || in->mode == PTX_BAR_RED_AND || in->mode == PTX_BAR_RED_OR)
            return sc_fail(error, "%s:%d: bar.red is not supported by the executor", warp->kernel->module->path,
                           in->line);
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
        if (!execute_register_instruction(warp, frame, in, lanes))
            return sc_fail(error, "%s:%d: the executor does not implement '%s'", warp->kernel->module->path, in->line,
                           ptx_opcode_name((ptx_opcode)in->opcode));
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
    for (unsigned i = 0; i < cta->warp_count; i++)
        cta->warps[i].waiting_at_barrier = false;
    cta->barrier_waiting = 0;
}

/* CTA bookkeeping after a step: a warp that finished or arrived at a barrier may complete the
 * barrier, which releases once every warp that has not exited waits at it. */
static void account_cta(exec_warp *warp, bool was_done, const exec_step *step)
{
    exec_cta *cta = warp->cta;
    if (warp->done && !was_done)
        cta->warps_done++;
    if (step->status == EXEC_BARRIER) {
        warp->waiting_at_barrier = true;
        cta->barrier_waiting++;
    }
    if (cta->barrier_waiting > 0 && cta->barrier_waiting >= cta->warp_count - cta->warps_done)
        release_barrier(cta);
}

int exec_warp_step(exec_warp *warp, exec_memory_request *request, exec_step *step, sc_error *error)
{
    bool was_done = warp->done;
    if (issue(warp, request, step, error) < 0)
        return -1;
    account_cta(warp, was_done, step);
    return 0;
}
