#!/bin/bash
# readers_read_only.sh — the commands that only read the results database work where neither the
# database nor its directory can be written (issue 27, item 5: results shared on a read-only
# mount): list runs, query (canned and ad hoc), db check, show, stalls, export and sweep
# --report-only run, print what they print on a writable copy, and leave no file behind. A
# write-ahead log holding changes that cannot be read there (no -shm beside it, none can be
# made) is refused in one line rather than silently ignored.
#
# The directory is made read-only with chmod. root is not stopped by file modes, so under root
# the readers run as user nobody (setpriv); where nobody cannot run the binary, the test says so
# and checks only what root can: the readers leave the database and its directory unchanged
# (tests/unit/test_store.c checks that a reader's connection refuses writes underneath).
# Usage: readers_read_only.sh PATH/TO/syncscope
set -u
syncscope=$1
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/cli_checks.sh"

chmod 755 "$work"
mkdir "$work/shared" "$work/scratch"
chmod 777 "$work/scratch"
db="$work/shared/results.sqlite"
cat >"$work/grid.json" <<'EOF'
{"name": "read-only-test", "system": "gtx480", "size": "tiny", "mode": "detailed",
 "mechanisms": ["wt"], "workloads": ["vecadd"],
 "parameters": {"l1.size": {"values": [24576, 49152]}}, "design": "grid"}
EOF
expect 0 "a sweep of two detailed runs" "$syncscope" sweep "$work/grid.json" --db "$db" --report "$work/report"
expect 0 "a functional run" "$syncscope" run --workload histogram --size tiny --db "$db"
printf '%s\n' "SELECT mechanism, workload, mode, cycles FROM runs ORDER BY id" >"$work/mine.sql"
readers=("list runs" "query run_summary" "query $work/mine.sql" "db check" "show 1" "stalls 1"
         "export run_summary --format csv --out $work/scratch/summary.csv" "sweep $work/grid.json --report-only")

# What each reader prints on the writable database.
for i in "${!readers[@]}"; do
    # shellcheck disable=SC2086
    "$syncscope" ${readers[$i]} --db "$db" >"$work/expected.$i" 2>&1 || fail "${readers[$i]} on the writable database"
done

as_reader=()
if [ "$(id -u)" -eq 0 ]; then
    as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    if ! "${as_reader[@]}" "$syncscope" list systems >/dev/null 2>&1; then
        echo "NOTE: running as root, and user nobody cannot run $syncscope: the directory cannot be made"
        echo "      read-only to these readers; checking only that they leave it unchanged"
        as_reader=()
    fi
fi
chmod 444 "$db"
chmod 555 "$work/shared"
ls -l --time-style=full-iso "$work/shared" >"$work/listing.before"
cp "$db" "$work/bytes.before"

for i in "${!readers[@]}"; do
    # shellcheck disable=SC2086
    expect 0 "${readers[$i]} on a read-only directory" "${as_reader[@]}" "$syncscope" ${readers[$i]} --db "$db"
    cat "$work/err" >>"$work/out"
    cmp -s "$work/out" "$work/expected.$i" ||
        fail "${readers[$i]} printed otherwise on the read-only directory: $(diff "$work/expected.$i" "$work/out")"
done
ls -l --time-style=full-iso "$work/shared" >"$work/listing.after"
cmp -s "$work/listing.before" "$work/listing.after" ||
    fail "the readers changed the read-only directory: $(diff "$work/listing.before" "$work/listing.after")"
cmp -s "$db" "$work/bytes.before" || fail "the readers changed the database"

# A write-ahead log with changes and no -shm beside it: unreadable without write access.
if [ ${#as_reader[@]} -gt 0 ] || [ "$(id -u)" -ne 0 ]; then
    chmod 755 "$work/shared"
    chmod 644 "$db"
    python3 - "$db" <<'EOF'
import os, sqlite3, sys
connection = sqlite3.connect(sys.argv[1])
connection.execute("UPDATE runs SET check_detail = 'changed in the log' WHERE id = 1")
connection.commit()
os._exit(0)  # no checkpoint: the change stays in the -wal
EOF
    rm -f "$db-shm"
    [ -s "$db-wal" ] || fail "the test could not leave changes in the write-ahead log"
    chmod 555 "$work/shared"
    expect 1 "query with an unreadable write-ahead log" "${as_reader[@]}" "$syncscope" query run_summary --db "$db"
    expect_error_line "write-ahead log"
fi

[ "$failures" -eq 0 ] && echo "readers_read_only: all checks passed"
exit $((failures > 0))
