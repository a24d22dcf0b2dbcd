#!/usr/bin/env bash
# local_memory_manifest.sh — a launch's DMA or stash mapping from a user manifest ("dma" or
# "stash" on a launch, docs/local-memory.md), end to end through `syncscope run --workload-file`, on
# the implicit microbenchmark's kernels (models/kernels/implicit.cu): the DMA-mapped kernel, the same
# kernel stash-mapped and the explicit-copy kernel give the same array, equal to xorshift32 of the
# input computed here, in functional mode and in detail on gsi (banked scratchpad, DMA engine,
# stash) under denovo and wt, and the built-in implicit, implicit-dma and implicit-stash pass their
# checks on gsi under denovo; then each "dma" or "stash" field given wrongly, and both on one launch,
# fails (non-zero exit, as every manifest error) with one stderr line naming the manifest and the
# key.
# $1 is the syncscope binary; SYNCSCOPE_SOURCE_DIR is the repository.
set -euo pipefail

syncscope="${1:?usage: local_memory_manifest.sh SYNCSCOPE_BINARY}"
source_dir="${SYNCSCOPE_SOURCE_DIR:?SYNCSCOPE_SOURCE_DIR must name the repository}"
ptx="$source_dir/models/kernels/implicit.ptx"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0

fail() {
    echo "FAIL $*"
    status=1
}

# manifest NAME LAUNCH: a manifest of 1024 iota words and one launch.
manifest() {
    cat >"$scratch/$1.json" <<JSON
{"name": "$1", "ptx": "$ptx",
 "buffers": {"data": {"type": "u32", "count": 1024, "init": "iota"}},
 "launches": [$2],
 "outputs": ["data"]}
JSON
}

manifest dma '{"kernel": "implicit_dma", "grid": 4, "block": 256, "shared_bytes": 1024, "dma": {"buffer": "data", "bytes_per_cta": 1024}}'
manifest stash '{"kernel": "implicit_dma", "grid": 4, "block": 256, "shared_bytes": 1024, "stash": {"buffer": "data", "bytes_per_cta": 1024}}'
manifest copies '{"kernel": "implicit_scratchpad", "grid": 4, "block": 256, "shared_bytes": 1024, "args": ["data"]}'

# xorshift32 (13, 17, 5) of 0..1023, as little-endian words
python3 - "$scratch/expected.bin" <<'PY'
import struct, sys
def step(v):
    v ^= (v << 13) & 0xffffffff
    v ^= v >> 17
    v ^= (v << 5) & 0xffffffff
    return v
open(sys.argv[1], "wb").write(struct.pack("<1024I", *[step(i) for i in range(1024)]))
PY

for variant in dma stash copies; do
    for mode in "functional" "detailed --system gsi --mechanism denovo" "detailed --system gsi --mechanism wt"; do
        out="$scratch/$variant-${mode// /_}.bin"
        # shellcheck disable=SC2086
        if ! "$syncscope" run --workload-file "$scratch/$variant.json" --no-db --mode $mode --dump "data=$out" \
                >"$scratch/stdout" 2>"$scratch/stderr"; then
            fail "$variant ($mode): $(head -1 "$scratch/stderr")"
        elif ! cmp -s "$out" "$scratch/expected.bin"; then
            fail "$variant ($mode): data differs from xorshift32 of the input"
        else
            echo "ok   $variant ($mode)"
        fi
    done
done

# the built-in workloads: the three organisations' checks compare the same array with the same
# host-computed step (same seed), so passing checks mean equal outputs
for workload in implicit implicit-dma implicit-stash; do
    if ! "$syncscope" run --workload "$workload" --size tiny --no-db --mode detailed --system gsi --mechanism denovo \
            >"$scratch/stdout" 2>"$scratch/stderr" || ! grep -q "passed" "$scratch/stdout"; then
        fail "$workload (gsi, denovo): $(grep -i check "$scratch/stdout") $(head -1 "$scratch/stderr")"
    else
        echo "ok   $workload (gsi, denovo): $(grep -i check "$scratch/stdout")"
    fi
done

# refused mapping fields: a non-zero exit, one line naming the manifest and the key; MAPPING is
# the launch's mapping key(s) and value(s)
refused() {
    local name=$1 mapping=$2 key=$3
    manifest "$name" "{\"kernel\": \"implicit_dma\", \"grid\": 4, \"block\": 256, \"shared_bytes\": 1024, $mapping}"
    set +e
    "$syncscope" run --workload-file "$scratch/$name.json" --no-db >/dev/null 2>"$scratch/stderr"
    local code=$?
    set -e
    if [[ $code -eq 0 || $(wc -l <"$scratch/stderr") -ne 1 ]] || ! grep -q "$name.json" "$scratch/stderr" ||
        ! grep -qF "$key" "$scratch/stderr"; then
        fail "$name: exit $code, stderr: $(cat "$scratch/stderr")"
    else
        echo "ok   refused $name: $(cat "$scratch/stderr")"
    fi
}
refused no_buffer '"dma": {"buffer": "nothing", "bytes_per_cta": 1024}' 'launches[0].dma.buffer'
refused unaligned '"dma": {"buffer": "data", "bytes_per_cta": 1022}' 'launches[0].dma'
refused past_end '"dma": {"buffer": "data", "bytes_per_cta": 1024, "offset": 4}' 'launches[0].dma'
refused too_big '"dma": {"buffer": "data", "bytes_per_cta": 1024, "shared_offset": 4}' 'launches[0].dma'
refused unknown_key '"dma": {"buffer": "data", "bytes_per_cta": 1024, "bytes": 4}' 'launches[0].dma'
refused not_object '"dma": "data"' 'launches[0].dma'
refused stash_no_buffer '"stash": {"buffer": "nothing", "bytes_per_cta": 1024}' 'launches[0].stash.buffer'
refused stash_past_end '"stash": {"buffer": "data", "bytes_per_cta": 1024, "offset": 4}' 'launches[0].stash'
refused both '"dma": {"buffer": "data", "bytes_per_cta": 1024}, "stash": {"buffer": "data", "bytes_per_cta": 1024}' \
    'launches[0].stash'
exit $status
