/* device_test_support.h — for the unit tests that run a kernel on a device: loading a PTX
 * module given as text (written to a temporary file, which sc_device_load_ptx reads). */
#ifndef SYNCSCOPE_TESTS_DEVICE_TEST_SUPPORT_H
#define SYNCSCOPE_TESTS_DEVICE_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "host/host_api.h"

/* The module's index on `device`, or -1 with `error` set. */
static inline int load_ptx_text(sc_device *device, const char *text, sc_error *error)
{
    char path[] = "/tmp/syncscope_test_ptx_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return sc_fail(error, "%s: cannot create a temporary PTX file", path);
    size_t length = strlen(text);
    bool written = write(fd, text, length) == (ssize_t)length;
    close(fd);
    int module = written ? sc_device_load_ptx(device, path, error) : sc_fail(error, "%s: short write", path);
    unlink(path);
    return module;
}

#endif
