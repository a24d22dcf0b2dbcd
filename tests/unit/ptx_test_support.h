/* ptx_test_support.h — helpers shared by the PTX unit tests: loading committed test PTX,
 * wrapping an instruction snippet into a kernel, and finding instructions by opcode. */
#ifndef SYNCSCOPE_TESTS_PTX_TEST_SUPPORT_H
#define SYNCSCOPE_TESTS_PTX_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"
#include "ptx/ptx_ir.h"

/* Line number of the first snippet line inside the kernel built by parse_snippet. */
#define SNIPPET_FIRST_LINE 11

static inline ptx_module *load_test_ptx(const char *name, sc_error *error)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/ptx/%s", sc_data_dir(), name);
    return ptx_load_file(path, error);
}

/* Parses `body` as the body of kernel "k" that already declares %p<8>, %r<16>, %f<8>,
 * %rd<8> and %fd<4>, a .u64 parameter k_p0 and a .shared array buf. */
static inline ptx_module *parse_snippet(const char *body, sc_error *error)
{
    static const char format[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 k_p0)\n{\n"
        ".reg .pred %%p<8>;\n.reg .b32 %%r<16>;\n.reg .f32 %%f<8>;\n.reg .b64 %%rd<8>;\n"
        ".shared .align 4 .b32 buf[32]; .reg .f64 %%fd<4>;\n"
        "%s\n}\n";
    size_t size = sizeof format + strlen(body);
    char *text = malloc(size);
    snprintf(text, size, format, body);
    ptx_module *module = ptx_parse(text, strlen(text), "snippet.ptx", error);
    free(text);
    return module;
}

static inline const ptx_instruction *nth_instruction(const ptx_function *function, ptx_opcode opcode,
                                                     int n)
{
    for (int32_t i = 0; i < function->instruction_count; i++)
        if (function->instructions[i].opcode == opcode && n-- == 0)
            return &function->instructions[i];
    return NULL;
}

static inline const char *register_name(const ptx_function *function, int32_t reg)
{
    return reg >= 0 ? function->registers[reg].name : "-";
}

#endif
