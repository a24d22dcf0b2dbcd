#!/usr/bin/env bash
# manifest_host_features.sh — the host features of workload manifests, end to end through
# `syncscope run --workload-file` (tests/data/manifests/host/: CUDA written for this test, its
# PTX committed):
#   host.json      buffer + offset arguments, __constant__/__device__ variables initialised from
#                  the manifest (or kept as the PTX initialises them) and read back and checked as
#                  outputs, a device-to-device copy and a memset between launches;
#   modules.json   two PTX modules in one manifest;
#   per_kernel_shared.json  a CTA is charged only its own kernel's shared memory: on gtx480
#                  (16 KiB per SM) kernels of 12 KiB and 8 KiB run in detailed mode under every
#                  mechanism, although the module declares 41 KiB, and a third kernel that needs
#                  20 KiB is refused only when it is launched;
#   mixed.json     (written here) a module one of whose kernels samples a texture: its other
#                  kernel still runs.
# Each dumped buffer is compared with values worked out here; then every new manifest field,
# given wrongly, must fail with one stderr line naming the manifest and the key.
# $1 is the syncscope binary; SYNCSCOPE_SOURCE_DIR is the repository.
set -euo pipefail

syncscope="${1:?usage: manifest_host_features.sh SYNCSCOPE_BINARY}"
source_dir="${SYNCSCOPE_SOURCE_DIR:?SYNCSCOPE_SOURCE_DIR must name the repository}"
host="$source_dir/tests/data/manifests/host"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0

fail() {
    echo "FAIL $*"
    status=1
}

# dump_equals FILE FORMAT VALUES...: the dump holds exactly these little-endian values.
dump_equals() {
    python3 - "$@" <<'PY'
import struct, sys
path, fmt, want = sys.argv[1], sys.argv[2], [float(v) if sys.argv[2] == "f" else int(v) for v in sys.argv[3:]]
data = open(path, "rb").read()
got = list(struct.unpack("<%d%s" % (len(data) // 4, fmt), data))
if got != want:
    sys.exit("%s: got %s, expected %s" % (path.rsplit("/", 1)[-1], got, want))
PY
}

# host.json: out[4 + i] = in[i] * coef[i % 4] for i < 12 (coef = iota from the manifest), the
# kernel counted 12 threads in its __device__ counter (also checked by the manifest's
# "expected"), table keeps its PTX initialiser, data[i] = i + table[i % 8] with its first 8
# bytes then set to 0xff, and window holds data[4..7] copied before the memset.
if "$syncscope" run --workload-file "$host/host.json" --no-db --dump "out=$scratch/out.bin" \
        --dump "counter=$scratch/counter.bin" --dump "table=$scratch/table.bin" --dump "data=$scratch/data.bin" \
        --dump "window=$scratch/window.bin" >"$scratch/stdout" 2>"$scratch/stderr"; then
    grep -q '^check *passed' "$scratch/stdout" || fail "host.json: the counter check did not pass: $(cat "$scratch/stdout")"
    out=(0 0 0 0); for i in $(seq 0 11); do out+=("$((i * (i % 4)))"); done
    dump_equals "$scratch/out.bin" f "${out[@]}" || fail "host.json out"
    dump_equals "$scratch/counter.bin" I 12 || fail "host.json counter"
    dump_equals "$scratch/table.bin" i 1 2 3 4 5 6 7 8 || fail "host.json table"
    data=(-1 -1); for i in $(seq 2 15); do data+=("$((i + i % 8 + 1))"); done
    dump_equals "$scratch/data.bin" i "${data[@]}" || fail "host.json data"
    dump_equals "$scratch/window.bin" i 9 11 13 15 0 0 0 0 || fail "host.json window"
else
    fail "host.json: non-zero exit: $(cat "$scratch/stderr")"
fi

# modules.json: add_table from host.ptx, then negate from negate.ptx.
if "$syncscope" run --workload-file "$host/modules.json" --no-db --dump "data=$scratch/data2.bin" \
        >"$scratch/stdout" 2>"$scratch/stderr"; then
    data=(); for i in $(seq 0 15); do data+=("$((-(i + i % 8 + 1)))"); done
    dump_equals "$scratch/data2.bin" i "${data[@]}" || fail "modules.json data"
else
    fail "modules.json: non-zero exit: $(cat "$scratch/stderr")"
fi

# Per-kernel shared memory in detailed mode on gtx480, under every mechanism.
for mechanism in $("$syncscope" list mechanisms | awk '{print $1}'); do
    if ! "$syncscope" run --workload-file "$host/per_kernel_shared.json" --system gtx480 --mechanism "$mechanism" \
            --mode detailed --no-db >"$scratch/stdout" 2>"$scratch/stderr"; then
        fail "per_kernel_shared.json ($mechanism): non-zero exit: $(cat "$scratch/stderr")"
    elif ! grep -q '^check *passed' "$scratch/stdout"; then
        fail "per_kernel_shared.json ($mechanism): $(grep '^check' "$scratch/stdout")"
    fi
done
python3 - "$host/per_kernel_shared.json" "$source_dir/tests/data/exec/per_kernel_shared.ptx" \
    >"$scratch/huge.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["ptx"] = sys.argv[2]
manifest["launches"][1] = {"kernel": "huge", "grid": 60, "block": 64, "args": ["small_out"]}
del manifest["expected"]
json.dump(manifest, sys.stdout)
PY
if "$syncscope" run --workload-file "$scratch/huge.json" --system gtx480 --mode detailed --no-db \
        >"$scratch/stdout" 2>"$scratch/stderr"; then
    fail "huge: a kernel needing 20 KiB of shared memory ran on a 16 KiB SM"
elif ! grep -q 'needs 20480 bytes of shared memory' "$scratch/stderr"; then
    fail "huge: unexpected error: $(cat "$scratch/stderr")"
fi

# One unsupported instruction refuses only the kernel that reaches it: in a module whose other
# kernel samples a texture, the clean kernel runs.
cat >"$scratch/mixed.ptx" <<'PTX'
.version 8.0
.target sm_80
.address_size 64
.visible .entry sample(.param .u64 sample_out)
{
	.reg .f32 %f<5>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [sample_out];
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];
	ret;
}
.visible .entry fill(.param .u64 fill_out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [fill_out];
	mov.u32 %r1, 7;
	st.global.u32 [%rd1], %r1;
	ret;
}
PTX
printf '%s\n' '{"ptx": "mixed.ptx", "buffers": {"out": {"type": "u32", "count": 1}},' \
    ' "launches": [{"kernel": "fill", "grid": 1, "block": 1, "args": ["out"]}], "expected": {"out": 7}}' \
    >"$scratch/mixed.json"
if ! "$syncscope" run --workload-file "$scratch/mixed.json" --no-db >"$scratch/stdout" 2>"$scratch/stderr"; then
    fail "mixed.json: the clean kernel of a module with a texture kernel did not run: $(cat "$scratch/stderr")"
elif ! grep -q '^check *passed' "$scratch/stdout"; then
    fail "mixed.json: $(grep '^check' "$scratch/stdout")"
fi

# expect_error MANIFEST_TEXT PATTERN: the manifest (written beside host.ptx) fails with one line.
count=0
expect_error() {
    count=$((count + 1))
    local manifest="$scratch/bad$count.json"
    printf '%s\n' "$1" | sed "s|HOST|$host|g" >"$manifest"
    if "$syncscope" run --workload-file "$manifest" --no-db >"$scratch/stdout" 2>"$scratch/stderr"; then
        fail "bad$count.json: exit 0, expected an error matching $2"
    elif [[ "$(wc -l <"$scratch/stderr")" -ne 1 ]] || ! grep -Eq "bad$count\\.json: $2" "$scratch/stderr"; then
        fail "bad$count.json: expected one line matching '$2', got: $(cat "$scratch/stderr")"
    fi
}
buffers='"buffers": {"d": {"type": "s32", "count": 16}, "w": {"type": "s32", "count": 4}}'
launch='{"kernel": "add_table", "grid": 1, "block": 32, "args": ["d", 16]}'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [{\"kernel\": \"add_table\", \"grid\": 1, \"block\": 32, \"args\": [{\"buffer\": \"d\", \"offset\": 65}, 16]}]}" \
    'launches\[0\]\.args\[0\]\.offset: must be a whole number of bytes from 0 to 64 \(the size of d\)$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [{\"kernel\": \"add_table\", \"grid\": 1, \"block\": 32, \"args\": [{\"buffer\": \"x\"}, 16]}]}" \
    'launches\[0\]\.args\[0\]\.buffer: must name a buffer$'
expect_error "{\"ptx\": \"HOST/host.ptx\", \"buffers\": {\"d\": {\"type\": \"s32\", \"count\": 16}, \"c\": {\"type\": \"f32\", \"count\": 4, \"symbol\": \"nope\"}}, \"launches\": [$launch]}" \
    "buffers\.c\.symbol: .*host\.ptx has no \.global or \.const variable 'nope'$"
expect_error "{\"ptx\": \"HOST/host.ptx\", \"buffers\": {\"d\": {\"type\": \"s32\", \"count\": 16}, \"c\": {\"type\": \"f32\", \"count\": 8, \"symbol\": \"coef\"}}, \"launches\": [$launch]}" \
    'buffers\.c: 32 bytes, but variable coef of .*host\.ptx holds 16$'
expect_error "{\"ptx\": \"HOST/host.ptx\", \"buffers\": {\"c\": {\"type\": \"f32\", \"count\": 4, \"symbol\": 7}}, \"launches\": [$launch]}" \
    'buffers\.c\.symbol: must be the name of a \.global or \.const variable of the PTX$'
expect_error "{\"ptx\": \"HOST/host.ptx\", \"buffers\": {\"c\": {\"type\": \"f32\", \"count\": 4, \"module\": \"a\"}}, \"launches\": [$launch]}" \
    'buffers\.c: "module" applies only to a buffer with a "symbol"$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"copy\": {\"from\": \"d\", \"to\": \"w\"}}]}" \
    'launches\[1\]\.copy\.bytes: 64 bytes from d do not fit in w at offset 0 \(16 bytes\)$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"copy\": {\"from\": \"d\", \"to\": \"w\", \"bytes\": 4, \"size\": 4}}]}" \
    'launches\[1\]\.copy\.size: unknown key$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"copy\": {\"from\": \"d\", \"to\": \"q\"}}]}" \
    'launches\[1\]\.copy\.to: must name a buffer$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"copy\": {\"from\": \"d\", \"to\": \"w\", \"from_offset\": 68}}]}" \
    'launches\[1\]\.copy\.from_offset: must be a whole number of bytes from 0 to 64$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"memset\": {\"buffer\": \"w\", \"value\": 256}}]}" \
    'launches\[1\]\.memset\.value: must be a byte value from 0 to 255$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"memset\": {\"buffer\": \"w\", \"bytes\": 20}}]}" \
    'launches\[1\]\.memset\.bytes: must be a whole number of bytes from 0 to 16$'
expect_error "{\"ptx\": \"HOST/host.ptx\", $buffers, \"launches\": [$launch, {\"memset\": {\"buffer\": \"w\"}, \"kernel\": \"x\"}]}" \
    'launches\[1\]: a copy or memset step holds only its "copy" or "memset" object$'
expect_error "{\"ptx\": {\"a\": \"HOST/host.ptx\", \"b\": \"HOST/host.ptx\"}, $buffers, \"launches\": [$launch]}" \
    "launches\[0\]\.kernel: both .*host\.ptx and .*host\.ptx have a kernel 'add_table' \(choose one with \"module\"\)$"
expect_error "{\"ptx\": {\"a\": \"HOST/host.ptx\"}, $buffers, \"launches\": [{\"kernel\": \"add_table\", \"module\": \"z\", \"grid\": 1, \"block\": 32, \"args\": [\"d\", 16]}]}" \
    'launches\[0\]\.module: must name a module of "ptx" \(\{"name": "file\.ptx", \.\.\.\}\)$'
expect_error "{\"ptx\": {\"a\": 3}, $buffers, \"launches\": [$launch]}" \
    'ptx\.a: must be the path of a PTX file$'
expect_error "{\"ptx\": {\"a\": \"HOST/host.ptx\", \"n\": \"HOST/negate.ptx\"}, $buffers, \"launches\": [{\"kernel\": \"negate\", \"module\": \"a\", \"grid\": 1, \"block\": 32, \"args\": [\"d\", 16]}]}" \
    "launches\[0\]\.kernel: .*host\.ptx has no kernel 'negate'$"
expect_error "{\"ptx\": {\"a\": \"HOST/host.ptx\", \"n\": \"HOST/negate.ptx\"}, $buffers, \"launches\": [{\"kernel\": \"missing\", \"grid\": 1, \"block\": 32, \"args\": []}]}" \
    "launches\[0\]\.kernel: no module has a kernel 'missing'$"
expect_error "{\"ptx\": {\"a\": \"HOST/host.ptx\", \"n\": \"HOST/negate.ptx\"}, \"buffers\": {\"d\": {\"type\": \"s32\", \"count\": 16}, \"c\": {\"type\": \"f32\", \"count\": 4, \"symbol\": \"nope\"}}, \"launches\": [$launch]}" \
    "buffers\.c\.symbol: no module has a \.global or \.const variable 'nope'$"

exit "$status"
