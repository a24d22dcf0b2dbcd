/* parser.c — the PTX parser's entry points and structure: module directives, function headers,
 * bodies with nested blocks and labels, late resolution of labels and callees, and freeing.
 * Declarations, instructions and operands are parsed in their own files (see parser.h). */
#include "ptx/parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/files.h"
#include "ptx/cfg.h"

/* ---- tokens and errors ---------------------------------------------------------------- */

const ptx_token *ptx_peek(const ptx_parser *p) { return &p->tokens[p->position]; }

/* The token after the next one (or the end). */
static const ptx_token *peek_second(const ptx_parser *p)
{
    const ptx_token *token = &p->tokens[p->position];
    return token->kind == PTX_TOKEN_END ? token : token + 1;
}

const ptx_token *ptx_next(ptx_parser *p)
{
    const ptx_token *token = &p->tokens[p->position];
    if (token->kind != PTX_TOKEN_END)
        p->position++;
    return token;
}

bool ptx_accept(ptx_parser *p, char punct)
{
    if (!ptx_token_is(ptx_peek(p), punct))
        return false;
    p->position++;
    return true;
}

int ptx_error(ptx_parser *p, int line, const char *format, ...)
{
    char message[768];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return sc_fail(p->error, "%s:%d: %s", p->path, line, message);
}

int ptx_out_of_memory(ptx_parser *p)
{
    return sc_fail(p->error, "%s: out of memory while parsing PTX", p->path);
}

/* Describes a token for messages: its text (shortened) or "end of file". */
static void describe_token(const ptx_token *token, char *out, size_t size)
{
    if (token->kind == PTX_TOKEN_END)
        snprintf(out, size, "end of file");
    else
        snprintf(out, size, "'%.*s'", token->length > 60 ? 60 : token->length, token->text);
}

int ptx_expect(ptx_parser *p, char punct, const char *what)
{
    if (ptx_accept(p, punct))
        return 0;
    char found[80];
    describe_token(ptx_peek(p), found, sizeof found);
    return ptx_error(p, ptx_peek(p)->line, "expected %s, found %s", what, found);
}

ptx_function *ptx_current_function(ptx_parser *p)
{
    return &p->module->functions[p->function];
}

int ptx_parse_unsigned(ptx_parser *p, const ptx_token *token, uint64_t *value)
{
    const char *text = token->text;
    int length = token->length;
    if (token->kind != PTX_TOKEN_NUMBER)
        return ptx_error(p, token->line, "expected a number, found '%.*s'",
                         length > 60 ? 60 : length, text);
    if (length > 1 && (text[length - 1] == 'U' || text[length - 1] == 'u'))
        length--;
    unsigned base = 10;
    int start = 0;
    if (length > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        base = 16, start = 2;
    else if (length > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))
        base = 2, start = 2;
    else if (length > 1 && text[0] == '0')
        base = 8, start = 1;
    uint64_t result = 0;
    for (int i = start; i < length; i++) {
        char c = text[i];
        unsigned digit = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                       : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                       : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
        if (digit >= base)
            return ptx_error(p, token->line, "malformed number '%.*s'",
                             token->length > 60 ? 60 : token->length, text);
        if (result > (UINT64_MAX - digit) / base)
            return ptx_error(p, token->line, "number '%.*s' does not fit in 64 bits",
                             token->length > 60 ? 60 : token->length, text);
        result = result * base + digit;
    }
    *value = result;
    return 0;
}

int ptx_reserve(ptx_parser *p, void **items, int32_t *capacity, int32_t needed, size_t size)
{
    if (needed < *capacity)
        return 0;
    if (needed >= (1 << 24))
        return ptx_error(p, ptx_peek(p)->line, "too many items (more than %d)", 1 << 24);
    int32_t grown = *capacity ? *capacity : 8;
    while (grown <= needed)
        grown *= 2;
    void *memory = realloc(*items, (size_t)grown * size);
    if (!memory)
        return ptx_out_of_memory(p);
    *items = memory;
    *capacity = grown;
    return 0;
}

int ptx_add_fixup(ptx_parser *p, ptx_fixups *fixups, int32_t instruction, size_t token)
{
    if (ptx_reserve(p, (void **)&fixups->items, &fixups->capacity, fixups->count,
                    sizeof *fixups->items) < 0)
        return -1;
    fixups->items[fixups->count++] = (ptx_fixup){p->function, instruction, (int32_t)token};
    return 0;
}

/* ---- module directives ----------------------------------------------------------------- */

/* Skips the rest of a directive that ends at the end of its line (.file, .loc). */
static void skip_line(ptx_parser *p, int line)
{
    while (ptx_peek(p)->kind != PTX_TOKEN_END && ptx_peek(p)->line == line)
        ptx_next(p);
}

/* Skips ".section name { ... }" (debug sections), iteratively. */
static int skip_section(ptx_parser *p, int line)
{
    ptx_next(p);  /* section name */
    if (ptx_expect(p, '{', "'{' after .section") < 0)
        return -1;
    for (int depth = 1; depth > 0;) {
        const ptx_token *token = ptx_next(p);
        if (token->kind == PTX_TOKEN_END)
            return ptx_error(p, line, "unterminated .section");
        depth += ptx_token_is(token, '{') - ptx_token_is(token, '}');
    }
    return 0;
}

static int parse_version(ptx_parser *p)
{
    const ptx_token *token = ptx_next(p);
    int major = 0, minor = 0, used = 0;
    char text[32];
    snprintf(text, sizeof text, "%.*s", token->length > 30 ? 30 : token->length, token->text);
    if (token->kind != PTX_TOKEN_NUMBER || sscanf(text, "%d.%d%n", &major, &minor, &used) != 2
        || used != token->length)
        return ptx_error(p, token->line, "malformed .version '%s'", text);
    p->module->version_major = major;
    p->module->version_minor = minor;
    return 0;
}

static int parse_target(ptx_parser *p)
{
    const ptx_token *token = ptx_next(p);
    if (token->kind != PTX_TOKEN_IDENT)
        return ptx_error(p, token->line, "expected a target name after .target");
    snprintf(p->module->target, sizeof p->module->target, "%.*s",
             token->length > 31 ? 31 : token->length, token->text);
    while (ptx_accept(p, ','))
        if (ptx_next(p)->kind != PTX_TOKEN_IDENT)
            return ptx_error(p, token->line, "malformed .target list");
    return 0;
}

static int parse_address_size(ptx_parser *p)
{
    const ptx_token *token = ptx_next(p);
    uint64_t size;
    if (ptx_parse_unsigned(p, token, &size) < 0)
        return -1;
    if (size != 32 && size != 64)
        return ptx_error(p, token->line, ".address_size must be 32 or 64");
    p->module->address_size = (int)size;
    return 0;
}

/* .pragma "..."; */
static int parse_pragma(ptx_parser *p)
{
    const ptx_token *token = ptx_next(p);
    if (token->kind != PTX_TOKEN_STRING)
        return ptx_error(p, token->line, "expected a string after .pragma");
    while (ptx_accept(p, ','))
        if (ptx_next(p)->kind != PTX_TOKEN_STRING)
            return ptx_error(p, token->line, "expected a string in .pragma list");
    return ptx_expect(p, ';', "';' after .pragma");
}

/* ---- function headers ------------------------------------------------------------------ */

/* .maxntid/.reqntid x[, y[, z]] and the directives that only take numbers. */
static int parse_performance_directive(ptx_parser *p, ptx_function *function)
{
    const ptx_token *directive = ptx_next(p);
    bool records_ntid = ptx_token_equals(directive, ".reqntid")
                     || ptx_token_equals(directive, ".maxntid");
    uint32_t values[3] = {1, 1, 1};
    int count = 0;
    do {
        uint64_t value;
        if (count == 3)
            return ptx_error(p, directive->line, "too many values for %.*s", directive->length,
                             directive->text);
        if (ptx_parse_unsigned(p, ptx_next(p), &value) < 0)
            return -1;
        values[count++] = value > UINT32_MAX ? UINT32_MAX : (uint32_t)value;
    } while (ptx_accept(p, ','));
    if (records_ntid && (!function->reqntid[0] || ptx_token_equals(directive, ".reqntid")))
        memcpy(function->reqntid, values, sizeof values);
    return 0;
}

static bool is_performance_directive(const ptx_token *token)
{
    static const char *const names[] = {".maxntid", ".reqntid", ".minnctapersm", ".maxnreg",
                                        ".maxclusterrank", ".reqnctapercluster", NULL};
    for (int i = 0; names[i]; i++)
        if (ptx_token_equals(token, names[i]))
            return true;
    return false;
}

static int parse_function_attributes(ptx_parser *p, ptx_function *function)
{
    for (;;) {
        const ptx_token *token = ptx_peek(p);
        if (is_performance_directive(token)) {
            if (parse_performance_directive(p, function) < 0)
                return -1;
        } else if (ptx_token_equals(token, ".noreturn") || ptx_token_equals(token, ".explicitcluster")) {
            ptx_next(p);
        } else if (ptx_token_equals(token, ".pragma")) {
            ptx_next(p);
            if (parse_pragma(p) < 0)
                return -1;
        } else {
            return 0;
        }
    }
}

/* Creates the function, or returns the earlier prototype that this definition completes. */
static int declare_function(ptx_parser *p, const ptx_token *name, bool is_entry, int line,
                            bool *was_declared)
{
    int32_t existing = ptx_names_find(&p->functions, name->text, name->length);
    *was_declared = existing >= 0;
    if (existing >= 0) {
        ptx_function *function = &p->module->functions[existing];
        if (function->instructions || function->is_entry != is_entry)
            return ptx_error(p, line, "function '%.*s' is already defined", name->length, name->text);
        return existing;
    }
    ptx_module *module = p->module;
    if (ptx_reserve(p, (void **)&module->functions, &p->function_capacity, module->function_count,
                    sizeof *module->functions) < 0)
        return -1;
    char *copy = ptx_arena_strndup(p->arena, name->text, (size_t)name->length);
    if (!copy || ptx_names_add(&p->functions, copy, name->length, module->function_count) < 0)
        return ptx_out_of_memory(p);
    module->functions[module->function_count] = (ptx_function){
        .name = copy, .is_entry = is_entry, .line = line};
    return module->function_count++;
}

/* A prototype followed by a definition: the definition's lists replace the prototype's. */
static int check_redeclaration(ptx_parser *p, ptx_function *function, int32_t old_params,
                               int32_t old_returns, int line)
{
    if (old_params < 0)
        return 0;
    if (old_params != function->param_count || old_returns != function->return_count)
        return ptx_error(p, line, "definition of '%s' does not match its declaration", function->name);
    return 0;
}

/* ---- bodies ---------------------------------------------------------------------------- */

static int parse_guard(ptx_parser *p)
{
    const ptx_token *at = ptx_next(p);
    bool negated = ptx_accept(p, '!');
    int32_t reg;
    if (ptx_find_register(p, ptx_next(p), &reg) < 0)
        return -1;
    if (ptx_current_function(p)->registers[reg].type != PTX_TYPE_PRED)
        return ptx_error(p, at->line, "guard '%s' is not a predicate",
                         ptx_current_function(p)->registers[reg].name);
    return ptx_parse_instruction(p, reg, negated);
}

static int parse_label(ptx_parser *p)
{
    const ptx_token *name = ptx_next(p);
    ptx_next(p);  /* ':' */
    if (ptx_names_find(&p->labels, name->text, name->length) >= 0)
        return ptx_error(p, name->line, "duplicate label '%.*s'", name->length, name->text);
    if (ptx_names_add(&p->labels, name->text, name->length,
                      ptx_current_function(p)->instruction_count) < 0)
        return ptx_out_of_memory(p);
    return 0;
}

static int parse_body_directive(ptx_parser *p)
{
    const ptx_token *token = ptx_peek(p);
    if (ptx_token_equals(token, ".loc") || ptx_token_equals(token, ".file")) {
        ptx_next(p);
        skip_line(p, token->line);
        return 0;
    }
    if (ptx_token_equals(token, ".pragma")) {
        ptx_next(p);
        return parse_pragma(p);
    }
    return ptx_parse_variable(p, false);
}

/* Parses statements up to the '}' that closes the function body; nested blocks open scopes. */
static int parse_body(ptx_parser *p)
{
    int32_t block_marks[PTX_MAX_BLOCK_DEPTH];
    p->block_depth = 0;
    p->scope_start = p->function_scope_start;
    for (;;) {
        const ptx_token *token = ptx_peek(p);
        if (token->kind == PTX_TOKEN_END)
            return ptx_error(p, token->line, "missing '}' at the end of function '%s'",
                             ptx_current_function(p)->name);
        if (ptx_token_is(token, '}')) {
            ptx_next(p);
            if (p->block_depth == 0)
                return 0;
            ptx_names_pop_to(&p->scope, block_marks[--p->block_depth]);
            p->scope_start = p->block_depth ? block_marks[p->block_depth - 1] : p->function_scope_start;
        } else if (ptx_token_is(token, '{')) {
            if (p->block_depth == PTX_MAX_BLOCK_DEPTH)
                return ptx_error(p, token->line, "blocks nested more than %d deep", PTX_MAX_BLOCK_DEPTH);
            ptx_next(p);
            block_marks[p->block_depth++] = p->scope_start = p->scope.count;
        } else if (ptx_token_is(token, '@')) {
            if (parse_guard(p) < 0)
                return -1;
        } else if (token->kind == PTX_TOKEN_IDENT && token->text[0] == '.') {
            if (parse_body_directive(p) < 0)
                return -1;
        } else if (token->kind == PTX_TOKEN_IDENT && ptx_token_is(peek_second(p), ':')) {
            if (parse_label(p) < 0)
                return -1;
        } else if (token->kind == PTX_TOKEN_IDENT) {
            if (ptx_parse_instruction(p, -1, false) < 0)
                return -1;
        } else {
            char found[80];
            describe_token(token, found, sizeof found);
            return ptx_error(p, token->line, "expected an instruction, found %s", found);
        }
    }
}

static int resolve_labels(ptx_parser *p)
{
    ptx_function *function = ptx_current_function(p);
    for (int32_t i = 0; i < p->label_fixups.count; i++) {
        const ptx_fixup *fixup = &p->label_fixups.items[i];
        const ptx_token *name = &p->tokens[fixup->token];
        int32_t target = ptx_names_find(&p->labels, name->text, name->length);
        if (target < 0)
            return ptx_error(p, name->line, "undefined label '%.*s'", name->length, name->text);
        ptx_instruction *instruction = &function->instructions[fixup->instruction];
        for (int k = 0; k < instruction->operand_count; k++)
            if (instruction->operands[k].kind == PTX_OPERAND_LABEL)
                instruction->operands[k].value = target;
    }
    p->label_fixups.count = 0;
    ptx_names_pop_to(&p->labels, 0);
    return 0;
}

static int parse_function_body(ptx_parser *p, ptx_function *function)
{
    if (function->instruction_count == 0) {
        /* a body with no instructions still marks the function as defined */
        if (ptx_reserve(p, (void **)&function->instructions, &p->instruction_capacity, 0,
                        sizeof *function->instructions) < 0)
            return -1;
    }
    if (parse_body(p) < 0 || resolve_labels(p) < 0)
        return -1;
    return ptx_cfg_set_reconvergence(ptx_current_function(p), p->error);
}

/* .entry NAME (params) attrs { body }   or   .func [(returns)] NAME [(params)] attrs [; | {body}] */
static int parse_function(ptx_parser *p, bool is_extern)
{
    const ptx_token *keyword = ptx_next(p);
    bool is_entry = ptx_token_equals(keyword, ".entry");
    size_t returns_start = 0;
    if (!is_entry && ptx_token_is(ptx_peek(p), '(')) {
        /* the return list comes before the name: remember it and parse it after declaring */
        returns_start = p->position;
        for (int depth = 0;;) {
            const ptx_token *token = ptx_next(p);
            if (token->kind == PTX_TOKEN_END)
                return ptx_error(p, keyword->line, "unterminated return parameter list");
            depth += ptx_token_is(token, '(') - ptx_token_is(token, ')');
            if (depth == 0)
                break;
        }
    }
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOKEN_IDENT || name->text[0] == '.' || name->text[0] == '%')
        return ptx_error(p, name->line, "expected a function name");
    bool was_declared;
    int32_t index = declare_function(p, name, is_entry, keyword->line, &was_declared);
    if (index < 0)
        return -1;
    p->function = index;
    p->register_capacity = p->instruction_capacity = 0;
    ptx_function *function = ptx_current_function(p);
    int32_t old_params = was_declared ? function->param_count : -1;
    int32_t old_returns = function->return_count;
    function->param_count = function->return_count = 0;
    function->frame_bytes = function->kernel_param_bytes = 0;
    function->line = keyword->line;
    int32_t scope_mark = p->scope_start = p->function_scope_start = p->scope.count;
    if (returns_start) {
        size_t resume = p->position;
        p->position = returns_start;
        if (ptx_parse_parameter_list(p, function, true) < 0)
            return -1;
        p->position = resume;
    }
    if (ptx_token_is(ptx_peek(p), '(') && ptx_parse_parameter_list(p, function, false) < 0)
        return -1;
    if (check_redeclaration(p, function, old_params, old_returns, keyword->line) < 0)
        return -1;
    if (parse_function_attributes(p, function) < 0)
        return -1;
    int result = 0;
    if (ptx_accept(p, ';')) {
        if (!is_extern && is_entry)
            result = ptx_error(p, keyword->line, "kernel '%s' has no body", function->name);
    } else if (ptx_expect(p, '{', "'{' or ';' after the function header") < 0) {
        result = -1;
    } else {
        result = parse_function_body(p, function);
    }
    ptx_names_pop_to(&p->scope, scope_mark);
    p->scope_start = 0;
    p->function = -1;
    return result;
}

static int resolve_calls(ptx_parser *p)
{
    for (int32_t i = 0; i < p->call_fixups.count; i++) {
        const ptx_fixup *fixup = &p->call_fixups.items[i];
        const ptx_token *name = &p->tokens[fixup->token];
        int32_t callee = ptx_names_find(&p->functions, name->text, name->length);
        if (callee < 0)
            return ptx_error(p, name->line, "call to undeclared function '%.*s'", name->length,
                             name->text);
        ptx_instruction *call = &p->module->functions[fixup->function].instructions[fixup->instruction];
        const ptx_function *target = &p->module->functions[callee];
        if (target->is_entry)
            return ptx_error(p, name->line, "call to kernel '%s'", target->name);
        if (!target->instructions)
            return ptx_error(p, name->line, "call to '%s', which has no body in this module",
                             target->name);
        if (call->call_arg_count != target->param_count
            || call->call_return_count != target->return_count)
            return ptx_error(p, name->line,
                             "call to '%s' passes %d argument(s) and %d return(s), expected %d and %d",
                             target->name, call->call_arg_count, call->call_return_count,
                             target->param_count, target->return_count);
        call->callee = callee;
    }
    return 0;
}

/* ---- module ---------------------------------------------------------------------------- */

static int parse_module_statement(ptx_parser *p)
{
    const ptx_token *token = ptx_peek(p);
    bool is_extern = false;
    while (ptx_token_equals(token, ".visible") || ptx_token_equals(token, ".weak")
           || ptx_token_equals(token, ".extern") || ptx_token_equals(token, ".common")) {
        is_extern |= ptx_token_equals(token, ".extern");
        ptx_next(p);
        token = ptx_peek(p);
    }
    if (ptx_token_equals(token, ".entry") || ptx_token_equals(token, ".func"))
        return parse_function(p, is_extern);
    if (ptx_token_equals(token, ".global") || ptx_token_equals(token, ".const")
        || ptx_token_equals(token, ".shared"))
        return ptx_parse_variable(p, is_extern);
    ptx_next(p);
    if (ptx_token_equals(token, ".version"))
        return parse_version(p);
    if (ptx_token_equals(token, ".target"))
        return parse_target(p);
    if (ptx_token_equals(token, ".address_size"))
        return parse_address_size(p);
    if (ptx_token_equals(token, ".file") || ptx_token_equals(token, ".loc")) {
        skip_line(p, token->line);
        return 0;
    }
    if (ptx_token_equals(token, ".section"))
        return skip_section(p, token->line);
    if (ptx_token_equals(token, ".pragma"))
        return parse_pragma(p);
    char found[80];
    describe_token(token, found, sizeof found);
    return ptx_error(p, token->line, "unexpected %s at module scope", found);
}

static int parse_module(ptx_parser *p)
{
    while (ptx_peek(p)->kind != PTX_TOKEN_END)
        if (parse_module_statement(p) < 0)
            return -1;
    return resolve_calls(p);
}

static void parser_free(ptx_parser *p)
{
    ptx_names_free(&p->scope);
    ptx_names_free(&p->functions);
    ptx_names_free(&p->labels);
    free(p->label_fixups.items);
    free(p->call_fixups.items);
}

ptx_module *ptx_parse(const char *text, size_t length, const char *path, sc_error *error)
{
    if (!path)
        path = "<ptx>";
    ptx_module *module = calloc(1, sizeof *module);
    ptx_arena *arena = ptx_arena_new();
    if (!module || !arena || !(module->path = ptx_arena_strndup(arena, path, strlen(path)))) {
        free(module);
        ptx_arena_free(arena);
        sc_fail(error, "%s: out of memory while parsing PTX", path);
        return NULL;
    }
    module->arena = arena;
    ptx_token_list tokens;
    if (ptx_tokenize(text, length, path, &tokens, error) < 0) {
        ptx_module_free(module);
        return NULL;
    }
    ptx_parser parser = {.path = path, .error = error, .tokens = tokens.tokens, .module = module,
                         .arena = arena, .function = -1};
    int result = parse_module(&parser);
    parser_free(&parser);
    ptx_tokens_free(&tokens);
    if (result < 0) {
        ptx_module_free(module);
        return NULL;
    }
    return module;
}

ptx_module *ptx_load_file(const char *path, sc_error *error)
{
    size_t size;
    char *text = sc_read_file(path, &size, error);
    if (!text)
        return NULL;
    ptx_module *module = ptx_parse(text, size, path, error);
    free(text);
    return module;
}

void ptx_module_free(ptx_module *module)
{
    if (!module)
        return;
    for (int32_t i = 0; i < module->function_count; i++) {
        ptx_function *function = &module->functions[i];
        free(function->registers);
        free(function->instructions);
        free(function->params);
        free(function->returns);
    }
    free(module->functions);
    free(module->symbols);
    ptx_arena_free(module->arena);
    free(module);
}
