/* program.c — pre-decoding of a function's instructions for one launch (see program.h). */
#include "exec/program.h"

#include <stdlib.h>

#include "exec/address_map.h"
#include "exec/alu.h"
#include "exec/execute_internal.h"
#include "exec/operands.h"

static exec_source decode_source(const exec_kernel *kernel, const ptx_operand *operand)
{
    const exec_source per_lane = {.kind = EXEC_SOURCE_LANE, .reg = -1};
    bool frame_symbol = operand->symbol >= 0 &&
                        kernel->module->symbols[operand->symbol].storage == PTX_STORAGE_FRAME;
    switch ((ptx_operand_kind)operand->kind) {
    case PTX_OPERAND_REGISTER:
        return operand->negated ? per_lane : (exec_source){.kind = EXEC_SOURCE_ROW, .reg = operand->reg};
    case PTX_OPERAND_IMMEDIATE:
        return (exec_source){.kind = EXEC_SOURCE_CONSTANT, .reg = -1, .constant = (uint64_t)operand->value};
    case PTX_OPERAND_SYMBOL:
    case PTX_OPERAND_ADDRESS: {
        if (frame_symbol)
            return per_lane;
        uint64_t constant = (uint64_t)operand->value;
        if (operand->symbol >= 0)
            constant += operand_kernel_symbol_address(kernel, operand->symbol);
        int32_t reg = operand->kind == PTX_OPERAND_ADDRESS ? operand->reg : -1;
        return (exec_source){.kind = reg >= 0 ? EXEC_SOURCE_ROW : EXEC_SOURCE_CONSTANT, .reg = reg,
                             .constant = constant};
    }
    case PTX_OPERAND_SPECIAL:
        return (exec_source){.kind = EXEC_SOURCE_SPECIAL, .reg = -1};
    default:
        return per_lane;
    }
}

/* cvta adds the space's window base (space -> generic) or subtracts it (cvta.to). */
static uint64_t cvta_addend(const ptx_instruction *in)
{
    uint64_t base = in->space == PTX_SPACE_SHARED ? SC_SHARED_WINDOW_BASE
                    : in->space == PTX_SPACE_LOCAL ? SC_LOCAL_WINDOW_BASE : 0;
    return (in->flags & PTX_FLAG_TO) ? 0 - base : base;
}

static exec_op decode(const exec_kernel *kernel, const ptx_instruction *in)
{
    ptx_type source_type = (ptx_type)(in->opcode == PTX_OP_CVT ? in->src_type : in->type);
    exec_op op = {
        .instruction = in,
        .execute = execute_register_handler(in),
        .guard_reg = in->guard_reg,
        .guard_negated = in->guard_negated != 0,
        .destination = in->operand_count > 0 && in->operands[0].kind == PTX_OPERAND_REGISTER ? in->operands[0].reg : -1,
        .source_bits = (uint8_t)(ptx_type_size(source_type) * 8),
        .source_signed = ptx_type_is_signed(source_type),
        .result_mask = alu_width_mask(ptx_type_size((ptx_type)in->type)),
        .addend = in->opcode == PTX_OP_CVTA ? cvta_addend(in) : 0,
    };
    for (unsigned i = 0; i < in->operand_count; i++)
        op.sources[i] = decode_source(kernel, &in->operands[i]);
    return op;
}

exec_op *exec_program_build(const exec_kernel *kernel, int32_t function)
{
    const ptx_function *f = &kernel->module->functions[function];
    exec_op *ops = calloc((size_t)f->instruction_count + 1, sizeof *ops);
    for (int32_t pc = 0; pc < f->instruction_count; pc++)
        ops[pc] = decode(kernel, &f->instructions[pc]);
    return ops;
}
