/* device_test_support.h — for the unit tests that run a kernel on a device: a device driven by
 * the timing engine for a configuration and a mechanism, loading a PTX module given as text
 * (written to a temporary file, which sc_device_load_ptx reads), and launching a one-CTA kernel
 * whose one argument is a fresh buffer. */
#ifndef SYNCSCOPE_TESTS_DEVICE_TEST_SUPPORT_H
#define SYNCSCOPE_TESTS_DEVICE_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "config/config.h"
#include "host/host_api.h"
#include "protocols/mechanism.h"
#include "timing/timing_config.h"
#include "timing/timing_engine.h"

/* A device whose launches run on a timing engine for `config` under `protocol` (the engine in
 * *engine, for timing_engine_report), or NULL with `error` set. */
static inline sc_device *timing_test_device(const sc_config *config, const sc_protocol *protocol, void **engine,
                                            sc_error *error)
{
    timing_config timing;
    if (timing_config_load(config, 0, &timing, error) < 0 ||
        timing_config_load_protocol(config, protocol, &timing, error) < 0)
        return NULL;
    *engine = timing_engine_create(&timing, protocol, error);
    if (!*engine)
        return NULL;
    sc_device *device = sc_device_create(timing.core.warp_size, error);
    if (device)
        sc_device_set_engine(device, &timing_engine_ops, *engine);
    return device;
}

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

/* Launches `kernel` of `module` as one CTA of `threads` threads with one argument, a buffer of
 * `bytes` bytes allocated for it (its address in *buffer); 0, or -1 with `error` set. */
static inline int launch_on_buffer(sc_device *device, int module, const char *kernel, uint32_t threads, uint64_t bytes,
                                   uint64_t *buffer, sc_error *error)
{
    *buffer = sc_device_malloc(device, bytes);
    sc_kernel_arg argument = sc_arg_u64(*buffer);
    sc_dim3 grid = {1, 1, 1}, block = {threads, 1, 1};
    return sc_launch_kernel(device, module, kernel, grid, block, 0, &argument, 1, error);
}

#endif
