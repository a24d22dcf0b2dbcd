#!/usr/bin/env bash
# fresh_manifests.sh — end-to-end check of CUDA written fresh for this test
# (tests/data/manifests/fresh/fresh.cu: a shared-memory block scan, a warp-shuffle reduction,
# nested divergent loops, a CAS loop, and a fixed point driven by repeat_until_zero). Each
# manifest runs through `syncscope run --workload-file`, must exit 0, and its dumped output must
# equal what the independent python3 reference (reference.py) computes. Then broken manifests and
# PTX must each fail with exactly one stderr line naming the file and the key path or line.
# $1 is the syncscope binary; SYNCSCOPE_SOURCE_DIR is the repository.
set -euo pipefail

syncscope="${1:?usage: fresh_manifests.sh SYNCSCOPE_BINARY}"
source_dir="${SYNCSCOPE_SOURCE_DIR:?SYNCSCOPE_SOURCE_DIR must name the repository}"
fresh="$source_dir/tests/data/manifests/fresh"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0

fail() {
    echo "FAIL $*"
    status=1
}

# The committed inputs and expected outputs are exactly what the reference generates.
mkdir "$scratch/reference"
python3 "$fresh/reference.py" "$scratch/reference"
for generated in "$scratch/reference"/*.bin; do
    name="$(basename "$generated")"
    cmp -s "$generated" "$fresh/$name" || fail "$name differs from what reference.py generates"
done

# manifest, dumped buffer, expected file, element format (python struct); values must be equal
# (the float kernels add and compare values that are exact in float32).
cases=(
    "block_scan.json out scan_expected.bin I"
    "warp_sum.json total sum_expected.bin f"
    "nested_work.json out work_expected.bin I"
    "cas_max.json result max_expected.bin f"
    "relax_min.json labels labels_expected.bin I"
)
for case in "${cases[@]}"; do
    read -r manifest buffer expected format <<<"$case"
    dump="$scratch/${manifest%.json}.$buffer.bin"
    if ! "$syncscope" run --workload-file "$fresh/$manifest" --no-db --dump "$buffer=$dump" \
            >"$scratch/stdout" 2>"$scratch/stderr"; then
        fail "$manifest: non-zero exit: $(cat "$scratch/stderr")"
        continue
    fi
    if python3 - "$dump" "$fresh/$expected" "$format" <<'EOF'
import struct, sys
got_path, want_path, fmt = sys.argv[1:4]
got_bytes, want_bytes = open(got_path, "rb").read(), open(want_path, "rb").read()
if len(got_bytes) != len(want_bytes):
    sys.exit("dump holds %d bytes, expected %d" % (len(got_bytes), len(want_bytes)))
count = len(want_bytes) // 4
got = struct.unpack("<%d%s" % (count, fmt), got_bytes)
want = struct.unpack("<%d%s" % (count, fmt), want_bytes)
for i, (g, w) in enumerate(zip(got, want)):
    if g != w:
        sys.exit("element %d = %r, expected %r" % (i, g, w))
EOF
    then
        echo "ok   $manifest"
    else
        fail "$manifest: dump of $buffer does not match $expected"
    fi
done

# Each broken input must exit non-zero with one stderr line matching a pattern.
expect_error() {
    local manifest="$1" pattern="$2"
    if "$syncscope" run --workload-file "$scratch/$manifest" --no-db --dump "out=$scratch/unused.bin" \
            >/dev/null 2>"$scratch/stderr"; then
        fail "$manifest: exit status 0"
    elif [[ "$(wc -l <"$scratch/stderr")" -ne 1 ]]; then
        fail "$manifest: expected one stderr line, got: $(cat "$scratch/stderr")"
    elif ! grep -Eq -- "$pattern" "$scratch/stderr"; then
        fail "$manifest: stderr does not match '$pattern': $(cat "$scratch/stderr")"
    else
        echo "ok   $manifest fails: $(cat "$scratch/stderr")"
    fi
}

cp "$fresh/fresh.ptx" "$fresh/scan_in.bin" "$scratch/"
sed 's/"args": \["in", "out", 1000\]/"args": ["in", "nowhere", 1000]/' "$fresh/block_scan.json" >"$scratch/missing_buffer.json"
expect_error missing_buffer.json 'missing_buffer\.json: launches\[0\]\.args\[1\]: names no buffer$'

sed 's/"type": "u32", "count": 1000, "init": "zero"/"type": "u33", "count": 1000, "init": "zero"/' \
    "$fresh/block_scan.json" >"$scratch/bad_type.json"
expect_error bad_type.json 'bad_type\.json: buffers\.out\.type: must be one of '

# The root object closes early on line 2; what follows must not be ignored.
printf '{"name": "truncated", "ptx": "fresh.ptx",\n "buffers": {"out": {"type": "u32", "count": 4}}},\n "launches": [\n' \
    >"$scratch/malformed.json"
expect_error malformed.json 'malformed\.json:2: malformed JSON$'

cat >"$scratch/texture.ptx" <<'EOF'
.version 8.0
.target sm_80
.address_size 64

.visible .entry sample(.param .u64 sample_param_0)
{
	.reg .f32 %f<7>;
	mov.f32 %f5, 0f00000000;
	mov.f32 %f6, 0f00000000;
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [sample_param_0, {%f5, %f6}];
	ret;
}
EOF
cat >"$scratch/texture.json" <<'EOF'
{"name": "texture", "ptx": "texture.ptx",
 "buffers": {"out": {"type": "f32", "count": 4}},
 "launches": [{"kernel": "sample", "grid": 1, "block": 32, "args": ["out"]}]}
EOF
expect_error texture.json "texture\.ptx:10: unsupported PTX instruction 'tex\.2d\.v4\.f32\.f32'"

exit "$status"
