/* declarations.c — PTX variable declarations: .reg registers (single names and %r<N> ranges),
 * .global/.const/.shared/.local/.param variables with alignment, array sizes and initialisers,
 * and the parameter lists of .entry and .func. Lays out kernel parameters in the parameter
 * buffer and frame variables (.local, in-body .param, .func parameters) in the function frame. */
#include "ptx/parser.h"

#include <stdio.h>
#include <string.h>

enum {
    MAX_REGISTERS = 1 << 20,             /* per function */
    MAX_MODULE_REGISTERS = 1 << 22,
    MAX_RANGE_DIGITS = 7,
    MAX_INITIALIZED_BYTES = 64 << 20,    /* per variable */
    MAX_MODULE_INITIALIZED_BYTES = 256 << 20,
    MAX_INITIALIZER_DEPTH = 16,
};
static const uint64_t MAX_VARIABLE_BYTES = (uint64_t)1 << 40;

/* What precedes the names of a declaration: ".align 8 .u64" and the like. */
typedef struct declaration {
    ptx_space space;
    ptx_type type;
    uint32_t align;      /* 0 when not given */
    bool is_extern;
} declaration;

ptx_type ptx_lookup_type(const ptx_token *token)
{
    if (token->kind != PTX_TOKEN_IDENT || token->text[0] != '.')
        return PTX_TYPE_NONE;
    for (int type = PTX_TYPE_PRED; type < PTX_TYPE_COUNT; type++) {
        const char *name = ptx_type_name((ptx_type)type);
        if ((size_t)token->length == strlen(name) + 1 && memcmp(token->text + 1, name, strlen(name)) == 0)
            return (ptx_type)type;
    }
    return PTX_TYPE_NONE;
}

static ptx_space lookup_space(const ptx_token *token)
{
    static const struct { const char *name; ptx_space space; } spaces[] = {
        {".reg", PTX_SPACE_REG},       {".global", PTX_SPACE_GLOBAL}, {".shared", PTX_SPACE_SHARED},
        {".local", PTX_SPACE_LOCAL},   {".param", PTX_SPACE_PARAM},   {".const", PTX_SPACE_CONST},
    };
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (ptx_token_equals(token, spaces[i].name))
            return spaces[i].space;
    return PTX_SPACE_GENERIC;
}

static uint64_t align_up(uint64_t value, uint64_t align)
{
    return (value + align - 1) / align * align;
}

/* Parses the attributes after the state space: .align N, .ptr with its space and alignment
 * (parameters only; ignored), and exactly one type. */
static int parse_declaration_attributes(ptx_parser *p, declaration *decl, bool is_parameter)
{
    bool in_ptr = false;
    for (;;) {
        const ptx_token *token = ptx_peek(p);
        ptx_type type = ptx_lookup_type(token);
        if (type != PTX_TYPE_NONE && decl->type == PTX_TYPE_NONE) {
            decl->type = type;
        } else if (ptx_token_equals(token, ".align")) {
            ptx_next(p);
            uint64_t align;
            if (ptx_parse_unsigned(p, ptx_peek(p), &align) < 0)
                return -1;
            if (align == 0 || align > 4096 || (align & (align - 1)))
                return ptx_error(p, token->line, "alignment must be a power of two up to 4096");
            if (!in_ptr)
                decl->align = (uint32_t)align;
        } else if (is_parameter && ptx_token_equals(token, ".ptr")) {
            in_ptr = true;
        } else if (in_ptr && lookup_space(token) != PTX_SPACE_GENERIC) {
            /* .ptr .global: a hint about what the pointer points to */
        } else {
            break;
        }
        ptx_next(p);
    }
    if (decl->type == PTX_TYPE_NONE) {
        const ptx_token *token = ptx_peek(p);
        if (ptx_token_equals(token, ".v2") || ptx_token_equals(token, ".v4"))
            return ptx_error(p, token->line, "vector variables are not supported");
        return ptx_error(p, token->line, "expected a type in declaration");
    }
    return 0;
}

static bool is_plain_name(const ptx_token *token)
{
    return token->kind == PTX_TOKEN_IDENT && token->text[0] != '.' && token->text[0] != '%'
        && !memchr(token->text, '.', (size_t)token->length)
        && !memchr(token->text, ':', (size_t)token->length);
}

/* ---- registers ---------------------------------------------------------------------------- */

int ptx_add_register(ptx_parser *p, const char *name, int length, ptx_type type)
{
    ptx_function *function = ptx_current_function(p);
    if (ptx_names_find_since(&p->scope, name, length, p->scope_start) >= 0)
        return ptx_error(p, ptx_peek(p)->line, "duplicate declaration of '%.*s'", length, name);
    if (function->register_count >= MAX_REGISTERS)
        return ptx_error(p, ptx_peek(p)->line, "more than %d registers in '%s'", MAX_REGISTERS,
                         function->name);
    if (++p->module_registers > MAX_MODULE_REGISTERS)
        return ptx_error(p, ptx_peek(p)->line, "more than %d registers in the module",
                         MAX_MODULE_REGISTERS);
    if (ptx_reserve(p, (void **)&function->registers, &p->register_capacity,
                    function->register_count, sizeof *function->registers) < 0)
        return -1;
    char *copy = ptx_arena_strndup(p->arena, name, (size_t)length);
    if (!copy || ptx_names_add(&p->scope, copy, length, PTX_SCOPE_REGISTER(function->register_count)) < 0)
        return ptx_out_of_memory(p);
    function->registers[function->register_count++] = (ptx_register){copy, (uint8_t)type};
    return 0;
}

/* %r<29> declares %r0 .. %r28. */
static int add_register_range(ptx_parser *p, const ptx_token *base, ptx_type type)
{
    uint64_t count;
    if (ptx_parse_unsigned(p, ptx_next(p), &count) < 0 || ptx_expect(p, '>', "'>' after the register count") < 0)
        return -1;
    if (count > MAX_REGISTERS)
        return ptx_error(p, base->line, "register range %.*s<%llu> is too large", base->length,
                         base->text, (unsigned long long)count);
    if (base->length > 256)
        return ptx_error(p, base->line, "register name too long");
    char name[256 + MAX_RANGE_DIGITS + 1];
    for (uint64_t i = 0; i < count; i++) {
        int length = snprintf(name, sizeof name, "%.*s%llu", base->length, base->text, (unsigned long long)i);
        if (ptx_add_register(p, name, length, type) < 0)
            return -1;
    }
    return 0;
}

static int parse_register_names(ptx_parser *p, const declaration *decl)
{
    do {
        const ptx_token *name = ptx_next(p);
        if (name->kind != PTX_TOKEN_IDENT || name->text[0] == '.' || name->text[0] == '$'
            || memchr(name->text, '.', (size_t)name->length) || memchr(name->text, ':', (size_t)name->length))
            return ptx_error(p, name->line, "expected a register name");
        if (ptx_accept(p, '<')) {
            if (add_register_range(p, name, decl->type) < 0)
                return -1;
        } else if (ptx_add_register(p, name->text, name->length, decl->type) < 0) {
            return -1;
        }
    } while (ptx_accept(p, ','));
    return ptx_expect(p, ';', "';' after the register declaration");
}

/* ---- symbols ------------------------------------------------------------------------------ */

static ptx_storage storage_of(ptx_parser *p, const declaration *decl, bool unsized)
{
    switch (decl->space) {
    case PTX_SPACE_GLOBAL: return PTX_STORAGE_GLOBAL;
    case PTX_SPACE_CONST: return PTX_STORAGE_CONST;
    case PTX_SPACE_SHARED:
        return decl->is_extern && unsized ? PTX_STORAGE_DYNAMIC_SHARED : PTX_STORAGE_SHARED;
    default: return PTX_STORAGE_FRAME;  /* .local and in-body .param */
    }
}

/* Places a FRAME or KERNEL_PARAM symbol at the next aligned offset of its area. */
static void lay_out(ptx_parser *p, ptx_symbol *symbol)
{
    if (p->function < 0)
        return;
    ptx_function *function = ptx_current_function(p);
    uint64_t *cursor = symbol->storage == PTX_STORAGE_KERNEL_PARAM ? &function->kernel_param_bytes
                     : symbol->storage == PTX_STORAGE_FRAME ? &function->frame_bytes : NULL;
    if (!cursor)
        return;
    symbol->offset = align_up(*cursor, symbol->align);
    *cursor = symbol->offset + symbol->size;
}

static int add_symbol(ptx_parser *p, const ptx_token *name, ptx_storage storage,
                      const declaration *decl, uint64_t size)
{
    if (ptx_names_find_since(&p->scope, name->text, name->length, p->scope_start) >= 0)
        return ptx_error(p, name->line, "duplicate declaration of '%.*s'", name->length, name->text);
    ptx_module *module = p->module;
    if (ptx_reserve(p, (void **)&module->symbols, &p->symbol_capacity, module->symbol_count,
                    sizeof *module->symbols) < 0)
        return -1;
    char *copy = ptx_arena_strndup(p->arena, name->text, (size_t)name->length);
    if (!copy || ptx_names_add(&p->scope, copy, name->length, PTX_SCOPE_SYMBOL(module->symbol_count)) < 0)
        return ptx_out_of_memory(p);
    unsigned natural = ptx_type_size(decl->type);
    ptx_symbol *symbol = &module->symbols[module->symbol_count];
    *symbol = (ptx_symbol){
        .name = copy, .storage = (uint8_t)storage, .element_type = (uint8_t)decl->type,
        .align = decl->align ? decl->align : natural, .size = size, .owner = p->function,
        .is_extern = decl->is_extern && storage != PTX_STORAGE_DYNAMIC_SHARED};
    lay_out(p, symbol);
    return module->symbol_count++;
}

/* Parses "[N]" dimensions after a name; *count gets the element count, *unsized is set for
 * a trailing "[]". */
static int parse_dimensions(ptx_parser *p, uint64_t *count, bool *unsized)
{
    *count = 1;
    *unsized = false;
    while (ptx_accept(p, '[')) {
        if (*unsized)
            return ptx_error(p, ptx_peek(p)->line, "only the last array dimension may be empty");
        if (ptx_accept(p, ']')) {
            *unsized = true;
            continue;
        }
        uint64_t dimension;
        if (ptx_parse_unsigned(p, ptx_next(p), &dimension) < 0
            || ptx_expect(p, ']', "']' after the array size") < 0)
            return -1;
        if (dimension && *count > MAX_VARIABLE_BYTES / dimension)
            return ptx_error(p, ptx_peek(p)->line, "array is too large");
        *count *= dimension;
    }
    return 0;
}

static void store_element(uint8_t *bytes, ptx_type type, uint64_t value, ptx_literal literal)
{
    uint64_t bits = ptx_convert_literal(type, value, literal);
    for (unsigned i = 0; i < ptx_type_size(type); i++)
        bytes[i] = (uint8_t)(bits >> (8 * i));
}

/* Reads one scalar initialiser: an integer (optionally negative) or a 0f/0d float literal. */
static int parse_initializer_value(ptx_parser *p, uint64_t *value, ptx_literal *literal)
{
    const ptx_token *token = ptx_peek(p);
    if (token->kind == PTX_TOKEN_IDENT)
        return ptx_error(p, token->line, "address initialisers ('%.*s') are not supported",
                         token->length > 60 ? 60 : token->length, token->text);
    return ptx_parse_literal(p, value, literal);
}

/* "= 5" or "= {1, 2, {3, 4}}" (nesting is flattened); returns the number of values in *count. */
static int parse_initializer(ptx_parser *p, ptx_type type, uint8_t *bytes, uint64_t capacity,
                             uint64_t *count)
{
    unsigned size = ptx_type_size(type);
    int depth = 0;
    *count = 0;
    do {
        while (ptx_accept(p, '{'))
            if (++depth > MAX_INITIALIZER_DEPTH)
                return ptx_error(p, ptx_peek(p)->line, "initialiser nested too deeply");
        uint64_t value;
        ptx_literal literal;
        if (parse_initializer_value(p, &value, &literal) < 0)
            return -1;
        if (*count >= capacity)
            return ptx_error(p, ptx_peek(p)->line, "too many initialiser values");
        if (bytes)
            store_element(bytes + *count * size, type, value, literal);
        ++*count;
        while (depth > 0 && ptx_accept(p, '}'))
            depth--;
    } while (depth > 0 && ptx_accept(p, ','));
    if (depth != 0)
        return ptx_expect(p, '}', "'}' closing the initialiser");
    return 0;
}

/* Counts the values of an initialiser without storing them (for "x[] = {...}"). */
static int count_initializer(ptx_parser *p, ptx_type type, uint64_t *count)
{
    size_t start = p->position;
    int result = parse_initializer(p, type, NULL, MAX_INITIALIZED_BYTES, count);
    p->position = start;
    return result;
}

static int attach_initializer(ptx_parser *p, int32_t index, ptx_type type, uint64_t elements)
{
    unsigned element_size = ptx_type_size(type);
    uint64_t bytes = elements * element_size;
    if (bytes > MAX_INITIALIZED_BYTES)
        return ptx_error(p, ptx_peek(p)->line, "initialised variable is too large");
    p->initialized_bytes += bytes;
    if (p->initialized_bytes > MAX_MODULE_INITIALIZED_BYTES)
        return ptx_error(p, ptx_peek(p)->line, "initialised variables are too large in total");
    uint8_t *data = ptx_arena_alloc(p->arena, (size_t)bytes);
    if (!data)
        return ptx_out_of_memory(p);
    uint64_t count;
    if (parse_initializer(p, type, data, elements, &count) < 0)
        return -1;
    p->module->symbols[index].initializer = data;
    return 0;
}

static int parse_variable_name(ptx_parser *p, const declaration *decl)
{
    const ptx_token *name = ptx_next(p);
    if (!is_plain_name(name))
        return ptx_error(p, name->line, "expected a variable name");
    uint64_t elements;
    bool unsized;
    if (parse_dimensions(p, &elements, &unsized) < 0)
        return -1;
    bool has_initializer = ptx_accept(p, '=');
    if (has_initializer && decl->space != PTX_SPACE_GLOBAL && decl->space != PTX_SPACE_CONST)
        return ptx_error(p, name->line, "only .global and .const variables take initialisers");
    if (unsized && has_initializer && count_initializer(p, decl->type, &elements) < 0)
        return -1;
    if (unsized && !has_initializer && !decl->is_extern)
        return ptx_error(p, name->line, "array '%.*s' has no size", name->length, name->text);
    if (unsized && !has_initializer)
        elements = 0;
    uint64_t element_size = ptx_type_size(decl->type);
    if (elements > MAX_VARIABLE_BYTES / element_size)
        return ptx_error(p, name->line, "variable '%.*s' is too large", name->length, name->text);
    ptx_storage storage = storage_of(p, decl, unsized && !has_initializer);
    int32_t index = add_symbol(p, name, storage, decl, elements * element_size);
    if (index < 0)
        return -1;
    return has_initializer ? attach_initializer(p, index, decl->type, elements) : 0;
}

int ptx_parse_variable(ptx_parser *p, bool is_extern)
{
    const ptx_token *keyword = ptx_next(p);
    declaration decl = {.space = lookup_space(keyword), .is_extern = is_extern};
    if (decl.space == PTX_SPACE_GENERIC)
        return ptx_error(p, keyword->line, "unsupported directive '%.*s'",
                         keyword->length > 60 ? 60 : keyword->length, keyword->text);
    bool in_function = p->function >= 0;
    if (!in_function && (decl.space == PTX_SPACE_REG || decl.space == PTX_SPACE_LOCAL || decl.space == PTX_SPACE_PARAM))
        return ptx_error(p, keyword->line, "'%.*s' variables are only supported inside functions",
                         keyword->length, keyword->text);
    if (parse_declaration_attributes(p, &decl, false) < 0)
        return -1;
    if (decl.space == PTX_SPACE_REG)
        return parse_register_names(p, &decl);
    do {
        if (parse_variable_name(p, &decl) < 0)
            return -1;
    } while (ptx_accept(p, ','));
    return ptx_expect(p, ';', "';' after the declaration");
}

/* ---- parameter lists ---------------------------------------------------------------------- */

static int append_parameter(ptx_parser *p, ptx_function *function, bool returns, int32_t symbol)
{
    int32_t **list = returns ? &function->returns : &function->params;
    int32_t *count = returns ? &function->return_count : &function->param_count;
    int32_t capacity = *count;  /* the lists grow one element at a time */
    if (ptx_reserve(p, (void **)list, &capacity, *count, sizeof **list) < 0)
        return -1;
    (*list)[(*count)++] = symbol;
    return 0;
}

static int parse_parameter(ptx_parser *p, ptx_function *function, bool returns)
{
    const ptx_token *keyword = ptx_next(p);
    if (!ptx_token_equals(keyword, ".param"))
        return ptx_error(p, keyword->line, ptx_token_equals(keyword, ".reg")
                         ? "register parameters are not supported" : "expected '.param'");
    declaration decl = {.space = PTX_SPACE_PARAM};
    if (parse_declaration_attributes(p, &decl, true) < 0)
        return -1;
    const ptx_token *name = ptx_next(p);
    if (!is_plain_name(name))
        return ptx_error(p, name->line, "expected a parameter name");
    uint64_t elements;
    bool unsized;
    if (parse_dimensions(p, &elements, &unsized) < 0)
        return -1;
    if (unsized)
        return ptx_error(p, name->line, "parameter '%.*s' has no size", name->length, name->text);
    ptx_storage storage = function->is_entry ? PTX_STORAGE_KERNEL_PARAM : PTX_STORAGE_FRAME;
    int32_t symbol = add_symbol(p, name, storage, &decl, elements * ptx_type_size(decl.type));
    if (symbol < 0)
        return -1;
    return append_parameter(p, function, returns, symbol);
}

int ptx_parse_parameter_list(ptx_parser *p, ptx_function *function, bool returns)
{
    if (ptx_expect(p, '(', "'('") < 0)
        return -1;
    if (ptx_accept(p, ')'))
        return 0;
    do {
        if (parse_parameter(p, function, returns) < 0)
            return -1;
    } while (ptx_accept(p, ','));
    return ptx_expect(p, ')', "')' after the parameter list");
}
