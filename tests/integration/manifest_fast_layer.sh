#!/bin/bash
# manifest_fast_layer.sh — a user's manifest workload through the whole fast layer, like a
# built-in one: profile -> calibrate -> model run -> validate -> sweep (model with spot checks,
# detailed, sampled) -> compare -> query, no step refusing it. Its profiles, runs and calibrations are
# keyed by the manifest's content digest: changing one byte of an input file makes the next model
# run take a new profile (the old one is never served) and leaves the calibration fitted on the
# old content unused, and a sweep of it is stored as another sweep.
# Usage: manifest_fast_layer.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
source "$(dirname "$0")/lib/scan_copy.sh"
db="$work/fast.sqlite"
fresh_suite_with_copy "$work/kernels"
scan=$work/kernels/block_scan.json
cd "$work"

# Before any calibration the model run is refused, in one line, and writes nothing.
"$syncscope" db init --db "$db" >/dev/null
expect 1 "model run before any calibration" "$syncscope" run --mode model --workload-file "$scan" --mechanism wt --db "$db"
expect_error_line "no calibration of mechanism wt on system gtx480"
check "runs after a refused model run" "SELECT count(*) FROM runs" 0

# Calibrate wt and nol1 on the manifest with a built-in workload.
for mechanism in wt nol1; do
    expect 0 "calibrate $mechanism" "$syncscope" calibrate --mechanism "$mechanism" --workloads kernels/block_scan.json,vecadd \
        --points 2 --size tiny --db "$db"
    expect_output "samples (2 points x 2 workloads, size tiny)"
done
digest=$(scalar "SELECT json_extract(workload_params, '$.digest') FROM runs WHERE workload = 'fresh_block_scan' LIMIT 1")
[ ${#digest} = 64 ] || fail "the manifest's runs carry no content digest: '$digest'"
check "calibrations keyed by the manifest's digest" \
    "SELECT count(*) FROM calibrations WHERE manifests = json_array('$digest')" 2
check "profiles of the manifest keyed by its digest" \
    "SELECT count(*) = sum(json_extract(workload_params, '$.digest') = '$digest') FROM profiles WHERE workload = 'fresh_block_scan'" 1

# A model run of the manifest uses the calibration fitted on it.
expect 0 "model run of the manifest" "$syncscope" run --mode model --workload-file "$scan" --mechanism wt --db "$db"
expect_output "fresh_block_scan (manifest)"
expect_output "mode model (calibration 1)"
check "the model run's workload parameters" \
    "SELECT workload_params FROM runs WHERE mode = 'model' ORDER BY id DESC LIMIT 1" \
    "\"{\"\"size\"\": \"\"manifest\"\", \"\"seed\"\": 1, \"\"digest\"\": \"\"$digest\"\"}\""

# Validate at held-out points, manifest and built-in alike.
expect 0 "validate wt" "$syncscope" validate --mechanism wt --workloads kernels/block_scan.json,vecadd --points 2 \
    --size tiny --db "$db"
expect_output "2 held-out points x 2 workloads = 4 comparisons"
check "validations of the manifest" "SELECT count(*) FROM validations WHERE workload = 'fresh_block_scan' AND calibration_id = 1" 2

# A model sweep (paths relative to the spec), its spot checks run the manifest in detail.
cat >"$work/sweep.json" <<'SPEC'
{"name": "manifest-sweep", "system": "gtx480", "size": "tiny", "mechanisms": ["wt", "nol1"],
 "workloads": ["kernels/block_scan.json", "vecadd"],
 "parameters": {"l2.size": {"values": [196608, 393216, 786432]}, "dram.channels": {"range": [2, 12], "count": 6}},
 "design": {"lhs": 40}, "seed": 3, "spot_check": 0.1}
SPEC
expect 0 "model sweep" "$syncscope" sweep sweep.json --db "$db" --report "$work/report"
expect_output "40 of 40 points, 160 model runs stored"
expect_output "fresh_block_scan"
check "model runs of the manifest in the sweep, each with its calibration" \
    "SELECT count(*) FROM runs r JOIN metrics m ON m.run_id = r.id AND m.name = 'calibration_id' JOIN calibrations c ON c.id = m.value WHERE r.workload = 'fresh_block_scan' AND r.mode = 'model' AND r.sweep_point_id IS NOT NULL AND c.manifests = json_array('$digest')" 80
check "spot checks of the manifest in detail" \
    "SELECT count(*) > 0 FROM runs WHERE workload = 'fresh_block_scan' AND mode = 'detailed' AND sweep_point_id IS NOT NULL AND status = 'ok'" 1

# A detailed and a sampled sweep of the manifest, and compare with its model step.
sed -e 's/"manifest-sweep"/"manifest-detailed"/' -e 's/"mode"//' -e 's/{"lhs": 40}/{"lhs": 2}/' \
    -e 's/"seed": 3/"mode": "detailed", "seed": 3/' sweep.json >detailed.json
expect 0 "detailed sweep" "$syncscope" sweep detailed.json --db "$db" --report "$work/report"
expect_output "2 of 2 points, 8 detailed runs stored"
sed -e 's/"manifest-detailed"/"manifest-sampled"/' -e 's/"mode": "detailed"/"mode": "sampled"/' detailed.json >sampled.json
expect 0 "sampled sweep" "$syncscope" sweep sampled.json --db "$db" --report "$work/report"
expect_output "2 of 2 points, 8 sampled runs stored"
check "sampled runs of the manifest" \
    "SELECT count(*) FROM runs WHERE workload = 'fresh_block_scan' AND mode = 'sampled' AND status = 'ok'" 4
expect 0 "compare" "$syncscope" compare --workloads kernels/block_scan.json,vecadd --mechanisms wt --size tiny \
    --model-points 1 --report "$work/report" --db "$db"
expect_output "model wt"
expect_output "model sweep compare-gtx480-tiny"
expect_output "0 of 2 runs failed"

# The canned queries see the manifest's model runs.
expect 0 "query best_configs" "$syncscope" query best_configs --param workload=fresh_block_scan --param limit=1 --csv --db "$db"
expect_output "fresh_block_scan"
expect 0 "query model_error" "$syncscope" query model_error --csv --db "$db"

# Content keys: a copy without a reference check, with its own input file. After one byte of the
# input changes, the next model run takes a new profile and no longer uses the calibration fitted
# on the old content, and the same sweep spec is another sweep (its stored points are not reused).
copy_runs() { "$syncscope" run --mode model --workload-file kernels/copy.json --mechanism wt --db "$db"; }
expect 0 "calibrate wt on built-in workloads only" "$syncscope" calibrate --mechanism wt --workloads vecadd --points 1 \
    --size tiny --db "$db"
builtin_only=$(scalar "SELECT max(id) FROM calibrations WHERE manifests IS NULL AND mechanism = 'wt'")
expect 0 "model run of the copy" copy_runs
expect_output "mode model (calibration $builtin_only)"
expect 0 "model run of the copy again" copy_runs
check "profiles of the unchanged copy" "SELECT count(*) FROM profiles WHERE workload = 'scan_copy'" 1
expect 0 "calibrate wt on the copy" "$syncscope" calibrate --mechanism wt --workloads kernels/copy.json --points 1 \
    --size tiny --db "$db"
copy_calibration=$(scalar "SELECT max(id) FROM calibrations")
expect 0 "model run of the copy with its calibration" copy_runs
expect_output "mode model (calibration $copy_calibration)"
sed -e 's/"manifest-sweep"/"copy-sweep"/' -e 's#kernels/block_scan.json#kernels/copy.json#' -e 's/{"lhs": 40}/{"lhs": 5}/' \
    -e 's/"spot_check": 0.1/"spot_check": 0/' -e 's/"wt", "nol1"/"wt"/' sweep.json >copy_sweep.json
expect 0 "sweep of the copy" "$syncscope" sweep copy_sweep.json --db "$db" --report "$work/report"
expect_output "5 of 5 points, 10 model runs stored"
printf '\x07' | dd of=kernels/copy_in.bin bs=1 seek=5 conv=notrunc 2>/dev/null
expect 0 "the same sweep of the changed copy" "$syncscope" sweep copy_sweep.json --db "$db" --report "$work/report"
expect_output "5 of 5 points, 10 model runs stored"
check "sweeps of the copy, one per content" \
    "SELECT count(DISTINCT json_extract(spec, '$.manifest_digests.\"kernels/copy.json\"')) FROM sweeps WHERE name = 'copy-sweep'" 2
expect 0 "model run of the changed copy" copy_runs
expect_output "mode model (calibration $builtin_only)"
check "profiles of the copy, one content before the change and one after" \
    "SELECT count(DISTINCT json_extract(workload_params, '$.digest')) FROM profiles WHERE workload = 'scan_copy'" 2
check "digests of the copy's model runs" \
    "SELECT count(DISTINCT json_extract(workload_params, '$.digest')) FROM runs WHERE workload = 'scan_copy' AND mode = 'model'" 2

# db check counts a stored sweep's workloads without reading its manifests: it passes from any directory.
(cd / && "$syncscope" db check --db "$db") >"$work/out" 2>&1 || { fail "db check"; cat "$work/out"; }
[ "$failures" -eq 0 ] && echo "manifest_fast_layer: all checks passed"
exit $((failures > 0))
