#!/bin/bash
# gsi_switch.sh — sim.gsi false turns the GSI stall inspector off and changes nothing else: the
# same cycles, warp instructions and every stored metric except the per-kernel GSI categories;
# no stall rows are stored, `run` and `stalls` say the breakdown is off, a sampled run scales
# no breakdown, and `bench gsi` reports both settings agreeing. Run under two mechanisms with
# different memory paths (denovo on gsi, qr on qr-apu).
# Usage: gsi_switch.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The metrics of run $1 except GSI's categories and the run's own times, one "kernel name value" a line.
metrics_of() {
    sqlite3 "$work/runs.db" "SELECT kernel_index, name, value FROM metrics WHERE run_id = $1 AND name NOT IN
        ('no_stall','idle','control','sync','mem_data','mem_struct','comp_data','comp_struct') AND name NOT LIKE '%seconds'
        ORDER BY kernel_index, name"
}

run=0
for case in "gsi denovo uts" "qr-apu qr histogram"; do
    set -- $case
    for setting in true false; do
        "$syncscope" run --mode detailed --system "$1" --mechanism "$2" --workload "$3" --size tiny \
            --set sim.gsi=$setting --db "$work/runs.db" >"$work/run-$setting.txt" || fail "$case sim.gsi=$setting failed"
    done
    on=$((run + 1)); off=$((run + 2)); run=$off
    grep -q '^stalls (GSI) .*no_stall' "$work/run-true.txt" || fail "$case: the run with GSI prints no breakdown"
    grep -q '^stalls (GSI) .*off (sim.gsi false' "$work/run-false.txt" || fail "$case: the run without GSI does not say so"
    [ "$(grep '^cycles' "$work/run-true.txt")" = "$(grep '^cycles' "$work/run-false.txt")" ] ||
        fail "$case: cycles differ with GSI off"
    [ "$(metrics_of $on)" = "$(metrics_of $off)" ] || fail "$case: the metrics differ with GSI off"
    [ "$(sqlite3 "$work/runs.db" "SELECT count(*) FROM stalls WHERE run_id = $on")" -gt 0 ] ||
        fail "$case: the run with GSI stored no stall rows"
    [ "$(sqlite3 "$work/runs.db" "SELECT count(*) FROM stalls WHERE run_id = $off")" -eq 0 ] ||
        fail "$case: the run without GSI stored stall rows"
    [ "$(sqlite3 "$work/runs.db" "SELECT count(*) FROM metrics WHERE run_id = $off AND name = 'no_stall'")" -eq 0 ] ||
        fail "$case: the run without GSI stored GSI category metrics"
    "$syncscope" stalls $off --db "$work/runs.db" | grep -q "the run was made with sim.gsi false" ||
        fail "$case: stalls does not say the run was made without GSI"
done

"$syncscope" run --mode sampled --workload vecadd --size tiny --set sim.gsi=false --no-db --json >"$work/sampled.json" ||
    fail "sampled run without GSI failed"
grep -q '"stalls":[[:space:]]*null' "$work/sampled.json" || fail "a sampled run without GSI shows a breakdown"

"$syncscope" bench gsi --workload vecadd --size tiny --runs 1 >"$work/bench.txt" || fail "bench gsi failed"
grep -qE '^vecadd .* yes +ok$' "$work/bench.txt" || { fail "bench gsi does not report vecadd agreeing"; cat "$work/bench.txt"; }

[ "$failures" -eq 0 ] && echo "gsi_switch: ok"
exit $((failures > 0))
