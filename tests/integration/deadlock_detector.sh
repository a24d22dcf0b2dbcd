#!/bin/bash
# deadlock_detector.sh — a kernel whose warps spin forever on a flag nobody sets
# (tests/data/manifests/stuck/) is stopped by the deadlock detector (src/exec/deadlock.h) within
# a minute in functional and in detailed mode, long before the watchdogs (sim.max_cycles, the
# functional instruction budget) would speak, with one line naming the spin loop's instructions;
# nothing is stored.
# Usage: deadlock_detector.sh PATH/TO/syncscope
set -u
syncscope=$1
data=$(cd "$(dirname "$0")/../data/manifests/stuck" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

for mode in functional detailed; do
    start=$SECONDS
    expect 1 "deadlocked kernel in $mode mode" timeout 60 "$syncscope" run --mode "$mode" \
        --workload-file "$data/spin.json" --db "$work/runs.sqlite"
    echo "$mode: stopped after $((SECONDS - start)) s"
    expect_error_line "kernel spin_forever: deadlock: no warp changed a register or exited in"
    expect_error_line "the warps spin at $data/spin.ptx lines 19 (ld), 20 (setp), 21 (bra)"
done
[ ! -e "$work/runs.sqlite" ] || [ "$(sql "$work/runs.sqlite" 'SELECT count(*) AS n FROM runs' | tail -1)" = 0 ] ||
    fail "a deadlocked run was stored"

[ "$failures" -eq 0 ] && echo "deadlock_detector: all checks passed"
exit "$((failures > 0))"
