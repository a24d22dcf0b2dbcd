#!/bin/bash
# config_and_store_cli.sh — the config, query, show, db and merge subcommands end to end:
# exit codes (0 ok, 1 failure, 2 bad usage), one-line errors, and files left untouched.
# Usage: config_and_store_cli.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"


for command in config query show db merge; do
    expect 0 "$command --help" "$syncscope" "$command" --help
done

expect 0 "config show" "$syncscope" config show --system qr-apu --set l1.size=32KiB
grep -q '"size": 32768' "$work/out" || { echo "FAIL: --set l1.size=32KiB not applied"; failures=$((failures + 1)); }
expect 0 "config keys" "$syncscope" config keys
grep -q '^l1.size ' "$work/out" || { echo "FAIL: config keys lacks l1.size"; failures=$((failures + 1)); }
expect 2 "unknown key" "$syncscope" config show --system gsi --set l1.sise=4KiB
expect_error_line "unknown key 'l1.sise' (did you mean 'l1.size'?)"
expect 2 "bad value" "$syncscope" config show --system gsi --set gpu.scheduler=rr
expect_error_line "gpu.scheduler = 'rr' is not one of gto|lrr"
printf '{\n  "l1": {\n    "size": 4096,,\n  }\n}\n' >"$work/bad.json"
expect 2 "malformed override" "$syncscope" config show --system gsi --file "$work/bad.json"
expect_error_line "$work/bad.json:3:"
expect 2 "unknown preset" "$syncscope" config show --system nosuch
expect_error_line "available: gsi, gtx480, qr-apu, rcc-gpu, sahc-apu"
expect 2 "missing --system" "$syncscope" config show

db="$work/results.sqlite"
expect 1 "query on a missing database" "$syncscope" query run_summary --db "$db"
expect_error_line "no such database"
[ ! -e "$db" ] || { echo "FAIL: a read command created the database"; failures=$((failures + 1)); }
expect 0 "db init" "$syncscope" db init --db "$db"
expect 0 "db check on an empty database" "$syncscope" db check --db "$db"
expect 0 "query with no rows" "$syncscope" query run_summary --db "$db"
# Every canned query has defaults; a query file whose parameter has none is refused naming it.
printf '%s\n' "-- own: which runs ran :workload?" "-- :workload  workload name" \
    "SELECT id FROM runs WHERE workload = :workload;" >"$work/own.sql"
expect 1 "query missing a parameter" "$syncscope" query "$work/own.sql" --db "$db"
expect_error_line "parameter :workload is not set"
# A parameter with "(one of: ...)" takes only those values.
expect 1 "query with a value outside a parameter's choices" "$syncscope" query model_error --param per=workloads --db "$db"
expect_error_line "query model_error: --param per=workloads: must be one of mechanism, workload"
expect 0 "query with a listed choice" "$syncscope" query model_error --param per=workload --db "$db"
expect 2 "unknown query" "$syncscope" query nosuch --db "$db"
expect_error_line "unknown query 'nosuch'"
expect 1 "show of a missing run" "$syncscope" show 1 --db "$db"
expect 2 "show without a run" "$syncscope" show --db "$db"

head -c 8192 /dev/urandom >"$work/random.sqlite"
cp "$work/random.sqlite" "$work/random.copy"
expect 1 "random bytes" "$syncscope" db check --db "$work/random.sqlite"
expect_error_line "not a syncscope database (file is not a database)"
cmp -s "$work/random.sqlite" "$work/random.copy" || { echo "FAIL: random file modified"; failures=$((failures + 1)); }

expect 0 "merge" "$syncscope" merge "$work/merged.sqlite" "$db" "$db"
expect 1 "merge of a missing shard" "$syncscope" merge "$work/merged.sqlite" "$work/nosuch.sqlite"
expect_error_line "no such database"
expect 2 "merge without inputs" "$syncscope" merge "$work/merged.sqlite"

[ "$failures" -eq 0 ] && echo "config_and_store_cli: all checks passed"
exit $((failures > 0))
