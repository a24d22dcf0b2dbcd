/* files.c — whole-file reading, path joining and the data directory lookup (see files.h). */
#include "base/files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sc_read_file(const char *path, size_t *size, sc_error *error)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        sc_fail(error, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t capacity = 1 << 16, length = 0;
    char *buffer = malloc(capacity + 1);
    for (;;) {
        size_t got = fread(buffer + length, 1, capacity - length, file);
        length += got;
        if (length < capacity)
            break;
        capacity *= 2;
        buffer = realloc(buffer, capacity + 1);
    }
    int failed = ferror(file);
    fclose(file);
    if (failed) {
        free(buffer);
        sc_fail(error, "%s: read error", path);
        return NULL;
    }
    buffer[length] = '\0';
    if (size)
        *size = length;
    return buffer;
}

int sc_path_relative_to(const char *anchor_file, const char *relative, char *out, size_t out_size,
                        sc_error *error)
{
    int written;
    const char *slash = strrchr(anchor_file, '/');
    if (relative[0] == '/' || !slash)
        written = snprintf(out, out_size, "%s", relative);
    else
        written = snprintf(out, out_size, "%.*s/%s", (int)(slash - anchor_file), anchor_file, relative);
    if (written < 0 || (size_t)written >= out_size)
        return sc_fail(error, "%s: path too long", relative);
    return 0;
}

const char *sc_data_dir(void)
{
    const char *from_environment = getenv("SYNCSCOPE_SOURCE_DIR");
    if (from_environment && *from_environment)
        return from_environment;
    return SYNCSCOPE_SOURCE_DIR;
}
