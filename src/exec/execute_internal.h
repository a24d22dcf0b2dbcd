/* execute_internal.h — the pieces of the instruction interpreter split across exec/execute*.c. */
#ifndef SYNCSCOPE_EXEC_EXECUTE_INTERNAL_H
#define SYNCSCOPE_EXEC_EXECUTE_INTERNAL_H

#include "exec/execute.h"

/* ld/st/atom/red by `lanes`. Returns 1 when `request` holds global lanes for the engine, 0 when
 * the access was private (shared/local/param) and is complete, -1 on error. */
int execute_memory(exec_warp *warp, const ptx_instruction *in, uint64_t lanes, exec_memory_request *request,
                   sc_error *error);

/* shfl, vote and activemask: instructions whose lanes read each other's values. */
void execute_warp_collective(exec_warp *warp, const ptx_instruction *in, uint64_t lanes);

#endif
