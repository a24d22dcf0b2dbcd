#!/bin/bash
# interrupted_sweeps.sh — sweeps (detailed, and a 20,000-point model sweep stored in several
# batches) and `compare` killed with SIGKILL at random moments, then run
# again, leave exactly what an uninterrupted run leaves: every point of the sweep stored once,
# whole (each mechanism x workload run once), the same cycles as a clean run, and `db check`
# reporting no problem. Also: `db check` finds the partial points and duplicated runs that the
# old behaviour (a re-run starting from point 0) left, and `db repair` removes them so that the
# sweep run again completes.
# Usage: interrupted_sweeps.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

cat >"$work/grid.json" <<'EOF'
{"name": "kill-test", "system": "gtx480", "size": "tiny", "mode": "detailed",
 "mechanisms": ["wt", "nol1"], "workloads": ["vecadd", "histogram", "reduction"],
 "parameters": {"l1.size": {"values": [24576, 49152]}, "dram.channels": {"range": [2, 12], "count": 11}},
 "design": "grid"}
EOF
# Every stored run of a sweep with its point, as CSV: what two evaluations must agree on.
runs_of() {
    sql "$1" "SELECT w.name, p.point_index, r.mechanism, r.workload, r.mode, r.cycles FROM runs r
              JOIN sweep_points p ON p.id = r.sweep_point_id JOIN sweeps w ON w.id = p.sweep_id
              WHERE w.name = '$2' ORDER BY 1, 2, 3, 4, 5, 6"
}
# Runs SYNCSCOPE ARGS... in the background and kills it with SIGKILL after a random 0..MS ms.
kill_at_random() {
    local ms=$1
    shift
    "$syncscope" "$@" >/dev/null 2>&1 &
    local pid=$!
    local delay=$((RANDOM % ms))
    sleep "$((delay / 1000)).$(printf '%03d' $((delay % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}

expect 0 "clean detailed sweep" "$syncscope" sweep "$work/grid.json" --db "$work/clean.sqlite"
runs_of "$work/clean.sqlite" kill-test >"$work/clean.csv"
[ "$(wc -l <"$work/clean.csv")" -eq 133 ] || fail "the clean sweep stored $(($(wc -l <"$work/clean.csv") - 1)) runs, not 132"
for attempt in 1 2 3 4 5 6; do
    db="$work/killed$attempt.sqlite"
    kill_at_random 700 sweep "$work/grid.json" --db "$db"
    kill_at_random 700 sweep "$work/grid.json" --db "$db"
    expect 0 "detailed sweep run again after kill -9 (attempt $attempt)" "$syncscope" sweep "$work/grid.json" --db "$db"
    expect_output "132 of 132 detailed runs found"
    expect 0 "db check after kill -9 and a re-run (attempt $attempt)" "$syncscope" db check --db "$db"
    runs_of "$db" kill-test >"$work/killed.csv"
    cmp -s "$work/clean.csv" "$work/killed.csv" ||
        fail "attempt $attempt: the killed and resumed sweep differs from the clean one: $(diff "$work/clean.csv" "$work/killed.csv" | head -5)"
done

# A model sweep of 20,000 points (40,000 runs: three batches of whole points) with spot checks,
# killed at a random moment and run again.
cat >"$work/model.json" <<'EOF'
{"name": "model-kill", "system": "gtx480", "size": "tiny", "mode": "model",
 "mechanisms": ["wt"], "workloads": ["vecadd", "histogram"],
 "parameters": {"l1.size": {"values": [24576, 49152, 98304]}, "dram.channels": {"range": [2, 12], "count": 6}},
 "design": {"random": 20000}, "seed": 5, "spot_check": 0.001}
EOF
expect 0 "calibrate for the model sweep" "$syncscope" calibrate --mechanism wt --workloads vecadd,histogram --size tiny \
    --points 2 --db "$work/model-clean.sqlite"
for attempt in 1 2 3; do
    cp "$work/model-clean.sqlite" "$work/model$attempt.sqlite"
done
expect 0 "clean model sweep" "$syncscope" sweep "$work/model.json" --db "$work/model-clean.sqlite"
runs_of "$work/model-clean.sqlite" model-kill >"$work/model-clean.csv"
for attempt in 1 2 3; do
    db="$work/model$attempt.sqlite"
    kill_at_random 4000 sweep "$work/model.json" --db "$db"
    expect 0 "model sweep run again after kill -9 (attempt $attempt)" "$syncscope" sweep "$work/model.json" --db "$db"
    expect_output "40000 of 40000 model runs found"
    expect 0 "db check after the model sweep was killed (attempt $attempt)" "$syncscope" db check --db "$db"
    runs_of "$db" model-kill >"$work/model.csv"
    cmp -s "$work/model-clean.csv" "$work/model.csv" ||
        fail "attempt $attempt: the killed and resumed model sweep differs: $(diff "$work/model-clean.csv" "$work/model.csv" | head -5)"
done

# compare (detailed runs, calibrations, validations, a model sweep) killed and run again.
compare_args=(compare --size tiny --mechanisms wt,nol1 --workloads vecadd,histogram,reduction --model-points 2)
expect 0 "clean compare" "$syncscope" "${compare_args[@]}" --report "$work/report" --db "$work/compare-clean.sqlite"
runs_of "$work/compare-clean.sqlite" compare-gtx480-tiny | cut -d, -f1-5 >"$work/compare-clean.csv"
[ "$(wc -l <"$work/compare-clean.csv")" -eq 55 ] || fail "compare's sweep stored $(($(wc -l <"$work/compare-clean.csv") - 1)) runs, not 54"
for attempt in 1 2 3 4 5 6; do
    db="$work/compare$attempt.sqlite"
    kill_at_random 400 "${compare_args[@]}" --report "$work/report" --db "$db"
    expect 0 "compare run again after kill -9 (attempt $attempt)" "$syncscope" "${compare_args[@]}" --report "$work/report" --db "$db"
    expect 0 "compare run a third time (attempt $attempt)" "$syncscope" "${compare_args[@]}" --report "$work/report" --db "$db"
    expect 0 "db check after compare was killed (attempt $attempt)" "$syncscope" db check --db "$db"
    runs_of "$db" compare-gtx480-tiny | cut -d, -f1-5 >"$work/compare.csv"
    cmp -s "$work/compare-clean.csv" "$work/compare.csv" ||
        fail "attempt $attempt: compare's model sweep after kill -9 and re-runs differs: $(diff "$work/compare-clean.csv" "$work/compare.csv" | head -5)"
done

# Damage as the old behaviour left it (a run of a point twice, a point missing a run, a point
# outside the design): db check finds each, a report refuses the duplicates, db repair removes
# those points, the sweep completes.
cp "$work/clean.sqlite" "$work/damaged.sqlite"
# (the sqlite3 shell writes them: syncscope's own query command only reads)
command -v sqlite3 >/dev/null || fail "this test needs the sqlite3 shell to damage a copy of a database"
printf '%s\n' "PRAGMA foreign_keys = ON; INSERT INTO runs (tool_version, git_revision, system, config_hash, mechanism, workload, workload_params,
    mode, seed, status, check_detail, cycles, wall_seconds, sweep_point_id)
    SELECT tool_version, git_revision, system, config_hash, mechanism, workload, workload_params, mode, seed, status,
    check_detail, cycles, wall_seconds, sweep_point_id FROM runs WHERE sweep_point_id = (SELECT id FROM sweep_points WHERE point_index = 3) LIMIT 1;
    DELETE FROM runs WHERE id = (SELECT min(id) FROM runs WHERE sweep_point_id = (SELECT id FROM sweep_points WHERE point_index = 5));
    INSERT INTO sweep_points (sweep_id, point_index, params) VALUES (1, 40, '{}');" >"$work/damage.sql"
sqlite3 "$work/damaged.sqlite" <"$work/damage.sql" 2>"$work/err" || fail "damaging the copy: $(cat "$work/err")"
expect 1 "db check on a damaged sweep" "$syncscope" db check --db "$work/damaged.sqlite"
expect_output "sweep: kill-test (id 1), point 3: 1 duplicated runs (6 distinct mechanism x workload pairs)"
expect_output "sweep: kill-test (id 1), point 5: partial: it holds runs of 5 of its 6 mechanism x workload pairs"
expect_output "sweep: kill-test (id 1), point 40: outside the specification's design of 22 points"
expect_output "sweep: kill-test (id 1): 20 of its 22 points stored whole"
expect_output "damaged.sqlite: 4 problems"
expect 1 "a report on duplicated runs" "$syncscope" sweep "$work/grid.json" --report-only --db "$work/damaged.sqlite"
expect_error_line "sweep kill-test: 1 stored runs repeat a mechanism x workload of their point"
expect 1 "db repair (the missing points stay a problem)" "$syncscope" db repair --db "$work/damaged.sqlite"
expect_output "4 problems found, 3 faulty sweep points removed, 1 problem left"
expect 0 "the repaired sweep run again" "$syncscope" sweep "$work/grid.json" --db "$work/damaged.sqlite"
expect_output "sweep kill-test: 20 of its points were already stored; continuing with the other 2"
expect 0 "db check after the repair" "$syncscope" db check --db "$work/damaged.sqlite"
runs_of "$work/damaged.sqlite" kill-test >"$work/repaired.csv"
cmp -s "$work/clean.csv" "$work/repaired.csv" || fail "the repaired sweep differs from the clean one"
expect 0 "db repair on a sound database" "$syncscope" db repair --db "$work/damaged.sqlite"
expect_output "0 problems found, 0 faulty sweep points removed, 0 problems left"
expect 1 "db repair of a missing file" "$syncscope" db repair --db "$work/none.sqlite"
expect_error_line "none.sqlite: no such database"
[ ! -e "$work/none.sqlite" ] || fail "db repair created a database"

[ "$failures" -eq 0 ] && echo "interrupted_sweeps: all checks passed"
exit "$((failures > 0))"
