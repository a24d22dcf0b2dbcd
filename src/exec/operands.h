/* operands.h — reading source operands and writing destination registers, lane by lane or for a
 * whole warp at once, and resolving symbol and address operands into addresses of their state
 * space. */
#ifndef SYNCSCOPE_EXEC_OPERANDS_H
#define SYNCSCOPE_EXEC_OPERANDS_H

#include "exec/program.h"
#include "exec/warp.h"

/* Mask of a register's declared width (1 for predicates). */
uint64_t operand_register_mask(const ptx_function *function, int32_t reg);

static inline uint64_t *operand_register_row(const exec_warp *warp, const exec_frame *frame, int32_t reg)
{
    return frame->registers + (size_t)reg * warp->kernel->width;
}

/* After a write of a register's lanes, `changed` holding their old values xor the new: a change
 * counts as the CTA's progress (the deadlock detector's, deadlock.h). */
static inline void operand_note_change(const exec_warp *warp, uint64_t changed)
{
    if (changed && warp->cta)
        warp->cta->value_changes++;
}

/* Value of source operand `op` for `lane` (registers, immediates, symbols, special registers). */
uint64_t operand_read(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, unsigned lane);

/* Values of operand `index` of `op`: values[lane] for every lane of `lanes` (for a partial mask,
 * only those lanes are filled). Returns the register row itself when the operand is a plain
 * register, else fills and returns `buffer` (EXEC_MAX_WARP_WIDTH values): from the pre-decoded
 * source in whole-warp loops for a full warp, by operand_read lane by lane otherwise. */
const uint64_t *operand_values(const exec_warp *warp, const exec_frame *frame, const exec_op *op, unsigned index,
                               uint64_t lanes, uint64_t *buffer);

/* Writes `value` (normalised to the register's width) to `reg` of `lane`; reg < 0 is a sink. */
void operand_write(const exec_warp *warp, const exec_frame *frame, int32_t reg, unsigned lane, uint64_t value);

/* Writes values[lane] (normalised to the register's width) to `reg` in every lane of `lanes`. */
void operand_write_lanes(const exec_warp *warp, const exec_frame *frame, int32_t reg, uint64_t lanes,
                         const uint64_t *values);

/* Address of a global, const, shared or kernel-parameter symbol: the same for the whole launch. */
uint64_t operand_kernel_symbol_address(const exec_kernel *kernel, int32_t symbol);

/* Address of a symbol in its own space: global address, shared offset, kernel-param offset or
 * local (frame) offset. */
uint64_t operand_symbol_address(const exec_warp *warp, const exec_frame *frame, int32_t symbol);

/* Address named by an ADDRESS operand for `lane`. */
uint64_t operand_address(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, unsigned lane);

#endif
