#!/bin/bash
# sweep_cli.sh — `syncscope sweep` end to end: a small detailed grid sweep stored unsharded and as
# three shards merged with `syncscope merge` gives exactly the same points and results (cycles
# and stall rows) and the same report; a one-at-a-time sweep writes its elasticity figures; a
# sweep that fails part-way keeps its whole points and continues from there when run again
# (--restart starts over); a sampled sweep counts its estimates without an interval; a model
# sweep stores the same results with its memo of solved groups and without it; bad specs
# and arguments fail in one
# line with the right exit code.
# Usage: sweep_cli.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"


cat >"$work/grid.json" <<'EOF'
{"name": "grid-test", "system": "gtx480", "size": "tiny", "mode": "detailed",
 "mechanisms": ["wt", "nol1"], "workloads": ["vecadd", "histogram"],
 "parameters": {"l1.size": {"values": [24576, 49152]},
                "dram.channels": {"log_range": [2, 8], "count": 3}},
 "design": "grid"}
EOF

expect 0 "unsharded sweep" "$syncscope" sweep "$work/grid.json" --db "$work/whole.sqlite"
grep -q "6 of 6 points, 24 detailed runs stored" "$work/out" || fail "unsharded summary: $(head -1 "$work/out")"
tail -n +2 "$work/out" >"$work/whole.report"
for k in 1 2 3; do
    expect 0 "shard $k/3" "$syncscope" sweep "$work/grid.json" --shard "$k/3" --db "$work/shard$k.sqlite"
    grep -q "2 of 6 points in shard $k/3, 8 detailed runs stored" "$work/out" || fail "shard $k summary: $(cat "$work/out")"
done
expect 0 "merge shards" "$syncscope" merge "$work/merged.sqlite" "$work/shard1.sqlite" "$work/shard2.sqlite" "$work/shard3.sqlite"
expect 0 "report on the merged shards" "$syncscope" sweep "$work/grid.json" --report-only --db "$work/merged.sqlite"
cmp -s "$work/out" "$work/whole.report" || fail "the merged report differs: $(diff "$work/out" "$work/whole.report")"


# A sampled sweep counts its estimates without an interval (vecadd large on 4 CUs: one window;
# on 3 CUs: four) in its summary and on stderr.
cat >"$work/sampled.json" <<'EOF'
{"name": "sampled-intervals", "system": "gtx480", "size": "large", "mode": "sampled",
 "mechanisms": ["wt"], "workloads": ["vecadd"], "parameters": {"gpu.cu_count": {"values": [3, 4]}}, "design": "grid"}
EOF
expect 0 "sampled sweep" "$syncscope" sweep "$work/sampled.json" --db "$work/sampled.sqlite"
expect_output "2 sampled runs stored"
expect_output "; 1 sampled estimate(s) UNRELIABLE, without a confidence interval (sample.has_interval 0)"
grep -q "^syncscope sweep: warning: 1 sampled estimate(s) without a confidence interval, unreliable" "$work/err" ||
    fail "sampled sweep: no unreliable-estimate warning on stderr: $(cat "$work/err")"

# Every stored result, keyed by sweep point rather than run id, must match exactly.
results="SELECT p.point_index, p.params, r.mechanism, r.workload, r.status, r.cycles,
                (SELECT group_concat(s.cu || s.category || s.subcategory || s.cycles, ';')
                   FROM (SELECT * FROM stalls WHERE run_id = r.id ORDER BY cu, category, subcategory) s) AS stall_rows
         FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id JOIN sweeps w ON w.id = p.sweep_id
         WHERE w.name = 'grid-test' ORDER BY p.point_index, r.mechanism, r.workload"
sql "$work/whole.sqlite" "$results" >"$work/whole.csv"
sql "$work/merged.sqlite" "$results" >"$work/merged.csv"
[ "$(wc -l <"$work/whole.csv")" -eq 25 ] || fail "expected 24 result rows, got: $(head -3 "$work/whole.csv")"
cmp -s "$work/whole.csv" "$work/merged.csv" || fail "sharded+merged results differ from the unsharded sweep"
[ "$(sql "$work/merged.sqlite" 'SELECT count(*) AS n FROM sweeps' | tail -1)" = 1 ] ||
    fail "the shards' sweep rows were not merged into one"

# Model mode: every point through the calibrated model (batched), a share spot-checked in detail;
# without a calibration it refuses before storing anything.
cat >"$work/model.json" <<'EOF'
{"name": "model-test", "system": "gtx480", "size": "tiny", "mode": "model",
 "mechanisms": ["wt"], "workloads": ["vecadd", "histogram"],
 "parameters": {"l1.size": {"values": [24576, 49152, 98304]}, "dram.channels": {"range": [2, 12], "count": 6}},
 "design": {"random": 300}, "seed": 5, "spot_check": 0.05}
EOF
expect 1 "model sweep without a calibration" "$syncscope" sweep "$work/model.json" --db "$work/model.sqlite"
expect_error_line "run syncscope calibrate --mechanism wt --system gtx480 first"
[ "$(sql "$work/model.sqlite" 'SELECT count(*) AS n FROM sweeps' | tail -1)" = 0 ] || fail "a refused model sweep stored its sweep"
expect 0 "calibrate for the model sweep" "$syncscope" calibrate --mechanism wt --workloads vecadd,histogram --size tiny \
    --points 2 --db "$work/model.sqlite"
expect 0 "model sweep" "$syncscope" sweep "$work/model.json" --db "$work/model.sqlite"
grep -q "300 of 300 points, 600 model runs stored" "$work/out" || fail "model sweep summary: $(head -1 "$work/out")"
counts="SELECT r.mode, count(*) AS n, sum(r.cycles > 0) AS positive FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id
        JOIN sweeps w ON w.id = p.sweep_id WHERE w.name = 'model-test' GROUP BY r.mode ORDER BY r.mode"
spot=$(grep -o "[0-9]* points also run in detail" "$work/out" | cut -d' ' -f1)
[ -n "$spot" ] && [ "$spot" -gt 0 ] || fail "no point was spot-checked in detail: $(head -1 "$work/out")"
[ "$(sql "$work/model.sqlite" "$counts" | tr '\n' ' ')" = "mode,n,positive detailed,$((spot * 2)),$((spot * 2)) model,600,600 " ] ||
    fail "stored model-sweep runs: $(sql "$work/model.sqlite" "$counts" | tr '\n' ' ')"

# A model sweep's memo of solved groups (model/group_memo.h) changes no stored result: the same
# sweep with the memo and without it (SYNCSCOPE_NO_GROUP_MEMO) stores the same runs, metrics (the
# cycles' sigma among them) and stall rows at 17 significant digits. Its points move the L1 (two
# profiles), the L2 (the groups' demands) and the DRAM channels (a setting of their own).
cat >"$work/memo.json" <<'EOF'
{"name": "memo-test", "system": "gtx480", "size": "tiny", "mode": "model",
 "mechanisms": ["wt"], "workloads": ["vecadd", "histogram"],
 "parameters": {"l1.size": {"values": [24576, 49152]}, "l2.size": {"values": [196608, 393216, 786432, 1572864]},
                "dram.channels": {"values": [3, 6]}},
 "design": "grid"}
EOF
cp "$work/model.sqlite" "$work/memo.sqlite"
cp "$work/model.sqlite" "$work/no-memo.sqlite"
expect 0 "model sweep with the memo" "$syncscope" sweep "$work/memo.json" --db "$work/memo.sqlite"
expect_output "16 of 16 points, 32 model runs stored"
SYNCSCOPE_NO_GROUP_MEMO=1 expect 0 "model sweep without the memo" "$syncscope" sweep "$work/memo.json" --db "$work/no-memo.sqlite"
stored="SELECT p.point_index, r.mechanism, r.workload, printf('%.17g', r.cycles) AS cycles,
               (SELECT group_concat(m.name || '=' || printf('%.17g', m.value), ';')
                  FROM (SELECT * FROM metrics WHERE run_id = r.id ORDER BY kernel_index, name) m) AS metric_rows,
               (SELECT group_concat(s.cu || s.category || s.subcategory || printf('%.17g', s.cycles), ';')
                  FROM (SELECT * FROM stalls WHERE run_id = r.id ORDER BY cu, category, subcategory) s) AS stall_rows
        FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id JOIN sweeps w ON w.id = p.sweep_id
        WHERE w.name = 'memo-test' ORDER BY p.point_index, r.mechanism, r.workload"
sql "$work/memo.sqlite" "$stored" >"$work/memo.csv"
sql "$work/no-memo.sqlite" "$stored" >"$work/no-memo.csv"
[ "$(wc -l <"$work/memo.csv")" -eq 33 ] || fail "memo sweep: expected 32 rows: $(head -3 "$work/memo.csv")"
grep -q "cycles_sigma=" "$work/memo.csv" || fail "memo sweep: no stored sigma: $(head -3 "$work/memo.csv")"
cmp -s "$work/memo.csv" "$work/no-memo.csv" ||
    fail "the memo changed a stored model run: $(diff "$work/memo.csv" "$work/no-memo.csv" | head -4)"

# One-at-a-time: the elasticity table and figures.
cat >"$work/oat.json" <<'EOF'
{"name": "oat-test", "system": "gtx480", "size": "tiny", "mode": "detailed",
 "mechanisms": ["wt"], "workloads": ["vecadd"],
 "parameters": {"dram.channels": {"log_range": [2, 8], "count": 3},
                "gpu.scheduler": {"values": ["gto", "lrr"]}},
 "design": "oat"}
EOF
expect 0 "oat sweep" "$syncscope" sweep "$work/oat.json" --db "$work/oat.sqlite" --report "$work/figures"
grep -q "^wt  *dram.channels  *-" "$work/out" || fail "fewer DRAM channels must slow vecadd: $(cat "$work/out")"
for figure in elasticity dram.channels; do
    grep -q "<svg" "$work/figures/sweep-oat-test-$figure.svg" 2>/dev/null || fail "missing figure $figure"
done

# A point that cannot finish (the watchdog stops it) fails the sweep; the point before it stays
# stored whole, the failing point leaves nothing, and the message says so.
cat >"$work/stuck.json" <<'EOF'
{"name": "stuck-test", "system": "gtx480", "size": "tiny", "mode": "detailed",
 "mechanisms": ["wt"], "workloads": ["vecadd"],
 "parameters": {"sim.max_cycles": {"values": [10000000, 20]}}}
EOF
expect 1 "a failing point" "$syncscope" sweep "$work/stuck.json" --db "$work/stuck.sqlite"
expect_error_line "sweep stuck-test: 1 points are stored whole (run the sweep again to continue from there): sweep stuck-test, point 1, vecadd on wt: "
[ "$(sql "$work/stuck.sqlite" 'SELECT group_concat(p.point_index) AS points, count(r.id) AS runs FROM sweep_points p
       LEFT JOIN runs r ON r.sweep_point_id = p.id' | tail -1)" = "0,1" ] ||
    fail "a failed sweep stored other than point 0 whole"

# Resuming: a sweep run again continues (here: nothing left); --restart evaluates every point again.
expect 0 "grid sweep again" "$syncscope" sweep "$work/grid.json" --db "$work/whole.sqlite"
expect_output "sweep grid-test: 6 of its points were already stored; continuing with the other 0"
expect_output "6 of 6 points, 0 detailed runs stored"
expect_output "24 of 24 detailed runs found"
expect 0 "grid sweep restarted" "$syncscope" sweep "$work/grid.json" --restart --db "$work/whole.sqlite"
expect_output "sweep grid-test: --restart removed its 6 stored points and their runs"
expect_output "6 of 6 points, 24 detailed runs stored"
[ "$(sql "$work/whole.sqlite" 'SELECT count(*) AS n FROM runs' | tail -1)" = 24 ] || fail "--restart left the old runs"
expect 0 "db check after the restart" "$syncscope" db check --db "$work/whole.sqlite"
expect 2 "--restart with --report-only" "$syncscope" sweep "$work/grid.json" --restart --report-only --db "$work/whole.sqlite"
expect_error_line "--restart evaluates the sweep again; it cannot go with --report-only"

# A model sweep of 10^8 points without a calibration is refused at once: the calibrations are
# looked up before any point is checked.
sed 's/{"random": 300}/{"random": 100000000}/' "$work/model.json" >"$work/huge-model.json"
expect 1 "huge model sweep without a calibration" timeout 20 "$syncscope" sweep "$work/huge-model.json" --db "$work/huge.sqlite"
expect_error_line "run syncscope calibrate --mechanism wt --system gtx480 first"
# A Latin hypercube too large to keep its strata is refused naming its size.
sed 's/"design": "grid"/"design": {"lhs": 100000000}/; s/"dram.channels"/"noc.latency": {"range": [2, 12], "count": 3}, "dram.channels"/' \
    "$work/grid.json" >"$work/huge-lhs.json"
expect 1 "huge Latin hypercube" timeout 20 "$syncscope" sweep "$work/huge-lhs.json" --db "$work/huge.sqlite"
expect_error_line "sweep grid-test: a Latin hypercube of 100000000 points over 3 parameters keeps 300000000 strata; at most 268435456 fit"

# Bad input.
sed 's/"l1.size"/"l1.sise"/' "$work/grid.json" >"$work/bad.json"
expect 2 "unknown key" "$syncscope" sweep "$work/bad.json" --db "$work/bad.sqlite"
expect_error_line "bad.json: parameters.l1.sise: unknown configuration key (did you mean l1.size?)"
[ ! -e "$work/bad.sqlite" ] || fail "a bad spec created a database"
sed 's/24576, 49152/4096, 49152/' "$work/grid.json" >"$work/bad.json"
expect 2 "inconsistent point" "$syncscope" sweep "$work/bad.json" --db "$work/bad.sqlite"
expect_error_line 'sweep grid-test, point 0 {"l1.size": 4096, "dram.channels": 2}: l1.size'
expect 2 "bad shard" "$syncscope" sweep "$work/grid.json" --shard 4/3
expect_error_line "--shard '4/3': expected K/N with 1 <= K <= N"
expect 2 "no spec" "$syncscope" sweep
expect 2 "missing spec" "$syncscope" sweep "$work/none.json" --db "$work/bad.sqlite"
expect_error_line "none.json"

[ "$failures" -eq 0 ] && echo "sweep_cli: all checks passed"
exit "$((failures > 0))"
