/* operands.c — operand reads, register writes, special registers and address resolution for
 * the SIMT executor (see operands.h). */
#include "exec/operands.h"

#include "exec/alu.h"

uint64_t operand_register_mask(const ptx_function *function, int32_t reg)
{
    ptx_type type = (ptx_type)function->registers[reg].type;
    if (type == PTX_TYPE_PRED)
        return 1;
    return alu_width_mask(ptx_type_size(type));
}

uint64_t operand_kernel_symbol_address(const exec_kernel *kernel, int32_t symbol)
{
    const ptx_symbol *s = &kernel->module->symbols[symbol];
    return s->storage == PTX_STORAGE_KERNEL_PARAM ? s->offset : kernel->symbol_addresses[symbol];
}

uint64_t operand_symbol_address(const exec_warp *warp, const exec_frame *frame, int32_t symbol)
{
    const ptx_symbol *s = &warp->kernel->module->symbols[symbol];
    if (s->storage == PTX_STORAGE_FRAME)
        return frame->local_base + s->offset;
    return operand_kernel_symbol_address(warp->kernel, symbol);
}

static uint64_t lane_mask_below(unsigned lane)
{
    return lane >= 64 ? ~0ull : (1ull << lane) - 1;
}

static uint64_t special_read(const exec_warp *warp, const ptx_operand *op, unsigned lane)
{
    const exec_kernel *kernel = warp->kernel;
    const sc_dim3 block = kernel->launch->block, grid = kernel->launch->grid;
    const uint32_t block_dims[3] = {block.x, block.y, block.z}, grid_dims[3] = {grid.x, grid.y, grid.z};
    uint64_t thread = (uint64_t)warp->index_in_cta * kernel->width + lane;
    uint64_t thread_index[3] = {thread % block.x, (thread / block.x) % block.y, thread / ((uint64_t)block.x * block.y)};
    unsigned c = op->component < 3 ? op->component : 0;
    unsigned local = lane & (PTX_WARP_LANES - 1);  /* lane number within a 32-lane PTX warp */
    switch ((ptx_special_register)op->special) {
    case PTX_SREG_TID: return thread_index[c];
    case PTX_SREG_NTID: return block_dims[c];
    case PTX_SREG_CTAID: return warp->cta->ctaid[c];
    case PTX_SREG_NCTAID: return grid_dims[c];
    case PTX_SREG_LANEID: return local;
    case PTX_SREG_WARPID: return warp->index_in_cta;
    case PTX_SREG_NWARPID: return kernel->warps_per_cta;
    case PTX_SREG_SMID: return warp->cta->cu;
    case PTX_SREG_NSMID: return kernel->cu_count;
    case PTX_SREG_GRIDID: return kernel->launch->launch_index;
    case PTX_SREG_CLOCK: return warp->clock & 0xffffffffull;
    case PTX_SREG_CLOCK64:
    case PTX_SREG_GLOBALTIMER: return warp->clock;
    case PTX_SREG_LANEMASK_EQ: return 1ull << local;
    case PTX_SREG_LANEMASK_LT: return lane_mask_below(local);
    case PTX_SREG_LANEMASK_LE: return lane_mask_below(local + 1);
    case PTX_SREG_LANEMASK_GT: return ~lane_mask_below(local + 1) & 0xffffffffull;
    case PTX_SREG_LANEMASK_GE: return ~lane_mask_below(local) & 0xffffffffull;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return kernel->launch->dynamic_shared_bytes;
    case PTX_SREG_TOTAL_SMEM_SIZE: return kernel->shared_bytes;
    default: return 0;
    }
}

/* A special register for every lane of the warp. Thread indices advance lane by lane from the
 * warp's first thread, so no lane divides; values that do not depend on the lane are read once. */
static void special_values(const exec_warp *warp, const ptx_operand *op, uint64_t *values)
{
    unsigned width = warp->kernel->width;
    switch ((ptx_special_register)op->special) {
    case PTX_SREG_TID: {
        const sc_dim3 block = warp->kernel->launch->block;
        uint64_t first = (uint64_t)warp->index_in_cta * width;
        uint64_t index[3] = {first % block.x, (first / block.x) % block.y, first / ((uint64_t)block.x * block.y)};
        unsigned c = op->component < 3 ? op->component : 0;
        for (unsigned lane = 0; lane < width; lane++) {
            values[lane] = index[c];
            if (++index[0] == block.x) {
                index[0] = 0;
                if (++index[1] == block.y) {
                    index[1] = 0;
                    index[2]++;
                }
            }
        }
        return;
    }
    case PTX_SREG_LANEID: case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_GT: case PTX_SREG_LANEMASK_GE:
        for (unsigned lane = 0; lane < width; lane++)
            values[lane] = special_read(warp, op, lane);
        return;
    default: {
        uint64_t value = special_read(warp, op, 0);
        for (unsigned lane = 0; lane < width; lane++)
            values[lane] = value;
        return;
    }
    }
}

uint64_t operand_read(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, unsigned lane)
{
    switch ((ptx_operand_kind)op->kind) {
    case PTX_OPERAND_REGISTER: {
        uint64_t value = operand_register_row(warp, frame, op->reg)[lane];
        return op->negated ? !value : value;
    }
    case PTX_OPERAND_IMMEDIATE:
        return (uint64_t)op->value;
    case PTX_OPERAND_SYMBOL:
        return operand_symbol_address(warp, frame, op->symbol) + (uint64_t)op->value;
    case PTX_OPERAND_SPECIAL:
        return special_read(warp, op, lane);
    case PTX_OPERAND_ADDRESS:
        return operand_address(warp, frame, op, lane);
    default:
        return 0;
    }
}

void operand_write(const exec_warp *warp, const exec_frame *frame, int32_t reg, unsigned lane, uint64_t value)
{
    if (reg < 0)
        return;
    uint64_t *row = operand_register_row(warp, frame, reg);
    uint64_t masked = value & frame->register_masks[reg];
    if (warp->cta && row[lane] != masked)
        warp->cta->value_changes++;
    row[lane] = masked;
}

uint64_t operand_address(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, unsigned lane)
{
    uint64_t address = (uint64_t)op->value;
    if (op->reg >= 0)
        address += operand_register_row(warp, frame, op->reg)[lane];
    if (op->symbol >= 0)
        address += operand_symbol_address(warp, frame, op->symbol);
    return address;
}

const uint64_t *operand_values(const exec_warp *warp, const exec_frame *frame, const exec_op *op, unsigned index,
                               uint64_t lanes, uint64_t *buffer)
{
    const exec_source *source = &op->sources[index];
    const ptx_operand *operand = &op->instruction->operands[index];
    if (source->kind == EXEC_SOURCE_ROW && source->constant == 0)
        return operand_register_row(warp, frame, source->reg);
    unsigned width = warp->kernel->width;
    if (lanes != warp->kernel->full_mask) {
        /* Divergent code: the set lanes only, still from the pre-decoded source where it says. */
        switch ((exec_source_kind)source->kind) {
        case EXEC_SOURCE_ROW: {
            const uint64_t *row = operand_register_row(warp, frame, source->reg);
            for (uint64_t m = lanes; m; m &= m - 1) {
                unsigned lane = (unsigned)__builtin_ctzll(m);
                buffer[lane] = row[lane] + source->constant;
            }
            return buffer;
        }
        case EXEC_SOURCE_CONSTANT:
            for (uint64_t m = lanes; m; m &= m - 1)
                buffer[__builtin_ctzll(m)] = source->constant;
            return buffer;
        default:
            for (uint64_t m = lanes; m; m &= m - 1) {
                unsigned lane = (unsigned)__builtin_ctzll(m);
                buffer[lane] = operand_read(warp, frame, operand, lane);
            }
            return buffer;
        }
    }
    switch ((exec_source_kind)source->kind) {
    case EXEC_SOURCE_ROW: {
        const uint64_t *row = operand_register_row(warp, frame, source->reg);
        for (unsigned lane = 0; lane < width; lane++)
            buffer[lane] = row[lane] + source->constant;
        return buffer;
    }
    case EXEC_SOURCE_CONSTANT:
        for (unsigned lane = 0; lane < width; lane++)
            buffer[lane] = source->constant;
        return buffer;
    case EXEC_SOURCE_SPECIAL:
        special_values(warp, operand, buffer);
        return buffer;
    default:
        for (unsigned lane = 0; lane < width; lane++)
            buffer[lane] = operand_read(warp, frame, operand, lane);
        return buffer;
    }
}

void operand_write_lanes(const exec_warp *warp, const exec_frame *frame, int32_t reg, uint64_t lanes,
                         const uint64_t *values)
{
    if (reg < 0)
        return;
    unsigned width = warp->kernel->width;
    uint64_t mask = frame->register_masks[reg];
    uint64_t *row = operand_register_row(warp, frame, reg);
    uint64_t changed = 0;
    if (lanes == warp->kernel->full_mask) {
        for (unsigned lane = 0; lane < width; lane++) {  /* the whole warp: a loop the compiler vectorises */
            changed |= row[lane] ^ (values[lane] & mask);
            row[lane] = values[lane] & mask;
        }
    } else {
        for (uint64_t m = lanes; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            changed |= row[lane] ^ (values[lane] & mask);
            row[lane] = values[lane] & mask;
        }
    }
    operand_note_change(warp, changed);
}
