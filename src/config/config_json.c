/* config_json.c — the canonical JSON text of a resolved configuration and its hash.
 *
 * Canonical means: every schema key present, nested by group ("l1": {"size": 16384}), groups
 * and keys in sorted order (the schema table is sorted), integers in base units (bytes, Hz),
 * floats in their shortest round-trip form, and the reserved empty "mechanism" group. Two
 * configurations are equal exactly when their canonical texts, and so their hashes, are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "config/schema.h"

typedef struct text_buffer {
    char *data;
    size_t length, capacity;
} text_buffer;

static void append(text_buffer *buffer, const char *text, size_t length)
{
    if (buffer->length + length + 1 > buffer->capacity) {
        while (buffer->length + length + 1 > buffer->capacity)
            buffer->capacity = buffer->capacity ? buffer->capacity * 2 : 4096;
        buffer->data = realloc(buffer->data, buffer->capacity);
    }
    memcpy(buffer->data + buffer->length, text, length);
    buffer->length += length;
    buffer->data[buffer->length] = '\0';
}

static void append_string(text_buffer *buffer, const char *text)
{
    append(buffer, text, strlen(text));
}

/* `text` as a JSON string: runs of characters that need no escape copied as they are. */
static void append_json_string(text_buffer *buffer, const char *text)
{
    append_string(buffer, "\"");
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        size_t plain = 0;
        while (p[plain] && p[plain] != '"' && p[plain] != '\\' && p[plain] >= 0x20)
            plain++;
        append(buffer, (const char *)p, plain);
        p += plain;
        if (!*p)
            break;
        char escaped[8];
        if (*p < 0x20)
            snprintf(escaped, sizeof escaped, "\\u%04x", *p);
        else
            snprintf(escaped, sizeof escaped, "\\%c", *p);
        append_string(buffer, escaped);
        p++;
    }
    append_string(buffer, "\"");
}

/* The shortest "%.Ng" spelling that reads back as the same double. */
static void format_real(double value, char *out, size_t size)
{
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(out, size, "%.*g", precision, value);
        if (strtod(out, NULL) == value)
            return;
    }
}

static void append_value(text_buffer *buffer, const sc_config_key *key, const sc_config_value *value)
{
    char number[64];
    switch (key->type) {
    case SC_KEY_STRING:
    case SC_KEY_ENUM:
        append_json_string(buffer, value->text);
        return;
    case SC_KEY_BOOL:
        append_string(buffer, value->flag ? "true" : "false");
        return;
    case SC_KEY_FLOAT:
        format_real(value->real, number, sizeof number);
        break;
    case SC_KEY_INT:
    case SC_KEY_SIZE:
    case SC_KEY_FREQUENCY:
        snprintf(number, sizeof number, "%lld", (long long)value->integer);
        break;
    }
    append_string(buffer, number);
}

/* Opens group `name` (closing the previous one), with the separators `indented` asks for. */
static void open_group(text_buffer *buffer, const char *name, size_t name_length, int first, bool indented)
{
    if (!first)
        append_string(buffer, indented ? "\n  },\n  " : "},");
    else if (indented)
        append_string(buffer, "\n  ");
    append_string(buffer, "\"");
    append(buffer, name, name_length);
    append_string(buffer, indented ? "\": {" : "\":{");
}

char *sc_config_json(const sc_config *config, bool indented)
{
    static const char reserved[] = "mechanism";
    size_t count;
    const sc_config_key *keys = sc_schema_keys(&count);
    text_buffer buffer = {0};
    append_string(&buffer, "{");
    const char *group = NULL;
    size_t group_length = 0;
    int reserved_written = 0, first_group = 1, first_key = 1;
    for (size_t i = 0; i < count; i++) {
        const char *dot = strchr(keys[i].path, '.');
        size_t length = (size_t)(dot - keys[i].path);
        if (!group || length != group_length || strncmp(group, keys[i].path, length)) {
            if (!reserved_written && strncmp(reserved, keys[i].path, length) < 0) {
                open_group(&buffer, reserved, strlen(reserved), first_group, indented);
                reserved_written = 1;
                first_group = 0;
            }
            open_group(&buffer, keys[i].path, length, first_group, indented);
            group = keys[i].path;
            group_length = length;
            first_group = 0;
            first_key = 1;
        }
        append_string(&buffer, first_key ? "" : ",");
        append_string(&buffer, indented ? "\n    \"" : "\"");
        append_string(&buffer, dot + 1);
        append_string(&buffer, indented ? "\": " : "\":");
        append_value(&buffer, &keys[i], &config->values[i]);
        first_key = 0;
    }
    if (!reserved_written)
        open_group(&buffer, reserved, strlen(reserved), first_group, indented);
    append_string(&buffer, indented ? "\n  }\n}\n" : "}}");
    return buffer.data;
}

char *sc_config_canonical_json(const sc_config *config)
{
    char *canonical = sc_config_json(config, false);
    if (!config->hash->current) {
        sc_hash_text(canonical, strlen(canonical), config->hash->text);
        config->hash->current = true;
    }
    return canonical;
}

void sc_hash_text(const char *text, size_t length, char out[17])
{
    uint64_t hash = 14695981039346656037ULL;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)text[i];
        hash *= 1099511628211ULL;
    }
    snprintf(out, 17, "%016llx", (unsigned long long)hash);
}

const char *sc_config_hash(const sc_config *config)
{
    if (!config->hash->current)
        free(sc_config_canonical_json(config));
    return config->hash->text;
}
