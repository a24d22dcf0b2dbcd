# scan_copy.sh — the fresh suite of manifest workloads (tests/data/manifests/fresh) copied into a
# scratch directory, with scan_copy beside them: the block_scan kernel on its own copy of the
# scan input and without a reference check, so that a test can change an input byte and still
# run it. Source it, then call
#   fresh_suite_with_copy DIR   copies the suite into DIR and writes DIR/copy.json, DIR/copy_in.bin
fresh_suite_with_copy() {
    cp -r "${SYNCSCOPE_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/../../..}/tests/data/manifests/fresh" "$1"
    cat >"$1/copy.json" <<'MANIFEST'
{"name": "scan_copy", "ptx": "fresh.ptx",
 "buffers": {"in":  {"type": "u32", "count": 1000, "init": {"file": "copy_in.bin"}},
             "out": {"type": "u32", "count": 1000, "init": "zero"}},
 "launches": [{"kernel": "block_scan", "grid": [4, 1, 1], "block": [256, 1, 1], "args": ["in", "out", 1000]}],
 "outputs": ["out"]}
MANIFEST
    cp "$1/scan_in.bin" "$1/copy_in.bin"
}
