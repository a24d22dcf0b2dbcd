/* lexer.h — splits PTX text into tokens for the parser.
 *
 * Identifiers include dots and "::" so that an opcode with all its modifiers
 * ("ld.global.L1::no_allocate.v4.u32"), a directive (".reg") and a special register
 * ("%tid.x") each arrive as one token. Comments are dropped. Tokens point into the text.
 */
#ifndef SYNCSCOPE_PTX_LEXER_H
#define SYNCSCOPE_PTX_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

typedef enum ptx_token_kind {
    PTX_TOKEN_END = 0,   /* after the last token */
    PTX_TOKEN_IDENT,     /* names, opcodes, directives, registers, labels */
    PTX_TOKEN_NUMBER,    /* 42, 0x2A, 17U, 0f3F800000, 0d3FF0000000000000, 9.0 */
    PTX_TOKEN_STRING,    /* "text" (quotes included) */
    PTX_TOKEN_PUNCT,     /* one character of , ; : [ ] { } ( ) + - @ ! | < > = */
} ptx_token_kind;

typedef struct ptx_token {
    const char *text;
    int length;
    int line;
    ptx_token_kind kind;
} ptx_token;

typedef struct ptx_token_list {
    ptx_token *tokens;   /* count tokens followed by one PTX_TOKEN_END */
    size_t count;
} ptx_token_list;

/* Tokenizes `length` bytes of `text`. Fails with "path:LINE: ..." on a stray character or an
 * unterminated comment or string. Free the list with ptx_tokens_free. */
int ptx_tokenize(const char *text, size_t length, const char *path, ptx_token_list *out,
                 sc_error *error);
void ptx_tokens_free(ptx_token_list *list);

/* True if the token is exactly the punctuation character `c` / the identifier `word`. */
bool ptx_token_is(const ptx_token *token, char c);
bool ptx_token_equals(const ptx_token *token, const char *word);

#endif
