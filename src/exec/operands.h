/* operands.h — reading source operands and writing destination registers of one warp lane,
 * and resolving symbol and address operands into addresses of their state space. */
#ifndef SYNCSCOPE_EXEC_OPERANDS_H
#define SYNCSCOPE_EXEC_OPERANDS_H

#include "exec/warp.h"

/* Mask of a register's declared width (1 for predicates). */
uint64_t operand_register_mask(const ptx_function *function, int32_t reg);

static inline uint64_t *operand_register_row(const exec_warp *warp, const exec_frame *frame, int32_t reg)
{
    return frame->registers + (size_t)reg * warp->kernel->width;
}

/* Value of source operand `op` for `lane` (registers, immediates, symbols, special registers). */
uint64_t operand_read(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, unsigned lane);

/* Values of source operand `op` for every lane of `lanes` into values[lane]. */
void operand_gather(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, uint64_t lanes,
                    uint64_t *values);

/* Writes `value` (normalised to the register's width) to `reg` of `lane`; reg < 0 is a sink. */
void operand_write(const exec_warp *warp, const exec_frame *frame, int32_t reg, unsigned lane, uint64_t value);

/* Address of a symbol in its own space: global address, shared offset, kernel-param offset or
 * local (frame) offset. */
uint64_t operand_symbol_address(const exec_warp *warp, const exec_frame *frame, int32_t symbol);

/* Address named by an ADDRESS operand for `lane`. */
uint64_t operand_address(const exec_warp *warp, const exec_frame *frame, const ptx_operand *op, unsigned lane);

#endif
