# scan_copy.sh — a manifest workload whose input the content-key tests change: scan_copy, the
# fresh suite's block_scan kernel on its own copy of the scan input and without a reference
# check, so a changed input byte still runs. Source it, then call
#   scan_copy_manifest DIR   writes DIR/copy.json and DIR/copy_in.bin (DIR holds the fresh suite)
scan_copy_manifest() {
    cat >"$1/copy.json" <<'MANIFEST'
{"name": "scan_copy", "ptx": "fresh.ptx",
 "buffers": {"in":  {"type": "u32", "count": 1000, "init": {"file": "copy_in.bin"}},
             "out": {"type": "u32", "count": 1000, "init": "zero"}},
 "launches": [{"kernel": "block_scan", "grid": [4, 1, 1], "block": [256, 1, 1], "args": ["in", "out", 1000]}],
 "outputs": ["out"]}
MANIFEST
    cp "$1/scan_in.bin" "$1/copy_in.bin"
}
