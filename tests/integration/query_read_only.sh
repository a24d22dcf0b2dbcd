#!/bin/bash
# query_read_only.sh — `syncscope query FILE.sql` only reads (issue 27, item 1): a file that would
# delete or change rows, drop a table, set a PRAGMA (user_version, journal_mode), checkpoint,
# attach a database or VACUUM (INTO a copy) is refused in one line naming the statement, exit 1,
# and leaves the database byte for byte as it was, no file created; what reads (plain SELECTs,
# the PRAGMAs that only report, canned queries, --param values bound as values) still works.
# Usage: query_read_only.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

db="$work/results.sqlite"
expect 0 "a functional run" "$syncscope" run --workload vecadd --size tiny --db "$db"
expect 0 "a detailed run" "$syncscope" run --workload vecadd --size tiny --mode detailed --db "$db"
cp "$db" "$work/before.sqlite"

refused() { # refused SQL: the query file holding SQL is refused naming it (its first 40
    # characters), nothing changes; a change is undone so that each statement is tried alone
    printf '%s\n' "-- changes: what this test must not let through" "$1" >"$work/change.sql"
    expect 1 "query '$1'" "$syncscope" query "$work/change.sql" --db "$db"
    expect_error_line "refused \"${1:0:40}"
    grep -qF "a query may only read the database" "$work/err" || fail "'$1': the refusal does not say why"
    if ! cmp -s "$db" "$work/before.sqlite" || [ -s "$db-wal" ]; then
        fail "'$1' changed the database"
        rm -f "$db-wal" "$db-shm"
        cp "$work/before.sqlite" "$db"
    fi
}
refused "DELETE FROM runs"
refused "UPDATE runs SET cycles = 0"
refused "INSERT INTO sweeps (name, spec) VALUES ('x', '{}')"
refused "DROP TABLE stalls"
refused "CREATE TABLE extra (a)"
refused "PRAGMA user_version = 99"
refused "PRAGMA journal_mode = DELETE"
refused "PRAGMA wal_checkpoint(TRUNCATE)"
refused "ATTACH DATABASE '$work/attached.sqlite' AS other"
refused "VACUUM INTO '$work/copy.sqlite'"
refused "VACUUM"
refused "BEGIN IMMEDIATE"
for made in attached.sqlite copy.sqlite; do
    [ ! -e "$work/$made" ] || fail "a refused query created $made"
done

expect 0 "db check after the refused queries" "$syncscope" db check --db "$db"
expect_output "0 problems"
[ "$(sql "$db" 'SELECT count(*) AS n FROM runs' | tail -1)" = 2 ] || fail "the runs did not survive"
[ "$(sql "$db" 'PRAGMA user_version' | tail -1)" = "$(sql "$work/before.sqlite" 'PRAGMA user_version' | tail -1)" ] ||
    fail "the schema version changed"
[ "$(od -An -tu1 -j18 -N2 "$db" | tr -s ' ')" = " 2 2" ] || fail "the database left WAL mode"

# Reading still works: a SELECT over a table-valued PRAGMA, a reporting PRAGMA, a canned query.
printf '%s\n' "SELECT count(*) AS columns FROM pragma_table_info('runs')" >"$work/columns.sql"
expect 0 "pragma_table_info" "$syncscope" query "$work/columns.sql" --db "$db" --csv
expect_output "20"
printf '%s\n' "PRAGMA integrity_check" >"$work/integrity.sql"
expect 0 "PRAGMA integrity_check" "$syncscope" query "$work/integrity.sql" --db "$db" --csv
expect_output "ok"
expect 0 "canned query" "$syncscope" query run_summary --db "$db"
expect_output "(2 rows)"
# --param values are bound as values, never spliced into the SQL.
printf '%s\n' "-- own: runs of one workload" "-- :workload  workload name" \
    "SELECT count(*) AS n FROM runs WHERE workload = :workload" >"$work/own.sql"
expect 0 "bound parameter" "$syncscope" query "$work/own.sql" --param workload=vecadd --db "$db" --csv
[ "$(tail -1 "$work/out")" = 2 ] || fail "--param workload=vecadd: $(cat "$work/out")"
expect 0 "a parameter holding SQL" "$syncscope" query "$work/own.sql" --param "workload=x'; DELETE FROM runs; --" \
    --db "$db" --csv
[ "$(tail -1 "$work/out")" = 0 ] || fail "a parameter holding SQL: $(cat "$work/out")"
cmp -s "$db" "$work/before.sqlite" || fail "reading changed the database file"

[ "$failures" -eq 0 ] && echo "query_read_only: all checks passed"
exit $((failures > 0))
