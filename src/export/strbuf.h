/* strbuf.h — a growable NUL-terminated string that every exporter writes its output into.
 *
 * Appending never fails (allocation failure aborts, as elsewhere in syncscope); the finished text
 * is taken over by the caller with sc_strbuf_take().
 */
#ifndef SYNCSCOPE_EXPORT_STRBUF_H
#define SYNCSCOPE_EXPORT_STRBUF_H

#include <stddef.h>

typedef struct sc_strbuf {
    char *text;
    size_t length;
    size_t capacity;
} sc_strbuf;

#define SC_STRBUF_INIT {NULL, 0, 0}

void sc_strbuf_append(sc_strbuf *buffer, const char *text);
void sc_strbuf_append_length(sc_strbuf *buffer, const char *text, size_t length);
void sc_strbuf_append_char(sc_strbuf *buffer, char c);
void sc_strbuf_appendf(sc_strbuf *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Returns the text (never NULL; "" if nothing was appended) and leaves the buffer empty. */
char *sc_strbuf_take(sc_strbuf *buffer);
void sc_strbuf_free(sc_strbuf *buffer);

#endif
