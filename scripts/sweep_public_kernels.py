#!/usr/bin/env python3
"""sweep_public_kernels.py — runs published CUDA kernels (NVIDIA cuda-samples, Rodinia, ...)
through syncscope: each kernel listed in a sweep list (scripts/public_kernels.json) is compiled
with `nvcc -ptx -arch=sm_80`, a manifest is generated for it, and it runs in functional mode and
in detailed mode under every mechanism. A kernel passes when every run exits 0 and every detailed
run leaves each compared buffer byte-identical to the functional run (the functional executor is
the value reference; a mechanism that loses or reorders a write shows up as a difference) and,
where the list gives one, the functional results equal what the CUDA program's host check expects.

The kernels themselves are not part of the repository: fetch the suites into a scratch folder
outside it (e.g. /work/scratch-kernels) and pass that folder as --kernels; sources are named in
the list relative to it. Outputs (PTX, manifests, dumps, logs) go to --work, also outside.

The list is {"description": ..., "kernels": [entry, ...]}; an entry:
  {"id": "vectorAdd", "suite": "cuda-samples",
   "source": "samples/Samples/0_Introduction/vectorAdd/vectorAdd.cu",   (relative to --kernels)
   "url": "https://github.com/NVIDIA/cuda-samples/...",                  (where it is published)
   "includes": ["samples/Common"],                                        (nvcc -I, relative)
   "kernel": "vectorAdd",                      (exact or unmangled C++ name)
   "grid": 4, "block": 256, "shared_bytes": 0,                            (optional)
   "args": ["buf", "buf", "buf:zero", 1000],   (optional; default: one per parameter, see below)
   "compare": [0, 2],                          (optional; argument positions compared, default all buffers)
   "symbols": {"c_Kernel": {"type": "f32", "count": 17, "init": "iota"}}, (optional module variables)
   "order_dependent": {"0": [2, 7]},           (optional: 4-byte words of an argument's buffer whose
                                                final value depends on the order of atomics, not compared)
   "reference": {"2": "[x + y for x, y in zip(A[0], A[1])][:1000]"},
                                               (optional: what the CUDA program's host check expects of
                                                an argument's buffer, as a Python expression over A, the
                                                functional run's final buffers by argument position, and
                                                S, the arguments; it must equal the buffer's first
                                                elements, floats within a relative 1e-5 (1e-4 for sums))
   "note": "..."}                              (shown in the table)
An argument is "buf" (a 1 MiB buffer of small random u32 values 0..15), "buf:zero", "buf:TYPE"
(f32: random 0..1), "buf:TYPE:COUNT", a number, or {"f32": x}. Without "args", every .u64
parameter gets "buf", every 32-bit integer parameter 256 and every float parameter 1.0.

usage: sweep_public_kernels.py --kernels DIR --work DIR [--list FILE] [--syncscope BIN]
                               [--only ID,...] [--table FILE] [--mechanisms M,...] [--system PRESET]
"""
import argparse
import json
import math
import struct
import os
import re
import subprocess
import sys

BUFFER_BYTES = 1 << 20
TYPE_BYTES = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "s32": 4, "s64": 8, "f32": 4, "f64": 8}


def parameters_of(ptx_text, kernel):
    """(exact name, [parameter type, ...]) of the kernel `kernel` (exact or unmangled name)."""
    for match in re.finditer(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)", ptx_text):
        name, params = match.group(1), match.group(2)
        unmangled = re.match(r"_ZL?(\d+)", name)
        if name == kernel or (unmangled and name[len(unmangled.group(0)):].startswith(kernel)
                              and int(unmangled.group(1)) == len(kernel)):
            return name, re.findall(r"\.param\s+\.(\w+)", params)
    return None, None


def default_arguments(types):
    args = []
    for t in types:
        if t in ("u64", "b64", "s64"):
            args.append("buf")
        elif t in ("f32", "f64"):
            args.append({t: 1.0})
        else:
            args.append(256)
    return args


def buffer_spec(text):
    """'buf[:init|:type[:count]]' -> manifest buffer object."""
    parts = text.split(":")[1:]
    kind, count, init = "u32", None, {"random": {"seed": 7, "min": 0, "max": 15}}
    for part in parts:
        if part == "zero":
            init = "zero"
        elif part in TYPE_BYTES:
            kind = part
            if part.startswith("f"):
                init = {"random": {"seed": 7, "min": 0, "max": 1}}
        elif part.isdigit():
            count = int(part)
    return {"type": kind, "count": count or BUFFER_BYTES // TYPE_BYTES[kind], "init": init}


def make_manifest(entry, ptx_path, types):
    args = entry.get("args") or default_arguments(types)
    buffers, manifest_args, compared = {}, [], []
    for position, arg in enumerate(args):
        if isinstance(arg, str) and arg.startswith("buf"):
            name = "arg%d" % position
            buffers[name] = buffer_spec(arg)
            manifest_args.append(name)
            if position in entry.get("compare", range(len(args))):
                compared.append(name)
        else:
            manifest_args.append(arg)
    for name, spec in entry.get("symbols", {}).items():
        buffers["sym_" + name] = dict(spec, symbol=name)
        compared.append("sym_" + name)
    launch = {"kernel": entry["kernel"], "grid": entry.get("grid", 4), "block": entry.get("block", 256),
              "args": manifest_args}
    if entry.get("shared_bytes"):
        launch["shared_bytes"] = entry["shared_bytes"]
    manifest = {"name": entry["id"], "ptx": ptx_path, "buffers": buffers, "launches": [launch],
                "outputs": compared}
    return manifest, compared


STRUCT_FORMATS = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q", "s32": "i", "s64": "q", "f32": "f", "f64": "d"}


def check_reference(entry, manifest, work, args):
    """None if every "reference" expression matches the functional run's buffers, else a message."""
    buffers = {}
    for position, arg in enumerate(args):
        name = "arg%d" % position
        if name in manifest["buffers"]:
            kind = manifest["buffers"][name]["type"]
            data = open(os.path.join(work, "functional.%s.bin" % name), "rb").read()
            buffers[position] = list(struct.unpack("<%d%s" % (len(data) // TYPE_BYTES[kind], STRUCT_FORMATS[kind]), data))
    for position, expression in entry.get("reference", {}).items():
        want = eval(expression, {"math": math, "A": buffers, "S": args})  # the list is ours, not input
        got = buffers[int(position)][:len(want)]
        tolerance = 1e-4 if "sum(" in expression else 1e-5
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w and not (isinstance(w, float) and abs(g - w) <= tolerance * max(abs(w), 1.0)):
                return "argument %s element %d is %r, the host reference expects %r" % (position, i, g, w)
    return None


def masked(data, buffer, entry):
    """The buffer's bytes with its order-dependent words (see the list's "order_dependent") zeroed."""
    words = entry.get("order_dependent", {}).get(buffer[len("arg"):], []) if buffer.startswith("arg") else []
    data = bytearray(data)
    for word in words:
        data[4 * word:4 * word + 4] = bytes(4)
    return bytes(data)


def run(command, log):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log, "a") as out:
        out.write("$ " + " ".join(command) + "\n" + result.stdout + "\n")
    return result.returncode, result.stdout.strip().splitlines()


def first_error(lines):
    """The first message line, without the manifest and launch prefixes and without directories."""
    for line in lines:
        if line.strip():
            message = re.sub(r"^syncscope run: \S*manifest\.json: (launches\[\d+\](\.kernel)?: )?(launch \d+ of \S+: )?",
                             "", line.strip())
            return re.sub(r"(/[^\s:/]+)+/", "", message)[:200]
    return "no message"


def sweep_one(entry, options, mechanisms):
    """Returns (result, detail) for one list entry."""
    work = os.path.join(options.work, entry["id"])
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "log.txt")
    open(log, "w").close()
    source = os.path.join(options.kernels, entry["source"])
    if not os.path.exists(source):
        return "missing", "source not found: " + entry["source"]
    ptx = os.path.join(work, entry["id"] + ".ptx")
    includes = sum((["-I", os.path.join(options.kernels, i)] for i in entry.get("includes", [])), [])
    status, lines = run(["nvcc", "-ptx", "-arch=sm_80", "-o", ptx] + includes + entry.get("nvcc_flags", []) + [source],
                        log)
    if status != 0:
        return "compile-failed", first_error(lines)
    name, types = parameters_of(open(ptx).read(), entry["kernel"])
    if name is None:
        return "no-kernel", "no kernel %s in the PTX" % entry["kernel"]
    manifest, compared = make_manifest(entry, ptx, types)
    manifest_path = os.path.join(work, "manifest.json")
    with open(manifest_path, "w") as out:
        json.dump(manifest, out, indent=1)

    def run_mode(tag, extra):
        dumps = []
        for buffer in (manifest["buffers"] if tag == "functional" else compared):
            dumps += ["--dump", "%s=%s" % (buffer, os.path.join(work, "%s.%s.bin" % (tag, buffer)))]
        return run([options.syncscope, "run", "--workload-file", manifest_path, "--no-db", "--system", options.system]
                   + extra + dumps, log)

    status, lines = run_mode("functional", ["--mode", "functional"])
    if status != 0:
        message = first_error(lines)
        unsupported = re.search(r"unsupported PTX instruction '[^']*'", message)
        return ("unsupported", unsupported.group(0)) if unsupported else ("functional-error", message)
    mismatch = check_reference(entry, manifest, work, entry.get("args") or default_arguments(types))
    if mismatch:
        return "wrong", mismatch
    differing = []
    for mechanism in mechanisms:
        status, lines = run_mode(mechanism, ["--mode", "detailed", "--mechanism", mechanism])
        if status != 0:
            return "detailed-error", "%s: %s" % (mechanism, first_error(lines))
        for buffer in compared:
            with open(os.path.join(work, "functional.%s.bin" % buffer), "rb") as a, \
                    open(os.path.join(work, "%s.%s.bin" % (mechanism, buffer)), "rb") as b:
                if masked(a.read(), buffer, entry) != masked(b.read(), buffer, entry):
                    differing.append("%s:%s" % (mechanism, buffer))
    if differing:
        return "differs", "detailed differs from functional: " + ", ".join(differing[:6])
    skipped = sum(len(words) for words in entry.get("order_dependent", {}).values())
    checked = "; the host reference's values" if entry.get("reference") else ""
    return "ok", "%d buffers identical in functional and %d detailed runs%s%s" % (
        len(compared), len(mechanisms), " (%d order-dependent words not compared)" % skipped if skipped else "", checked)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--kernels", required=True, help="folder the list's sources are relative to")
    parser.add_argument("--work", required=True, help="output folder (outside the repository)")
    parser.add_argument("--list", default=os.path.join(here, "public_kernels.json"))
    parser.add_argument("--syncscope", default=os.path.join(here, "..", "build", "syncscope"))
    parser.add_argument("--only", default="", help="comma-separated ids")
    parser.add_argument("--mechanisms", default="", help="comma-separated (default: every mechanism)")
    parser.add_argument("--table", default="", help="also write the results table (Markdown) here")
    parser.add_argument("--system", default="gtx480", help="system preset of every run [gtx480]")
    options = parser.parse_args()
    try:
        entries = json.load(open(options.list))["kernels"]
    except (OSError, ValueError, KeyError, TypeError) as problem:
        sys.exit("%s: %s" % (options.list, problem))
    if options.only:
        wanted = set(options.only.split(","))
        entries = [e for e in entries if e["id"] in wanted]
    mechanisms = options.mechanisms.split(",") if options.mechanisms else [
        line.split()[0] for line in subprocess.run([options.syncscope, "list", "mechanisms"], stdout=subprocess.PIPE,
                                                  text=True, check=True).stdout.splitlines() if line.strip()]
    rows = ["| kernel | suite | source | result | detail |", "|---|---|---|---|---|"]
    counts = {}
    for entry in entries:
        result, detail = sweep_one(entry, options, mechanisms)
        counts[result] = counts.get(result, 0) + 1
        note = (" " + entry["note"]) if entry.get("note") else ""
        rows.append("| %s | %s | [%s](%s) | %s | %s%s |" % (entry["id"], entry["suite"], entry["source"].split("/")[-1],
                                                        entry.get("url", ""), result, detail.replace("|", "\\|"), note))
        print("%-28s %-16s %s" % (entry["id"], result, detail), flush=True)
    summary = ", ".join("%d %s" % (n, r) for r, n in sorted(counts.items()))
    print("%d kernels: %s (system %s, mechanisms: %s)" % (len(entries), summary, options.system, " ".join(mechanisms)))
    if options.table:
        with open(options.table, "w") as out:
            out.write("\n".join(rows) + "\n\n%d kernels: %s\n" % (len(entries), summary))
    return 0 if counts.get("ok", 0) == len(entries) else 1


if __name__ == "__main__":
    sys.exit(main())
