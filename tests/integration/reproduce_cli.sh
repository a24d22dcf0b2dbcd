#!/bin/bash
# reproduce_cli.sh — `syncscope reproduce quickrelease` end to end on tiny inputs: every run is
# stored under the study's sweep, the figures and claims.md are written, the claims table quotes
# the stored cycles, --report-only runs nothing and reports the same, a run that fails removes
# the runs the invocation stored, a reproduction killed with SIGKILL reports what is missing and,
# run again, keeps the runs it stored and runs only the rest (--restart runs everything again),
# and bad arguments fail in one line with exit 2.
# Usage: reproduce_cli.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

db="$work/runs.sqlite"
args=(quickrelease --size tiny --scaling-sizes tiny --workloads apsp,lud,nn --db "$db" --out "$work/report")
expect 0 "reproduction on tiny inputs" "$syncscope" reproduce "${args[@]}"
expect_output "12 runs, 0 kept from an earlier invocation, 0 failed their output check"
expect_output "| R8 | apsp run time: RFO < QR < WT |"
for figure in fig3_raw_reuse fig4_l1_reuse fig5_runtime fig6_l2_writes fig7_dram_writes fig8_l1_bytes fig10_scaling_nn; do
    grep -q "<svg" "$work/report/$figure.svg" 2>/dev/null || fail "$figure.svg missing or not SVG"
done
grep -q "apsp" "$work/report/fig5_runtime.svg" || fail "Figure 5 has no apsp group"
grep -q "^| R1 |" "$work/report/claims.md" || fail "claims.md lacks R1"

stored=$(sql "$db" "SELECT count(*), sum(r.status = 'ok') FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id
                    JOIN sweeps s ON s.id = p.sweep_id WHERE s.name = 'reproduce-quickrelease'" | tail -1)
[ "$stored" = "12,12" ] || fail "stored runs (count, ok): $stored, expected 12,12"

# The claims quote the stored cycles of apsp.
for mechanism in rfo qr wt; do
    cycles=$(sql "$db" "SELECT cast(cycles AS INTEGER) FROM runs WHERE workload = 'apsp' AND mechanism = '$mechanism'" | tail -1)
    label=$(echo "$mechanism" | tr a-z A-Z)
    grep -q "$label $cycles" "$work/report/claims.md" || fail "claims.md does not quote $mechanism apsp cycles $cycles"
done

cp "$work/report/claims.md" "$work/claims.first"
expect 0 "report only" "$syncscope" reproduce "${args[@]}" --report-only
[ "$(sql "$db" "SELECT count(*) FROM runs" | tail -1)" = "12" ] || fail "--report-only stored runs"
cmp -s "$work/claims.first" "$work/report/claims.md" || fail "--report-only changed the claims"

# A run that fails (spmv reading a missing matrix) removes the runs this invocation stored.
SYNCSCOPE_SPMV_MTX="$work/missing.mtx" expect 1 "failing reproduction" "$syncscope" reproduce quickrelease \
    --size tiny --scaling-sizes tiny --workloads lud,spmv --db "$db" --out "$work/report"
expect_error_line "spmv on nol1 (tiny)"
[ "$(sql "$db" "SELECT count(*) FROM runs" | tail -1)" = "12" ] || fail "a failed reproduction left runs behind"

# Killed after its second stored run: the report names what is missing, a second invocation keeps
# the stored runs and finishes, and the sweep then holds each run once.
killed_db="$work/killed.sqlite"
killed_args=(quickrelease --size tiny --scaling-sizes tiny --workloads apsp,lud,nn --db "$killed_db" --out "$work/killed")
"$syncscope" reproduce "${killed_args[@]}" >"$work/killed.out" 2>&1 &
pid=$!
for _ in $(seq 600); do
    [ "$(grep -c ' run [0-9]*$' "$work/killed.out")" -ge 2 ] && break
    sleep 0.05
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
stored_before=$(sql "$killed_db" "SELECT count(*) FROM runs" | tail -1)
[ "$stored_before" -ge 2 ] && [ "$stored_before" -lt 12 ] || fail "the killed reproduction stored $stored_before runs"
expect 1 "report of a killed reproduction" "$syncscope" reproduce "${killed_args[@]}" --report-only
expect_error_line "of the reproduction's runs have no ok run stored"
expect 0 "reproduction run again" "$syncscope" reproduce "${killed_args[@]}"
expect_output "$((12 - stored_before)) runs, $stored_before kept from an earlier invocation"
[ "$(sql "$killed_db" "SELECT count(*), count(DISTINCT workload || mechanism) FROM runs" | tail -1)" = "12,12" ] ||
    fail "after the second invocation the sweep does not hold each of the 12 runs once"
cmp -s "$work/claims.first" "$work/killed/claims.md" || fail "the resumed reproduction's claims differ from a whole one's"
expect 0 "reproduction restarted" "$syncscope" reproduce "${killed_args[@]}" --restart
expect_output "12 runs, 0 kept from an earlier invocation"
[ "$(sql "$killed_db" "SELECT count(*) FROM runs" | tail -1)" = "12" ] || fail "--restart left the earlier runs"
expect 2 "--restart with --report-only" "$syncscope" reproduce "${killed_args[@]}" --restart --report-only
expect_error_line "--restart runs the study again"

expect 2 "unknown study" "$syncscope" reproduce nosuch --db "$db"
expect_error_line "unknown study 'nosuch'"
expect 2 "workload outside the study" "$syncscope" reproduce quickrelease --workloads vecadd --db "$db"
expect_error_line "'vecadd' is not a workload of this study"
expect 2 "bad size" "$syncscope" reproduce quickrelease --size giant --db "$db"
expect_error_line "--size 'giant'"
expect 2 "bad scaling size" "$syncscope" reproduce quickrelease --scaling-sizes tiny,enormous --db "$db"
expect_error_line "'enormous' is not tiny, small, large or huge"

exit $((failures > 0))
