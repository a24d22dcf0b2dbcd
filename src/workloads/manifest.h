/* manifest.h — user workloads described by a JSON manifest: buffers with their initial
 * contents, a sequence of kernel launches (with host loops), and which buffers are outputs.
 *
 *   {"name": "my_scan", "ptx": "scan.ptx",
 *    "buffers": {"in":  {"type": "u32", "count": 4096, "init": {"random": {"seed": 1, "min": 0, "max": 100}}},
 *                "out": {"type": "u32", "count": 4096, "init": "zero"}},
 *    "launches": [{"kernel": "scan_block", "grid": [16,1,1], "block": [256,1,1],
 *                  "shared_bytes": 0, "args": ["in", "out", 4096]},
 *                 {"repeat_until_zero": "flag", "max_iterations": 100, "launches": [...]}],
 *    "outputs": ["out"],
 *    "expected": {"out": {"file": "out.bin"}}}
 *
 * Paths are relative to the manifest. "init" is "zero", "iota", a number, {"random": ...} or
 * {"file": "x.bin"} (raw little-endian). An argument is a buffer name (its device address),
 * {"buffer": name, "offset": bytes} (an address inside it) or a number; {"u64": n}, {"f32": x},
 * {"f64": x} choose a width explicitly. A buffer with "symbol": "var" is the module's
 * __constant__/__device__ variable var (its PTX initialiser stays unless the buffer has an
 * "init"), usable as an output or expected buffer like any other. "ptx" may be an object
 * {"name": "file.ptx", ...} of several modules; a launch or symbol buffer then says "module"
 * where a name is in more than one. Between launches, {"copy": {"from", "to", "bytes",
 * "from_offset", "to_offset"}} copies device to device and {"memset": {"buffer", "value",
 * "bytes", "offset"}} fills bytes. A repeat loop zeroes its flag buffer before every iteration
 * and stops once an iteration leaves it zero. Every error names the manifest and the key path
 * ("m.json: launches[1].grid[0]: ...").
 */
#ifndef SYNCSCOPE_WORKLOADS_MANIFEST_H
#define SYNCSCOPE_WORKLOADS_MANIFEST_H

#include <stdio.h>

#include "base/error.h"
#include "base/sha256.h"
#include "host/host_api.h"
#include "workloads/workload.h"

typedef struct sc_manifest sc_manifest;

sc_manifest *sc_manifest_load(const char *path, sc_error *error);
/* Parses manifest text already in memory (NUL-terminated); `path` names it in errors and
 * anchors its relative paths. */
sc_manifest *sc_manifest_parse(const char *text, const char *path, sc_error *error);
void sc_manifest_free(sc_manifest *manifest);
const char *sc_manifest_name(const sc_manifest *manifest);

/* The manifest's content digest: SHA-256 over its text, every PTX module and every file its
 * buffers' "init" and "expected" name, so that a change to any of them gives another digest
 * (what the fast layer keys a manifest workload's profiles and calibrations by). */
int sc_manifest_digest(const sc_manifest *manifest, char digest[SC_SHA256_HEX], sc_error *error);

/* Allocates and initialises the buffers on `device`, loads the PTX and runs the launches. If the
 * manifest has "expected" contents, `check` compares them; otherwise it records "no reference". */
int sc_manifest_run(sc_manifest *manifest, sc_device *device, sc_check_result *check, sc_error *error);

/* Writes a buffer's final contents (after sc_manifest_run) as raw little-endian bytes. */
int sc_manifest_dump(const sc_manifest *manifest, sc_device *device, const char *buffer, const char *path,
                     sc_error *error);

#endif
