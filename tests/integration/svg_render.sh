#!/usr/bin/env bash
# svg_render.sh — end-to-end check of the SVG charts: builds a small fixture database, draws a
# GSI stall chart and the three report figures through `syncscope stalls`, renders one with
# headless Chromium and checks that the picture is not blank (enough distinct colours and enough
# non-white pixels), and that each figure has its PNG and PDF when rsvg-convert is installed. The
# PNG is decoded with python3's zlib, no imaging library needed.
#
# usage: svg_render.sh PATH/TO/syncscope     (skips with exit 77, which ctest reports as skipped,
# when chromium is not installed; scripts/install-deps.sh installs it for tests)
set -euo pipefail

syncscope=${1:?usage: svg_render.sh PATH/TO/syncscope}
if ! command -v chromium >/dev/null 2>&1; then
    echo "skipped: chromium not installed"
    exit 77
fi
command -v python3 >/dev/null || { echo "svg_render: python3 is needed" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
database="$work/fixture.sqlite"

python3 - "$database" <<'PYTHON'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE runs(id INTEGER PRIMARY KEY, system TEXT, mechanism TEXT, workload TEXT, mode TEXT,
                  config_json TEXT, status TEXT);
CREATE TABLE metrics(run_id INTEGER, kernel_index INTEGER, name TEXT, value REAL, unit TEXT);
CREATE TABLE stalls(run_id INTEGER, cu INTEGER, category TEXT, subcategory TEXT, cycles INTEGER);
INSERT INTO runs VALUES (1, 'gsi', 'gpu_coherence', 'uts', 'detailed', '{}', 'done'),
                        (2, 'gsi', 'denovo', 'uts', 'detailed', '{}', 'done');
INSERT INTO metrics VALUES (1, 0, 'cycles', 1000, 'cycles'), (2, 0, 'cycles', 800, 'cycles');
""")
rows = {
    1: [("no_stall", None, 400), ("idle", None, 50), ("control", None, 30), ("sync", None, 200),
        ("mem_data", "l1", 20), ("mem_data", "l2", 120), ("mem_data", "dram", 60),
        ("mem_struct", "mshr_full", 30), ("mem_struct", "pending_release", 50),
        ("comp_data", None, 30), ("comp_struct", None, 10)],
    2: [("no_stall", None, 380), ("idle", None, 40), ("sync", None, 150),
        ("mem_data", "l1", 30), ("mem_data", "l2", 40), ("mem_data", "remote_l1", 50),
        ("mem_struct", "mshr_full", 30), ("mem_struct", "pending_release", 10),
        ("comp_data", None, 20), ("comp_struct", None, 10)],
}
for run, breakdown in rows.items():
    db.executemany("INSERT INTO stalls VALUES (?, -1, ?, ?, ?)",
                   [(run, c, s, n) for c, s, n in breakdown])
db.commit()
PYTHON

"$syncscope" stalls 1 2 --db "$database" --baseline gpu_coherence \
    --svg "$work/stalls.svg" --report "$work/report" > "$work/table.txt"
grep -q "memory data" "$work/table.txt"
for figure in stalls_overall stalls_mem_data stalls_mem_struct; do
    test -s "$work/report/$figure.svg"
done
# With rsvg-convert (librsvg2-bin, installed by install-deps.sh) every figure has a PNG and a PDF
# beside it.
if command -v rsvg-convert >/dev/null 2>&1; then
    for figure in "$work/stalls" "$work/report/stalls_overall" "$work/report/stalls_mem_data" "$work/report/stalls_mem_struct"; do
        head -c 8 "$figure.png" | od -An -c | grep -q "P   N   G" || { echo "svg_render: $figure.png is not a PNG" >&2; exit 1; }
        head -c 5 "$figure.pdf" | grep -q "%PDF-" || { echo "svg_render: $figure.pdf is not a PDF" >&2; exit 1; }
    done
fi

# A missing database is one clear line and exit status 1.
status=0
"$syncscope" stalls 1 --db "$work/absent.sqlite" 2> "$work/error.txt" || status=$?
test "$status" -eq 1
test "$(wc -l < "$work/error.txt")" -eq 1

chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --screenshot="$work/out.png" --window-size=800,600 \
    "file://$work/stalls.svg" > "$work/chromium.log" 2>&1 || true
test -s "$work/out.png" || { echo "svg_render: chromium wrote no screenshot" >&2; cat "$work/chromium.log" >&2; exit 1; }

python3 - "$work/out.png" <<'PYTHON'
import struct, sys, zlib

def decode_png(path):
    """Returns (width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour_type in (2, 6), "unsupported PNG layout"
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    channels = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filter_type, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, up_left = previous[x], previous[x - channels] if x >= channels else 0
            if filter_type == 1:
                line[x] = (line[x] + left) & 255
            elif filter_type == 2:
                line[x] = (line[x] + up) & 255
            elif filter_type == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif filter_type == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows

width, height, rows = decode_png(sys.argv[1])
pixels = [p for row in rows for p in row]
colours = set(pixels)
ink = sum(1 for p in pixels if p != (255, 255, 255))
print("svg_render: %dx%d, %d distinct colours, %.1f%% non-white" % (width, height, len(colours),
                                                                   100.0 * ink / len(pixels)))
assert len(colours) >= 8, "too few colours: the chart looks empty"
assert ink >= 0.02 * len(pixels), "too few non-white pixels: the chart looks empty"
memory_data_blue = sum(1 for p in pixels if abs(p[0] - 0x4e) + abs(p[1] - 0x79) + abs(p[2] - 0xa7) < 12)
assert memory_data_blue >= 200, "the memory-data segments (#4e79a7) are missing"
PYTHON
echo "svg_render: ok"
