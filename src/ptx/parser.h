/* parser.h — state and helpers shared by the parts of the PTX parser: parser.c (module and
 * function structure), declarations.c (variables and parameter lists), instructions.c
 * (opcodes, modifiers and checks) and operands.c (operand syntax and name resolution). */
#ifndef SYNCSCOPE_PTX_PARSER_H
#define SYNCSCOPE_PTX_PARSER_H

#include "ptx/lexer.h"
#include "ptx/ptx_ir.h"
#include "ptx/symtab.h"

enum { PTX_MAX_BLOCK_DEPTH = 64 };

/* A name used before its definition: a branch label or a callee, resolved later. */
typedef struct ptx_fixup {
    int32_t function;
    int32_t instruction;
    int32_t token;       /* index of the name token */
} ptx_fixup;

typedef struct ptx_fixups {
    ptx_fixup *items;
    int32_t count, capacity;
} ptx_fixups;

/* How an immediate was written, so it can be converted once the instruction type is known. */
typedef enum ptx_literal { PTX_LITERAL_INTEGER = 0, PTX_LITERAL_F32, PTX_LITERAL_F64 } ptx_literal;

typedef struct ptx_parser {
    const char *path;
    sc_error *error;
    const ptx_token *tokens;
    size_t position;
    ptx_module *module;
    ptx_arena *arena;
    int32_t symbol_capacity, function_capacity;
    ptx_name_table scope;          /* registers (value = register index) and symbols */
    ptx_name_table functions;      /* value = function index */
    ptx_name_table labels;         /* labels of the current function: instruction index */
    ptx_fixups label_fixups;       /* per function */
    ptx_fixups call_fixups;        /* per module */
    int32_t function;              /* index of the function being parsed, or -1 */
    int32_t register_capacity, instruction_capacity;
    int64_t module_registers;      /* registers of all functions, bounded against huge inputs */
    uint64_t initialized_bytes;    /* bytes of all initialisers, bounded likewise */
    int block_depth;
    int32_t scope_start;           /* scope.count when the innermost block was opened */
    int32_t function_scope_start;  /* scope.count when the current function was opened */
    /* literal kinds of the operands of the instruction being parsed */
    uint8_t literals[PTX_MAX_OPERANDS];
} ptx_parser;

/* Names in `scope` are tagged so registers and symbols share one table. */
#define PTX_SCOPE_REGISTER(index) (index)
#define PTX_SCOPE_SYMBOL(index) ((index) | 0x40000000)
#define PTX_SCOPE_IS_SYMBOL(value) (((value) & 0x40000000) != 0)
#define PTX_SCOPE_INDEX(value) ((value) & 0x3FFFFFFF)

/* parser.c: tokens and errors */
const ptx_token *ptx_peek(const ptx_parser *p);
const ptx_token *ptx_next(ptx_parser *p);
bool ptx_accept(ptx_parser *p, char punct);
int ptx_expect(ptx_parser *p, char punct, const char *what);
int ptx_error(ptx_parser *p, int line, const char *format, ...) __attribute__((format(printf, 3, 4)));
int ptx_out_of_memory(ptx_parser *p);
ptx_function *ptx_current_function(ptx_parser *p);
/* Parses an unsigned integer token (decimal, hex, octal, binary, optional U suffix). */
int ptx_parse_unsigned(ptx_parser *p, const ptx_token *token, uint64_t *value);
int ptx_add_fixup(ptx_parser *p, ptx_fixups *fixups, int32_t instruction, size_t token);
/* Grows a malloc'd array of `*capacity` elements so that index `needed` fits. */
int ptx_reserve(ptx_parser *p, void **items, int32_t *capacity, int32_t needed, size_t size);

/* declarations.c */
ptx_type ptx_lookup_type(const ptx_token *token);
/* Parses ".reg/.local/.shared/.global/.const/.param ..." through its ';'. At module scope
 * `function` is -1. Linkage (.extern/.visible/.weak) has already been consumed. */
int ptx_parse_variable(ptx_parser *p, bool is_extern);
/* Parses "(.param .b32 x, ...)" into the function's params (or returns). */
int ptx_parse_parameter_list(ptx_parser *p, ptx_function *function, bool returns);
/* Adds registers and declares their names in the current scope. */
int ptx_add_register(ptx_parser *p, const char *name, int length, ptx_type type);

/* instructions.c: parses one instruction (guard already consumed) and appends it. */
int ptx_parse_instruction(ptx_parser *p, int32_t guard_reg, bool guard_negated);

/* operands.c */
/* Parses an immediate: optional '-', then an integer or a 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX literal. */
int ptx_parse_literal(ptx_parser *p, uint64_t *value, ptx_literal *literal);
/* The bit pattern of a literal as a value of `type` (integers masked, floats converted). */
uint64_t ptx_convert_literal(ptx_type type, uint64_t value, ptx_literal literal);
int ptx_parse_operand(ptx_parser *p, ptx_instruction *instruction, int index, bool is_branch);
int ptx_parse_call(ptx_parser *p, ptx_instruction *instruction);
int ptx_find_register(ptx_parser *p, const ptx_token *token, int32_t *reg);

#endif
