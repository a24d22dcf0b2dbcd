#!/bin/bash
# model_cli.sh — the fast layer end to end at tiny sizes: `calibrate` stores a calibration whose
# residuals name its points; `run --mode model` prints a prediction with an error band and stores
# a 'model' run whose stall rows sum to its cycles; `validate` compares held-out points only (no
# validation point is a calibration point), stores one row per comparison and prints the error
# summary; bad arguments exit 2 and a missing calibration exits 1, each with one error line and
# nothing written.
# Usage: model_cli.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
db="$work/model.sqlite"


study=(--system gtx480 --workloads vecadd,reduction,histogram --size tiny --db "$db")

# Bad usage and missing calibrations write nothing.
expect 2 "calibrate without a mechanism" "$syncscope" calibrate "${study[@]}"
expect_error_line "--mechanism is required"
expect 2 "calibrate an unknown workload" "$syncscope" calibrate --mechanism wt --workloads vecadd,nosuch --db "$db"
expect_error_line "unknown workload"
expect 2 "validate with --points 0" "$syncscope" validate --mechanism wt --points 0 --db "$db"
expect_error_line "--points must be 1..1000"
"$syncscope" db init --db "$db" >/dev/null
runs_before=$(scalar "SELECT count(*) FROM runs")
expect 1 "validate before any calibration" "$syncscope" validate --mechanism nol1 "${study[@]}" --points 2
expect_error_line "no calibration of mechanism nol1 on system gtx480"
expect 1 "model run before any calibration" "$syncscope" run --workload vecadd --mechanism nol1 --mode model --size tiny --db "$db"
expect_error_line "no calibration of mechanism nol1"
[ "$(scalar "SELECT count(*) FROM runs")" = "$runs_before" ] || { echo "FAIL: a refused command wrote runs"; failures=$((failures + 1)); }

# Calibrate, predict, validate.
expect 0 "calibrate wt" "$syncscope" calibrate --mechanism wt "${study[@]}" --points 2
expect_output "calibration 1: mechanism wt, system gtx480, 6 samples"
expect_output "fit: R^2"
[ "$(scalar "SELECT json_array_length(residuals) FROM calibrations WHERE id = 1")" = 6 ] ||
    { echo "FAIL: calibration residuals are not one per sample"; failures=$((failures + 1)); }

expect 0 "model run" "$syncscope" run --workload vecadd --mechanism wt --mode model --size tiny --db "$db" --json
expect_output '"mode":"model"'
expect_output '"cycles_low"'
model_run=$(scalar "SELECT max(id) FROM runs WHERE mode = 'model'")
[ "$(scalar "SELECT abs(sum(s.cycles) - r.cycles) < 1e-6 * r.cycles FROM stalls s JOIN runs r ON r.id = s.run_id WHERE r.id = $model_run")" = 1 ] ||
    { echo "FAIL: the model run's stall rows do not sum to its cycles"; failures=$((failures + 1)); }

expect 0 "validate wt" "$syncscope" validate --mechanism wt "${study[@]}" --points 2
expect_output "2 held-out points x 3 workloads = 6 comparisons"
expect_output "cycles       mean"
[ "$(scalar "SELECT count(*) FROM validations WHERE calibration_id = 1")" = 6 ] ||
    { echo "FAIL: expected 6 validation rows"; failures=$((failures + 1)); }
[ "$(scalar "SELECT count(*) FROM validations v, calibrations c, json_each(c.residuals) e WHERE c.id = v.calibration_id AND json_extract(e.value, '$.point') = v.point_config")" = 0 ] ||
    { echo "FAIL: a validation point was used by the calibration"; failures=$((failures + 1)); }
[ "$(scalar "SELECT count(*) FROM validations v JOIN runs d ON d.id = v.detailed_run_id JOIN runs m ON m.id = v.model_run_id WHERE d.mode = 'detailed' AND m.mode = 'model' AND d.cycles = v.detailed_cycles AND m.cycles = v.model_cycles")" = 6 ] ||
    { echo "FAIL: validation rows do not link their detailed and model runs"; failures=$((failures + 1)); }

"$syncscope" db check --db "$db" >"$work/out" 2>&1 || { echo "FAIL: db check"; cat "$work/out"; failures=$((failures + 1)); }

[ "$failures" -eq 0 ] && echo "model_cli: all checks passed"
exit $((failures > 0))
