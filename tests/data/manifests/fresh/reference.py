#!/usr/bin/env python3
"""reference.py — inputs and independent expected outputs for the fresh-CUDA manifests.

Writes raw little-endian .bin files into the directory given as the only argument (default:
this script's directory). Each expected output is computed here in plain Python, following the
CUDA source's meaning (fresh.cu), never the simulator's.
"""
import os
import struct
import sys

SCAN_TILE = 256


def write(directory, name, fmt, values):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def block_scan(directory):
    values = [(i * 7919) % 100 for i in range(1000)]
    out = []
    for start in range(0, len(values), SCAN_TILE):
        running = 0
        for v in values[start:start + SCAN_TILE]:
            running += v
            out.append(running)
    write(directory, "scan_in.bin", "I", values)
    write(directory, "scan_expected.bin", "I", out)


def warp_sum(directory):
    # Multiples of 1/8 this small add exactly in float32, so any summation order gives the sum.
    values = [((i * 37) % 101 - 50) / 8.0 for i in range(5000)]
    write(directory, "sum_in.bin", "f", values)
    write(directory, "sum_expected.bin", "f", [sum(values)])


def nested_work(directory):
    values = list(range(1, 778))
    out = []
    for x in values:
        steps = digest = 0
        while x != 1 and steps < 200:
            x = (3 * x + 1) & 0xffffffff if x & 1 else x // 2
            for k in range(x & 3):
                digest = (digest * 31 + (x ^ k)) & 0xffffffff
            steps += 1
        out.append(digest ^ ((steps << 24) & 0xffffffff))
    write(directory, "work_in.bin", "I", values)
    write(directory, "work_expected.bin", "I", out)


def cas_max(directory):
    values = [struct.unpack("<f", struct.pack("<f", ((i * 7907) % 3001 - 2000) * 0.37))[0] for i in range(3000)]
    write(directory, "max_in.bin", "f", values)
    write(directory, "max_expected.bin", "f", [max(values)])


def relax_min(directory):
    labels = [(i * 7919) % 1000 + 5 for i in range(600)]
    labels[590] = 1  # the minimum starts near one end, so it takes many rounds to spread
    write(directory, "labels_in.bin", "I", labels)
    write(directory, "labels_expected.bin", "I", [min(labels)] * len(labels))


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for generate in (block_scan, warp_sum, nested_work, cas_max, relax_min):
        generate(directory)


if __name__ == "__main__":
    main()
