#!/bin/bash
# cli_conventions.sh — the conventions every command shares (issue 26, item 6): exit status 0 ok,
# 1 a run, check or operation failed, 2 bad usage or input (an unknown preset and an unknown
# workload alike); `syncscope help CMD` is `syncscope CMD --help` for every command; the short
# options mean their long ones; sizes take KiB = KB = kB; query --json is JSON (inf as null) and
# query --csv is byte for byte export's CSV; progress lines go to stderr, never stdout.
# Usage: cli_conventions.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
db="$work/runs.sqlite"

# Exit status 2: bad usage or input, each in one line.
expect 2 "unknown preset" "$syncscope" run --system nosuch --workload vecadd --no-db
expect_error_line "unknown system preset 'nosuch'"
expect 2 "unknown workload" "$syncscope" run --workload nosuch --no-db
expect_error_line "unknown workload"
expect 2 "unknown mechanism" "$syncscope" run --workload vecadd --mechanism nosuch --no-db
expect_error_line "unknown mechanism"
expect 2 "unknown key" "$syncscope" run --workload vecadd --set l1.sise=4KiB --no-db
expect_error_line "unknown key 'l1.sise'"
expect 2 "bad size" "$syncscope" run --workload vecadd --set l1.size=lots --no-db
expect_error_line "not a size"
expect 2 "impossible cache geometry" "$syncscope" run --workload vecadd --mode detailed --set l2.size=5KiB --no-db
expect_error_line "l2.size: 5120 bytes does not split over l2.banks (6) into banks that are multiples of l2.associativity x line size (8 x 128)"
expect 2 "impossible L1 geometry" "$syncscope" run --workload vecadd --mode detailed --set l1.size=16KiB --no-db
expect_error_line "l1.size: 16384 bytes is not a multiple of l1.associativity x line size (6 x 128)"
expect 2 "unknown option" "$syncscope" run --bogus
expect_error_line "option '--bogus' is unknown"
expect 2 "missing value" "$syncscope" run -w
expect_error_line "option '-w' needs a value"
expect 2 "unknown command" "$syncscope" nosuch
expect_error_line "unknown command 'nosuch'"
expect 2 "unknown preset (compare)" "$syncscope" compare --system nosuch --db "$db"
expect 2 "unknown workload (compare)" "$syncscope" compare --workloads nosuch --db "$db"
expect 2 "unknown preset (config)" "$syncscope" config show -s nosuch
expect 2 "unknown query" "$syncscope" query nosuch --db "$db"
expect 2 "missing sweep spec" "$syncscope" sweep "$work/none.json" --db "$db"

# Exit status 0, then 1 for an operation that fails on good input.
expect 0 "a run" "$syncscope" run -w vecadd -m wt -z tiny -d "$db"
expect 1 "a missing run" "$syncscope" show 99 -d "$db"
expect_error_line "no run 99"
printf 'DELETE FROM runs;\n' >"$work/delete.sql"
expect 1 "a query that writes" "$syncscope" query "$work/delete.sql" -d "$db"

# help CMD prints CMD --help, for every command syncscope --help lists.
commands=$("$syncscope" --help | awk '/^  [a-z]+ / {print $1}')
[ "$(echo "$commands" | wc -l)" -ge 15 ] || fail "syncscope --help lists too few commands"
for command in $commands; do
    "$syncscope" help "$command" >"$work/help" 2>&1 || fail "help $command exits non-zero"
    "$syncscope" "$command" --help >"$work/dash" 2>&1 || fail "$command --help exits non-zero"
    cmp -s "$work/help" "$work/dash" || fail "help $command differs from $command --help"
    grep -q "usage: syncscope $command" "$work/help" || fail "help $command is not $command's usage"
done

# Short options and size spellings: one configuration however it is written.
expected=$("$syncscope" config show --system gsi --set l1.size=16384 --hash)
for spelling in "-s gsi -D l1.size=16KiB" "-s gsi -D l1.size=16KB" "--system=gsi --set=l1.size=16kB" "-sgsi -Dl1.size=16K"; do
    # shellcheck disable=SC2086
    got=$("$syncscope" config show $spelling --hash)
    [ "$got" = "$expected" ] || fail "config show $spelling --hash gave $got, expected $expected"
done

# query --json is JSON with inf as null; query --csv is export's CSV, byte for byte.
printf 'SELECT 1e999 AS big, 0.1 + 0.2 AS sum, 2.0 AS whole, NULL AS missing, %s AS text;\n' "'a,\"b'" >"$work/values.sql"
expect 0 "query --json" "$syncscope" query "$work/values.sql" --json -d "$db"
python3 -c 'import json, sys
row = json.load(open(sys.argv[1]))[0]
assert row == {"big": None, "sum": 0.30000000000000004, "whole": 2.0, "missing": None, "text": "a,\"b"}, row' "$work/out" ||
    fail "query --json is not the expected JSON"
expect 0 "query --csv" "$syncscope" query "$work/values.sql" --csv -d "$db"
cp "$work/out" "$work/query.csv"
expect 0 "export csv" "$syncscope" export "$work/values.sql" -o "$work/export.csv" -d "$db"
cmp -s "$work/query.csv" "$work/export.csv" || fail "query --csv and export --format csv differ"
printf 'big,sum,whole,missing,text\ninf,0.30000000000000004,2.0,,"a,""b"\n' | cmp -s - "$work/query.csv" ||
    { fail "query --csv is not the expected CSV:"; cat "$work/query.csv"; }

# Progress lines with counts and the time left go to stderr only.
printf '{"name": "progress", "system": "gtx480", "size": "tiny", "mode": "detailed", "mechanisms": ["wt"],
 "workloads": ["vecadd"], "parameters": {"l1.size": {"values": ["24KiB", "48KB"]}}, "design": "grid"}\n' \
    >"$work/sweep.json"
SYNCSCOPE_PROGRESS=1 "$syncscope" sweep "$work/sweep.json" -d "$db" -r "$work/report" >"$work/out" 2>"$work/err" ||
    fail "sweep with units in its spec failed: $(cat "$work/err")"
grep -qE '^sweep progress: 2/2 points \(100%\), [0-9]+:[0-9]{2} elapsed, about [0-9]+:[0-9]{2} left$' "$work/err" ||
    { fail "sweep wrote no progress line to stderr:"; cat "$work/err"; }
grep -q "points (" "$work/out" && fail "a progress line went to stdout"
SYNCSCOPE_PROGRESS=0 "$syncscope" sweep "$work/sweep.json" -d "$work/again.sqlite" -r "$work/report" >/dev/null 2>"$work/err"
[ -s "$work/err" ] && { fail "SYNCSCOPE_PROGRESS=0 still wrote:"; cat "$work/err"; }

[ "$failures" -eq 0 ] && echo "cli_conventions: all checks passed"
exit $((failures > 0))
