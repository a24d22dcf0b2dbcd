/* program.h — instructions pre-decoded once per launch for the interpreter.
 *
 * The parser's ptx_instruction is general (any operand may be any kind); interpreting it as is
 * costs a switch per operand per lane. At launch, exec_program_build turns every instruction of
 * every function into an exec_op, with the same index (pc) as its instruction:
 *   1. each operand becomes an exec_source: a register row plus a constant (registers, address
 *      operands [%rd+8] and [global_symbol]), a constant (immediates, addresses of global,
 *      shared and kernel-parameter symbols, fixed for the launch), a special register, or "per
 *      lane" for what needs operand_read lane by lane (negated predicates, frame symbols);
 *   2. register instructions (arithmetic, moves, comparisons...) get the handler that runs them
 *      over a whole warp: a specialised lane loop for the common opcode/type combinations
 *      (exec/alu_lanes.c), else the general per-lane interpreter (exec/execute_register.c);
 *   3. the type facts those loops need (widths, signedness, masks) are worked out once.
 * Control flow, memory and synchronisation instructions keep a NULL handler: execute.c
 * dispatches them on the opcode. */
#ifndef SYNCSCOPE_EXEC_PROGRAM_H
#define SYNCSCOPE_EXEC_PROGRAM_H

#include "exec/warp.h"

typedef enum exec_source_kind {
    EXEC_SOURCE_ROW = 1,   /* register row `reg` plus `constant` in every lane */
    EXEC_SOURCE_CONSTANT,  /* `constant` in every lane */
    EXEC_SOURCE_SPECIAL,   /* a special register (%tid.x, %laneid, %ctaid.y...) */
    EXEC_SOURCE_LANE,      /* operand_read of the instruction's operand, lane by lane */
} exec_source_kind;

typedef struct exec_source {
    uint8_t kind;       /* exec_source_kind */
    int32_t reg;
    uint64_t constant;
} exec_source;

/* Runs a register instruction for the lanes of `lanes` (guard already applied). */
typedef void (*exec_handler)(exec_warp *warp, exec_frame *frame, const exec_op *op, uint64_t lanes);

struct exec_op {
    const ptx_instruction *instruction;
    exec_handler execute;       /* register instructions; NULL for control, memory, synchronisation */
    int32_t guard_reg;          /* guard predicate register, or -1 */
    bool guard_negated;
    int32_t destination;        /* operand 0 when it is a register, else -1 */
    uint8_t source_bits;        /* width in bits of the type the sources are read as */
    bool source_signed;
    uint64_t result_mask;       /* mask of the result type's width */
    uint64_t addend;            /* cvta: added to the source (a window base or its negation) */
    exec_source sources[PTX_MAX_OPERANDS];  /* operand i decoded (destinations included) */
};

/* Decodes every instruction of `function` for the launch of `kernel`. The array ends with a
 * sentinel op whose instruction is NULL, at pc instruction_count (a frame's exit). */
exec_op *exec_program_build(const exec_kernel *kernel, int32_t function);

#endif
