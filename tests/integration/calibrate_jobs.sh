#!/bin/bash
# calibrate_jobs.sh — `calibrate` and `validate` take their samples' runs and profiles on --jobs
# threads and store them in the order of the points: a suite-wide calibration, a per-workload fit
# on sample windows (its 8 corners share profiles: a profile taken by one job is stored once and
# read back for the later points that need it) and a validation leave databases whose dumps
# (scripts/store_dump.sh: every run, metric, stall row, profile and fit, without times and
# versions) are identical for --jobs 1, 2 and 5; --jobs 0 is refused in one line.
# Usage: calibrate_jobs.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

expect 2 "--jobs 0" "$syncscope" calibrate --mechanism wt --jobs 0 --db "$work/refused.sqlite"
expect_error_line "--jobs must be 1..256, not 0"

for jobs in 1 2 5; do
    db="$work/jobs$jobs.sqlite"
    expect 0 "suite-wide calibration, --jobs $jobs" "$syncscope" calibrate --mechanism wt --workloads vecadd,spmv \
        --points 2 --size tiny --jobs "$jobs" --db "$db"
    expect 0 "windows of vecadd, --jobs $jobs" "$syncscope" calibrate --mechanism wt --workload vecadd --windows \
        --points 1 --size tiny --jobs "$jobs" --db "$db"
    expect 0 "validation, --jobs $jobs" "$syncscope" validate --mechanism wt --workloads vecadd,spmv --points 2 \
        --size tiny --jobs "$jobs" --db "$db"
    bash "$root/scripts/store_dump.sh" "$db" >"$work/dump$jobs.txt"
done
db="$work/jobs1.sqlite"
sampled=$(scalar "SELECT count(*) FROM runs WHERE workload = 'vecadd' AND mode = 'sampled'")
[ "$sampled" = 9 ] || fail "expected 9 sampled runs of vecadd (8 corners + 1 point), got $sampled"
runs=$(scalar "SELECT count(*) FROM runs WHERE workload = 'vecadd' AND mode <> 'model'")
profiles=$(scalar "SELECT count(*) FROM profiles WHERE workload = 'vecadd'")
[ "$profiles" -lt "$runs" ] || fail "expected points sharing profiles: $profiles profiles for $runs runs of vecadd"
[ "$(scalar "SELECT count(*) FROM validations")" -gt 0 ] || fail "the validation stored no rows"
for jobs in 2 5; do
    cmp -s "$work/dump1.txt" "$work/dump$jobs.txt" ||
        { fail "--jobs $jobs stored other rows than --jobs 1:"; diff "$work/dump1.txt" "$work/dump$jobs.txt" | head -20; }
done
[ "$(wc -l <"$work/dump1.txt")" -gt 1000 ] || fail "the dump is too short to compare: $(wc -l <"$work/dump1.txt") lines"

[ "$failures" -eq 0 ] && echo "calibrate_jobs: ok" || { echo "calibrate_jobs: $failures failures"; exit 1; }
