#!/bin/bash
# main_job_queries.sh — issue 4's promise: every canned query returns rows, with its default
# parameters, on a database filled the way the main job (`syncscope compare`, README command 1)
# fills it. Runs compare at --size tiny over the whole suite and every mechanism (detailed runs,
# then the model step: calibration, held-out validation, model sweep), then each queries/*.sql
# by name with no --param; a query that returns no rows fails the test, and so does an export of
# it (same defaults) that writes a different number of rows. Also: the model step's
# lines, --model-points 0 skipping it, a compare without model workloads saying it was skipped,
# and a bad --model-points refused in one line.
# Usage: main_job_queries.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
queries=${SYNCSCOPE_SOURCE_DIR:?set by ctest}/queries
db="$work/main.sqlite"

mechanisms=$("$syncscope" list mechanisms | awk '{print $1}')
mechanism_count=$(echo "$mechanisms" | wc -l)
workload_count=$("$syncscope" list workloads | wc -l)
expect 0 "compare --size tiny" "$syncscope" compare --size tiny --db "$db" --report "$work/report"
for mechanism in $mechanisms; do
    grep -qE "^model $mechanism +calibration [0-9]+ on 2 points x 8 workloads .*16 held-out comparisons: mean \|error\|" \
        "$work/out" || fail "compare printed no model line for $mechanism"
done
expect_output "model sweep compare-gtx480-tiny (id 1): one parameter at a time, 9 points x $mechanism_count mechanisms x 8 workloads = $((9 * mechanism_count * 8)) model runs"
expect_output "0 of $((mechanism_count * workload_count)) runs failed"

count=0
for file in "$queries"/*.sql; do
    name=$(basename "$file" .sql)
    count=$((count + 1))
    expect 0 "query $name" "$syncscope" query "$name" --csv --db "$db"
    rows=$(($(wc -l <"$work/out") - 1))
    [ "$rows" -gt 0 ] || fail "query $name returned no rows on the main job's database"
    # export applies the same defaults, and writes the same rows
    expect 0 "export $name" "$syncscope" export "$name" --out "$work/$name.csv" --db "$db"
    exported=$(($(wc -l <"$work/$name.csv") - 1))
    [ "$exported" -eq "$rows" ] || fail "export $name wrote $exported rows, query printed $rows"
done
[ "$count" -ge 10 ] || fail "only $count canned queries found in $queries"

# The model step's switches: skipped on request, skipped when no compared workload has a model.
expect 0 "compare --model-points 0" "$syncscope" compare --size tiny --workloads vecadd --mechanisms wt \
    --model-points 0 --db "$work/plain.sqlite" --report "$work/report"
grep -q "^model" "$work/out" && fail "--model-points 0 still ran the model step"
expect 0 "compare without model workloads" "$syncscope" compare --size tiny --workloads nn --mechanisms wt \
    --db "$work/plain.sqlite" --report "$work/report"
expect_output "model: skipped: no compared workload is one the models cover"
expect 2 "compare --model-points lots" "$syncscope" compare --model-points lots --db "$work/plain.sqlite"
expect_error_line "model-points"

[ "$failures" -eq 0 ] && echo "main_job_queries: all checks passed"
exit "$((failures > 0))"
