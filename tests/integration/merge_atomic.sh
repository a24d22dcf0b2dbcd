#!/bin/bash
# merge_atomic.sh — `syncscope merge` is atomic and idempotent (issue 27, item 4): an input given
# twice, or merged again, adds none of its runs a second time (nor their kernels, metrics and
# stall rows) and the summary line counts the runs already there; a bad input or the output
# among the inputs fails the merge before anything is written, leaving the output byte for byte
# as it was (or not created), so the natural retry merges everything exactly once.
# Usage: merge_atomic.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

rows() { # rows DATABASE: "runs kernels metrics stalls" counts
    sql "$1" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM kernels) || ' ' ||
              (SELECT count(*) FROM metrics) || ' ' || (SELECT count(*) FROM stalls) AS counts" | tail -1
}

s1="$work/s1.sqlite" s2="$work/s2.sqlite"
expect 0 "s1: detailed run" "$syncscope" run --workload vecadd --size tiny --mode detailed --db "$s1"
expect 0 "s1: functional run" "$syncscope" run --workload histogram --size tiny --db "$s1"
expect 0 "s2: detailed run" "$syncscope" run --workload vecadd --size tiny --mode detailed --mechanism nol1 --db "$s2"
s1_rows=$(rows "$s1")
s2_runs=$(rows "$s2" | cut -d' ' -f1)

expect 0 "merge all s1 s1" "$syncscope" merge "$work/all.sqlite" "$s1" "$s1"
expect_output "merged 2 databases into $work/all.sqlite: 2 runs added, 2 already there (not added again)"
[ "$(rows "$work/all.sqlite")" = "$s1_rows" ] || fail "s1 given twice: $(rows "$work/all.sqlite") rows, s1 has $s1_rows"
expect 0 "merge all s1, again" "$syncscope" merge "$work/all.sqlite" "$s1"
expect_output "0 runs added, 2 already there (not added again)"
[ "$(rows "$work/all.sqlite")" = "$s1_rows" ] || fail "s1 merged again: $(rows "$work/all.sqlite") rows, s1 has $s1_rows"
expect 0 "db check of the merged database" "$syncscope" db check --db "$work/all.sqlite"

head -c 8192 /dev/urandom >"$work/bad.sqlite"
expect 1 "merge part s1 bad" "$syncscope" merge "$work/part.sqlite" "$s1" "$work/bad.sqlite"
expect_error_line "not a syncscope database"
[ ! -e "$work/part.sqlite" ] || fail "a merge that failed created its output"
expect 0 "the retry: merge part s1" "$syncscope" merge "$work/part.sqlite" "$s1"
[ "$(rows "$work/part.sqlite")" = "$s1_rows" ] || fail "the retry: $(rows "$work/part.sqlite") rows, s1 has $s1_rows"

expect 0 "merge out s1" "$syncscope" merge "$work/out.sqlite" "$s1"
cp "$work/out.sqlite" "$work/out.before"
expect 1 "merge out s2 out" "$syncscope" merge "$work/out.sqlite" "$s2" "$work/out.sqlite"
expect_error_line "cannot merge a database into itself"
cmp -s "$work/out.sqlite" "$work/out.before" || fail "the refused merge changed the output"
[ "$(rows "$work/out.sqlite")" = "$s1_rows" ] || fail "the refused merge: $(rows "$work/out.sqlite") rows, expected $s1_rows"
expect 1 "merge out s2 missing" "$syncscope" merge "$work/out.sqlite" "$s2" "$work/missing.sqlite"
expect_error_line "no such database"
cmp -s "$work/out.sqlite" "$work/out.before" || fail "the merge with a missing input changed the output"

expect 0 "merge out s1 s2" "$syncscope" merge "$work/out.sqlite" "$s1" "$s2"
expect_output "$s2_runs run added, 2 already there (not added again)"
[ "$(rows "$work/out.sqlite" | cut -d' ' -f1)" = $((2 + s2_runs)) ] || fail "s1+s2: $(rows "$work/out.sqlite") rows"
expect 0 "db check of s1+s2" "$syncscope" db check --db "$work/out.sqlite"

[ "$failures" -eq 0 ] && echo "merge_atomic: all checks passed"
exit $((failures > 0))
