/* decode.c — classifies PTX instructions by functional unit and lists their register reads and
 * writes, following the operand conventions of ptx/ptx_ir.h (operand 0 is the destination of
 * every instruction that writes a register).
 *
 * Memory-model roles: a release is st.release, atom/red with release semantics, or fence.sc /
 * fence.acq_rel, at GPU or system scope (atom/red without a scope are GPU scope); CTA scope needs
 * no action, as a CTA's warps share the L1 and the store buffer. A CTA barrier (bar) is a release
 * at GPU scope too where the protocol makes barriers releases (memory_barriers_release). Generic
 * addresses may be global. */
#include "timing/decode.h"

#include <stdlib.h>

static bool writes_register(ptx_opcode opcode)
{
    switch (opcode) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET:
    case PTX_OP_EXIT: case PTX_OP_BAR: case PTX_OP_BAR_WARP: case PTX_OP_FENCE: case PTX_OP_NANOSLEEP:
        return false;
    default:
        return true;
    }
}

static timing_unit unit_of(const ptx_instruction *in)
{
    switch ((ptx_opcode)in->opcode) {
    case PTX_OP_LD: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED:
        return in->space == PTX_SPACE_PARAM ? UNIT_ALU : UNIT_MEMORY;
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_DIV: case PTX_OP_REM:
        return UNIT_SFU;
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_BAR:
    case PTX_OP_BAR_WARP: case PTX_OP_FENCE: case PTX_OP_NANOSLEEP:
        return UNIT_CONTROL;
    default:
        return UNIT_ALU;
    }
}

static void add_register(int32_t *list, uint8_t *count, unsigned capacity, int32_t reg)
{
    if (reg < 0)
        return;
    for (unsigned i = 0; i < *count; i++)
        if (list[i] == reg)
            return;
    if (*count < capacity)
        list[(*count)++] = reg;
}

static void add_operand_reads(decoded_instruction *d, const ptx_operand *operand)
{
    switch ((ptx_operand_kind)operand->kind) {
    case PTX_OPERAND_REGISTER:
    case PTX_OPERAND_ADDRESS:
        add_register(d->sources, &d->source_count, DECODE_MAX_REGISTERS, operand->reg);
        break;
    case PTX_OPERAND_VECTOR:
        for (unsigned k = 0; k < operand->count; k++)
            add_register(d->sources, &d->source_count, DECODE_MAX_REGISTERS, operand->vector[k]);
        break;
    default:
        break;
    }
}

static void add_operand_writes(decoded_instruction *d, const ptx_operand *operand)
{
    unsigned capacity = sizeof d->destinations / sizeof d->destinations[0];
    if (operand->kind == PTX_OPERAND_REGISTER) {
        add_register(d->destinations, &d->destination_count, capacity, operand->reg);
        add_register(d->destinations, &d->destination_count, capacity, operand->reg2);
    } else if (operand->kind == PTX_OPERAND_VECTOR) {
        for (unsigned k = 0; k < operand->count; k++)
            add_register(d->destinations, &d->destination_count, capacity, operand->vector[k]);
    }
}

static bool is_memory_access(const ptx_instruction *in)
{
    return in->opcode == PTX_OP_LD || in->opcode == PTX_OP_ST || in->opcode == PTX_OP_ATOM || in->opcode == PTX_OP_RED;
}

static bool may_be_global(const ptx_instruction *in)
{
    return in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC;
}

static bool at_gpu_scope(const ptx_instruction *in)
{
    return in->scope == PTX_SCOPE_GPU || in->scope == PTX_SCOPE_SYS ||
           (in->scope == PTX_SCOPE_NONE && (in->opcode == PTX_OP_ATOM || in->opcode == PTX_OP_RED));
}

static bool has_release(const ptx_instruction *in)
{
    bool releasing = in->semantics == PTX_SEM_RELEASE || in->semantics == PTX_SEM_ACQ_REL || in->semantics == PTX_SEM_SC;
    if (!releasing || !at_gpu_scope(in))
        return false;
    return in->opcode == PTX_OP_FENCE || (is_memory_access(in) && in->opcode != PTX_OP_LD && may_be_global(in));
}

static bool writes_global(const ptx_instruction *in)
{
    return (in->opcode == PTX_OP_ST || in->opcode == PTX_OP_ATOM || in->opcode == PTX_OP_RED) && may_be_global(in);
}

static issue_traits traits_of(const ptx_instruction *in, bool releases)
{
    issue_traits traits = {.semantics = in->semantics, .scope = in->scope};
    if (in->opcode == PTX_OP_FENCE)
        traits.flags |= ISSUE_FENCE;
    if (is_memory_access(in) && may_be_global(in))
        traits.flags |= in->opcode == PTX_OP_LD ? ISSUE_GLOBAL_LOAD : in->opcode == PTX_OP_ST ? ISSUE_GLOBAL_STORE
                                                                                             : ISSUE_GLOBAL_ATOMIC;
    if (is_memory_access(in) && (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_GENERIC))
        traits.flags |= ISSUE_SHARED_ACCESS;
    if (is_memory_access(in) && (in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_GENERIC))
        traits.flags |= ISSUE_LOCAL_ACCESS;
    bool may_acquire = in->opcode == PTX_OP_FENCE || traits.flags & (ISSUE_GLOBAL_LOAD | ISSUE_GLOBAL_ATOMIC);
    if (may_acquire && protocol_has_acquire((ptx_semantics)in->semantics, (ptx_scope)in->scope))
        traits.flags |= ISSUE_ACQUIRE;
    if (releases)
        traits.flags |= ISSUE_RELEASE;
    return traits;
}

static decoded_instruction decode(const ptx_instruction *in, bool barriers_release)
{
    decoded_instruction d = {.unit = (uint8_t)unit_of(in)};
    bool has_destination = writes_register((ptx_opcode)in->opcode) && in->operand_count > 0;
    for (unsigned i = has_destination ? 1 : 0; i < in->operand_count; i++)
        add_operand_reads(&d, &in->operands[i]);
    add_register(d.sources, &d.source_count, DECODE_MAX_REGISTERS, in->guard_reg);
    if (has_destination)
        add_operand_writes(&d, &in->operands[0]);
    d.drains = in->opcode == PTX_OP_CALL || in->opcode == PTX_OP_RET || in->opcode == PTX_OP_EXIT;
    d.releases = has_release(in) || (barriers_release && in->opcode == PTX_OP_BAR);
    d.release_scope = (uint8_t)(in->opcode == PTX_OP_BAR ? PTX_SCOPE_GPU : protocol_sync_scope((ptx_scope)in->scope));
    d.writes_global = writes_global(in);
    d.loads_global = in->opcode == PTX_OP_LD && may_be_global(in);
    d.traits = traits_of(in, d.releases);
    return d;
}

decoded_instruction **decode_module(const ptx_module *module, bool barriers_release)
{
    decoded_instruction **decoded = calloc((size_t)module->function_count + 1, sizeof *decoded);
    for (int32_t f = 0; f < module->function_count; f++) {
        const ptx_function *function = &module->functions[f];
        decoded[f] = calloc((size_t)function->instruction_count + 1, sizeof **decoded);
        for (int32_t i = 0; i < function->instruction_count; i++)
            decoded[f][i] = decode(&function->instructions[i], barriers_release);
    }
    return decoded;
}

void decode_free(decoded_instruction **decoded, const ptx_module *module)
{
    if (!decoded)
        return;
    for (int32_t f = 0; f < module->function_count; f++)
        free(decoded[f]);
    free(decoded);
}
