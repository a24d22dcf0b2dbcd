#!/bin/bash
# timing_errors.sh — how the detailed model fails: a kernel that never finishes is stopped by
# the sim.max_cycles watchdog with the request in flight named (exit 1: the run failed); a
# configuration whose end-to-end latencies cannot be met, a mesh without a grid, or whose
# QuickRelease wL2 has less than a line per L2 bank, is refused naming the key (exit 2: bad
# input); neither leaves a run behind. A mechanism's own keys are checked only
# when it is selected: a QuickRelease write-cache geometry that fails a qr run does not fail a wt
# run.
# Usage: timing_errors.sh PATH/TO/syncscope
set -u
syncscope=$1
data=$(cd "$(dirname "$0")/../data/manifests/stuck" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_failure() { # expect_failure CODE TEXT COMMAND...: exit CODE, one stderr line containing TEXT
    local expected=$1 text=$2
    shift 2
    "$@" >"$work/out" 2>"$work/err"
    local code=$?
    if [ "$code" -ne "$expected" ] || [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -qF -- "$text" "$work/err"; then
        echo "FAIL: expected exit $expected and one line containing '$text'; got exit $code:"; cat "$work/err"
        failures=$((failures + 1))
    fi
}

expect_failure 1 "watchdog: more than 20000 cycles (sim.max_cycles); oldest request in flight" \
    "$syncscope" run --mode detailed --workload-file "$data/spin.json" --set sim.max_cycles=20000 --db "$work/runs.db"
grep -qF "spin.ptx:19" "$work/err" || { echo "FAIL: the watchdog message does not name spin.ptx:19"; failures=$((failures + 1)); }

expect_failure 2 "l2.latency: 5 GPU cycles is less than the unloaded trip" \
    "$syncscope" run --mode detailed --workload vecadd --size tiny --set l2.latency=5 --db "$work/runs.db"

expect_failure 2 "noc.mesh_rows/noc.mesh_columns: a mesh (noc.topology mesh) needs at least one row and one column" \
    "$syncscope" run --mode detailed --workload vecadd --size tiny --set noc.topology=mesh --db "$work/runs.db"

expect_failure 2 "l2.write_cache_size: 512 bytes is less than one 64-byte line per slice (16 slices)" \
    "$syncscope" run --mode detailed --system qr-apu --mechanism qr --workload vecadd --size tiny \
    --set l2.write_cache_size=512B --db "$work/runs.db"

bad_wl3=(--set l3.write_cache_size=32B --set l3.write_cache_associativity=3)
expect_failure 2 "l3.write_cache_size: 32 bytes is less than one 64-byte line per slice (1 slices)" \
    "$syncscope" run --mode detailed --system qr-apu --mechanism qr --workload vecadd --size tiny "${bad_wl3[@]}" \
    --db "$work/runs.db"
if ! "$syncscope" run --mode detailed --system qr-apu --mechanism wt --workload vecadd --size tiny "${bad_wl3[@]}" \
    --db "$work/wt.db" >"$work/out" 2>"$work/err"; then
    echo "FAIL: qr's write-cache keys failed a wt run:"; cat "$work/err"; failures=$((failures + 1))
fi

echo "SELECT count(*) AS runs FROM runs;" >"$work/count.sql"
runs=$("$syncscope" query "$work/count.sql" --csv --db "$work/runs.db" 2>/dev/null | tail -n 1)
if [ "$runs" != "0" ]; then
    echo "FAIL: failed runs left $runs rows in the database"; failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] && echo "timing_errors: ok"
exit "$failures"
