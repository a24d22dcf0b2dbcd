#!/bin/bash
# calibrate_windows.sh — per-workload calibration on sample windows (`calibrate --workload W
# --windows`): refused in one line (exit 2) before a suite-wide calibration exists; then fitted
# from sampled runs at the design's 8 corners, stored keyed to the workload (a manifest by its
# content digest, a built-in workload by its size) and used by run --mode model, a model sweep
# and validate of exactly that workload, while another size, another workload and a manifest
# whose input changed by one byte get the suite-wide calibration.
# Usage: calibrate_windows.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
source "$(dirname "$0")/lib/scan_copy.sh"
db="$work/windows.sqlite"
fresh_suite_with_copy "$work/kernels"
cd "$work"
copy=$work/kernels/copy.json
"$syncscope" db init --db "$db" >/dev/null

# No suite-wide calibration to use as the prior: one line naming the command, exit 2, nothing stored.
expect 2 "windows before a suite-wide calibration" "$syncscope" calibrate --mechanism wt --workload vecadd --windows \
    --points 0 --size tiny --db "$db"
expect_error_line "run syncscope calibrate --mechanism wt --system gtx480 first"
check "runs after the refusal" "SELECT count(*) FROM runs" 0
expect 2 "windows of two workloads" "$syncscope" calibrate --mechanism wt --workloads vecadd,spmv --windows --db "$db"
expect_error_line "--windows fits one workload"

expect 0 "suite-wide calibration" "$syncscope" calibrate --mechanism wt --workloads vecadd,spmv --points 1 --size tiny \
    --db "$db"
suite=$(scalar "SELECT max(id) FROM calibrations")

# A manifest's own fit: 8 sampled runs (the corners), keyed by its content digest.
expect 0 "windows of the manifest" "$syncscope" calibrate --mechanism wt --workload kernels/copy.json --windows \
    --points 0 --db "$db"
expect_output "workload scan_copy (size manifest), 8 sampled runs (8 corners + 0 Latin-hypercube points), prior: calibration $suite"
expect_output "of warp instructions simulated in detail"
own_manifest=$(scalar "SELECT max(id) FROM calibrations")
digest=$(scalar "SELECT json_extract(workload_params, '$.digest') FROM runs WHERE workload = 'scan_copy' LIMIT 1")
[ ${#digest} = 64 ] || fail "the manifest's runs carry no content digest: '$digest'"
check "the manifest's fit keyed to it" \
    "SELECT workload || ' ' || json_extract(workload_params, '$.digest') FROM calibrations WHERE id = $own_manifest" \
    "scan_copy $digest"
check "its samples are sampled runs" \
    "SELECT count(*) FROM runs WHERE workload = 'scan_copy' AND mode = 'sampled'" 8
check "its residuals name sampled runs" \
    "SELECT count(*) FROM calibrations, json_each(residuals) r JOIN runs ON runs.id = json_extract(r.value, '$.detailed_run_id') WHERE calibrations.id = $own_manifest AND runs.mode = 'sampled'" 8

expect 0 "model run of the manifest" "$syncscope" run --mode model --workload-file "$copy" --mechanism wt --db "$db"
expect_output "mode model (calibration $own_manifest) fitted to this workload's sample windows"
check "the model run stores the calibration it used" \
    "SELECT value FROM metrics WHERE name = 'calibration_id' AND run_id = (SELECT max(id) FROM runs WHERE mode = 'model')" \
    "$own_manifest.0"

# A built-in workload's own fit serves that workload at that size only.
expect 0 "windows of vecadd" "$syncscope" calibrate --mechanism wt --workload vecadd --windows --points 0 --size tiny \
    --db "$db"
own_vecadd=$(scalar "SELECT max(id) FROM calibrations")
check "vecadd's fit keyed to it and its size" \
    "SELECT workload || ' ' || json_extract(workload_params, '$.size') FROM calibrations WHERE id = $own_vecadd" \
    "vecadd tiny"
expect 0 "model run of vecadd tiny" "$syncscope" run --mode model --workload vecadd --size tiny --mechanism wt --db "$db"
expect_output "mode model (calibration $own_vecadd) fitted to this workload's sample windows"
expect 0 "model run of vecadd small" "$syncscope" run --mode model --workload vecadd --size small --mechanism wt --db "$db"
expect_output "mode model (calibration $suite) suite-wide"
expect 0 "model run of spmv tiny" "$syncscope" run --mode model --workload spmv --size tiny --mechanism wt --db "$db"
expect_output "mode model (calibration $suite) suite-wide"

# A model sweep of vecadd tiny and spmv tiny: each workload with the calibration it is modelled with.
cat >"$work/sweep.json" <<'SPEC'
{"name": "windows-sweep", "system": "gtx480", "size": "tiny", "mechanisms": ["wt"], "workloads": ["vecadd", "spmv"],
 "parameters": {"l2.size": {"values": [196608, 786432]}}, "design": "grid", "seed": 1}
SPEC
expect 0 "model sweep" "$syncscope" sweep sweep.json --db "$db"
check "the sweep's calibrations" \
    "SELECT group_concat(workload || '=' || calibration, ' ') FROM (SELECT DISTINCT r.workload AS workload, CAST(m.value AS INTEGER) AS calibration FROM runs r JOIN metrics m ON m.run_id = r.id AND m.name = 'calibration_id' WHERE r.sweep_point_id IS NOT NULL ORDER BY r.workload)" \
    "spmv=$suite vecadd=$own_vecadd"

# validate of vecadd tiny: its own fit and, at the same detailed runs, the suite-wide one.
expect 0 "validate vecadd" "$syncscope" validate --mechanism wt --workloads vecadd --points 1 --size tiny --db "$db"
expect_output "validation of the per-workload calibrations (1 of 1 comparisons"
expect_output "the suite-wide calibration $suite at the same detailed runs:"
check "validations of both calibrations at one detailed run" \
    "SELECT group_concat(calibration_id, ' ') || ' ' || count(DISTINCT detailed_run_id) FROM (SELECT calibration_id, detailed_run_id FROM validations ORDER BY calibration_id)" \
    "$suite $own_vecadd 1"

# One byte of the manifest's input changed: its own fit is never served to the new content.
printf '\x07' | dd of=kernels/copy_in.bin bs=1 seek=5 conv=notrunc 2>/dev/null
expect 0 "model run of the changed manifest" "$syncscope" run --mode model --workload-file "$copy" --mechanism wt --db "$db"
expect_output "mode model (calibration $suite) suite-wide"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "calibrate_windows: all checks passed"
