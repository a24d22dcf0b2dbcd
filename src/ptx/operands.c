/* operands.c — PTX operand syntax: registers (with '!' negation and "%r|%p" pairs), special
 * registers, immediates, [address] expressions, {vector} lists, '_' sinks, symbol addresses,
 * branch labels, and the argument lists of call. Names are resolved against the scope here. */
#include "ptx/parser.h"

#include <string.h>

enum { MAX_VECTOR = 4, MAX_CALL_PARAMETERS = 255 };

static int token_error(ptx_parser *p, const ptx_token *token, const char *what)
{
    if (token->kind == PTX_TOKEN_END)
        return ptx_error(p, token->line, "%s, found end of file", what);
    return ptx_error(p, token->line, "%s, found '%.*s'", what,
                     token->length > 60 ? 60 : token->length, token->text);
}

/* ---- literals ----------------------------------------------------------------------------- */

static bool is_float_literal(const ptx_token *token)
{
    return token->kind == PTX_TOKEN_NUMBER && token->length > 2 && token->text[0] == '0'
        && strchr("fFdD", token->text[1]) && token->text[1] != '\0';
}

int ptx_parse_literal(ptx_parser *p, uint64_t *value, ptx_literal *literal)
{
    bool negative = ptx_accept(p, '-');
    const ptx_token *token = ptx_next(p);
    *literal = PTX_LITERAL_INTEGER;
    if (token->kind != PTX_TOKEN_NUMBER)
        return token_error(p, token, "expected a number");
    if (is_float_literal(token)) {
        bool is_double = token->text[1] == 'd' || token->text[1] == 'D';
        int digits = is_double ? 16 : 8;
        if (token->length != digits + 2 || negative)
            return token_error(p, token, "malformed floating-point literal");
        char text[24] = "0x";
        memcpy(text + 2, token->text + 2, (size_t)digits);
        ptx_token hex = {text, digits + 2, token->line, PTX_TOKEN_NUMBER};
        *literal = is_double ? PTX_LITERAL_F64 : PTX_LITERAL_F32;
        return ptx_parse_unsigned(p, &hex, value);
    }
    if (ptx_parse_unsigned(p, token, value) < 0)
        return -1;
    if (negative)
        *value = 0 - *value;
    return 0;
}

static double literal_as_double(uint64_t value, ptx_literal literal)
{
    if (literal == PTX_LITERAL_F32) {
        uint32_t bits = (uint32_t)value;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    if (literal == PTX_LITERAL_F64) {
        double d;
        memcpy(&d, &value, sizeof d);
        return d;
    }
    return (double)(int64_t)value;
}

uint64_t ptx_convert_literal(ptx_type type, uint64_t value, ptx_literal literal)
{
    bool same_width = (literal == PTX_LITERAL_F32 && type == PTX_TYPE_F32)
                   || (literal == PTX_LITERAL_F64 && type == PTX_TYPE_F64);
    if (type == PTX_TYPE_F32 && !same_width) {
        float f = (float)literal_as_double(value, literal);
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    if (type == PTX_TYPE_F64 && !same_width) {
        double d = literal_as_double(value, literal);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return bits;
    }
    unsigned size = ptx_type_size(type);
    return size && size < 8 ? value & ((UINT64_C(1) << (8 * size)) - 1) : value;
}

/* ---- names -------------------------------------------------------------------------------- */

int ptx_find_register(ptx_parser *p, const ptx_token *token, int32_t *reg)
{
    if (token->kind != PTX_TOKEN_IDENT || token->text[0] == '.')
        return token_error(p, token, "expected a register");
    int32_t value = ptx_names_find(&p->scope, token->text, token->length);
    if (value < 0 || PTX_SCOPE_IS_SYMBOL(value))
        return ptx_error(p, token->line, "undefined register '%.*s'",
                         token->length > 60 ? 60 : token->length, token->text);
    *reg = PTX_SCOPE_INDEX(value);
    return 0;
}

static int find_symbol(ptx_parser *p, const ptx_token *token, int32_t *symbol)
{
    int32_t value = token->kind == PTX_TOKEN_IDENT
                  ? ptx_names_find(&p->scope, token->text, token->length) : -1;
    if (value < 0 || !PTX_SCOPE_IS_SYMBOL(value))
        return token->kind == PTX_TOKEN_IDENT
             ? ptx_error(p, token->line, "undefined symbol '%.*s'",
                         token->length > 60 ? 60 : token->length, token->text)
             : token_error(p, token, "expected a variable name");
    *symbol = PTX_SCOPE_INDEX(value);
    return 0;
}

static const struct {
    const char *name;
    ptx_special_register special;
    bool has_component;
} special_registers[] = {
    {"%tid", PTX_SREG_TID, true},          {"%ntid", PTX_SREG_NTID, true},
    {"%ctaid", PTX_SREG_CTAID, true},      {"%nctaid", PTX_SREG_NCTAID, true},
    {"%laneid", PTX_SREG_LANEID, false},   {"%warpid", PTX_SREG_WARPID, false},
    {"%nwarpid", PTX_SREG_NWARPID, false}, {"%smid", PTX_SREG_SMID, false},
    {"%nsmid", PTX_SREG_NSMID, false},     {"%gridid", PTX_SREG_GRIDID, false},
    {"%clock", PTX_SREG_CLOCK, false},     {"%clock64", PTX_SREG_CLOCK64, false},
    {"%globaltimer", PTX_SREG_GLOBALTIMER, false},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, false}, {"%lanemask_lt", PTX_SREG_LANEMASK_LT, false},
    {"%lanemask_le", PTX_SREG_LANEMASK_LE, false}, {"%lanemask_gt", PTX_SREG_LANEMASK_GT, false},
    {"%lanemask_ge", PTX_SREG_LANEMASK_GE, false},
    {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, false},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, false},
};

/* "%tid.x", "%laneid": fills a SPECIAL operand; returns 1 if the name is not special. */
static int parse_special(const ptx_token *token, ptx_operand *operand)
{
    const char *dot = memchr(token->text, '.', (size_t)token->length);
    int base_length = dot ? (int)(dot - token->text) : token->length;
    for (size_t i = 0; i < sizeof special_registers / sizeof special_registers[0]; i++) {
        const char *name = special_registers[i].name;
        if ((size_t)base_length != strlen(name) || memcmp(token->text, name, (size_t)base_length) != 0)
            continue;
        int component = 0;
        if (special_registers[i].has_component) {
            if (!dot || token->length != base_length + 2 || !strchr("xyz", dot[1]) || dot[1] == '\0')
                return 1;
            component = dot[1] - 'x';
        } else if (dot) {
            return 1;
        }
        operand->kind = PTX_OPERAND_SPECIAL;
        operand->special = (uint16_t)special_registers[i].special;
        operand->component = (uint8_t)component;
        return 0;
    }
    return 1;
}

/* A register name, or a special register when no register of that name is declared. */
static int parse_register_operand(ptx_parser *p, ptx_operand *operand)
{
    const ptx_token *token = ptx_next(p);
    int32_t value = ptx_names_find(&p->scope, token->text, token->length);
    if (value < 0 && parse_special(token, operand) == 0)
        return 0;
    if (ptx_find_register(p, token, &operand->reg) < 0)
        return -1;
    operand->kind = PTX_OPERAND_REGISTER;
    if (!ptx_accept(p, '|'))
        return 0;
    if (ptx_token_equals(ptx_peek(p), "_")) {
        ptx_next(p);
        return 0;
    }
    return ptx_find_register(p, ptx_next(p), &operand->reg2);
}

/* True if the identifier names a register: "%r1", or a declared register without '%'. */
static bool names_register(const ptx_parser *p, const ptx_token *token)
{
    if (token->kind != PTX_TOKEN_IDENT)
        return false;
    if (token->text[0] == '%')
        return true;
    int32_t value = ptx_names_find(&p->scope, token->text, token->length);
    return value >= 0 && !PTX_SCOPE_IS_SYMBOL(value);
}

/* ---- compound operands -------------------------------------------------------------------- */

/* Optional "+N", "-N" or "+-N" after a base in an address or symbol operand. */
static int parse_offset(ptx_parser *p, int64_t *offset)
{
    *offset = 0;
    if (!ptx_token_is(ptx_peek(p), '+') && !ptx_token_is(ptx_peek(p), '-'))
        return 0;
    bool subtract = ptx_token_is(ptx_next(p), '-');
    uint64_t value;
    ptx_literal literal;
    if (ptx_parse_literal(p, &value, &literal) < 0)
        return -1;
    if (literal != PTX_LITERAL_INTEGER)
        return ptx_error(p, ptx_peek(p)->line, "address offsets must be integers");
    *offset = subtract ? (int64_t)(0 - value) : (int64_t)value;
    return 0;
}

/* [%rd1+4], [sym], [sym+8], [%r6], [0x10] */
static int parse_address(ptx_parser *p, ptx_operand *operand)
{
    ptx_next(p);  /* '[' */
    operand->kind = PTX_OPERAND_ADDRESS;
    const ptx_token *base = ptx_peek(p);
    if (base->kind == PTX_TOKEN_NUMBER) {
        uint64_t value;
        ptx_literal literal;
        if (ptx_parse_literal(p, &value, &literal) < 0)
            return -1;
        operand->value = (int64_t)value;
    } else if (names_register(p, base)) {
        if (ptx_find_register(p, ptx_next(p), &operand->reg) < 0)
            return -1;
    } else if (find_symbol(p, ptx_next(p), &operand->symbol) < 0) {
        return -1;
    }
    int64_t offset;
    if (parse_offset(p, &offset) < 0)
        return -1;
    operand->value += offset;
    return ptx_expect(p, ']', "']' closing the address");
}

/* {%r1, %r2, _, %r4} */
static int parse_vector(ptx_parser *p, ptx_operand *operand)
{
    int line = ptx_next(p)->line;  /* '{' */
    operand->kind = PTX_OPERAND_VECTOR;
    do {
        if (operand->count == MAX_VECTOR)
            return ptx_error(p, line, "vector operand has more than %d elements", MAX_VECTOR);
        int32_t *element = &operand->vector[operand->count++];
        if (ptx_token_equals(ptx_peek(p), "_")) {
            ptx_next(p);
            *element = -1;
        } else if (ptx_find_register(p, ptx_next(p), element) < 0) {
            return -1;
        }
    } while (ptx_accept(p, ','));
    return ptx_expect(p, '}', "'}' closing the vector operand");
}

static int parse_immediate(ptx_parser *p, ptx_operand *operand, ptx_literal *literal)
{
    uint64_t value;
    if (ptx_parse_literal(p, &value, literal) < 0)
        return -1;
    operand->kind = PTX_OPERAND_IMMEDIATE;
    operand->value = (int64_t)value;
    return 0;
}

/* A variable used as a value: its address, optionally with an offset. */
static int parse_symbol_operand(ptx_parser *p, ptx_operand *operand)
{
    if (find_symbol(p, ptx_next(p), &operand->symbol) < 0)
        return -1;
    operand->kind = PTX_OPERAND_SYMBOL;
    return parse_offset(p, &operand->value);
}

static int parse_label_operand(ptx_parser *p, ptx_operand *operand)
{
    const ptx_token *token = ptx_peek(p);
    if (token->kind != PTX_TOKEN_IDENT || token->text[0] == '%' || token->text[0] == '.')
        return token_error(p, token, "expected a label");
    operand->kind = PTX_OPERAND_LABEL;
    return ptx_add_fixup(p, &p->label_fixups, ptx_current_function(p)->instruction_count,
                         p->position++);
}

int ptx_parse_operand(ptx_parser *p, ptx_instruction *instruction, int index, bool is_branch)
{
    ptx_operand *operand = &instruction->operands[index];
    *operand = (ptx_operand){.reg = -1, .reg2 = -1, .symbol = -1};
    ptx_literal literal = PTX_LITERAL_INTEGER;
    const ptx_token *token = ptx_peek(p);
    int result;
    if (is_branch) {
        result = parse_label_operand(p, operand);
    } else if (ptx_token_is(token, '!')) {
        ptx_next(p);
        operand->negated = 1;
        operand->kind = PTX_OPERAND_REGISTER;
        result = ptx_find_register(p, ptx_next(p), &operand->reg);
    } else if (ptx_token_is(token, '[')) {
        result = parse_address(p, operand);
    } else if (ptx_token_is(token, '{')) {
        result = parse_vector(p, operand);
    } else if (ptx_token_is(token, '-') || token->kind == PTX_TOKEN_NUMBER) {
        result = parse_immediate(p, operand, &literal);
    } else if (ptx_token_equals(token, "_")) {
        ptx_next(p);
        operand->kind = PTX_OPERAND_SINK;
        result = 0;
    } else if (ptx_token_equals(token, "WARP_SZ")) {
        /* the predefined constant: the PTX warp size (a 64-lane wavefront runs two PTX warps) */
        ptx_next(p);
        operand->kind = PTX_OPERAND_IMMEDIATE;
        operand->value = PTX_WARP_LANES;
        result = 0;
    } else if (names_register(p, token)) {
        result = parse_register_operand(p, operand);
    } else if (token->kind == PTX_TOKEN_IDENT && token->text[0] != '.') {
        result = parse_symbol_operand(p, operand);
    } else {
        result = token_error(p, token, "expected an operand");
    }
    p->literals[index] = (uint8_t)literal;
    return result;
}

/* ---- call --------------------------------------------------------------------------------- */

/* "(a, b)": a list of the caller's .param variables, stored in the arena. */
static int parse_call_list(ptx_parser *p, int32_t **list, uint8_t *count)
{
    int32_t symbols[MAX_CALL_PARAMETERS];
    int n = 0;
    int line = ptx_next(p)->line;  /* '(' */
    if (!ptx_token_is(ptx_peek(p), ')')) {
        do {
            const ptx_token *name = ptx_next(p);
            if (n == MAX_CALL_PARAMETERS)
                return ptx_error(p, line, "more than %d call parameters", MAX_CALL_PARAMETERS);
            if (find_symbol(p, name, &symbols[n]) < 0)
                return -1;
            if (p->module->symbols[symbols[n]].storage != PTX_STORAGE_FRAME)
                return ptx_error(p, name->line, "call parameter '%.*s' must be a .param variable",
                                 name->length, name->text);
            n++;
        } while (ptx_accept(p, ','));
    }
    if (ptx_expect(p, ')', "')' closing the call parameter list") < 0)
        return -1;
    *count = (uint8_t)n;
    *list = n ? ptx_arena_alloc(p->arena, (size_t)n * sizeof **list) : NULL;
    if (n && !*list)
        return ptx_out_of_memory(p);
    if (n)
        memcpy(*list, symbols, (size_t)n * sizeof **list);
    return 0;
}

/* call (ret), fname, (a, b);   call fname, (a);   call fname; */
int ptx_parse_call(ptx_parser *p, ptx_instruction *instruction)
{
    if (ptx_token_is(ptx_peek(p), '(')) {
        if (parse_call_list(p, &instruction->call_returns, &instruction->call_return_count) < 0
            || ptx_expect(p, ',', "',' after the call return list") < 0)
            return -1;
    }
    const ptx_token *callee = ptx_peek(p);
    if (callee->kind != PTX_TOKEN_IDENT || callee->text[0] == '.')
        return token_error(p, callee, "expected a function name");
    if (callee->text[0] == '%')
        return ptx_error(p, callee->line, "indirect calls are not supported");
    if (ptx_add_fixup(p, &p->call_fixups, ptx_current_function(p)->instruction_count, p->position++) < 0)
        return -1;
    if (!ptx_accept(p, ','))
        return 0;
    if (!ptx_token_is(ptx_peek(p), '('))
        return token_error(p, ptx_peek(p), "expected '(' before the call arguments");
    if (parse_call_list(p, &instruction->call_args, &instruction->call_arg_count) < 0)
        return -1;
    if (ptx_token_is(ptx_peek(p), ','))
        return ptx_error(p, callee->line, "indirect calls with prototypes are not supported");
    return 0;
}
