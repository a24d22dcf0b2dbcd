/* lexer.c — PTX tokenizer: identifiers with dotted modifiers, numbers, strings, punctuation;
 * drops // and block comments and counts lines. */
#include "ptx/lexer.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    const char *text;
    size_t length;
    size_t pos;
    int line;
    const char *path;
    ptx_token_list *list;
    size_t capacity;
} lexer;

static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%'
        || c == '.';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

static char peek(const lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->length ? lx->text[lx->pos + ahead] : '\0';
}

static int push_token(lexer *lx, ptx_token_kind kind, size_t start, sc_error *error)
{
    if (lx->list->count + 1 >= lx->capacity) {
        size_t capacity = lx->capacity ? lx->capacity * 2 : 1024;
        ptx_token *grown = realloc(lx->list->tokens, capacity * sizeof *grown);
        if (!grown)
            return sc_fail(error, "%s: out of memory while reading PTX", lx->path);
        lx->list->tokens = grown;
        lx->capacity = capacity;
    }
    if (lx->pos - start > 1u << 20)
        return sc_fail(error, "%s:%d: token too long", lx->path, lx->line);
    lx->list->tokens[lx->list->count++] = (ptx_token){
        .text = lx->text + start, .length = (int)(lx->pos - start), .line = lx->line, .kind = kind};
    return 0;
}

/* Skips blanks and comments; fails on an unterminated block comment. */
static int skip_space(lexer *lx, sc_error *error)
{
    while (lx->pos < lx->length) {
        char c = peek(lx, 0);
        if (c == '\n') {
            lx->line++;
            lx->pos++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '/' && peek(lx, 1) == '/') {
            while (lx->pos < lx->length && peek(lx, 0) != '\n')
                lx->pos++;
        } else if (c == '/' && peek(lx, 1) == '*') {
            int start_line = lx->line;
            lx->pos += 2;
            while (lx->pos < lx->length && !(peek(lx, 0) == '*' && peek(lx, 1) == '/')) {
                if (peek(lx, 0) == '\n')
                    lx->line++;
                lx->pos++;
            }
            if (lx->pos >= lx->length)
                return sc_fail(error, "%s:%d: unterminated comment", lx->path, start_line);
            lx->pos += 2;
        } else {
            break;
        }
    }
    return 0;
}

static void scan_name(lexer *lx)
{
    while (lx->pos < lx->length) {
        if (is_name_char(peek(lx, 0)))
            lx->pos++;
        else if (peek(lx, 0) == ':' && peek(lx, 1) == ':')
            lx->pos += 2;
        else
            break;
    }
}

static int scan_string(lexer *lx, sc_error *error)
{
    lx->pos++;
    while (lx->pos < lx->length && peek(lx, 0) != '"' && peek(lx, 0) != '\n') {
        if (peek(lx, 0) == '\\' && lx->pos + 1 < lx->length && peek(lx, 1) != '\n')
            lx->pos++;
        lx->pos++;
    }
    if (peek(lx, 0) != '"' || lx->pos >= lx->length)
        return sc_fail(error, "%s:%d: unterminated string", lx->path, lx->line);
    lx->pos++;
    return 0;
}

static int scan_token(lexer *lx, sc_error *error)
{
    size_t start = lx->pos;
    char c = peek(lx, 0);
    if (is_name_start(c)) {
        scan_name(lx);
        return push_token(lx, PTX_TOKEN_IDENT, start, error);
    }
    if (is_digit(c)) {
        while (lx->pos < lx->length && (is_name_char(peek(lx, 0))))
            lx->pos++;
        return push_token(lx, PTX_TOKEN_NUMBER, start, error);
    }
    if (c == '"') {
        if (scan_string(lx, error) < 0)
            return -1;
        return push_token(lx, PTX_TOKEN_STRING, start, error);
    }
    if (c != '\0' && strchr(",;:[]{}()+-@!|<>=", c)) {
        lx->pos++;
        return push_token(lx, PTX_TOKEN_PUNCT, start, error);
    }
    if (c >= 0x21 && c <= 0x7e)
        return sc_fail(error, "%s:%d: unexpected character '%c'", lx->path, lx->line, c);
    return sc_fail(error, "%s:%d: unexpected byte 0x%02x", lx->path, lx->line, (unsigned char)c);
}

int ptx_tokenize(const char *text, size_t length, const char *path, ptx_token_list *out,
                 sc_error *error)
{
    *out = (ptx_token_list){0};
    lexer lx = {.text = text, .length = length, .line = 1, .path = path, .list = out};
    for (;;) {
        if (skip_space(&lx, error) < 0)
            goto fail;
        if (lx.pos >= lx.length)
            break;
        if (scan_token(&lx, error) < 0)
            goto fail;
    }
    if (out->count)
        lx.line = out->tokens[out->count - 1].line;  /* report end-of-file errors on the last line */
    size_t end = lx.pos;
    if (push_token(&lx, PTX_TOKEN_END, end, error) < 0)
        goto fail;
    out->count--;  /* the END token is not counted */
    return 0;
fail:
    ptx_tokens_free(out);
    return -1;
}

void ptx_tokens_free(ptx_token_list *list)
{
    free(list->tokens);
    *list = (ptx_token_list){0};
}

bool ptx_token_is(const ptx_token *token, char c)
{
    return token->kind == PTX_TOKEN_PUNCT && token->text[0] == c;
}

bool ptx_token_equals(const ptx_token *token, const char *word)
{
    size_t n = strlen(word);
    return token->kind != PTX_TOKEN_END && (size_t)token->length == n
        && memcmp(token->text, word, n) == 0;
}
