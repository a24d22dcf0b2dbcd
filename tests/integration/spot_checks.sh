#!/bin/bash
# spot_checks.sh — honest uncertainty (issue 23 item 3), end to end at size tiny: a model run's
# band widens to the held-out error once validations of its mechanism and preset are stored; a
# model sweep with "spot_check": {"widest": K, "outside": true, ...} measures (sampled) the points
# with the widest band and those outside the calibrated region, stores each measured run in its
# sweep point beside the model runs (runs.mode says measured or modelled, each model run names its
# calibration); a calibration made deliberately wrong and overconfident (its parameters moved, its
# covariance and residuals shrunk) puts the measurements outside their bands, which refits each
# mechanism x workload on its spot measurements, stores the refits as the workloads' calibrations
# and re-evaluates every model run of the sweep with them; run again, the sweep measures nothing
# twice; `db check` finds nothing wrong; bad spot_check fields fail in one line.
# Usage: spot_checks.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
command -v sqlite3 >/dev/null || { echo "spot_checks: sqlite3 (the command-line shell) is not installed"; exit 77; }

expect 0 "calibrate" "$syncscope" calibrate --mechanism wt --workloads vecadd,histogram --size tiny --points 2 \
    --db "$work/honest.sqlite"
cp "$work/honest.sqlite" "$work/forced.sqlite"

# The band of a model run (its stored cycles_sigma) includes the held-out error of the
# validations stored for wt on gtx480 (of spmv, which the calibration never saw).
db=$work/honest.sqlite
sigma() {
    expect 0 "model run" "$syncscope" run --mode model --workload spmv --size tiny --db "$db"
    scalar "SELECT m.value FROM metrics m WHERE m.name = 'cycles_sigma' AND m.run_id = (SELECT max(id) FROM runs WHERE mode = 'model')"
}
before=$(sigma)
expect 0 "validate" "$syncscope" validate --mechanism wt --workloads spmv,vecadd --size tiny --points 3 --db "$db"
after=$(sigma)
held_out=$(scalar "SELECT sqrt(avg((ln(model_cycles / detailed_cycles)) * (ln(model_cycles / detailed_cycles)))) FROM validations")
awk -v a="$after" -v b="$before" -v h="$held_out" 'BEGIN { exit !(a >= b && a >= h) }' ||
    fail "the band does not cover the held-out error: sigma $before -> $after, held-out RMS log error $held_out"
# The held-out error may be within the fit's own residuals (the band then stays); a copy whose
# validations are off by a factor 2 (RMS log error ln 2, beyond any tiny fit's) must widen it.
cp "$db" "$work/wide.sqlite"
db=$work/wide.sqlite
sqlite3 "$db" "UPDATE validations SET model_cycles = 2 * detailed_cycles" || fail "could not move the validations"
wide=$(sigma)
awk -v a="$wide" -v b="$before" 'BEGIN { exit !(a > b && a >= log(2)) }' ||
    fail "the band did not widen to the held-out error: sigma $before -> $wide, held-out RMS log error ln 2"
db=$work/honest.sqlite

cat >"$work/spot.json" <<'EOF'
{"name": "spot-test", "system": "gtx480", "size": "tiny", "mode": "model",
 "mechanisms": ["wt"], "workloads": ["vecadd", "histogram"],
 "parameters": {"l1.size": {"values": [24576, 49152, 98304]}, "noc.latency": {"range": [2, 20], "count": 3}},
 "design": "grid", "spot_check": {"widest": 2, "outside": true, "max_outside": 1}}
EOF
# noc.latency 2 lies below the calibrated range (the preset's to twice it): points 0, 3 and 6.
runs="SELECT r.mode, count(*) AS n, count(DISTINCT p.point_index) AS points FROM runs r
      JOIN sweep_points p ON p.id = r.sweep_point_id GROUP BY r.mode ORDER BY r.mode"

expect 0 "honest sweep" "$syncscope" sweep "$work/spot.json" --db "$work/honest.sqlite"
expect_output "9 of 9 points, 18 model runs stored"
expect_output "spot checks: 3 points measured (sampled; widest band 2, outside the calibrated region yes), 6 runs, 0 outside"
expect_output "no refit"
db=$work/honest.sqlite
check "model runs, one per point and pair" "SELECT count(*) FROM runs WHERE mode = 'model' AND sweep_point_id IS NOT NULL" 18
check "measured runs, sampled, at 3 points" \
    "SELECT count(*) || '/' || count(DISTINCT sweep_point_id) FROM runs WHERE mode = 'sampled' AND sweep_point_id IS NOT NULL" "6/3"
# The calibration's two random points leave most of the sweep outside its region.
extrapolated=$(grep -o "[0-9]* points of the shard lie outside the calibrated region" "$work/out" | cut -d' ' -f1)
[ -n "$extrapolated" ] && [ "$extrapolated" -gt 0 ] || fail "no point outside the calibrated region: $(cat "$work/out")"
check "the extrapolated point (noc.latency 2 is below the preset's) is among them" \
    "SELECT count(*) FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id WHERE r.mode = 'sampled' AND json_extract(p.params, '$.\"noc.latency\"') = 2" 2
check "every sampled run says whether its estimate has an interval" \
    "SELECT count(*) FROM runs r JOIN metrics m ON m.run_id = r.id AND m.name = 'sample.has_interval' WHERE r.mode = 'sampled'" 6
check "every model run names a stored calibration" \
    "SELECT count(*) FROM runs r JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1 AND m.name = 'calibration_id' JOIN calibrations c ON c.id = m.value WHERE r.mode = 'model' AND r.sweep_point_id IS NOT NULL" 18
expect 0 "db check after the honest sweep" "$syncscope" db check --db "$work/honest.sqlite"

# Run again: every point stored, the chosen points measured already, nothing measured twice.
expect 0 "sweep again" "$syncscope" sweep "$work/spot.json" --db "$work/honest.sqlite"
expect_output "spot checks: 0 points measured"
expect_output "3 chosen points were measured before (6 of their runs compared again)"
check "still 6 measured runs" "SELECT count(*) FROM runs WHERE mode = 'sampled' AND sweep_point_id IS NOT NULL" 6

# Forced disagreement: latency_exposure and the launch overhead moved far from the fit (inside
# their bounds), with no covariance and residuals of 0.1% (a 0.2% band): every measurement falls
# outside its band.
sqlite3 "$work/forced.sqlite" "UPDATE calibrations SET
    params = json_set(params, '$.latency_exposure', 0.3, '$.launch_overhead', 1500),
    covariance = (SELECT json_group_array(0) FROM json_each(covariance)),
    residuals = (SELECT json_group_array(json_set(value, '$.log_error', 0.001)) FROM json_each(residuals))" ||
    fail "could not falsify the calibration"
expect 0 "forced sweep" "$syncscope" sweep "$work/spot.json" --db "$work/forced.sqlite"
expect_output "6 runs, 6 outside their 95% band"
expect_output "REFIT 2 mechanism x workload pair(s), 18 model runs evaluated again"
grep -q "mean cycle error at the spot points [0-9.]*% before, [0-9.]*% after" "$work/out" || fail "no error before/after: $(cat "$work/out")"
before_after=$(grep -o "points [0-9.]*% before, [0-9.]*% after" "$work/out" | tr -dc '0-9. ' | awk '{ print ($1 > $2) }')
[ "$before_after" = 1 ] || fail "the refit did not reduce the error at the spot points: $(cat "$work/out")"
db=$work/forced.sqlite
check "one refit per workload, keyed to it, with the sweep's calibration's points" \
    "SELECT group_concat(workload || ':' || json_extract(workload_params, '$.size') || ':' || (SELECT count(*) FROM json_each(residuals) WHERE json_extract(value, '$.from_calibration') = 1), ' ') FROM (SELECT * FROM calibrations WHERE id > 1 ORDER BY workload)" \
    'histogram:tiny:4 vecadd:tiny:4'
check "the model runs were evaluated again with the refits (one per pair, none left with the falsified one)" \
    "SELECT group_concat(r.workload || ':' || c.workload || ':' || n, ' ') FROM (SELECT r.workload, m.value AS calibration, count(*) AS n FROM runs r JOIN metrics m ON m.run_id = r.id AND m.kernel_index = -1 AND m.name = 'calibration_id' WHERE r.mode = 'model' AND r.sweep_point_id IS NOT NULL GROUP BY r.workload, m.value ORDER BY r.workload) r JOIN calibrations c ON c.id = r.calibration" \
    "histogram:histogram:9 vecadd:vecadd:9"
check "measured runs untouched" "SELECT count(*) FROM runs WHERE mode = 'sampled' AND sweep_point_id IS NOT NULL" 6
expect 0 "db check after the refit" "$syncscope" db check --db "$work/forced.sqlite"
cp "$work/forced.sqlite" "$work/interrupted.sqlite"
expect 0 "a model run of the workload uses its refit" "$syncscope" run --mode model --workload histogram --size tiny --db "$work/forced.sqlite"
expect_output "fitted to this workload's sample windows"

# An evaluation interrupted after its spot measurements, before its refits (made here by removing
# the refits): run again, the sweep compares the measurements stored at the chosen points with the
# sweep's calibration and refits each pair on all of them (3 per pair, 1 chosen point each), not
# only on the points it measures now.
db=$work/interrupted.sqlite
sqlite3 "$db" "DELETE FROM calibrations WHERE id > 1" || fail "could not remove the refits"
expect 0 "sweep after the interruption" "$syncscope" sweep "$work/spot.json" --db "$db"
expect_output "REFIT 2 mechanism x workload pair(s)"
grep -q "(measured before)" "$work/err" || fail "no stored measurement compared again: $(cat "$work/err")"
check "each refit is fitted on the 3 chosen points' measurements, stored before or made now" \
    "SELECT group_concat(workload || ':' || (SELECT count(*) FROM json_each(residuals) WHERE json_type(value, '$.from_calibration') IS NULL), ' ') FROM (SELECT * FROM calibrations WHERE id > 1 ORDER BY workload)" \
    'histogram:3 vecadd:3'
# Run once more: every chosen point's measurements are in the refits now; nothing is refitted.
expect 0 "sweep once more" "$syncscope" sweep "$work/spot.json" --db "$db"
expect_output "(0 of their runs compared again)"
expect_output "no refit"

sed 's/"max_outside": 1/"max_outside": 1, "wide": 2/' "$work/spot.json" >"$work/bad.json"
expect 2 "unknown spot_check field" "$syncscope" sweep "$work/bad.json" --db "$work/bad.sqlite"
expect_error_line "spot_check.wide: unknown field"
sed 's/"mode": "model"/"mode": "detailed"/' "$work/spot.json" >"$work/bad.json"
expect 2 "targeted spot checks in a detailed sweep" "$syncscope" sweep "$work/bad.json" --db "$work/bad.sqlite"
expect_error_line "spot checks where the band is widest are for a model sweep"

[ "$failures" -eq 0 ] && echo "spot_checks: all checks passed"
exit "$((failures > 0))"
