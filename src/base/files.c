/* files.c — whole-file reading, path joining and the data directory lookup (see files.h). */
#include "base/files.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* PREFIX/share/syncscope for a binary at PREFIX/bin/syncscope, into `out`; 0 when it exists. */
static int installed_data_dir(char *out, size_t out_size)
{
    char executable[4096];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0)
        return -1;
    executable[length] = '\0';
    char *slash = strrchr(executable, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    struct stat status;
    if (snprintf(out, out_size, "%s/../share/syncscope", executable) >= (int)out_size)
        return -1;
    return stat(out, &status) == 0 && S_ISDIR(status.st_mode) ? 0 : -1;
}

/* The installed copy, looked up once (calibrate's sample jobs ask from several threads). */
static char installed[4096];
static bool installed_found;
static pthread_once_t data_dir_once = PTHREAD_ONCE_INIT;

static void find_installed_data_dir(void)
{
    installed_found = installed_data_dir(installed, sizeof installed) == 0;
}

bool sc_same_file(const char *a, const char *b)
{
    char real_a[PATH_MAX], real_b[PATH_MAX];
    return realpath(a, real_a) && realpath(b, real_b) && !strcmp(real_a, real_b);
}

const char *sc_data_dir(void)
{
    const char *from_environment = getenv("SYNCSCOPE_SOURCE_DIR");
    if (from_environment && *from_environment)
        return from_environment;
    pthread_once(&data_dir_once, find_installed_data_dir);
    return installed_found ? installed : SYNCSCOPE_SOURCE_DIR;
}
