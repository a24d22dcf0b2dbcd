/* execute_register.c — the general interpreter of register instructions (arithmetic, logic,
 * moves, conversions, comparisons, selections), one lane at a time through alu.h, and the choice
 * of each register instruction's handler: alu_lanes.c's whole-warp loop when it has one for the
 * instruction, else the general handler here. */
#include "exec/execute_internal.h"

#include "exec/alu.h"
#include "exec/operands.h"

static void execute_alu(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
    unsigned count = in->operand_count > 0 ? in->operand_count - 1u : 0u;
    uint64_t buffers[PTX_MAX_OPERANDS][EXEC_MAX_WARP_WIDTH], result[EXEC_MAX_WARP_WIDTH];
    const uint64_t *sources[PTX_MAX_OPERANDS];
    for (unsigned i = 0; i < count; i++)
        sources[i] = operand_values(warp, frame, op, i + 1, lanes, buffers[i]);
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t lane_sources[PTX_MAX_OPERANDS];
        for (unsigned i = 0; i < count; i++)
            lane_sources[i] = sources[i][lane];
        result[lane] = alu_evaluate(in, lane_sources);
    }
    operand_write_lanes(warp, frame, op->destination, lanes, result);
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

static void execute_compare(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
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

static void execute_select(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
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
static void execute_move(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
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

static void execute_convert(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        operand_write(warp, frame, in->operands[0].reg, lane,
                      alu_convert(in, operand_read(warp, frame, &in->operands[1], lane)));
    }
}

static void execute_test_float(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes)
{
    const ptx_instruction *in = op->instruction;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint64_t value = operand_read(warp, frame, &in->operands[1], lane);
        operand_write(warp, frame, in->operands[0].reg, lane,
                      alu_test_float((ptx_testp_mode)in->mode, (ptx_type)in->type, value));
    }
}

exec_handler execute_register_handler(const ptx_instruction *in)
{
    exec_handler specialised = alu_lanes_handler(in);
    if (specialised)
        return specialised;
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_MOV: return execute_move;
    case PTX_OP_CVT: return execute_convert;
    case PTX_OP_SETP:
    case PTX_OP_SET: return execute_compare;
    case PTX_OP_SELP:
    case PTX_OP_SLCT: return execute_select;
    case PTX_OP_TESTP: return execute_test_float;
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_ACTIVEMASK: case PTX_OP_MATCH: case PTX_OP_REDUX:
    case PTX_OP_ELECT:
        return execute_warp_collective;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_DIV:
    case PTX_OP_REM: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_COPYSIGN:
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
    case PTX_OP_CNOT: case PTX_OP_LOP3: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_BFIND: case PTX_OP_PRMT:
    case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_DP4A: case PTX_OP_DP2A:
        return execute_alu;
    default:
        return NULL;
    }
}
