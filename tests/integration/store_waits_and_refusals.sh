#!/bin/bash
# store_waits_and_refusals.sh — a finished run that finds another writer holding the database lock
# longer than the usual 10 s busy timeout waits (saying so once on stderr) and is stored instead of
# being thrown away; `export` and `stalls` refuse a database of a newer schema in one line, as
# every other command does, and a foreign SQLite file.
# Usage: store_waits_and_refusals.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"
command -v sqlite3 >/dev/null || fail "this test needs the sqlite3 shell (to hold a lock, to write a newer schema)"

expect 0 "db init" "$syncscope" db init --db "$work/lock.sqlite"
# Another writer holds the write lock for 13 s while a run finishes.
(echo "BEGIN IMMEDIATE; INSERT INTO sweeps (name, spec) VALUES ('holder', '{}');"; sleep 13; echo "ROLLBACK;") |
    sqlite3 "$work/lock.sqlite" &
holder=$!
sleep 1
expect 0 "a run waiting 12 s for the lock" "$syncscope" run --workload vecadd --size tiny --mode detailed --db "$work/lock.sqlite"
expect_output "stored as run"
grep -qF "another writer holds the database lock; waiting up to" "$work/err" || fail "the wait was not announced: $(cat "$work/err")"
wait "$holder"
[ "$(sql "$work/lock.sqlite" 'SELECT count(*) AS n FROM runs' | tail -1)" = 1 ] || fail "the finished run was not stored"

# A newer schema, and a foreign SQLite file.
cp "$work/lock.sqlite" "$work/newer.sqlite"
sqlite3 "$work/newer.sqlite" "PRAGMA user_version = 99" || fail "cannot set the schema version"
sqlite3 "$work/foreign.sqlite" "CREATE TABLE t (x)" || fail "cannot create a foreign database"
for db in newer foreign; do
    [ "$db" = newer ] && text="newer.sqlite: schema version 99 is newer than this syncscope understands" ||
        text="foreign.sqlite: not a syncscope database"
    expect 1 "export from a $db database" "$syncscope" export run_summary --db "$work/$db.sqlite" --out "$work/x.csv"
    expect_error_line "$text"
    [ ! -e "$work/x.csv" ] || fail "export wrote from a $db database"
    expect 1 "stalls from a $db database" "$syncscope" stalls 1 --db "$work/$db.sqlite"
    expect_error_line "$text"
done

[ "$failures" -eq 0 ] && echo "store_waits_and_refusals: all checks passed"
exit "$((failures > 0))"
