/* simt_stack.h — the SIMT reconvergence stack: divergence at branches, reconvergence at the
 * immediate post-dominator, lane exit, and call frames. */
#ifndef SYNCSCOPE_EXEC_SIMT_STACK_H
#define SYNCSCOPE_EXEC_SIMT_STACK_H

#include "exec/warp.h"

int simt_push(exec_warp *warp, int32_t pc, int32_t reconverge, uint64_t mask, sc_error *error);
/* Pops entries whose path has reached its reconvergence point or has no lanes left. */
void simt_settle(exec_warp *warp);
/* A branch by `taken` lanes of the top entry to `target`, reconverging at `reconverge`. */
int simt_branch(exec_warp *warp, uint64_t taken, int32_t target, int32_t reconverge, sc_error *error);
/* Lanes leave the warp for good (exit, or ret from the kernel). */
void simt_exit_lanes(exec_warp *warp, uint64_t lanes);

/* Enters the callee of `call` with `lanes`, copying argument parameters into its frame. */
int simt_call(exec_warp *warp, const ptx_instruction *call, uint64_t lanes, sc_error *error);
/* `ret` by `lanes`: they leave the current frame (or the kernel, from the outermost frame). */
void simt_return_lanes(exec_warp *warp, uint64_t lanes);
/* Pops the innermost frame, copying return parameters back (called once its lanes are gone). */
void simt_return_from_frame(exec_warp *warp);

#endif
