/* output.c — atomic file writing and directory creation for exports (see output.h). */
#include "export/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sc_output_make_directories(const char *directory, sc_error *error)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", directory) >= (int)sizeof path)
        return sc_fail(error, "%s: path too long", directory);
    for (char *slash = path + 1; ; slash++) {
        if (*slash != '/' && *slash != '\0')
            continue;
        char saved = *slash;
        *slash = '\0';
        if (mkdir(path, 0777) < 0 && errno != EEXIST)
            return sc_fail(error, "%s: cannot create directory: %s", path, strerror(errno));
        *slash = saved;
        if (!saved)
            return 0;
    }
}

static int make_parent_directories(const char *path, sc_error *error)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    char parent[4096];
    if (snprintf(parent, sizeof parent, "%.*s", (int)(slash - path), path) >= (int)sizeof parent)
        return sc_fail(error, "%s: path too long", path);
    return sc_output_make_directories(parent, error);
}

int sc_output_write(const char *path, const char *text, sc_error *error)
{
    size_t length = strlen(text);
    if (!strcmp(path, "-")) {
        if (fwrite(text, 1, length, stdout) != length || fflush(stdout) != 0)
            return sc_fail(error, "cannot write to standard output: %s", strerror(errno));
        return 0;
    }
    if (make_parent_directories(path, error) < 0)
        return -1;
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof temporary)
        return sc_fail(error, "%s: path too long", path);
    FILE *file = fopen(temporary, "wb");
    if (!file)
        return sc_fail(error, "%s: cannot create: %s", path, strerror(errno));
    int failed = fwrite(text, 1, length, file) != length;
    failed |= fclose(file) != 0;
    if (failed || rename(temporary, path) < 0) {
        int saved_errno = errno;
        remove(temporary);
        return sc_fail(error, "%s: cannot write: %s", path, strerror(saved_errno));
    }
    return 0;
}
