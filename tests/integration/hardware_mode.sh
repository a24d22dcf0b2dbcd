#!/usr/bin/env bash
# hardware_mode.sh — `--mode hardware` and `litmus --hardware` without a usable GPU driver fail
# with one stderr line and exit 1 (a missing driver, or a library that is not one), and with
# --mechanism they are usage errors (exit 2): the GPU's own memory system is what they run on.
# `litmus --rendezvous` runs on the timing model with every line's histogram summing to
# seeds x instances. Where this machine has an NVIDIA driver and GPU (CI machines do not), vecadd
# and MP also run there and must pass. $1 is the syncscope binary.
set -uo pipefail

syncscope="${1:?usage: hardware_mode.sh SYNCSCOPE_BINARY}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failures=0

fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# expect CODE TEXT DESCRIPTION COMMAND...: exits with CODE and, unless CODE is 0, prints exactly
# one stderr line containing TEXT.
expect() {
    local code=$1 text=$2 what=$3
    shift 3
    "$@" >"$scratch/out" 2>"$scratch/err"
    local got=$?
    if [[ $got -ne $code ]]; then
        fail "$what: exit $got, expected $code"
        cat "$scratch/err"
    elif [[ $code -ne 0 ]] && ! { [[ $(wc -l <"$scratch/err") -eq 1 ]] && grep -qF -- "$text" "$scratch/err"; }; then
        fail "$what: expected one error line containing '$text', got:"
        cat "$scratch/err"
    fi
}

missing=(env SYNCSCOPE_CUDA_DRIVER="$scratch/no-such-libcuda.so")
not_a_driver=(env SYNCSCOPE_CUDA_DRIVER=libm.so.6)
expect 1 "needs the CUDA driver: cannot load" "run without a driver" \
    "${missing[@]}" "$syncscope" run --mode hardware --workload vecadd --no-db
expect 1 "has no cuInit" "run with a library that is not a CUDA driver" \
    "${not_a_driver[@]}" "$syncscope" run --mode hardware --workload vecadd --no-db
expect 2 "drop --mechanism" "run --mode hardware --mechanism" \
    "$syncscope" run --mode hardware --mechanism wt --workload vecadd --no-db
expect 1 "needs the CUDA driver: cannot load" "litmus --hardware without a driver" \
    "${missing[@]}" "$syncscope" litmus --hardware --test MP --seeds 1
expect 2 "drop --mechanism" "litmus --hardware --mechanism" \
    "$syncscope" litmus --hardware --mechanism wt --test MP
grep -q -- "--mode functional|detailed|sampled|model|hardware" < <("$syncscope" run --help) ||
    fail "run --help does not list the hardware mode"

# --rendezvous on the timing model: every line's outcomes sum to seeds x instances.
expect 0 "" "litmus --rendezvous" "$syncscope" litmus --rendezvous --test MP,IRIW --scope gpu --mode relaxed,fenced \
    --mechanism wt,rfo --seeds 3 --iterations 8
grep -q "(roles meet before each)" "$scratch/out" || fail "litmus --rendezvous does not say the roles meet"
lines=$(awk '$1 == "MP" || $1 == "IRIW"' "$scratch/out" | wc -l)
[[ $lines -eq 8 ]] || fail "litmus --rendezvous printed $lines lines, expected 8"
awk '$1 == "MP" || $1 == "IRIW" {
        total = 0
        for (i = 10; i <= NF; i++) { split($i, kv, "="); total += kv[2] }
        if (total != 24) { print "FAIL " $0 ": outcomes sum to " total ", expected 24"; bad = 1 }
     } END { exit bad }' "$scratch/out" || failures=$((failures + 1))

if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    expect 0 "" "vecadd on the GPU" "$syncscope" run --mode hardware --workload vecadd --no-db
    expect 0 "" "MP on the GPU" "$syncscope" litmus --hardware --rendezvous --test MP --seeds 5 --iterations 256
else
    echo "no NVIDIA GPU here: the runs on a GPU were not made (scripts/hardware_check.sh makes them)"
fi

if [[ $failures -ne 0 ]]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "hardware_mode: all checks passed"
