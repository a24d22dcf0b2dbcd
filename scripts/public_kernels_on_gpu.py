#!/usr/bin/env python3
"""public_kernels_on_gpu.py — checks the public-kernel sweep (sweep_public_kernels.py) on a real
GPU: each kernel's manifest runs with `syncscope run --mode hardware` and its compared buffers
must equal what syncscope's functional executor leaves in them. This gives the kernels whose CUDA
programs have no host check in the sweep list a reference: silicon.

Two steps, because the kernels are not in the repository and a GPU machine may lack them:
  pack WORK BUNDLE [--syncscope BIN]  on the machine that ran the sweep: copies each kernel's PTX
      and manifest from the sweep's --work folder into BUNDLE and runs it in functional mode
      (dumping the buffers the sweep compared: those it has detailed dumps of);
  check BUNDLE [--syncscope BIN]      on the GPU machine: runs each manifest there, compares.
A buffer passes when it is byte-identical, or, for an f32/f64 buffer, when every element is
within a relative 1e-5 (absolute 1e-6 near zero): PTX's .approx instructions (sin, ex2, rcp,
rsqrt) are specified only to a bound, so the functional executor's results may differ from the
GPU's in the last bits. Words the sweep list marks order-dependent are not compared.
Prints one line per kernel and a summary; exits 1 if any kernel differs.
"""
import argparse
import json
import math
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = {"f32": ("<f", 4), "f64": ("<d", 8)}


def order_dependent():
    """Per kernel id, per argument position: the 4-byte words whose value depends on atomics' order."""
    entries = json.load(open(os.path.join(HERE, "public_kernels.json")))["kernels"]
    return {e["id"]: e.get("order_dependent", {}) for e in entries}


def masked(data, words):
    data = bytearray(data)
    for word in words:
        data[4 * word:4 * word + 4] = bytes(4)
    return bytes(data)


def compare(reference, measured, buffer_type):
    """'' when equal (or within tolerance for floats), else a short description."""
    if reference == measured:
        return ""
    if len(reference) != len(measured):
        return "%d bytes, expected %d" % (len(measured), len(reference))
    if buffer_type not in FORMATS:
        differing = sum(1 for a, b in zip(reference, measured) if a != b)
        return "%d of %d bytes differ" % (differing, len(reference))
    fmt, size = FORMATS[buffer_type]
    worst, bad = 0.0, 0
    for offset in range(0, len(reference) - size + 1, size):
        a = struct.unpack_from(fmt, reference, offset)[0]
        b = struct.unpack_from(fmt, measured, offset)[0]
        if a == b or (math.isnan(a) and math.isnan(b)):
            continue
        error = abs(a - b) / max(abs(a), abs(b), 1e-30)
        if abs(a - b) > 1e-6 and error > 1e-5:
            bad += 1
        worst = max(worst, error)
    if bad:
        return "%d of %d elements beyond tolerance (worst relative error %.2g)" % (bad, len(reference) // size, worst)
    return "within tolerance (worst relative error %.2g)" % worst


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout


def pack(options):
    os.makedirs(options.bundle, exist_ok=True)
    for kernel in sorted(os.listdir(options.work)):
        source = os.path.join(options.work, kernel)
        manifest_path = os.path.join(source, "manifest.json")
        if not os.path.exists(manifest_path):
            continue
        compared = sorted({name.split(".")[1] for name in os.listdir(source)
                           if name.startswith("wt.") and name.endswith(".bin")})
        if not compared:
            continue   # the sweep never got to its detailed runs (unsupported, failed)
        target = os.path.join(options.bundle, kernel)
        os.makedirs(target, exist_ok=True)
        manifest = json.load(open(manifest_path))
        shutil.copy(manifest["ptx"], os.path.join(target, os.path.basename(manifest["ptx"])))
        manifest["ptx"] = os.path.basename(manifest["ptx"])
        with open(os.path.join(target, "manifest.json"), "w") as out:
            json.dump(manifest, out, indent=1)
        dumps = sum((["--dump", "%s=%s" % (b, os.path.join(target, "functional.%s.bin" % b))] for b in compared), [])
        status, output = run([options.syncscope, "run", "--workload-file", os.path.join(target, "manifest.json"),
                              "--no-db", "--mode", "functional"] + dumps)
        print("%-28s packed %s%s" % (kernel, ",".join(compared), "" if status == 0 else " (functional run failed)"))
        with open(os.path.join(target, "compared.json"), "w") as out:
            json.dump(compared, out)
    return 0


def check(options):
    masks = order_dependent()
    counts = {}
    for kernel in sorted(os.listdir(options.bundle)):
        folder = os.path.join(options.bundle, kernel)
        if not os.path.exists(os.path.join(folder, "compared.json")):
            continue
        compared = json.load(open(os.path.join(folder, "compared.json")))
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        dumps = sum((["--dump", "%s=%s" % (b, os.path.join(folder, "gpu.%s.bin" % b))] for b in compared), [])
        status, output = run([options.syncscope, "run", "--workload-file", os.path.join(folder, "manifest.json"),
                              "--no-db", "--mode", "hardware"] + dumps)
        if status != 0:
            result, detail = "error", output.strip().splitlines()[-1][:160] if output.strip() else "exit %d" % status
        else:
            problems, tolerated = [], []
            for buffer in compared:
                words = masks.get(kernel, {}).get(buffer[len("arg"):], []) if buffer.startswith("arg") else []
                reference = masked(open(os.path.join(folder, "functional.%s.bin" % buffer), "rb").read(), words)
                measured = masked(open(os.path.join(folder, "gpu.%s.bin" % buffer), "rb").read(), words)
                verdict = compare(reference, measured, manifest["buffers"][buffer]["type"])
                if verdict.startswith("within"):
                    tolerated.append("%s %s" % (buffer, verdict))
                elif verdict:
                    problems.append("%s: %s" % (buffer, verdict))
            if problems:
                result, detail = "differs", "; ".join(problems)
            else:
                result = "ok"
                detail = "%d buffers %s" % (len(compared), "; ".join(tolerated) if tolerated else "byte-identical")
        counts[result] = counts.get(result, 0) + 1
        print("%-28s %-8s %s" % (kernel, result, detail), flush=True)
    print("%d kernels on the GPU: %s" % (sum(counts.values()),
                                        ", ".join("%d %s" % (n, r) for r, n in sorted(counts.items()))))
    return 0 if set(counts) <= {"ok"} else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["pack", "check"])
    parser.add_argument("paths", nargs="+", help="pack: WORK BUNDLE; check: BUNDLE")
    parser.add_argument("--syncscope", default=os.path.join(HERE, "..", "build", "syncscope"))
    options = parser.parse_args()
    if options.step == "pack":
        if len(options.paths) != 2:
            parser.error("pack takes WORK and BUNDLE")
        options.work, options.bundle = options.paths
        return pack(options)
    if len(options.paths) != 1:
        parser.error("check takes BUNDLE")
    options.bundle = options.paths[0]
    return check(options)


if __name__ == "__main__":
    sys.exit(main())
