#!/bin/bash
# hardware_check.sh — runs syncscope's checks on a real NVIDIA GPU (`--mode hardware`): every
# built-in workload at the given sizes and every test manifest, each checking its output on the
# GPU, after the litmus suite with many launches per variant (the roles meeting before each
# instance: --rendezvous). Prints one line per run and a
# summary; writes the JSON of every run to OUT/runs.jsonl and the litmus table to OUT/litmus.txt.
# Needs a GPU and its driver (libcuda.so.1); nothing in the test suite calls it.
# Usage: hardware_check.sh [SYNCSCOPE] [OUT] [SIZES (comma-separated, default tiny,small,large)]
#        [LITMUS_LAUNCHES (default 200)] [LITMUS_INSTANCES (default 4096)]
set -u
syncscope=${1:-build/syncscope}
out=${2:-hardware-check}
sizes=${3:-tiny,small,large}
launches=${4:-200}
instances=${5:-4096}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
: >"$out/runs.jsonl"
failures=0
runs=0
run_one() {   # label, then the run's arguments
    local label=$1
    shift
    runs=$((runs + 1))
    local line
    line=$(timeout 300 "$syncscope" run --mode hardware --no-db --json "$@" 2>"$out/stderr.txt")
    local status=$?
    if [ -n "$line" ]; then
        echo "$line" >>"$out/runs.jsonl"
    fi
    local check gpu_ms
    check=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(r["check"], round(1000*r["gpu"]["kernel_seconds"],3), "ms;", r["check_detail"][:110])' "$line" 2>/dev/null)
    if [ $status -ne 0 ]; then
        failures=$((failures + 1))
        printf '%-28s FAILED (exit %d) %s %s\n' "$label" "$status" "$check" "$(head -c 300 "$out/stderr.txt")"
    else
        printf '%-28s %s\n' "$label" "$check"
    fi
}
timeout 900 "$syncscope" litmus --hardware --rendezvous --seeds "$launches" --iterations "$instances" | tee "$out/litmus.txt"
litmus_status=${PIPESTATUS[0]}
echo "litmus exit status $litmus_status"
IFS=, read -r -a size_list <<<"$sizes"
# implicit-dma and implicit-stash declare a DMA or stash mapping, simulated hardware that a GPU
# does not have (the hardware engine refuses them in one line).
for workload in $("$syncscope" list workloads | awk '$1 != "implicit-dma" && $1 != "implicit-stash" {print $1}'); do
    for size in "${size_list[@]}"; do
        run_one "$workload/$size" --workload "$workload" --size "$size"
    done
done
for manifest in "$here"/tests/data/manifests/fresh/*.json "$here"/tests/data/manifests/host/*.json; do
    # per_kernel_shared checks syncscope's own shared-memory layout (the offsets of .shared
    # variables), which a GPU lays out its own way (an H200 starts them at 0x400).
    [ "$(basename "$manifest")" = per_kernel_shared.json ] && continue
    run_one "manifest/$(basename "$manifest" .json)" --workload-file "$manifest"
done
echo "hardware check: $runs runs, $failures failed"
[ $failures -eq 0 ] && [ "$litmus_status" -eq 0 ]
