/* scratchpad.h — the timing of one warp's access to the banked scratchpad (shared memory) of its
 * CU (GSI thesis §4.4, Table 5.1: 32 banks, 1-cycle hits; docs/local-memory.md).
 *
 * The scratchpad is word-interleaved: word w = offset / bank_bytes lives in bank w mod banks. A
 * warp's access takes one cycle per distinct word of its most loaded bank: lanes reading the
 * same word share one broadcast, lanes touching distinct words of one bank are serialised. An
 * atomic serialises every lane on its bank (each lane's read-modify-write is its own access),
 * so for atomics the count is lanes, not words. The values themselves are the executor's
 * (exec/execute_memory.c performs shared accesses at issue); only the time is modelled here.
 */
#ifndef SYNCSCOPE_TIMING_SCRATCHPAD_H
#define SYNCSCOPE_TIMING_SCRATCHPAD_H

#include "exec/memory_request.h"

/* Cycles the scratchpad needs for the shared-memory lanes of `request` (its shared_lanes): the
 * conflict degree, at least 1. */
unsigned scratchpad_access_cycles(const exec_memory_request *request, unsigned banks, unsigned bank_bytes);

#endif
