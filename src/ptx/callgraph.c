/* callgraph.c — what a kernel runs: the functions reachable from an entry through call
 * instructions, and the check that none of them contains an instruction the parser kept as
 * unsupported (so one unsupported instruction refuses only the kernels that reach it). */
#include "ptx/ptx_ir.h"

#include <stdlib.h>

void ptx_reachable_functions(const ptx_module *module, int32_t entry, bool *reached)
{
    int32_t *pending = malloc(((size_t)module->function_count + 1) * sizeof *pending);
    int32_t count = 0;
    reached[entry] = true;
    pending[count++] = entry;
    while (count > 0) {
        const ptx_function *function = &module->functions[pending[--count]];
        for (int32_t i = 0; i < function->instruction_count; i++) {
            int32_t callee = function->instructions[i].callee;
            if (function->instructions[i].opcode == PTX_OP_CALL && callee >= 0 && !reached[callee]) {
                reached[callee] = true;
                pending[count++] = callee;
            }
        }
    }
    free(pending);
}

int ptx_check_kernel(const ptx_module *module, int32_t entry, sc_error *error)
{
    bool *reached = calloc((size_t)module->function_count + 1, sizeof *reached);
    ptx_reachable_functions(module, entry, reached);
    int status = 0;
    for (int32_t f = 0; f < module->function_count && status == 0; f++) {
        const ptx_function *function = &module->functions[f];
        for (int32_t i = 0; reached[f] && i < function->instruction_count && status == 0; i++) {
            const ptx_instruction *in = &function->instructions[i];
            if (in->opcode == PTX_OP_UNSUPPORTED)
                status = sc_fail(error, "%s:%d: unsupported PTX instruction '%s' (kernel %s)", module->path,
                                 in->line, in->unsupported_text, module->functions[entry].name);
        }
    }
    free(reached);
    return status;
}
