#!/usr/bin/env bash
# detailed_suite.sh — the detailed timing model end to end: every built-in workload at --size tiny
# under --mode detailed, for every mechanism of the registry, on every system preset (gtx480, gsi
# and rcc-gpu with 32-lane warps, qr-apu and sahc-apu with 64-lane wavefronts), plus jittered runs.
# Every run must pass its output check and be stored; then `syncscope db check` must pass (each
# run's per-CU and mean stall rows sum to its cycles), and SQL over the stored rows must find,
# for every run, positive cycles, stall rows for each CU and the mean, and an eight-category mean
# breakdown (categories named as gsi.h stores them) that sums to the cycles.
#
# usage: detailed_suite.sh PATH/TO/syncscope
set -uo pipefail

syncscope=${1:?usage: detailed_suite.sh PATH/TO/syncscope}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
database="$work/detailed.sqlite"
failures=0
runs=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run SYSTEM MECHANISM WORKLOAD [OPTION...]: one stored detailed run whose check must pass.
run() {
    local system=$1 mechanism=$2 workload=$3
    shift 3
    runs=$((runs + 1))
    if ! "$syncscope" run --mode detailed --size tiny --system "$system" --mechanism "$mechanism" \
            --workload "$workload" --db "$database" "$@" >"$work/out" 2>"$work/err"; then
        fail "$system $mechanism $workload${*:+ $*}: $(cat "$work/err" "$work/out" | grep -E 'check|syncscope' | head -2)"
    fi
}

workloads=$("$syncscope" list workloads | awk '{print $1}')
[ -n "$workloads" ] || { echo "FAIL: syncscope list workloads printed nothing"; exit 1; }
systems=$("$syncscope" list systems | awk '{print $1}')
[ -n "$systems" ] || { echo "FAIL: syncscope list systems printed nothing"; exit 1; }

for mechanism in $("$syncscope" list mechanisms | awk '{print $1}'); do
    for system in $systems; do
        for workload in $workloads; do
            run "$system" "$mechanism" "$workload"
        done
    done
    for workload in vecadd sort sssp hashtable; do
        run gtx480 "$mechanism" "$workload" --jitter 7
    done
done

if ! "$syncscope" db check --db "$database" >"$work/check" 2>&1; then
    fail "db check: $(cat "$work/check")"
fi

# One row per run: its cycles, how many CUs it had, the CUs (and the mean, cu -1) with stall rows.
cat >"$work/coverage.sql" <<'SQL'
SELECT r.id, r.system, r.mechanism, r.workload, r.status, r.cycles, c.cu_count,
       (SELECT count(DISTINCT s.cu) FROM stalls s WHERE s.run_id = r.id) AS stall_cus
FROM runs r JOIN configs c ON c.hash = r.config_hash
WHERE r.mode = 'detailed'
ORDER BY r.id;
SQL
# One row per run: the mean (cu NULL) stall cycles of each of the eight categories, their sum, and
# the cycles of rows in any other category.
cat >"$work/breakdown.sql" <<'SQL'
SELECT r.id, r.cycles,
       sum(CASE s.category WHEN 'no_stall' THEN s.cycles ELSE 0 END) AS no_stall,
       sum(CASE s.category WHEN 'idle' THEN s.cycles ELSE 0 END) AS idle,
       sum(CASE s.category WHEN 'control' THEN s.cycles ELSE 0 END) AS control,
       sum(CASE s.category WHEN 'sync' THEN s.cycles ELSE 0 END) AS sync,
       sum(CASE s.category WHEN 'mem_data' THEN s.cycles ELSE 0 END) AS mem_data,
       sum(CASE s.category WHEN 'mem_struct' THEN s.cycles ELSE 0 END) AS mem_struct,
       sum(CASE s.category WHEN 'comp_data' THEN s.cycles ELSE 0 END) AS comp_data,
       sum(CASE s.category WHEN 'comp_struct' THEN s.cycles ELSE 0 END) AS comp_struct,
       sum(CASE WHEN s.category IN ('no_stall', 'idle', 'control', 'sync', 'mem_data', 'mem_struct', 'comp_data',
                                    'comp_struct') THEN 0 ELSE s.cycles END) AS other
FROM runs r JOIN stalls s ON s.run_id = r.id AND s.cu = -1
WHERE r.mode = 'detailed'
GROUP BY r.id
ORDER BY r.id;
SQL

"$syncscope" query "$work/coverage.sql" --csv --db "$database" >"$work/coverage.csv" 2>"$work/err" ||
    fail "coverage query: $(cat "$work/err")"
"$syncscope" query "$work/breakdown.sql" --csv --db "$database" >"$work/breakdown.csv" 2>"$work/err" ||
    fail "breakdown query: $(cat "$work/err")"

stored=$(tail -n +2 "$work/coverage.csv" | wc -l)
[ "$stored" -eq "$runs" ] || fail "$runs runs made, $stored stored"
awk -F, 'NR > 1 {
    if ($5 != "ok") print "FAIL: run " $1 " (" $2 " " $3 " " $4 "): status " $5
    if (!($6 > 0)) print "FAIL: run " $1 " (" $2 " " $3 " " $4 "): cycles " $6
    if ($8 != $7 + 1) print "FAIL: run " $1 " (" $2 " " $3 " " $4 "): stall rows for " $8 " CUs and mean, expected " $7 + 1
}' "$work/coverage.csv" >"$work/problems"
awk -F, 'NR > 1 {
    total = 0
    for (c = 3; c <= 10; c++) total += $c
    if ($11 != 0) print "FAIL: run " $1 ": " $11 " mean stall cycles outside the eight categories"
    if (total - $2 > 1e-6 * $2 || $2 - total > 1e-6 * $2) print "FAIL: run " $1 ": mean categories sum to " total ", cycles " $2
}' "$work/breakdown.csv" >>"$work/problems"
with_breakdown=$(tail -n +2 "$work/breakdown.csv" | wc -l)
[ "$with_breakdown" -eq "$runs" ] || fail "$runs runs made, $with_breakdown with a mean stall breakdown"
if [ -s "$work/problems" ]; then
    cat "$work/problems"
    failures=$((failures + $(wc -l <"$work/problems")))
fi

if [ "$failures" -eq 0 ]; then
    echo "detailed_suite: $runs detailed runs passed their checks; stall breakdowns sum to their cycles"
fi
exit $((failures > 0))
