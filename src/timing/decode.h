/* decode.h — what the timing model needs to know about each PTX instruction before issuing it:
 * the functional unit it occupies, the registers it reads and writes (for the scoreboard) and
 * its memory-model role (release, global write, global load, the traits a protocol's issue
 * filter sees). Decoded once per function per launch, so the per-cycle issue checks read flags;
 * the executor still does the semantics. */
#ifndef SYNCSCOPE_TIMING_DECODE_H
#define SYNCSCOPE_TIMING_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ptx_ir.h"
#include "timing/protocol.h"

typedef enum timing_unit {
    UNIT_ALU = 0,   /* SIMD pipeline: integer, f32/f64, moves, compares, param loads */
    UNIT_SFU,       /* special functions: rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh, div, rem */
    UNIT_MEMORY,    /* the load/store unit: ld/st/atom/red outside the param space */
    UNIT_CONTROL,   /* bra, call, ret, exit, bar, fence, vote/shfl sync points: no pipeline */
    UNIT_COUNT
} timing_unit;

#define DECODE_MAX_REGISTERS 12

typedef struct decoded_instruction {
    uint8_t unit;            /* timing_unit */
    uint8_t source_count, destination_count;
    uint8_t drains;          /* call/ret/exit: wait until the warp has nothing in flight */
    uint8_t releases;        /* a release at GPU or system scope: waits for the CU's writes */
    uint8_t release_scope;   /* its ptx_scope (GPU or SYS) */
    uint8_t writes_global;   /* st/atom/red that may reach global memory */
    uint8_t loads_global;    /* ld that may read global memory (needs an L1 MSHR) */
    issue_traits traits;     /* what a protocol's issue filter sees of it */
    int32_t sources[DECODE_MAX_REGISTERS];
    int32_t destinations[4 + 1];
} decoded_instruction;

/* Decodes every instruction of every function of `module`, CTA barriers as releases at GPU scope
 * when `barriers_release`; returns per function an array parallel to its instructions (free with
 * decode_free). */
decoded_instruction **decode_module(const ptx_module *module, bool barriers_release);
void decode_free(decoded_instruction **decoded, const ptx_module *module);

#endif
