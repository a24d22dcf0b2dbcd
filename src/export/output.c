/* output.c — atomic file writing, directory creation and figures with their PNG and PDF for
 * exports (see output.h). */
#include "export/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <sys/wait.h>
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

/* Whether `program` is an executable file in a directory of $PATH. */
static int on_path(const char *program)
{
    const char *path = getenv("PATH");
    char candidate[4096];
    for (const char *start = path; start && *start;) {
        const char *end = strchr(start, ':');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)length, start, program) < (int)sizeof candidate &&
            access(candidate, X_OK) == 0)
            return 1;
        start = end ? end + 1 : NULL;
    }
    return 0;
}

/* Runs rsvg-convert to make `out` (format "png" or "pdf") from `svg_path`. */
static int convert(const char *svg_path, const char *format, const char *out, sc_error *error)
{
    pid_t child = fork();
    if (child < 0)
        return sc_fail(error, "%s: cannot start rsvg-convert: %s", out, strerror(errno));
    if (child == 0) {
        const char *zoom = strcmp(format, "png") ? "1" : "2";
        execlp("rsvg-convert", "rsvg-convert", "--format", format, "--zoom", zoom, "--output", out, svg_path,
               (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        remove(out);
        return sc_fail(error, "%s: rsvg-convert failed to convert %s", out, svg_path);
    }
    return 0;
}

int sc_output_write_figure(const char *svg_path, const char *svg, sc_error *error)
{
    if (sc_output_write(svg_path, svg, error) < 0)
        return -1;
    if (!strcmp(svg_path, "-") || !on_path("rsvg-convert"))
        return 0;
    static const char *const formats[] = {"png", "pdf"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char out[4096];
        const char *dot = strrchr(svg_path, '.'), *slash = strrchr(svg_path, '/');
        int stem = dot && (!slash || dot > slash) ? (int)(dot - svg_path) : (int)strlen(svg_path);
        if (snprintf(out, sizeof out, "%.*s.%s", stem, svg_path, formats[i]) >= (int)sizeof out)
            return sc_fail(error, "%s: path too long", svg_path);
        if (convert(svg_path, formats[i], out, error) < 0)
            return -1;
    }
    return 0;
}

int sc_output_write_figure_in(const char *directory, const char *file, char *svg, sc_error *error)
{
    if (!svg)
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", directory, file);
    int status = sc_output_write_figure(path, svg, error);
    free(svg);
    return status;
}
