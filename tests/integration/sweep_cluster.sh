#!/bin/bash
# sweep_cluster.sh — the README's recipe for a sharded model sweep, run as written: it reads the
# recipe's code block from README.md, runs step 2b (GNU parallel, 8 shards, each given the
# calibrations with --calibration), step 2a (the sbatch array job, on a single-node Slurm the test
# starts; without root or Slurm, outside CI, its job script in a shell loop) and step 3 (merge,
# report) verbatim. Step 1
# calibrates with --points 1 --size tiny here, for time. Both ways, the merged database must hold
# one copy of each calibration the shards used, model runs whose calibration_id names it, and the
# same model runs as the unsharded sweep; db check finds nothing.
# Usage: sweep_cluster.sh PATH/TO/syncscope
set -u
syncscope=$1
command -v parallel >/dev/null || { echo "sweep_cluster: GNU parallel is not installed (scripts/install-deps.sh)"; exit 77; }
work=$(mktemp -d)
trap 'slurm_stop; rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
source "$(dirname "$0")/lib/slurm_single_node.sh"
source_dir=${SYNCSCOPE_SOURCE_DIR:-$(dirname "$0")/../..}
# The recipe's code block: from its step 1 comment to the closing fence.
recipe=$(awk '/^# 1\. once: calibrate every mechanism the sweep models/ { on = 1 } on && /^```/ { exit } on' \
    "$source_dir/README.md")
step() { # step PREFIX: the recipe's line that starts with PREFIX
    printf '%s\n' "$recipe" | grep -m1 "^$1"
}
parallel_line=$(step "parallel ")
sbatch_line=$(step "sbatch ")
slurm_script=$(printf '%s\n' "$sbatch_line" | sed -n "s/^sbatch .*--wrap '\(.*\)'$/\1/p")
merge_line=$(step "syncscope merge ")
report_line=$(step "syncscope sweep S.json --report-only")
for line in parallel_line sbatch_line slurm_script merge_line report_line; do
    [ -n "${!line}" ] || { echo "FAIL: README.md's sharded sweep recipe has no $line"; exit 1; }
done

# `syncscope` on PATH is the binary under test; the spec models a manifest and a built-in workload.
mkdir -p "$work/bin" "$work/parallel" "$work/slurm"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$syncscope" >"$work/bin/syncscope"
chmod +x "$work/bin/syncscope"
export PATH="$work/bin:$PATH" HOME="$work"
cp -r "$source_dir/tests/data/manifests/fresh" "$work/kernels"
cat >"$work/S.json" <<'SPEC'
{"name": "cluster", "system": "gtx480", "size": "tiny", "mechanisms": ["wt", "nol1"],
 "workloads": ["kernels/block_scan.json", "vecadd"],
 "parameters": {"l2.size": {"values": [196608, 393216, 786432]}, "dram.channels": {"range": [2, 12], "count": 6}},
 "design": {"lhs": 60}, "seed": 5, "spot_check": 0}
SPEC
cd "$work"
for mechanism in wt nol1; do
    expect 0 "calibrate $mechanism" syncscope calibrate --mechanism "$mechanism" --workloads kernels/block_scan.json,vecadd \
        --points 1 --size tiny --db cal.sqlite
done
expect 1 "--calibration naming no database" syncscope sweep S.json --db refused.sqlite --calibration nosuch.sqlite
expect_error_line "nosuch.sqlite"
sed 's/"spot_check": 0/"mode": "detailed"/' S.json >detailed.json
expect 2 "--calibration for a detailed sweep" syncscope sweep detailed.json --db refused.sqlite --calibration cal.sqlite
expect_error_line "--calibration is for a model sweep; detailed.json is a detailed sweep"
[ ! -e refused.sqlite ] || fail "a refused sweep created its database"
expect 0 "unsharded sweep" syncscope sweep S.json --db single.sqlite --calibration cal.sqlite
expect_output "60 of 60 points, 240 model runs stored"

# check_merged DIRECTORY: its all.sqlite against the unsharded sweep.
check_merged() {
    local db="$1/all.sqlite"
    [ "$(sql "$db" "SELECT count(*) FROM calibrations" | tail -1)" = 2 ] ||
        fail "$1: the merged database holds $(sql "$db" "SELECT count(*) FROM calibrations" | tail -1) calibrations, expected one copy of each of 2"
    [ "$(sql "$db" "SELECT count(*) FROM runs r JOIN metrics m ON m.run_id = r.id AND m.name = 'calibration_id' JOIN calibrations c ON c.id = m.value AND c.mechanism = r.mechanism WHERE r.mode = 'model'" | tail -1)" = 240 ] ||
        fail "$1: not every model run's calibration_id names its mechanism's calibration"
    local query="SELECT p.point_index, r.mechanism, r.workload, r.workload_params, r.cycles FROM runs r JOIN sweep_points p ON p.id = r.sweep_point_id ORDER BY 1, 2, 3"
    sql "$db" "$query" >"$1/merged.csv"
    sql single.sqlite "$query" >"$1/single.csv"
    cmp -s "$1/merged.csv" "$1/single.csv" || fail "$1: the merged model runs differ from the unsharded sweep's"
    [ "$(wc -l <"$1/merged.csv")" = 241 ] || fail "$1: expected 240 model runs"
    syncscope db check --db "$db" >"$work/out" 2>&1 || { fail "$1: db check"; cat "$work/out"; }
}

# GNU parallel (step 2b), then merge and report (step 3), as written, in their own directory.
cp S.json cal.sqlite parallel/ && cp -r kernels parallel/
(cd parallel && eval "$parallel_line") >"$work/out" 2>&1 || { fail "step 2b failed"; cat "$work/out"; }
[ "$(ls parallel/shard*.sqlite | wc -l)" = 8 ] || fail "step 2b did not leave 8 shard databases"
(cd parallel && eval "$merge_line" && eval "$report_line") >"$work/out" 2>&1 || { fail "step 3 failed"; cat "$work/out"; }
expect_output "merged 8 databases into all.sqlite"
expect_output "240 of 240 model runs found"
check_merged parallel

# Slurm (step 2a), then step 3. The sbatch line runs as written on a single-node Slurm this test
# starts (root, slurm-wlm and munge installed; CI installs them and requires it); elsewhere the
# job script runs once per array index with SLURM_ARRAY_TASK_ID set, in a shell loop.
cp S.json cal.sqlite slurm/ && cp -r kernels slurm/
if slurm_start "$work/cluster"; then
    (cd slurm && eval "$sbatch_line") >"$work/out" 2>&1 || { fail "step 2a: sbatch failed"; cat "$work/out"; }
    job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$work/out")
    if [ -n "$job" ]; then
        slurm_wait "$job" 300 >"$work/tasks" || fail "step 2a: job $job still queued after 300 s"
        [ "$(grep -c "JobState=COMPLETED ExitCode=0:0" "$work/tasks")" = 8 ] ||
            { fail "step 2a: not all 8 array tasks completed with exit 0"; cat "$work/tasks" slurm/slurm-*.out; }
        echo "sweep_cluster: step 2a ran under Slurm (job $job, 8 array tasks)"
    else
        fail "step 2a: sbatch printed no job id"
    fi
    slurm_stop
elif [ "${CI:-}" = true ]; then
    fail "step 2a: CI runs it under Slurm, but Slurm did not start: $slurm_unavailable"
else
    echo "sweep_cluster: step 2a's job script in a shell loop (Slurm unavailable: $slurm_unavailable)"
    for task in 1 2 3 4 5 6 7 8; do
        (cd slurm && SLURM_ARRAY_TASK_ID=$task sh -c "$slurm_script") >"$work/out" 2>&1 ||
            { fail "step 2a's job script failed for task $task"; cat "$work/out"; }
    done
fi
(cd slurm && eval "$merge_line" && eval "$report_line") >"$work/out" 2>&1 || { fail "step 3 failed"; cat "$work/out"; }
check_merged slurm

[ "$failures" -eq 0 ] && echo "sweep_cluster: all checks passed"
exit $((failures > 0))
