/* execute_internal.h — the pieces of the instruction interpreter split across exec/execute*.c
 * and exec/alu_lanes.c. */
#ifndef SYNCSCOPE_EXEC_EXECUTE_INTERNAL_H
#define SYNCSCOPE_EXEC_EXECUTE_INTERNAL_H

#include "exec/execute.h"
#include "exec/program.h"

/* ld/st/atom/red by `lanes`. Returns 1 when `request` holds global lanes for the engine, 0 when
 * the access was private (shared/local/param) and is complete, -1 on error. */
int execute_memory(exec_warp *warp, const exec_op *op, uint64_t lanes, exec_memory_request *request,
                   sc_error *error);

/* The handler of a register instruction (arithmetic, logic, moves, conversions, comparisons,
 * selections, warp collectives): a whole-warp loop from alu_lanes_handler when there is one, else
 * the general per-lane interpreter. NULL when `in` is not a register instruction. */
exec_handler execute_register_handler(const ptx_instruction *in);

/* A specialised whole-warp loop for `in` (exec/alu_lanes.c), or NULL. */
exec_handler alu_lanes_handler(const ptx_instruction *in);

/* shfl, vote and activemask: instructions whose lanes read each other's values. */
void execute_warp_collective(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes);

#endif
