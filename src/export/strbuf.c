/* strbuf.c — the growable string of strbuf.h. */
#include "export/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(sc_strbuf *buffer, size_t extra)
{
    size_t needed = buffer->length + extra + 1;
    if (needed <= buffer->capacity)
        return;
    size_t capacity = buffer->capacity ? buffer->capacity : 256;
    while (capacity < needed)
        capacity *= 2;
    buffer->text = realloc(buffer->text, capacity);
    if (!buffer->text)
        abort();
    buffer->capacity = capacity;
}

void sc_strbuf_append_length(sc_strbuf *buffer, const char *text, size_t length)
{
    reserve(buffer, length);
    memcpy(buffer->text + buffer->length, text, length);
    buffer->length += length;
    buffer->text[buffer->length] = '\0';
}

void sc_strbuf_append(sc_strbuf *buffer, const char *text)
{
    sc_strbuf_append_length(buffer, text, strlen(text));
}

void sc_strbuf_append_char(sc_strbuf *buffer, char c)
{
    sc_strbuf_append_length(buffer, &c, 1);
}

void sc_strbuf_appendf(sc_strbuf *buffer, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (length < 0)
        abort();
    reserve(buffer, (size_t)length);
    va_start(args, format);
    vsnprintf(buffer->text + buffer->length, (size_t)length + 1, format, args);
    va_end(args);
    buffer->length += (size_t)length;
}

char *sc_strbuf_take(sc_strbuf *buffer)
{
    char *text = buffer->text;
    if (!text) {
        text = malloc(1);
        if (!text)
            abort();
        text[0] = '\0';
    }
    *buffer = (sc_strbuf)SC_STRBUF_INIT;
    return text;
}

void sc_strbuf_free(sc_strbuf *buffer)
{
    free(buffer->text);
    *buffer = (sc_strbuf)SC_STRBUF_INIT;
}
